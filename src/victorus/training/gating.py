"""The training loop's acceptance test and its curve's matches (victorus.training): a
candidate replaces the network that plays self-play only if a sequential probability ratio
test shows it stronger and it loses to none of the fixed anchors, as fishtest accepts
Stockfish's patches (`acceptance`, `anchor`, `passes`).

Every game is one of a `victorus.match.match`, as ``victorus match`` plays one, of
``best-net`` with one network's evaluator against ``best-net`` with the other's (or
``best-heuristic``), both at the same iterations a decision
(`victorus.training.selfplay.search_agent`): one agent per army, the candidate on one team and
the other network on every other team, the candidate's team rotated over all of them on
each random opening.

- **The test** plays *looks*: each configuration of the gate's mix (2, 3 and 6 armies, its
  share of openings a look; victorus.training.settings.Settings.gate_configurations) plays
  its openings, every opening once per team (a group); after each look the log-likelihood
  ratio of the groups' scores (victorus.training.sprt) is set against Wald's bounds. It
  stops when it leaves them (accepted, or refused) or, refused, when the games reach the cap
  (no look starts past it).
- **The anchors** (round 0 and the first accepted round, but not the network the test has
  just beaten) each play looks of the same mix until the games reach ``anchor_games``; a
  candidate whose score's 95% interval against an anchor lies wholly below a half
  (`ANCHOR_FLOOR`) is refused.
- **The curve's matches** (`score`: against round 0 and ``best-heuristic``) are on the
  compact board with two players, every opening played from both sides; their score counts
  a draw (or a game unfinished at the cap) as half a win.
"""

from __future__ import annotations

import functools
import random
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from ..evaluation import Evaluator
from ..game import Game
from ..match import MatchResult, match
from .selfplay import search_agent
from .sprt import ACCEPT, Sprt, bounds, game_score, llr, mean_interval

BOARD = "compact"
"""The board of every match (short games; the configuration of most targets)."""
PLAYERS = 2
"""The players of every match."""
OPENING = 8
"""Random actions before each match game, so that the games differ."""
ANCHOR_FLOOR = 0.5
"""A candidate whose 95% interval against an anchor lies wholly below this score is refused."""

Configuration = tuple[str, int, str, int]
"""A configuration of the acceptance test: (board, players, variant, openings a look)."""
Source = Callable[[str, int, str, int, int], tuple[list[float], int]]
"""Plays ``openings`` groups of a configuration from a seed: ``(board, players, variant,
openings, seed) -> (the groups' scores, the games played)``."""


@dataclass(frozen=True)
class MatchScore:
    """A match's result for its first agent.

    Args:
        score: Wins plus half the draws, over the games.
        low: The 95% Wilson interval's low end.
        high: Its high end.
        games: The games played.
        wins: The first agent's wins.
        losses: Its losses.
    """

    score: float
    low: float
    high: float
    games: int
    wins: int
    losses: int

    def as_dict(self) -> dict[str, float | int]:
        """The score for JSON (the curve).

        Returns:
            Its fields, rounded to 4 places.
        """
        return {k: round(v, 4) if isinstance(v, float) else v for k, v in asdict(self).items()}

    def __str__(self) -> str:
        return (f"{self.score:.3f} [{self.low:.3f}, {self.high:.3f}] over {self.games} games "
                f"({self.wins} won, {self.losses} lost)")


def score(first: Evaluator | None, second: Evaluator | None, games: int, iterations: int,
          seed: int, workers: int = 1, backend: str = "local", address: str | None = None,
          progress: bool | None = None) -> MatchScore:
    """``best-net`` with ``first`` against ``best-net`` with ``second`` (None:
    ``best-heuristic``), ``games`` games at ``iterations`` a decision (the module's
    docstring); the score is ``first``'s.

    Args:
        first: The learned evaluation scored (the Evaluator of a network; None: the heuristic).
        second: Its opponent's, likewise.
        games: The games, even (each opening is played from both sides).
        iterations: Iterations a decision, for both.
        seed: Seeds the openings and the searches.
        workers: Worker processes (or Ray tasks).
        backend: "local" or "ray".
        address: A Ray cluster's address, for backend "ray".
        progress: A progress bar on stderr: True always, None on a terminal, False never.

    Returns:
        ``first``'s score.
    """
    a, b = (functools.partial(search_agent, evaluator, iterations) for evaluator in (first, second))
    result = match(a, b, games, seed, BOARD, PLAYERS, opening=OPENING, workers=workers,
                   progress=progress, backend=backend, address=address)
    low, high = result.interval()
    return MatchScore(result.score, low, high, result.games, result.wins, result.losses)


def teams_of(board: str, players: int, variant: str) -> int:
    """The teams of a configuration's games.

    Args:
        board: The board's name.
        players: The players.
        variant: The variant's name.

    Returns:
        How many teams play.
    """
    config = Game(board, players=players, variant=variant).config
    return len({config.teams[seat] for seat in config.present})


def groups(result: MatchResult) -> list[float]:
    """The groups' scores of a match: each opening's games (one per rotation of the first
    agent's team), the mean of their pairwise scores (victorus.training.sprt.game_score),
    in the openings' order.

    Args:
        result: A one-vs-rest match, the candidate its agent A.

    Returns:
        One score per opening.
    """
    played: defaultdict[int | None, list[float]] = defaultdict(list)
    for game in result.tournament.outcomes:
        played[game.opening].append(game_score(game.winner, result.teams))
    return [sum(scores) / len(scores) for scores in played.values()]


