"""Tournaments between agents: seeded games from random openings with the sides rotated,
on worker processes or a Ray cluster, reported as win rates with Wilson intervals and,
for two-team games, Bradley-Terry ratings on the Elo scale.

An entrant is an agent spec (``make_agent``), an agent object (a ``name`` and
``choose(game)``) or a factory (a callable ``seed -> agent``). Every game builds its
agents afresh (a spec or factory from the game's seed, an object as a deep copy of
it), so a game depends only on the tournament's seed and its own index: the results
are the same for any number of workers.

An agent is asked on a copy of the game (`play_agent`): looking ahead by playing
and undoing on it never changes the tournament's game. An agent that raises, or answers
with an action the game refuses (malformed or illegal), stops the tournament with an
`AgentError` naming the agent, the game's index and the position
(VPN, R39); its ``result`` holds every game finished before it (``victorus tournament
--json`` writes them, with ``"stopped"`` saying why). No game is scored from a fault.
A worker process or Ray task that dies (``kill -9``, the out-of-memory killer) stops it
the same way with `WorkerLost`, naming the process and the games it held.
"""

from __future__ import annotations

import copy
import logging
import pickle
import random
import statistics
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeGuard, cast

from .agents import AGENT_SPECS, LADDER_SPECS, SearchAgent, make_agent
from .checks import check_int, shown
from .errors import AgentError, ConfigError, WorkerLost
from .evaluation import Evaluator
from .game import MAX_ACTION_CAP, Game, play_random
from .notation import Action
from .progress import Progress
from .ratings import PairScore, Rating, bradley_terry, default_anchor, wilson
from .search.protocols import Agent
from .search.registry import kind_of, read_spec_network, split_spec
from .simulate import MAX_GAMES, game_seed
from .workers import process_map, ray_map

log = logging.getLogger(__name__)

LINEUPS = ("auto", "teams", "round-robin", "one-vs-rest")
"""How the agents take the teams (R33): see `tournament`."""
BACKENDS = ("local", "ray")
"""Where a tournament plays: here (on ``workers`` processes) or on a Ray cluster."""
MAX_OPENING_PLIES = 1000
"""The most random plies of an opening."""
OPENING_DRAWS = 64
"""Random openings drawn for one opening number before giving up, if each ends the game."""
_AGENT_SEEDS = 2**62           # agents' seeds come from indices past the openings'


@dataclass(frozen=True)
class GameOutcome:
    """One game: ``lineup`` names the agent (an index into the result's ``agents``)
    playing each team, teams in seat order; ``winner`` is the agent whose team won,
    None for a draw or a game unfinished after ``max_actions`` (R36). ``match`` is the
    pair of a round robin (else 0), ``opening`` the random opening played (None: the
    start position); ``actions`` counts the agents' actions, not the opening's.

    Args:
        index: The game's index in the tournament.
        match: The pair of a round robin (else 0).
        opening: The random opening played (None: the start position).
        lineup: The agent (an index into ``agents``) playing each team, teams in seat order.
        winner: The agent whose team won (None: a draw or unfinished).
        finished: Whether the game ended (else it stopped at ``max_actions``).
        actions: The agents' actions (not the opening's).
    """

    index: int
    match: int
    opening: int | None
    lineup: tuple[int, ...]
    winner: int | None
    finished: bool
    actions: int

    def as_dict(self) -> dict[str, object]:
        """The game for JSON (``victorus tournament --json``).

        Returns:
            Its fields, ``lineup`` as a list.
        """
        return {"index": self.index, "match": self.match, "opening": self.opening,
                "lineup": list(self.lineup), "winner": self.winner, "finished": self.finished,
                "actions": self.actions}


def network_lines(networks: dict[str, str]) -> list[str]:
    """The networks the agents' specs name, for a report: one line each, the agent and the
    content name of the network it played (none: no line).

    Args:
        networks: Content names by agent name.

    Returns:
        The lines.
    """
    return [f"{agent} played network {content}" for agent, content in networks.items()]


