"""The training loop's gate and its curve's matches (victorus.training): AlphaGo Zero's
evaluator, which lets a candidate replace the network that plays self-play only if it beats
it (`passes`).

Each match is a `victorus.match.match`, as ``victorus match`` plays one, of ``best-net`` with
one network's evaluator against ``best-net`` with the other's (or ``best-heuristic``), both at
the same iterations a decision (`victorus.training.selfplay.search_agent`), on the compact
board with two players, every opening played twice with the sides swapped. A score counts a
draw (or a game unfinished at the cap) as half a win.
"""

from __future__ import annotations

import functools
from dataclasses import asdict, dataclass

from ..evaluation import Evaluator
from ..match import match
from .selfplay import search_agent

BOARD = "compact"
"""The board of every match (short games; the configuration of most targets)."""
PLAYERS = 2
"""The players of every match."""
OPENING = 8
"""Random actions before each match game, so that the games differ."""


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


def passes(gate: MatchScore | None, threshold: float) -> bool:
    """The gate's rule: a candidate replaces the best network if it scored at least
    ``threshold`` against it, or if it was not gated.

    Args:
        gate: The candidate's score against the best so far (None: no gate).
        threshold: The score it needs.

    Returns:
        Whether it becomes the best.
    """
    return gate is None or gate.score >= threshold


__all__ = ["BOARD", "OPENING", "PLAYERS", "MatchScore", "passes", "score"]
