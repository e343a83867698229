"""Agents behind one small interface (tournaments between them: victorus.tournament): the
public face of the search wing (`victorus.search`).

An agent has a ``name`` and ``choose(game) -> Action`` (a legal action of the
army to act): the protocol `Agent`, and `NativeAgent` for one that also plays inside the
vector step (``native_opponent()``). ``make_agent("mcts:200", seed=1)`` builds one from a
spec; the kinds, their budgets, which play inside the vector step and on the page are the
registry's (`KINDS`, `victorus.search.registry`).
"""

from .search.agent import AgentBase, SearchAgent
from .search.alphabeta import AlphaBetaAgent, AlphaBetaResult
from .search.mcts import MCTSAgent, PythonMCTSAgent
from .search.protocols import Agent, NativeAgent
from .search.puct import PUCTAgent
from .search.registry import (
    AGENT_SPECS,
    BEST_EVALUATOR,
    BEST_HEURISTIC_EVALUATOR,
    BEST_SETTINGS,
    BUDGET_HELP,
    KINDS,
    LADDER_SPECS,
    OPPONENT_SPECS,
    REGISTRY,
    VECTOR_KINDS,
    AgentKind,
    PageLimits,
    make_agent,
)
from .search.results import SearchResult
from .search.rng import SplitMix64
from .search.simple import GreedyAgent, RandomAgent

__all__ = ["AGENT_SPECS", "Agent", "AgentBase", "AgentKind", "AlphaBetaAgent", "AlphaBetaResult",
           "BEST_EVALUATOR", "BEST_HEURISTIC_EVALUATOR", "BEST_SETTINGS", "BUDGET_HELP", "GreedyAgent",
           "KINDS", "LADDER_SPECS", "MCTSAgent", "NativeAgent", "OPPONENT_SPECS", "PUCTAgent",
           "PageLimits", "PythonMCTSAgent", "REGISTRY", "RandomAgent", "SearchAgent", "SearchResult",
           "SplitMix64", "VECTOR_KINDS", "make_agent"]