@dataclass(frozen=True)
class TournamentResult:
    """Every game of a tournament, in index order, and what follows from them.

    ``agents`` are the entrants' names (made distinct with ``#2``, ``#3``... if two
    share one); ``lineup`` is how they took the teams; ``teams`` how many teams played.

    Args:
        agents: The entrants' names, distinct.
        lineup: How they took the teams: one of LINEUPS but "auto".
        teams: How many teams played.
        openings: The random plies of each opening (0: none).
        outcomes: Every game, in index order.
        stopped: Why the tournament stopped before its last game, else None.
        networks: The content name of the network each agent's spec names (the first 12 hex
            digits of the SHA-256 of its file's bytes, read once at the start), by agent name.
    """

    agents: tuple[str, ...]
    lineup: str
    teams: int
    openings: int
    outcomes: tuple[GameOutcome, ...]
    #: Why the tournament stopped before its last game (AgentError's message), else None:
    #: ``outcomes`` are then the games finished before it.
    stopped: str | None = None
    #: The content name of the network each agent's spec names (``best-net(FILE):400``), by
    #: agent name: the network every game of that agent played, read once at the start.
    networks: dict[str, str] = field(default_factory=dict)

    @property
    def games(self) -> int:
        """The games played."""
        return len(self.outcomes)

    @property
    def wins(self) -> dict[str, int]:
        """Games won, per agent name."""
        won = {name: 0 for name in self.agents}
        for game in self.outcomes:
            if game.winner is not None:
                won[self.agents[game.winner]] += 1
        return won

    @property
    def draws(self) -> int:
        """The finished games that no team won."""
        return sum(game.finished and game.winner is None for game in self.outcomes)

    @property
    def unfinished(self) -> int:
        """The games stopped at ``max_actions``."""
        return sum(not game.finished for game in self.outcomes)

    def played(self, agent: str) -> int:
        """Games the agent took part in.

        Args:
            agent: The agent's name.

        Returns:
            How many games it played.

        Raises:
            ConfigError: If it did not play.
        """
        i = self._index(agent)
        return sum(i in game.lineup for game in self.outcomes)

    def win_rate(self, agent: str) -> float:
        """Wins over games played (one-vs-rest: the first agent's share of all the wins).

        Args:
            agent: The agent's name.

        Returns:
            Its win rate (0 if it played no game).

        Raises:
            ConfigError: If it did not play.
        """
        played = self.played(agent)
        return self.wins[agent] / played if played else 0.0

    def interval(self, agent: str) -> tuple[float, float]:
        """95% Wilson score interval of the win rate.

        Args:
            agent: The agent's name.

        Returns:
            The interval's low and high ends.

        Raises:
            ConfigError: If it did not play.
        """
        return wilson(self.wins[agent], self.played(agent))

    def pairs(self) -> tuple[PairScore, ...]:
        """Per pair of agents that met in two-team games: wins each way and draws (an
        unfinished game counts as a draw); empty with more than two teams.

        Returns:
            One PairScore per pair, in agent order.
        """
        if self.teams != 2:
            return ()
        tally: dict[tuple[int, int], list[int]] = {}
        for game in self.outcomes:
            a, b = sorted(game.lineup)
            if a == b:
                continue
            counts = tally.setdefault((a, b), [0, 0, 0])
            counts[2 if game.winner is None else (0 if game.winner == a else 1)] += 1
        return tuple(PairScore(self.agents[a], self.agents[b], *counts)
                     for (a, b), counts in sorted(tally.items()))

    def ratings(self, anchor: str | None = None) -> tuple[Rating, ...]:
        """Bradley-Terry ratings, Elo scale, 95% intervals (victorus.ratings), best first;
        ``anchor`` (default ``random`` if it played, else the first agent) is 0. Empty
        unless two teams played.

        Args:
            anchor: The agent rated 0 (None: the default).

        Returns:
            The ratings, best first.

        Raises:
            ConfigError: If the anchor did not play, or the games give no ratings
                (`bradley_terry`).
        """
        pairs = self.pairs()
        return bradley_terry(self.agents, pairs, anchor) if pairs else ()

    def _ratings_or_why(self) -> tuple[tuple[Rating, ...], str | None]:
        """The ratings, or (stopped early, some pairs unplayed) none and why."""
        try:
            return self.ratings(), None
        except ConfigError as error:
            if self.stopped is None:
                raise
            return (), str(error)

    def as_dict(self) -> dict[str, object]:
        """The result for ``victorus tournament --json``.

        Returns:
            The totals, each agent's games, wins and interval, the pairs, the ratings
            and every game (and, if it stopped early, why).
        """
        ratings, why = self._ratings_or_why()
        stopped = {} if self.stopped is None else {"stopped": self.stopped, "ratings_error": why}
        return {**stopped, "games": self.games, "draws": self.draws, "unfinished": self.unfinished,
                "lineup": self.lineup, "teams": self.teams, "openings": self.openings,
                "agents": [{"agent": agent, "games": self.played(agent), "wins": self.wins[agent],
                            "win_rate": self.win_rate(agent), "wilson_95": list(self.interval(agent))}
                           for agent in self.agents],
                "pairs": [{"a": p.a, "b": p.b, "wins_a": p.wins_a, "wins_b": p.wins_b,
                           "draws": p.draws, "score_a": p.score_a, "wilson_95": list(p.interval())}
                          for p in self.pairs()],
                "ratings": [r.as_dict() for r in ratings], "networks": dict(self.networks),
                "outcomes": [game.as_dict() for game in self.outcomes]}

    def table(self) -> str:
        """The result as text: win rates, pairs and ratings.

        Returns:
            The lines of the report.
        """
        openings = (f"; openings of {self.openings} random plies, each played with the sides "
                    f"rotated" if self.openings else "")
        lines = [f"games: {self.games}, draws: {self.draws}, unfinished: {self.unfinished} "
                 f"({self.lineup}, {self.teams} teams{openings})"]
        width = max(12, *(len(agent) for agent in self.agents))
        for agent in self.agents:
            low, high = self.interval(agent)
            lines.append(f"{agent:>{width}}: games {self.played(agent):>5}  wins {self.wins[agent]:>5}  "
                         f"rate {self.win_rate(agent):.3f}  95% CI [{low:.3f}, {high:.3f}]")
        lines.extend(network_lines(self.networks))
        if self.lineup == "one-vs-rest":
            lines.append(f"{self.agents[0]} took {self.win_rate(self.agents[0]):.3f} of the wins "
                         f"playing one team of {self.teams} (fair share {1 / self.teams:.3f})")
        pairs = self.pairs()
        if len(pairs) > 1:
            lines.append("pairs (wins-losses-draws, score of the first with a draw as half):")
            lines.extend(f"  {p.a} vs {p.b}: {p.wins_a}-{p.wins_b}-{p.draws}  score {p.score_a:.3f}  "
                         f"95% CI [{p.interval()[0]:.3f}, {p.interval()[1]:.3f}]" for p in pairs)
        ratings, why = self._ratings_or_why()
        if why is not None:
            lines.append(f"no ratings from the games finished: {why}")
        if self.stopped is not None:
            lines.append(f"stopped after {self.games} games: {self.stopped}")
        if ratings:
            lines.append(f"ratings (Bradley-Terry, Elo scale, {default_anchor(self.agents)} = 0, "
                         f"95% intervals):")
            lines.extend(f"  {r.agent:>{width}}: {r.rating:+7.0f}  [{r.low:+.0f}, {r.high:+.0f}]  "
                         f"{r.games} games" for r in ratings)
        return "\n".join(lines)

    def _index(self, agent: str) -> int:
        if agent not in self.agents:
            raise ConfigError(f"{shown(agent, 60)} did not play: the agents are {shown(self.agents, 60)}")
        return self.agents.index(agent)