def match_source(first: Evaluator | None, second: Evaluator | None, iterations: int,
                 workers: int = 1, backend: str = "local", address: str | None = None,
                 progress: bool | None = None) -> Source:
    """The games of ``best-net`` with ``first`` against ``best-net`` with ``second`` (None:
    ``best-heuristic``) at ``iterations`` a decision, as a `Source`: each call one match of
    ``openings`` openings times the teams games.

    Args:
        first: The candidate's learned evaluation.
        second: Its opponent's.
        iterations: Iterations a decision, for both.
        workers: Worker processes (or Ray tasks).
        backend: "local" or "ray".
        address: A Ray cluster's address, for backend "ray".
        progress: A progress bar on stderr: True always, None on a terminal, False never.

    Returns:
        The source.
    """
    a, b = (functools.partial(search_agent, evaluator, iterations) for evaluator in (first, second))

    def play(board: str, players: int, variant: str, openings: int, seed: int) -> tuple[list[float], int]:
        result = match(a, b, openings * teams_of(board, players, variant), seed, board, players,
                       variant, opening=OPENING, workers=workers, progress=progress,
                       backend=backend, address=address)
        return groups(result), result.games
    return play


def _look(source: Source, configurations: Sequence[Configuration], seed: int,
          look: int) -> tuple[list[float], int]:
    """One look: every configuration's openings, each match seeded from ``seed`` and the
    look's number."""
    values: list[float] = []
    games = 0
    for index, (board, players, variant, openings) in enumerate(configurations):
        match_seed = random.Random(f"{seed}/{look}/{index}").getrandbits(62)
        scores, played = source(board, players, variant, openings, match_seed)
        values += scores
        games += played
    return values, games


@dataclass(frozen=True)
class Trial:
    """The groups a candidate played against one opponent, and what they say.

    Args:
        values: The groups' scores (victorus.training.sprt), in the order played.
        games: The games played.
    """

    values: tuple[float, ...]
    games: int

    def summary(self) -> dict[str, Any]:
        """The games, the groups and the mean score with its 95% interval, for the curve.

        Returns:
            ``games``, ``groups``, ``score``, ``low`` and ``high`` (4 places).
        """
        mean, low, high = mean_interval(self.values)
        return {"games": self.games, "groups": len(self.values), "score": round(mean, 4),
                "low": round(low, 4), "high": round(high, 4)}


def acceptance(source: Source, sprt: Sprt, configurations: Sequence[Configuration],
               seed: int) -> dict[str, Any]:
    """The acceptance test (the module's docstring): looks of ``configurations`` until the
    test decides or the games reach its cap.

    Args:
        source: The candidate's games against the best so far.
        sprt: The test: its hypotheses, errors and cap.
        configurations: The gate's mix: (board, players, variant, openings a look).
        seed: Seeds the looks' matches.

    Returns:
        For the curve: ``verdict`` (victorus.training.sprt.VERDICTS), ``llr``, ``lower``
        and ``upper`` (its bounds), then `Trial.summary`'s fields.
    """
    values: list[float] = []
    games = look = 0
    while True:
        scores, played = _look(source, configurations, seed, look)
        values += scores
        games += played
        look += 1
        ratio = llr(values, sprt.elo0, sprt.elo1)
        verdict = sprt.verdict(ratio, games)
        if verdict is not None:
            break
    lower, upper = bounds(sprt.alpha, sprt.beta)
    return {"verdict": verdict, "llr": round(ratio, 4), "lower": round(lower, 4),
            "upper": round(upper, 4), **Trial(tuple(values), games).summary()}


def anchor(source: Source, games: int, configurations: Sequence[Configuration], seed: int,
           number: int) -> dict[str, Any]:
    """The candidate against an anchor: looks of ``configurations`` until the games reach
    ``games``.

    Args:
        source: The candidate's games against the anchor.
        games: The games to reach, 1 or more.
        configurations: The gate's mix.
        seed: Seeds the looks' matches.
        number: The anchor's round.

    Returns:
        For the curve: ``round`` (the anchor's), then `Trial.summary`'s fields.
    """
    values: list[float] = []
    played = look = 0
    while played < games:
        scores, count = _look(source, configurations, seed, look)
        values += scores
        played += count
        look += 1
    return {"round": number, **Trial(tuple(values), played).summary()}


def passes(gate: dict[str, Any] | None, anchors: Sequence[dict[str, Any]]) -> bool:
    """The acceptance rule: a candidate replaces the best network if it was not tested, or
    if the test accepted it and no anchor's interval lies wholly below `ANCHOR_FLOOR`.

    Args:
        gate: The acceptance test's result (`acceptance`; None: not tested).
        anchors: Its matches against the anchors (`anchor`).

    Returns:
        Whether it becomes the best.
    """
    if gate is None:
        return True
    return gate["verdict"] == ACCEPT and all(a["high"] >= ANCHOR_FLOOR for a in anchors)


__all__ = ["ANCHOR_FLOOR", "BOARD", "OPENING", "PLAYERS", "Configuration", "MatchScore", "Source",
           "Trial", "acceptance", "anchor", "groups", "match_source", "passes", "score", "teams_of"]
