"""Matches: agent A against agent B, the researcher's question "is A stronger than B?",
answered by A's score with a 95% interval against the fair share. A match is a
tournament (victorus.tournament) of two entrants with the ``"one-vs-rest"`` lineup: A
plays one team, B every other team, A's team rotating over every team, each seeded
random opening played once per rotation, so that A and B play every side of the same
positions equally. `compare_networks` sets two network files side by side: their weights
(victorus.evaluation.compare) and a match of ``best-net`` on each at equal iterations.

A's score counts a win as 1 and a draw (or a game unfinished at ``max_actions``) as one
over the number of teams: in a two-team game wins plus half the draws, per game; in a
game of N teams A's share of the points, to set against the fair share 1/N. The interval
is Wilson's (victorus.ratings.wilson), the draws counting as fractions of a success.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from dataclasses import dataclass, replace

from .agents import make_agent
from .checks import check_int, shown_path
from .errors import AgentError, ConfigError, WorkerLost
from .evaluation import Evaluator
from .evaluation.compare import WeightComparison, compare_weights, network_label
from .evaluation.network import Network, network_from
from .evaluation.registry import network as network_evaluator
from .game import Game
from .ratings import wilson
from .search.protocols import Agent
from .simulate import MAX_GAMES
from .tournament import TournamentResult, network_lines, tournament

MATCH_GAMES = 120
"""A match's games by default: a multiple of every number of teams (2 to 6)."""
MATCH_OPENING = 8
"""The random plies (actions) of a match's openings by default."""
COMPARE_GAMES = 200
"""The games of `compare_networks` by default."""
COMPARE_ITERATIONS = 400
"""The iterations a decision of each network's ``best-net`` in `compare_networks` by default."""

Entrant = str | Agent | Callable[[int], Agent]
"""A match's agent: a spec (victorus.agents.make_agent), an agent object or a factory ``seed -> agent``."""