@dataclass(frozen=True)
class _Entrant:
    """One agent of a tournament: exactly one of a spec, a factory or an agent object; a
    spec naming a network file holds that network (``network``: the spec without the file
    and the file's evaluator, read once at the tournament's start, which pickles as its
    bytes), so that no game reads the file again."""

    name: str
    spec: str | None = None
    factory: Callable[[int], object] | None = None
    agent: Agent | None = None
    network: tuple[str, Evaluator] | None = None

    def build(self, seed: int) -> Agent:
        """This entrant's agent for one game."""
        if self.spec is not None and self.network is not None:
            bare, evaluator = self.network
            agent = make_agent(bare, seed=seed, network=evaluator)
            kind, file, _ = split_spec(self.spec)          # named as make_agent(spec) names it
            agent.name = f"{kind.name}({(file or '').strip()}):{agent.name.partition(':')[2]}"
            return agent
        if self.spec is not None:
            return make_agent(self.spec, seed=seed)
        if self.factory is not None:
            return _checked_agent(self.factory(seed), f"the factory {shown(self.factory, 60)}")
        return cast(Agent, copy.deepcopy(self.agent))          # an entrant holds one of the three


def _is_agent(item: object) -> TypeGuard[Agent]:
    return isinstance(item, Agent) and callable(item.choose)      # (the protocol checks no call)


