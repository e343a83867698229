"""Decisions timed as users make them, for the time-budget rows of ``victorus bench``
(victorus.bench) and ``benchmarks/test_bench_budgets.py``: a decision's wall time against its
agent's budget, agents of every kind that takes one playing fresh games."""

from __future__ import annotations

import time

from .game import Game

#: The time budget of the budget rows, the searched decisions per kind and the longest
#: game (in actions) before a fresh one: the default run takes about 25 s, the quick one
#: under 1 s.
BUDGET, DECISIONS, QUICK_BUDGET, QUICK_DECISIONS, BUDGET_PLIES = 0.05, 60, 0.02, 3, 20


def time_budget_kinds() -> list[str]:
    """Every agent kind that accepts a time budget (``<kind>:<seconds>s``), registry order."""
    from .search.registry import KINDS
    return [kind.name for kind in KINDS if kind.unit is not None]


def decision_times(spec: str, decisions: int, plies: int = BUDGET_PLIES, seed: int = 1) -> list[float]:
    """Wall seconds of ``decisions`` decisions of two agents ``spec`` (seeds ``seed`` and
    ``seed + 1``) playing each other in fresh compact 2-player games from the start, ``plies``
    actions at most each, as users call them (``agent.choose(game)``, the garbage collector
    on). Decisive positions (one legal action, or a win at once: no search) are played but
    not timed.

    Args:
        spec: The agents' spec, such as ``best:0.05s``.
        decisions: The searched decisions to time.
        plies: The most actions of a game before a fresh one.
        seed: The first agent's seed.

    Returns:
        The decisions' wall seconds, in the order played.
    """
    from .search import decisive
    from .search.registry import make_agent
    agents = (make_agent(spec, seed=seed), make_agent(spec, seed=seed + 1))
    times: list[float] = []
    game = Game("compact", players=2)
    while len(times) < decisions:
        if game.is_over or game.ply >= plies:
            game = Game("compact", players=2)
        agent = agents[game.ply % 2]
        searched = decisive(game, game.legal_actions()) is None
        start = time.perf_counter()
        action = agent.choose(game)
        elapsed = time.perf_counter() - start
        if searched:
            times.append(elapsed)
        game.play(action)
    return times


__all__ = ["BUDGET", "BUDGET_PLIES", "DECISIONS", "QUICK_BUDGET", "QUICK_DECISIONS", "decision_times",
           "time_budget_kinds"]