class _Count:
    """A MatchResult's count that is its tournament's of the same name (``games``,
    ``draws``...)."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, result: MatchResult, owner: type | None = None) -> int:
        return int(getattr(result.tournament, self.name))


@dataclass(frozen=True)
class MatchResult:
    """A match's games (``tournament``: the tournament of A and B that played them) and
    A's score.

    Args:
        tournament: The games: a TournamentResult of two agents, A first, lineup
            ``"one-vs-rest"``.
    """

    tournament: TournamentResult

    @property
    def a(self) -> str:
        """Agent A's name."""
        return self.tournament.agents[0]

    @property
    def b(self) -> str:
        """Agent B's name."""
        return self.tournament.agents[1]

    teams = _Count()
    """The teams of a game: A plays one, B the others."""
    games = _Count()
    """The games played."""
    draws = _Count()
    """The games that ended with no winner."""
    unfinished = _Count()
    """The games stopped at ``max_actions`` (counted as draws)."""

    @property
    def wins(self) -> int:
        """The games A's team won."""
        return self.tournament.wins[self.a]

    @property
    def losses(self) -> int:
        """The games one of B's teams won."""
        return self.tournament.wins[self.b]

    @property
    def fair_share(self) -> float:
        """The score of an agent as strong as B: one over the teams."""
        return 1 / self.teams

    @property
    def points(self) -> float:
        """A's points: a win 1, a draw or unfinished game one over the teams."""
        return self.wins + (self.draws + self.unfinished) / self.teams

    @property
    def score(self) -> float:
        """A's points per game (the fair share if no game was played)."""
        return self.points / self.games if self.games else self.fair_share

    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of A's score (a draw as a fraction of a success), as
        PairScore.interval gives a pair's.

        Returns:
            The interval's low and high ends.
        """
        return wilson(self.points, self.games)

    @property
    def mean_actions(self) -> float:
        """The agents' actions per game, the opening's left out (0 if no game was played)."""
        outcomes = self.tournament.outcomes
        return sum(game.actions for game in outcomes) / len(outcomes) if outcomes else 0.0

    @property
    def stopped(self) -> str | None:
        """Why the match stopped before its last game (an agent failed, a worker died), else None."""
        return self.tournament.stopped

    def as_dict(self) -> dict[str, object]:
        """The match for JSON (``victorus match --json``).

        Returns:
            The agents, the counts, A's score, its interval, the fair share, the mean
            length and every game (``lineup``: agent 0 is A, 1 is B, teams in seat order).
        """
        stopped = {} if self.stopped is None else {"stopped": self.stopped}
        return {**stopped, "a": self.a, "b": self.b, "teams": self.teams, "games": self.games,
                "wins": self.wins, "draws": self.draws, "unfinished": self.unfinished,
                "losses": self.losses, "score": self.score, "wilson_95": list(self.interval()),
                "fair_share": self.fair_share, "mean_actions": self.mean_actions,
                "openings": self.tournament.openings, "networks": dict(self.tournament.networks),
                "outcomes": [game.as_dict() for game in self.tournament.outcomes]}

    def table(self) -> str:
        """The match as text.

        Returns:
            The lines of the report: the agents, the counts, A's score and the mean length.
        """
        low, high = self.interval()
        sides = "both sides" if self.teams == 2 else f"each of the {self.teams} teams, B the others"
        openings = (f"openings of {self.tournament.openings} random plies, each played with A on "
                    f"{sides}" if self.tournament.openings else f"from the start, A on {sides}")
        what = "score" if self.teams == 2 else f"share of the points, {self.teams} teams"
        draw = "half" if self.teams == 2 else f"1/{self.teams}"
        lines = [f"A: {self.a}", f"B: {self.b}", *network_lines(self.tournament.networks),
                 f"games: {self.games} ({openings})",
                 f"A: {self.wins} wins, {self.draws} draws, {self.losses} losses, "
                 f"{self.unfinished} unfinished",
                 f"A's {what}: {self.score:.3f}, 95% CI [{low:.3f}, {high:.3f}] (fair share "
                 f"{self.fair_share:.3f}; a draw or unfinished game counts {draw})",
                 f"mean game length: {self.mean_actions:,.1f} actions (the opening's left out)"]
        if self.stopped is not None:
            lines.append(f"stopped after {self.games} games: {self.stopped}")
        return "\n".join(lines)


def match(a: Entrant, b: Entrant, games: int = MATCH_GAMES, seed: int = 0, board: str = "compact",
          players: int = 2, variant: str = "standard", *, opening: int = MATCH_OPENING,
          max_actions: int = 3000, workers: int = 1, progress: bool | None = None,
          backend: str = "local", address: str | None = None) -> MatchResult:
    """Play agent A against agent B: A on one team, B on every other, A's team rotated over
    every team, each of ``games / teams`` seeded openings of ``opening`` random plies
    played once per rotation (victorus.tournament's ``"one-vs-rest"`` lineup). The
    games, and so the result, depend only on ``seed`` whatever the ``workers``, except
    for agents with a time budget.

    Args:
        a: Agent A: a spec (``"best-net(runs/a/network.vnet):400"``), an agent object or
            a factory ``seed -> agent``.
        b: Agent B, likewise.
        games: The games, a multiple of the teams (2 in a two-team game), 1 to MAX_GAMES.
        seed: The match's seed, an integer >= 0.
        board: The board's name.
        players: The players (armies).
        variant: The variant's name.
        opening: Random plies of each opening (0: every game from the start).
        max_actions: The agents' actions after which a game is unfinished (R36).
        workers: Worker processes (victorus.workers.process_map), 1 to 256.
        progress: A progress bar on stderr: True always, None on a terminal (elsewhere a
            line now and then), False never.
        backend: "local" or "ray".
        address: A Ray cluster's address, for backend "ray" (None: a local Ray).

    Returns:
        The games and A's score.

    Raises:
        ConfigError: If an argument or agent is not accepted.
        AgentError: If an agent raises or answers what the game refuses (its ``result``:
            the MatchResult of the games finished before it).
        WorkerLost: If a worker dies (its ``result``: likewise).
    """
    games = check_int("games", games, 1, MAX_GAMES)
    start = Game(board, players=players, variant=variant)       # validates the configuration
    teams = len({start.config.teams[seat] for seat in start.config.present})
    if games % teams:
        raise ConfigError(f"a match plays A on each of the {teams} teams equally: games must be a "
                          f"multiple of {teams}, got {games}")
    try:
        played = tournament([a, b], games, seed=seed, board=board, players=players, variant=variant,
                            max_actions=max_actions, progress=progress, openings=opening,
                            lineup="one-vs-rest", workers=workers, backend=backend, address=address)
    except (AgentError, WorkerLost) as error:
        if isinstance(error.result, TournamentResult):
            error.result = MatchResult(error.result)
        raise
    return MatchResult(played)


def _named(name: str, spec: str, evaluator: Evaluator, seed: int) -> Agent:
    """``make_agent(spec, seed, network=evaluator)`` named ``name``: with the first three
    bound (functools.partial), a factory ``seed -> agent`` that pickles (the evaluator as
    its network's bytes), for worker processes."""
    agent = make_agent(spec, seed, network=evaluator)
    agent.name = name
    return agent


@dataclass(frozen=True)
class NetworkComparison:
    """Two networks compared (`compare_networks`): their weights, and the match of
    ``best-net`` on each at ``iterations`` a decision (None: no game asked for).

    Args:
        weights: The weights compared.
        match: The match, A's network as agent A (None: ``games`` was 0).
        iterations: The iterations a decision of each agent.
    """

    weights: WeightComparison
    match: MatchResult | None
    iterations: int

    @property
    def stopped(self) -> str | None:
        """Why the match stopped before its last game, else None."""
        return None if self.match is None else self.match.stopped

    def as_dict(self) -> dict[str, object]:
        """The comparison for JSON (``victorus network compare --json``).

        Returns:
            ``weights`` (WeightComparison.as_dict), ``iterations`` and ``match``
            (MatchResult.as_dict, or None).
        """
        return {"weights": self.weights.as_dict(), "iterations": self.iterations,
                "match": None if self.match is None else self.match.as_dict()}

    def table(self) -> str:
        """The comparison as text.

        Returns:
            The weights' lines, then the match's.
        """
        lines = self.weights.lines()
        if self.match is not None:
            lines += [f"match: best-net at {self.iterations} iterations a decision on each network",
                      self.match.table()]
        return "\n".join(lines)


def compare_networks(a: Network | str | os.PathLike[str], b: Network | str | os.PathLike[str],
                     games: int = COMPARE_GAMES, iterations: int = COMPARE_ITERATIONS, seed: int = 0,
                     board: str = "compact", players: int = 2, variant: str = "standard", *,
                     opening: int = MATCH_OPENING, max_actions: int = 3000, workers: int = 1,
                     progress: bool | None = None) -> NetworkComparison:
    """Two networks compared: their weights (victorus.evaluation.compare.compare_weights)
    and, unless ``games`` is 0, a `match` of ``best-net`` on A's network (agent A, named
    ``best-net(<A>):<iterations>``) against ``best-net`` on B's at equal iterations.

    Args:
        a: Network A: a Network, a ``.vnet`` file's path, or "default" (the shipped one).
        b: Network B, likewise.
        games: The match's games (0: the weights alone), a multiple of the teams.
        iterations: Each agent's iterations a decision, 1 to 2**31 - 1.
        seed: The match's seed.
        board: The board's name.
        players: The players (armies).
        variant: The variant's name.
        opening: Random plies of each opening (0: every game from the start).
        max_actions: The agents' actions after which a game is unfinished (R36).
        workers: Worker processes, 1 to 256.
        progress: A progress bar on stderr: True always, None on a terminal (elsewhere a
            line now and then), False never.

    Returns:
        The weights compared and the match (None for ``games`` 0).

    Raises:
        ConfigError: If an argument is not accepted, or a network was not trained for the game.
        NetworkFileError: If a file cannot be read or is not a network.
        AgentError: If an agent fails (its ``result``: the NetworkComparison with the
            match of the games finished before it).
        WorkerLost: If a worker dies (its ``result``: likewise).
    """
    games = check_int("games", games, 0, MAX_GAMES)
    iterations = check_int("iterations", iterations, 1, 2**31 - 1)
    loaded = (network_from(a), network_from(b))
    weights = replace(compare_weights(*loaded), a=network_label(a), b=network_label(b))
    if games == 0:
        return NetworkComparison(weights, None, iterations)
    start = Game(board, players=players, variant=variant)
    agents = []
    for given, network in zip((a, b), loaded):
        name = f"best-net({network_label(given)}):{iterations}"
        try:
            network.check(start)
        except ConfigError as error:
            raise ConfigError(f"network {shown_path(network_label(given))}: {error}") from None
        agents.append(functools.partial(_named, name, f"best-net:{iterations}",
                                        network_evaluator(network)))
    try:
        played = match(agents[0], agents[1], games, seed, board, players, variant, opening=opening,
                       max_actions=max_actions, workers=workers, progress=progress)
    except (AgentError, WorkerLost) as error:
        if isinstance(error.result, MatchResult):
            error.result = NetworkComparison(weights, error.result, iterations)
        raise
    return NetworkComparison(weights, played, iterations)


__all__ = ["COMPARE_GAMES", "COMPARE_ITERATIONS", "MATCH_GAMES", "MATCH_OPENING", "Entrant",
           "MatchResult", "NetworkComparison", "compare_networks", "match"]