def _checked_agent(agent: object, source: str) -> Agent:
    if not _is_agent(agent):
        raise ConfigError(f"{source} returned {shown(agent, 60)}, not an agent (an object with a "
                          f"name and choose(game))")
    return agent


def _entrant(item: object, start: Game) -> _Entrant:
    """An entrant from a spec string, an agent object or a factory ``seed -> agent``; a
    spec's network (``best-net(FILE):400``) is read here, once, and must have been trained
    for ``start``'s game."""
    if isinstance(item, str):
        bare, evaluator = read_spec_network(item)            # a bad spec or file fails here
        agent = make_agent(bare, network=evaluator)
        if isinstance(agent, SearchAgent):
            try:
                agent.check(start)
            except ConfigError as error:
                raise ConfigError(f"agent {shown(item, 80)}: {error}") from None
        return _Entrant(item, spec=item, network=None if evaluator is None else (bare, evaluator))
    if _is_agent(item):
        try:
            copy.deepcopy(item)
        except (TypeError, copy.Error, pickle.PicklingError) as exc:
            raise ConfigError(f"agent {shown(item.name, 60)} cannot be copied for each game ({exc}): "
                              f"give a factory seed -> agent instead") from None
        return _Entrant(str(item.name), agent=item)
    if callable(item):
        return _Entrant(str(_checked_agent(item(0), f"the factory {shown(item, 60)}").name), factory=item)
    raise ConfigError(f"an agent must be a spec ({AGENT_SPECS}), an object with a name and "
                      f"choose(game), or a factory seed -> agent; got {shown(item, 60)}")


def _distinct(names: list[str]) -> list[str]:
    """Names made distinct: the second 'random' becomes 'random#2'."""
    seen: dict[str, int] = {}
    out = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return out


def _check_picklable(entrants: Iterable[_Entrant]) -> None:
    """Agents sent to worker processes or Ray travel pickled: say which one cannot."""
    for entrant in entrants:
        try:
            pickle.dumps(entrant)
        except (pickle.PicklingError, TypeError, AttributeError) as exc:
            raise ConfigError(
                f"agent {shown(entrant.name, 60)} cannot be sent to a worker process ({exc}): give a "
                f"spec string, a factory defined at a module's top level, or an agent "
                f"object that pickles; or play with workers=1") from None


@dataclass(frozen=True)
class _Job:
    """What every game of a tournament shares (sent once per chunk of games)."""

    entrants: tuple[_Entrant, ...]
    board: str
    players: int
    variant: str
    max_actions: int
    openings: int
    seed: int


@dataclass(frozen=True)
class _Plan:
    """One game to play: its index, the pair it belongs to, its opening and who plays
    which team (agent indices, teams in seat order)."""

    index: int
    match: int
    opening: int | None
    lineup: tuple[int, ...]


def _opening(job: _Job, start: Game, number: int | None) -> Game:
    """The position opening ``number``: ``job.openings`` random plies from the start,
    drawn again (up to OPENING_DRAWS times) while they end the game."""
    if number is None:
        return start.copy()
    for draw in range(OPENING_DRAWS):
        game = start.copy()
        play_random(game, game_seed(job.seed, number * OPENING_DRAWS + draw), job.openings)
        if not game.is_over:
            return game
    raise ConfigError(f"{OPENING_DRAWS} random openings of {job.openings} plies all ended "
                      f"the game: give fewer opening plies")


def position(game: Game) -> str:
    """Where a running game stands, for messages: its VPN (R39), or inside a turn the VPN
    of the turn's start and the actions played since.

    Args:
        game: The game.

    Returns:
        Where it stands, in words.
    """
    if game.is_over:
        return f"a finished game ({game.result_reason})"
    trial, since = game.copy(), []
    while trial.phase != "start" and trial.ply:
        since.append(str(trial.history(1)[0]))
        trial.undo()
    if trial.phase != "start":                   # its history starts inside the turn
        return f"round {game.round}, seat {game.to_move}'s turn ({game.phase} phase)"
    return f"VPN {trial.vpn()}" + (f" then {' '.join(reversed(since))}" if since else "")


