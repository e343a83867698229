"""Matches between networks at equal iterations, for the training loop's gate and its
curve (victorus.training): AlphaGo Zero's evaluator, which lets a candidate replace the
network that plays self-play only if it beats it.

Each match is a `victorus.tournament.tournament` of ``best-net`` with one network against
``best-net`` with the other (or ``best-heuristic``), both at the same iterations a
decision, on the compact board with two players, every opening played twice with the
sides swapped. A score counts a draw (or a game unfinished at the cap) as half a win.
"""

from __future__ import annotations

import functools
from dataclasses import asdict, dataclass

from .evaluation.network import Network
from .ratings import wilson
from .search.protocols import Agent

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


def _agent(network: bytes | None, iterations: int, seed: int) -> Agent:
    """``best-net`` with the network of a file's bytes (None: ``best-heuristic``)."""
    from .search.registry import best_heuristic_agent, best_net_agent
    if network is None:
        return best_heuristic_agent(seed, iterations)
    return best_net_agent(seed, iterations, network=Network.from_bytes(network))


def match(first: Network | None, second: Network | None, games: int, iterations: int,
          seed: int, workers: int = 1, backend: str = "local", address: str | None = None,
          progress: bool | None = None) -> MatchScore:
    """``best-net`` with ``first`` against ``best-net`` with ``second`` (None:
    ``best-heuristic``), ``games`` games at ``iterations`` a decision (the module's
    docstring); the score is ``first``'s.

    Args:
        first: The network scored.
        second: Its opponent's network (None: the heuristic).
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
    from .tournament import tournament
    entrants = [functools.partial(_agent, None if net is None else net.to_bytes(), iterations)
                for net in (first, second)]
    result = tournament(entrants, games, seed=seed, board=BOARD, players=PLAYERS,
                        progress=progress, openings=OPENING, lineup="teams", workers=workers,
                        backend=backend, address=address)
    names = result.agents
    wins, losses = result.wins[names[0]], result.wins[names[1]]
    points = wins + 0.5 * (result.games - wins - losses)
    low, high = wilson(points, result.games)
    return MatchScore(points / result.games, low, high, result.games, wins, losses)


__all__ = ["BOARD", "OPENING", "PLAYERS", "MatchScore", "match"]
