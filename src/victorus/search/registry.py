"""The agent kinds, in one registry: make_agent and every list of agents derive from it."""

from __future__ import annotations

from ..errors import ConfigError
from .alphabeta import alphabeta_from_budget
from .budgets import budget_name, parse_budget
from .mcts import MCTSAgent, PythonMCTSAgent
from .puct import PUCTAgent
from .simple import GreedyAgent, RandomAgent

#: What a search spec's budget is, for help texts and error messages.
BUDGET_HELP = "BUDGET: iterations (alphabeta: nodes) like 500, or seconds like 0.5s"
#: The agent specs make_agent accepts, for help texts and error messages.
AGENT_SPECS = ("'random', 'greedy', 'mcts[:BUDGET][@THREADS]', 'mcts-py[:BUDGET]', "
               "'puct[:BUDGET]', 'alphabeta[:BUDGET]', 'best[:BUDGET]' (the strongest) "
               f"({BUDGET_HELP})")

#: best's settings: measured by matches at 0.05 s a move (docs/agents.md, the ladder).
BEST_SETTINGS: dict = {"c_puct": 0.35, "rollout_actions": 10, "evaluated": True}


def best_agent(seed=None, iterations: int | None = None, seconds: float | None = None):
    """``best:<budget>``: the strongest built-in agent at a budget, as an engine has one
    strongest setting (no budget: 0.1 s a decision). Today PUCT with the C heuristic:
    priors from captures, leaves valued by rollouts of 10 actions scored by the heuristic
    evaluation, c_puct 0.35 (BEST_SETTINGS); docs/agents.md gives the matches."""
    if iterations is None and seconds is None:
        seconds = 0.1
    agent = PUCTAgent(iterations, seconds=seconds, seed=seed, **BEST_SETTINGS)
    agent.name = budget_name("best", iterations, seconds, 1)
    return agent


_MCTS_KINDS: dict = {"mcts": MCTSAgent, "mcts-py": PythonMCTSAgent, "puct": PUCTAgent,
                     "alphabeta": alphabeta_from_budget, "best": best_agent}




def make_agent(spec: str, seed=None):
    """An agent from a spec (AGENT_SPECS): ``mcts:2000``, ``mcts:0.5s@2``, ``mcts-py:200``."""
    if not isinstance(spec, str):
        raise ConfigError(f"agent spec must be a string, got {spec!r}")
    kind, _, arg = spec.partition(":")
    if kind == "random" and not arg:
        return RandomAgent(seed)
    if kind == "greedy" and not arg:
        return GreedyAgent(seed)
    if kind in _MCTS_KINDS:
        return _MCTS_KINDS[kind](seed=seed, **parse_budget(kind, arg, spec, threads=kind == "mcts"))
    raise ConfigError(f"unknown agent {spec!r}: accepted are {AGENT_SPECS}")


#: Every built-in agent, for the ladder (``tools/ladder.py``, victorus.tournament.ladder_agents):
#: ``{budget}`` is replaced by each budget of the ladder, a spec without it plays once.
#: Add a new agent here.
LADDER_SPECS = ("random", "greedy", "mcts:{budget}", "mcts-py:{budget}", "puct:{budget}",
                "alphabeta:{budget}", "best:{budget}")