def play_agent(agent: Agent, game: Game, where: str = "", name: str | None = None) -> Action:
    """Ask ``agent`` for its action on a copy of ``game`` (it may play and undo there:
    ``game`` never changes by it) and play that action on ``game``; returns it.
    AgentError if the agent raises or answers with what ``game.play`` refuses, naming
    the agent (``name``, default its own), ``where`` (like ``"game 12"``) and the
    position. KeyboardInterrupt and other BaseExceptions pass through.

    Args:
        agent: The agent: a ``name`` and ``choose(game)``.
        game: The game, played on by the agent's action.
        where: Where the game is, for the error (like ``"game 12"``; "" for nothing).
        name: The agent's name for the error (None: its own).

    Returns:
        The action played.

    Raises:
        AgentError: If the agent raises, or the game refuses its answer.
    """
    name = getattr(agent, "name", repr(agent)) if name is None else name
    at = f"{where} at {position(game)}" if where else f"at {position(game)}"
    try:
        action = agent.choose(game.copy())
    except Exception as exc:
        raise AgentError(f"agent {shown(name, 60)} raised {type(exc).__name__}: {exc} ({at})") from exc
    try:
        game.play(action)
    except Exception as exc:                     # whatever the answer made play() raise
        raise AgentError(f"agent {shown(name, 60)} answered {shown(action, 60)}, which the game "
                         f"refused: {exc} ({at})") from exc
    return action


@dataclass(frozen=True)
class _Fault:
    """A game an agent broke off (AgentError's message); the games of its chunk after it
    were not played."""

    index: int
    message: str


def _play_games(job: _Job, plans: Sequence[_Plan]) -> list[GameOutcome | _Fault]:
    """Play the planned games (in this process, a worker process or a Ray task): their
    outcomes, up to a _Fault, which ends the list."""
    start = Game(job.board, players=job.players, variant=job.variant)
    teams = sorted(set(start.config.teams[s] for s in start.config.present))
    outcomes: list[GameOutcome | _Fault] = []
    for plan in plans:
        game = _opening(job, start, plan.opening)
        names = {team: job.entrants[agent].name for team, agent in zip(teams, plan.lineup)}
        by_team: dict[int, Agent] = {}
        try:
            for k, (team, agent) in enumerate(zip(teams, plan.lineup)):
                seed = game_seed(job.seed, _AGENT_SEEDS + 8 * plan.index + k)
                try:
                    by_team[team] = job.entrants[agent].build(seed)
                except Exception as exc:         # a factory's bug, as a choose()'s
                    raise AgentError(f"agent {shown(names[team], 60)} could not be built: "
                                     f"{type(exc).__name__}: {exc} (game {plan.index} at "
                                     f"{position(game)})") from exc
            actions = 0
            while not game.is_over and actions < job.max_actions:
                team = game.config.teams[game.to_move]
                play_agent(by_team[team], game, f"game {plan.index}", names[team])
                actions += 1
        except AgentError as error:
            outcomes.append(_Fault(plan.index, str(error)))
            return outcomes
        winner = (plan.lineup[teams.index(game.config.teams[game.winners[0]])]
                  if game.is_over and game.winners else None)
        outcomes.append(GameOutcome(plan.index, plan.match, plan.opening, plan.lineup,
                                    winner, game.is_over, actions))
    return outcomes


def _matches(count: int, lineup: str, teams: int) -> tuple[str, list[list[tuple[int, ...]]]]:
    """The lineup resolved, and per match the rotations of agents over the teams that
    its games cycle through."""
    if lineup == "auto":
        lineup = "teams" if count == teams else "round-robin" if teams == 2 and count >= 3 else ""
        if not lineup:
            raise ConfigError(f"{teams} teams play: give {teams} agents (one per team), or "
                              f"3 or more with 2 teams (a round robin), or choose a lineup "
                              f"({', '.join(LINEUPS[1:])}); got {count} agents")
    if lineup == "teams":
        if count != teams:
            raise ConfigError(f"{teams} teams play: give {teams} agents, got {count}")
        return lineup, [[tuple((i + r) % teams for i in range(teams)) for r in range(teams)]]
    if lineup == "round-robin":
        if teams != 2:
            raise ConfigError(f"a round robin is for two-team games (2 players, or 6 "
                              f"allied; R33), not {teams} teams: use lineup='one-vs-rest' "
                              f"or 'teams'")
        return lineup, [[(a, b), (b, a)] for a in range(count) for b in range(a + 1, count)]
    if count != 2:
        raise ConfigError(f"one-vs-rest plays two agents (the first on one team, the second "
                          f"on every other), got {count}")
    return lineup, [[tuple(0 if i == r else 1 for i in range(teams)) for r in range(teams)]]


