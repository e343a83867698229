"""The search wing: agents and their searches, one registry of agent kinds
(`victorus.search.registry`), budgets, and the C searches with their opponent
interface. ``victorus.agents`` is the public face; this package's own names are the
budgets' (`victorus.search.budgets`), the search result (`victorus.search.results`),
the decisive shortcut (`victorus.search.choice`) and the agents' random state
(`victorus.search.rng`)."""

from .budgets import (
    MAX_ITERATIONS,
    MAX_SECONDS,
    MAX_THREADS,
    budget_name,
    check_budget,
    check_seconds,
    parse_budget,
)
from .choice import decisive
from .results import SearchResult
from .rng import SplitMix64

__all__ = ["MAX_ITERATIONS", "MAX_SECONDS", "MAX_THREADS", "SearchResult", "SplitMix64",
           "budget_name", "check_budget", "check_seconds", "decisive", "parse_budget"]
