"""The search wing: agents and their searches, one registry of agent kinds
(`victorus.search.registry`), budgets, and the C searches with their opponent
interface. ``victorus.agents`` is the public face; this package's own names are the
budgets' (`victorus.search.budgets`)."""

from .budgets import (
    MAX_ITERATIONS,
    MAX_SECONDS,
    MAX_THREADS,
    SearchResult,
    SplitMix64,
    budget_name,
    check_budget,
    check_seconds,
    decisive,
    parse_budget,
)

__all__ = ["MAX_ITERATIONS", "MAX_SECONDS", "MAX_THREADS", "SearchResult", "SplitMix64",
           "budget_name", "check_budget", "check_seconds", "decisive", "parse_budget"]