def _plans(matches: list[list[tuple[int, ...]]], games: int, openings: int) -> list[_Plan]:
    """Game g of a match plays opening g // R (R rotations) with rotation g % R."""
    plans: list[_Plan] = []
    for m, rotations in enumerate(matches):
        for g in range(games):
            plans.append(_Plan(len(plans), m, g // len(rotations) if openings else None,
                               rotations[g % len(rotations)]))
    return plans


def tournament(agents: Iterable[str | Agent | Callable[[int], Agent]], games: int, seed: int = 0,
               board: str = "compact", players: int = 2, variant: str = "standard",
               max_actions: int = 3000, progress: bool | None = None, *,
               openings: int = 0, lineup: str = "auto", workers: int = 1,
               backend: str = "local", address: str | None = None) -> TournamentResult:
    """Play seeded games between agents and report win rates, pairs and ratings.

    ``agents``: specs like ``"mcts:0.05s"`` (AGENT_SPECS), agent objects (a ``name``
    and ``choose(game)``; each game plays a deep copy) or factories ``seed -> agent``.
    ``lineup`` says who plays which team (R33):

    - ``"teams"``: one agent per team; ``games`` games rotate the agents over the teams.
    - ``"round-robin"`` (two-team games): every pair of agents plays ``games`` games,
      each agent on each side in turn; ``ratings()`` then places them all on one scale.
    - ``"one-vs-rest"``: two agents, the first playing one team and the second every
      other team, the first's team rotating; its win rate is its share of the wins
      (fair share: one over the number of teams).
    - ``"auto"`` (default): ``"teams"`` if there is one agent per team, else a round
      robin for three or more agents in two-team games.

    ``openings=k`` starts each game from k uniformly random plies (actions) from the
    start, drawn again if they end the game; each opening is played once per rotation
    of the sides (``games`` must then be a multiple of the rotations: 2 in two-team
    games, the number of teams for ``"teams"`` and ``"one-vs-rest"``), so every agent
    plays every side of the same position. ``openings=0``: every game from the start.
    A game past ``max_actions`` of the agents (R36) is unfinished: a draw in pairs
    and ratings. Agents are asked on a copy of the game; one that raises, or answers
    an action the game refuses, raises `AgentError` naming it,
    the game and the VPN, its ``result`` the games finished before it.

    ``workers=N`` plays on N processes (agents then travel pickled: specs and factories
    defined at a module's top level always do), ``backend="ray"`` on a Ray cluster
    (``address``; None starts a local one; ``pip install "victorus[ray]"``); the results
    are the same for a seed whatever the workers or backend, except for agents with a
    time budget, whose searches depend on the machine's speed. A worker that dies raises
    `WorkerLost`, its ``result`` the games finished before it. ``progress``: a bar with
    an ETA on stderr, by default only on a terminal (True: always, False: never).

    Args:
        agents: Two or more entrants: specs, agent objects or factories ``seed -> agent``.
        games: Games per match (per pair in a round robin), 1 to MAX_GAMES.
        seed: The tournament's seed, an integer >= 0.
        board: The board's name.
        players: The players.
        variant: The variant's name.
        max_actions: The agents' actions after which a game is unfinished (R36).
        progress: A progress bar on stderr: True always, None on a terminal, False never.
        openings: Random plies of each game's opening, 0 to MAX_OPENING_PLIES (0: none).
        lineup: Who plays which team: one of LINEUPS.
        workers: Worker processes (or Ray tasks in flight), 1 to 256.
        backend: "local" or "ray".
        address: A Ray cluster's address, for backend "ray" (None: a local Ray).

    Returns:
        Every game and what follows from them.

    Raises:
        ConfigError: If an argument or entrant is not accepted.
        AgentError: If an agent raises or answers what the game refuses (its ``result``:
            the games finished before it).
        WorkerLost: If a worker dies (its ``result``: the games finished before it).
    """
    games = check_int("games", games, 1, MAX_GAMES)
    seed = check_int("seed", seed, 0)
    max_actions = check_int("max_actions", max_actions, 1, MAX_ACTION_CAP)
    openings = check_int("openings (random plies per opening)", openings, 0, MAX_OPENING_PLIES)
    workers = check_int("workers", workers, 1, 256)
    if lineup not in LINEUPS:
        raise ConfigError(f"lineup must be one of {', '.join(LINEUPS)}, got {shown(lineup, 60)}")
    if backend not in BACKENDS:
        raise ConfigError(f"backend must be one of {', '.join(BACKENDS)}, got {shown(backend, 60)}")
    if address is not None and backend != "ray":
        raise ConfigError("address is only for backend='ray'")
    if isinstance(agents, str) or not hasattr(agents, "__iter__"):
        raise ConfigError(f"agents must be a list of agents, got {shown(agents, 60)}")
    start = Game(board, players=players, variant=variant)      # validates the configuration
    entrants = [_entrant(item, start) for item in agents]
    if len(entrants) < 2:
        raise ConfigError(f"a tournament needs at least two agents, got {len(entrants)}")
    names = _distinct([entrant.name for entrant in entrants])
    entrants = [replace(e, name=name) for name, e in zip(names, entrants)]
    networks = {e.name: e.network[1].network.content for e in entrants
                if e.network is not None and e.network[1].network is not None}
    teams = len(set(start.config.teams[s] for s in start.config.present))
    lineup, matches = _matches(len(entrants), lineup, teams)
    rotations = len(matches[0])
    if openings and games % rotations:
        raise ConfigError(f"with openings, each opening is played once per rotation of the "
                          f"sides ({rotations} here): games must be a multiple of {rotations}, "
                          f"got {games}")
    job = _Job(tuple(entrants), board, start.config.players, variant, max_actions, openings, seed)
    plans = _plans(matches, games, openings)
    if backend == "ray" or workers > 1:
        _check_picklable(entrants)
    log.info("tournament: %d games (%s lineup) of %s on %s, %d players, %s", len(plans),
             lineup, ", ".join(names), board, start.config.players, variant)
    try:
        played = _run_workers(job, plans, workers, progress, backend, address)
    except WorkerLost as lost:
        stopped = (f"{lost}; {len(lost.result)} of {len(plans)} games were finished before "
                   f"it stopped the tournament")
        finished = tuple(sorted((item for item in lost.result if isinstance(item, GameOutcome)),
                                key=lambda game: game.index))
        raise WorkerLost(stopped, TournamentResult(tuple(names), lineup, teams, openings,
                                                   finished, stopped, networks)) from None
    return _result(played, len(plans), tuple(names), lineup, teams, openings, networks)


