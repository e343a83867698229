"""Agents behind one small interface (tournaments between them: victorus.tournament): the
public face of the search wing (:mod:`victorus.search`).

An agent has a ``name`` and ``choose(game) -> Action`` (a legal action of the
army to act). ``make_agent("mcts:200", seed=1)`` builds one from a spec; the kinds and
their budgets are the registry's (:data:`AGENT_SPECS`, :mod:`victorus.search.registry`).
"""

from .search.alphabeta import AlphaBetaAgent, AlphaBetaResult
from .search.budgets import SearchResult, SplitMix64
from .search.mcts import MCTSAgent, PythonMCTSAgent
from .search.puct import PUCTAgent
from .search.registry import (
    AGENT_SPECS,
    BEST_SETTINGS,
    BUDGET_HELP,
    LADDER_SPECS,
    best_agent,
    make_agent,
)
from .search.simple import GreedyAgent, RandomAgent

__all__ = ["AGENT_SPECS", "AlphaBetaAgent", "AlphaBetaResult", "BEST_SETTINGS", "BUDGET_HELP",
           "GreedyAgent", "LADDER_SPECS", "MCTSAgent", "PUCTAgent", "PythonMCTSAgent",
           "RandomAgent", "SearchResult", "SplitMix64", "best_agent", "make_agent"]