def _result(played: list[GameOutcome | _Fault], planned: int, names: tuple[str, ...], lineup: str,
            teams: int, openings: int, networks: dict[str, str]) -> TournamentResult:
    """The games played, in order; AgentError (holding them) if an agent failed in one."""
    faults = sorted((item for item in played if isinstance(item, _Fault)), key=lambda f: f.index)
    outcomes = tuple(sorted((item for item in played if isinstance(item, GameOutcome)),
                            key=lambda game: game.index))
    log.info("tournament: %d games played", len(outcomes))
    if faults:
        stopped = (f"{faults[0].message}; {len(outcomes)} of {planned} games were "
                   f"finished before it stopped the tournament")
        raise AgentError(stopped, TournamentResult(names, lineup, teams, openings, outcomes,
                                                   stopped, networks))
    return TournamentResult(names, lineup, teams, openings, outcomes, networks=networks)


def _chunks(plans: list[_Plan], workers: int) -> list[list[_Plan]]:
    size = max(1, min(16, len(plans) // (4 * workers)))
    return [plans[i:i + size] for i in range(0, len(plans), size)]


def _games_of(chunk: list[_Plan]) -> str:
    """What a worker holding ``chunk`` was doing, for `WorkerLost`."""
    first, last = chunk[0].index, chunk[-1].index
    return f"playing game {first}" if first == last else f"playing games {first}-{last}"


def _run_workers(job: _Job, plans: list[_Plan], workers: int, progress: bool | None, backend: str,
                 address: str | None) -> list[GameOutcome | _Fault]:
    """The games in this process, or in chunks on ``workers`` processes (`process_map`)
    or Ray tasks (`ray_map`) as they finish; the first _Fault stops them (with the games
    finished so far), and so does a worker's death (`WorkerLost`, holding them)."""
    outcomes: list[GameOutcome | _Fault] = []
    with Progress(len(plans), "games", progress) as bar:
        if backend == "local" and workers == 1:
            for plan in plans:
                outcomes.extend(_play_games(job, [plan]))
                bar.advance()
                if isinstance(outcomes[-1], _Fault):
                    break
            return outcomes
        chunks = _chunks(plans, workers)
        mapped = (ray_map(_play_games, job, chunks, workers, address, _games_of)
                  if backend == "ray" else process_map(_play_games, job, chunks, workers, _games_of))
        try:
            for _, part in mapped:
                outcomes.extend(part)
                bar.advance(len(part))
                if part and isinstance(part[-1], _Fault):
                    break
        except WorkerLost as lost:
            lost.result = outcomes
            raise
        finally:
            mapped.close()               # stops the other workers at once
    return outcomes


@dataclass(frozen=True)
class Calibration:
    """Equal CPU: each time spec's count budget (``budgets``: spec -> count spec, like
    ``"best:0.05s" -> "best:2140"``), the median count its kind searched in its seconds
    over the ``positions`` of fresh games on this machine (``counts``: every one).

    Args:
        budgets: Each spec's count spec (specs without a time budget: themselves).
        counts: Each time spec's count searched at every position.
        positions: The positions measured.
        board: Their board's name.
        players: Their players.
    """

    budgets: dict[str, str]
    counts: dict[str, list[int]]
    positions: int
    board: str
    players: int

    def line(self) -> str:
        """The budgets as one line, for a report.

        Returns:
            ``spec = count spec`` for each spec.
        """
        return ", ".join(f"{spec} = {count}" for spec, count in self.budgets.items())


def calibrate(specs: Iterable[str], board: str = "compact", players: int = 2, positions: int = 12,
              seed: int = 0, progress: bool | None = None,
              variant: str = "standard") -> Calibration:
    """Equal CPU: the count budget (iterations, nodes) each time spec (``kind:<seconds>s``)
    searches in its seconds on this machine, measured as the median over ``positions``
    positions of fresh games (``board``, ``players``, ``variant``) played at random (every
    9th action, from seed ``seed``), the searches run one at a time. A tournament of the
    count budgets gives each agent the CPU it had here, whatever the load while it plays,
    and is reproducible from its seed.
    Specs without a time budget, with threads, or of a kind that reports no count (no
    ``search``: ``mcts-py``) are kept as they are.

    Args:
        specs: The agent specs.
        board: The positions' board.
        players: Their players.
        positions: How many positions, 1 to 10,000.
        seed: Seeds the positions and the agents.
        progress: A progress bar on stderr: True always, None on a terminal, False never.
        variant: The positions' variant.

    Returns:
        Each spec's count budget and the counts measured.

    Raises:
        ConfigError: If a spec or argument is not accepted.
    """
    specs = list(specs)
    check_int("positions", positions, 1, 10_000)
    rng = random.Random(seed)
    games: list[Game] = []
    while len(games) < positions:
        game = Game(board, players=players, variant=variant)
        while not game.is_over and len(games) < positions:
            if game.ply % 9 == 8:
                games.append(game.copy(history=False))
            game.play(rng.choice(game.legal_actions()))
    budgets: dict[str, str] = {}
    counts: dict[str, list[int]] = {}
    timed = [spec for spec in specs if kind_of(spec).unit and spec.endswith("s")
             and "@" not in spec and isinstance(make_agent(spec), SearchAgent)]
    with Progress(len(timed) * positions, "calibrating", progress) as bar:
        for spec in timed:
            # a kind with a search (filtered above)
            agent = cast(SearchAgent[Any], make_agent(spec, seed=rng.getrandbits(32)))
            done = []
            for game in games:
                result = agent.search(game)
                done.append(int(result.iterations if hasattr(result, "iterations")
                                else result.nodes))
                bar.advance()
            counts[spec] = done
            budgets[spec] = f"{spec.rpartition(':')[0]}:{max(1, int(statistics.median(done)))}"
    for spec in specs:
        budgets.setdefault(spec, spec)
    return Calibration(budgets, counts, positions, board, players)


def ladder_agents(budgets: Iterable[str]) -> tuple[str, ...]:
    """The specs of every built-in agent (LADDER_SPECS) at each of ``budgets`` (like
    ``"0.05s"`` or ``"500"``); an agent without a budget appears once.

    Args:
        budgets: One or more budgets.

    Returns:
        The specs, in LADDER_SPECS order.

    Raises:
        ConfigError: If ``budgets`` is empty or a budget is not accepted.
    """
    budgets = list(budgets)
    if not budgets:
        raise ConfigError("give at least one budget, like '0.05s' or '500'")
    specs: list[str] = []
    for template in LADDER_SPECS:
        for budget in budgets if "{budget}" in template else [None]:
            spec = template.format(budget=budget) if budget is not None else template
            make_agent(spec)                              # a bad budget fails here
            if spec not in specs:
                specs.append(spec)
    return tuple(specs)
