"""The agent kinds, in one registry (OpenSpiel's registered bots): a kind's name, how it
is built, its budget grammar, whether it plays inside the vector step and what the page
lets it spend. ``make_agent``, the help texts, the ladder, the vector opponents' check and
the page's menu and limits all derive from `KINDS`. A new agent is one entry here
plus its module.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, TypeAlias, cast

from ..checks import shown
from ..errors import ConfigError
from ..evaluation import make_evaluator
from ..evaluation.network import Network, NetworkFileError, network_from
from ._policy import Opponent
from .alphabeta import AlphaBetaAgent
from .budgets import budget_name, parse_budget
from .mcts import MCTSAgent, PythonMCTSAgent
from .protocols import NativeAgent
from .puct import PUCTAgent
from .simple import GreedyAgent, RandomAgent

if TYPE_CHECKING:
    from ..game import Game

BuiltinAgent: TypeAlias = RandomAgent | GreedyAgent | MCTSAgent | PythonMCTSAgent | PUCTAgent | AlphaBetaAgent
"""An agent the registry builds: an instance of one of the built-in kinds' classes."""
VectorAgent: TypeAlias = RandomAgent | GreedyAgent | MCTSAgent | PUCTAgent | AlphaBetaAgent
"""An agent that plays inside the step of VectorGames (``native_opponent()``)."""

BEST_SETTINGS: dict[str, Any] = {"c_puct": 0.35, "rollout_actions": 10, "evaluated": True}
"""best's settings on the heuristic: measured by matches at 0.05 s a move (docs/agents.md, the ladder)."""
BEST_NET_SETTINGS: dict[str, Any] = {"c_puct": 0.35, "rollout_actions": 3, "evaluated": True}
"""best-net's: shorter rollouts, as the network's value needs less of their averaging (docs/agents.md, the
learned evaluation)."""
BEST_HEURISTIC_EVALUATOR = f"rollouts({BEST_SETTINGS['rollout_actions']}, heuristic)"
"""The evaluator BEST_SETTINGS name (PUCTAgent's knobs), as a spec: best-heuristic's leaves."""
BEST_NET_EVALUATOR = f"rollouts({BEST_NET_SETTINGS['rollout_actions']}, network(default))"
"""The evaluator BEST_NET_SETTINGS and the shipped network name, as a spec: best-net's leaves."""


BEST_EVALUATION = "network"
"""The evaluation best's leaves are scored by: "network" (the shipped network) or "heuristic", whichever
won the matches of docs/agents.md."""


def _best(name: str, knobs: Mapping[str, Any], network: Network | str | os.PathLike[str] | None,
          seed: int | None, iterations: int | None, seconds: float | None,
          settings: Mapping[str, Any]) -> PUCTAgent:
    """PUCT with ``knobs`` (BEST_SETTINGS or BEST_NET_SETTINGS, with ``network``) under
    ``settings``; with an ``evaluator`` in ``settings``, that evaluator and the knobs'
    c_puct. No budget: 0.1 s a decision."""
    if iterations is None and seconds is None:
        seconds = 0.1
    base = ({"c_puct": knobs["c_puct"]} if "evaluator" in settings
            else {**knobs, **({} if network is None else {"network": network})})
    agent = PUCTAgent(iterations, seconds=seconds, seed=seed, **{**base, **settings})
    agent.name = budget_name(name, iterations, seconds, 1)
    return agent


def best_agent(seed: int | None = None, iterations: int | None = None,
               seconds: float | None = None, **settings: Any) -> PUCTAgent:
    """``best:<budget>``: the strongest built-in agent at a budget, as an engine has one
    strongest setting (no budget: 0.1 s a decision): PUCT with priors from captures and
    c_puct 0.35, its leaves valued by short rollouts scored by the evaluation of
    BEST_EVALUATION (the heuristic: rollouts of 10, BEST_SETTINGS; the network: of 3,
    BEST_NET_SETTINGS); docs/agents.md gives the matches that chose them.
    ``settings``: more PUCTAgent settings (the page's ``max_nodes``).

    Args:
        seed: Seeds the search (None: fresh entropy).
        iterations: Iterations per decision (None: ``seconds`` alone).
        seconds: Seconds per decision (both None: 0.1).
        **settings: More PUCTAgent settings.

    Returns:
        The agent, named ``best:<budget>``.

    Raises:
        ConfigError: If a budget or setting is out of its range.
    """
    if BEST_EVALUATION == "network":
        return best_net_agent(seed, iterations, seconds, name="best", **settings)
    return best_heuristic_agent(seed, iterations, seconds, name="best", **settings)


def best_heuristic_agent(seed: int | None = None, iterations: int | None = None,
                         seconds: float | None = None, name: str = "best-heuristic",
                         **settings: Any) -> PUCTAgent:
    """``best-heuristic:<budget>``: best's search with the hand-written evaluation.

    Args:
        seed: Seeds the search (None: fresh entropy).
        iterations: Iterations per decision (None: ``seconds`` alone).
        seconds: Seconds per decision (both None: 0.1).
        name: The kind's name in the agent's name.
        **settings: More PUCTAgent settings.

    Returns:
        The agent.

    Raises:
        ConfigError: If a budget or setting is out of its range.
    """
    return _best(name, BEST_SETTINGS, None, seed, iterations, seconds, settings)


def best_net_agent(seed: int | None = None, iterations: int | None = None,
                   seconds: float | None = None,
                   network: Network | str | os.PathLike[str] = "default", name: str = "best-net",
                   **settings: Any) -> PUCTAgent:
    """``best-net:<budget>``: best's search with the learned evaluation: ``network`` (a
    Network, a .vnet file's path; "default": the one shipped with the package) scores the
    ends of rollouts of 3 actions (BEST_NET_SETTINGS).

    Args:
        seed: Seeds the search (None: fresh entropy).
        iterations: Iterations per decision (None: ``seconds`` alone).
        seconds: Seconds per decision (both None: 0.1).
        network: A Network, a ``.vnet`` file's path, or "default".
        name: The kind's name in the agent's name.
        **settings: More PUCTAgent settings.

    Returns:
        The agent.

    Raises:
        ConfigError: If a budget or setting is out of its range, or the network cannot be read.
    """
    return _best(name, BEST_NET_SETTINGS, network, seed, iterations, seconds, settings)


def alphabeta_agent(seed: int | None = None, iterations: int | None = None,
                    seconds: float | None = None, **settings: Any) -> AlphaBetaAgent:
    """The agent of an ``alphabeta:<nodes>`` or ``alphabeta:<seconds>s`` spec (the budget
    grammar of ``mcts``, counted in nodes; no threads); no budget: 0.1 seconds.

    Args:
        seed: Seeds the search (None: fresh entropy).
        iterations: Nodes per decision (None: ``seconds`` alone).
        seconds: Seconds per decision (both None: 0.1).
        **settings: More AlphaBetaAgent settings.

    Returns:
        The agent.

    Raises:
        ConfigError: If a budget or setting is out of its range.
    """
    if iterations is None and seconds is None:
        seconds = 0.1
    return AlphaBetaAgent(iterations, seed, seconds=seconds, **settings)


def alphabeta_net_agent(seed: int | None = None, iterations: int | None = None,
                        seconds: float | None = None,
                        network: Network | str | os.PathLike[str] = "default",
                        **settings: Any) -> AlphaBetaAgent:
    """``alphabeta-net:<nodes>``: alpha-beta with the learned evaluation (``network`` as
    in best_net_agent).

    Args:
        seed: Seeds the search (None: fresh entropy).
        iterations: Nodes per decision (None: ``seconds`` alone).
        seconds: Seconds per decision (both None: 0.1).
        network: A Network, a ``.vnet`` file's path, or "default".
        **settings: More AlphaBetaAgent settings.

    Returns:
        The agent.

    Raises:
        ConfigError: If a budget or setting is out of its range, or the network cannot be read.
    """
    if "evaluator" in settings:
        return alphabeta_agent(seed, iterations, seconds, **settings)
    return alphabeta_agent(seed, iterations, seconds, network=network, **settings)


@dataclass(frozen=True)
class PageLimits:
    """What the page (``victorus serve``, whose agents share one thread) lets one seat of
    a kind spend on a decision: at most ``count`` of its budget's unit, ``seconds`` and
    ``threads``, and the ``settings`` it is built with, which bound the memory it keeps
    (``memory``: that bound in bytes, stated in docs/serve.md).

    Args:
        count: The most of its budget's unit a decision (None: no count budget).
        seconds: The most seconds a decision (None: no time budget).
        threads: The most threads.
        settings: The settings it is built with (bounding its memory).
        memory: That bound in bytes.
        menu: The budgets the page's menu offers ("" for none).
    """

    count: int | None = None
    seconds: float | None = None
    threads: int = 1
    settings: dict[str, int] = field(default_factory=dict)
    memory: int = 0
    menu: tuple[str, ...] = ()       # the budgets the page's menu offers ("" for none)


@dataclass(frozen=True)
class AgentKind:
    """One kind of agent: ``build(seed=..., **budget)`` makes it; ``unit`` names its
    integer budget (None: it takes no budget); ``threads``: '@THREADS' accepted;
    ``in_vector``: it plays inside the step of VectorGames (``native_opponent()``);
    ``ladder``: it plays in the ladder; ``page``: the page's limits (None: not on the
    page).

    Args:
        name: The kind's name, a spec's part before ':'.
        build: Makes an agent: ``build(seed=..., **budget, **settings)``.
        summary: One line for help texts.
        unit: What its integer budget counts (None: it takes no budget).
        threads: Whether '@THREADS' is accepted.
        in_vector: Whether it plays inside the step of VectorGames.
        ladder: Whether it plays in the ladder.
        page: The page's limits (None: not on the page).
        evaluator: The spec of the C evaluator of its search's leaves (victorus.evaluation),
            None for a kind without one.
        network: Whether its spec may name a network file, ``kind(FILE):BUDGET``: a kind
            built with ``network=`` (the learned evaluation's).
    """

    name: str
    build: Callable[..., BuiltinAgent]
    summary: str
    unit: str | None = None
    threads: bool = False
    in_vector: bool = False
    ladder: bool = True
    page: PageLimits | None = None
    evaluator: str | None = None
    network: bool = False

    @property
    def spec(self) -> str:
        """Its spec's form, as help texts show it."""
        return (self.name + ("[(FILE)]" if self.network else "") + ("[:BUDGET]" if self.unit else "")
                + ("[@THREADS]" if self.threads else ""))


PAGE_TREE_NODES = 100_000
"""The largest tree a seat of the page grows, in nodes (an MCTS node is 56 bytes, a PUCT node 88;
alpha-beta's table entries are 24 bytes, 2**16 of them)."""

KINDS: tuple[AgentKind, ...] = (
    AgentKind("random", lambda seed=None: RandomAgent(seed), "uniformly random",
              in_vector=True, page=PageLimits(menu=("",))),
    AgentKind("greedy", lambda seed=None: GreedyAgent(seed), "captures first, in C",
              in_vector=True, page=PageLimits(menu=("",))),
    AgentKind("mcts", MCTSAgent, "UCT in C", unit="iterations", threads=True, in_vector=True,
              evaluator="rollouts(10, material)",
              page=PageLimits(count=20_000, seconds=5.0, threads=4,
                              settings={"max_nodes": PAGE_TREE_NODES},
                              memory=4 * PAGE_TREE_NODES * 56, menu=("0.2s", "1s"))),
    AgentKind("mcts-py", PythonMCTSAgent, "the same UCT in Python", unit="iterations",
              page=PageLimits(count=2_000, seconds=5.0)),
    AgentKind("puct", PUCTAgent, "PUCT in C over rollouts scored by material", unit="iterations",
              in_vector=True, evaluator="rollouts(10, material)",
              page=PageLimits(count=20_000, seconds=5.0, settings={"max_nodes": PAGE_TREE_NODES},
                              memory=PAGE_TREE_NODES * 88)),
    AgentKind("alphabeta", alphabeta_agent, "alpha-beta in C on the heuristic", unit="nodes",
              in_vector=True, evaluator="heuristic",
              page=PageLimits(count=2_000_000, seconds=5.0, settings={"table_bits": 16},
                              memory=(1 << 16) * 24)),
    AgentKind("alphabeta-net", alphabeta_net_agent, "alpha-beta in C on the learned evaluation",
              unit="nodes", in_vector=True, evaluator="network(default)", network=True,
              page=PageLimits(count=2_000_000, seconds=5.0, settings={"table_bits": 16},
                              memory=(1 << 16) * 24)),
    AgentKind("best", best_agent, "the strongest", unit="iterations", in_vector=True,
              evaluator=BEST_NET_EVALUATOR if BEST_EVALUATION == "network" else BEST_HEURISTIC_EVALUATOR,
              page=PageLimits(count=20_000, seconds=5.0, settings={"max_nodes": PAGE_TREE_NODES},
                              memory=PAGE_TREE_NODES * 88, menu=("0.2s", "1s"))),
    AgentKind("best-net", best_net_agent, "best's search on the learned evaluation",
              unit="iterations", in_vector=True, evaluator=BEST_NET_EVALUATOR, network=True,
              page=PageLimits(count=20_000, seconds=5.0, settings={"max_nodes": PAGE_TREE_NODES},
                              memory=PAGE_TREE_NODES * 88, menu=("1s",))),
    AgentKind("best-heuristic", best_heuristic_agent, "best's search on the heuristic",
              unit="iterations", in_vector=True, evaluator=BEST_HEURISTIC_EVALUATOR,
              page=PageLimits(count=20_000, seconds=5.0, settings={"max_nodes": PAGE_TREE_NODES},
                              memory=PAGE_TREE_NODES * 88)),
)
"""Every agent kind, in the order help texts and the ladder list them."""
REGISTRY: Mapping[str, AgentKind] = MappingProxyType({kind.name: kind for kind in KINDS})
"""The kinds by name (read-only)."""


def _budget_help() -> str:
    """``BUDGET: iterations (alphabeta: nodes) like 500, or seconds like 0.5s``: the most
    common unit, then the kinds counted in another."""
    units = [kind.unit for kind in KINDS if kind.unit]
    usual = max(units, key=units.count)
    others = ", ".join(f"{kind.name}: {kind.unit}" for kind in KINDS if kind.unit not in (None, usual))
    return f"BUDGET: {usual}" + (f" ({others})" if others else "") + " like 500, or seconds like 0.5s"


BUDGET_HELP = _budget_help()
"""What a search spec's budget is, for help texts and error messages."""
NETWORK_KINDS = tuple(kind.name for kind in KINDS if kind.network)
"""The kinds whose spec may name a network file: ``best-net(FILE):400``."""
NETWORK_HELP = "FILE: a .vnet network file's path, without parentheses, or 'default' for the shipped network"
"""What a spec's network is, for help texts and error messages."""
AGENT_SPECS = ", ".join(f"'{kind.spec}'" for kind in KINDS) + f" ({BUDGET_HELP}; {NETWORK_HELP})"
"""The agent specs make_agent accepts, for help texts and error messages."""
LADDER_SPECS = tuple(kind.name + (":{budget}" if kind.unit else "") for kind in KINDS if kind.ladder)
"""Every agent of the ladder (``tools/ladder.py``, victorus.tournament.ladder_agents): ``{budget}`` is
replaced by each budget of the ladder, a spec without it plays once."""
VECTOR_KINDS = tuple(kind.name for kind in KINDS if kind.in_vector)
"""The kinds that play inside the step of VectorGames."""
OPPONENT_SPECS = (", ".join(f"'{kind.name}" + ("[:BUDGET]'" if kind.unit else "'")
                            for kind in KINDS if kind.in_vector) + f" ({BUDGET_HELP})")
"""The specs of the kinds of VECTOR_KINDS, for error messages."""
#: The agents the page's menu offers for a seat, its default first (any spec within its
#: kind's PageLimits is accepted).
PAGE_DEFAULT = "greedy"
PAGE_MENU = (PAGE_DEFAULT, *(spec for kind in KINDS if kind.page for budget in kind.page.menu
                             if (spec := kind.name + (f":{budget}" if budget else "")) != PAGE_DEFAULT))
"""The agents the page's menu offers for a seat, PAGE_DEFAULT first (any spec within its kind's PageLimits
is accepted)."""


_SPEC = re.compile(r"(?P<kind>[A-Za-z0-9_-]+)(?:\((?P<network>[^()]*)\))?(?::(?P<budget>.*))?",
                   re.DOTALL)
"""An agent spec: ``kind``, then ``(FILE)`` for a network, then ``:BUDGET``."""


def split_spec(spec: str) -> tuple[AgentKind, str | None, str | None]:
    """An agent spec's parts: its kind, the network file it names (``best-net(FILE):400``;
    None: none named) and its budget (the text after ':'; None: no ':').

    Args:
        spec: An agent spec (AGENT_SPECS).

    Returns:
        Its kind, its network and its budget, as written.

    Raises:
        ConfigError: If ``spec`` is not a string naming a kind, names a network for a kind
            that takes none, or an empty one.
    """
    if not isinstance(spec, str):
        raise ConfigError(f"agent spec must be a string, got {shown(spec, 60)}")
    match = _SPEC.fullmatch(spec)
    kind = REGISTRY.get(match["kind"]) if match else None
    named = re.match(r"[A-Za-z0-9_-]+\(", spec)
    if match is None and named and named[0][:-1] in NETWORK_KINDS:
        raise ConfigError(f"unreadable agent {shown(spec, 80)}: its network is written "
                          f"'{named[0][:-1]}(FILE)[:BUDGET]' ({NETWORK_HELP})")
    if match is None or kind is None or (kind.unit is None and match["budget"] is not None):
        raise ConfigError(f"unknown agent {shown(spec, 80)}: accepted are {AGENT_SPECS}")
    network = match["network"]
    if network is not None and not kind.network:
        raise ConfigError(f"{shown(spec, 80)}: {kind.name} takes no network; the kinds that do are "
                          f"{', '.join(NETWORK_KINDS)}, as 'KIND(FILE):BUDGET' ({NETWORK_HELP})")
    if network is not None and not network.strip():
        raise ConfigError(f"{shown(spec, 80)}: the network between the parentheses is empty ({NETWORK_HELP})")
    return kind, network, match["budget"]


def kind_of(spec: str) -> AgentKind:
    """The registered kind of an agent spec (its name before ':' or '('), or ConfigError.

    Args:
        spec: An agent spec.

    Returns:
        Its kind.

    Raises:
        ConfigError: If ``spec`` is not a string naming a kind (`split_spec`).
    """
    return split_spec(spec)[0]


def _spec_network(spec: str, network: str) -> Network:
    """The network a spec names, or NetworkFileError naming the spec, the file and what is accepted."""
    try:
        return network_from(network.strip())
    except NetworkFileError as error:
        raise NetworkFileError(f"agent {shown(spec, 80)}: {error} ({NETWORK_HELP})") from None


LEAF_SETTINGS = ("evaluator", "network", "weights", "rollout_actions", "evaluated", "evaluated_priors")
"""The settings that name a search's leaf evaluation themselves (then the kind's evaluator is not given)."""


def _with_evaluator(kind: AgentKind, settings: Mapping[str, Any]) -> dict[str, Any]:
    """``settings`` with the kind's evaluator (a search over an evaluator), unless they name
    the leaves' evaluation themselves (LEAF_SETTINGS)."""
    if kind.evaluator is None or any(name in settings for name in LEAF_SETTINGS):
        return dict(settings)
    return {**settings, "evaluator": make_evaluator(kind.evaluator)}


def make_agent(spec: str, seed: int | None = None, **settings: Any) -> BuiltinAgent:
    """An agent from a spec (AGENT_SPECS): ``mcts:2000``, ``mcts:0.5s@2``, ``mcts-py:200``;
    a kind of NETWORK_KINDS names its network file in parentheses: ``best-net(my.vnet):400``
    (named ``best-net(my.vnet):400``), as ``make_agent("best-net:400", network="my.vnet")``.
    ``settings``: more keyword arguments of the kind's class (``max_nodes``...).

    Args:
        spec: The agent spec.
        seed: Seeds the agent (None: fresh entropy).
        **settings: More keyword arguments of the kind's class.

    Returns:
        The agent.

    Raises:
        ConfigError: If the spec, its budget or a setting is not accepted, or the spec
            names a network and ``settings`` one too.
        NetworkFileError: If the network the spec names cannot be read.
    """
    kind, network, budget_text = split_spec(spec)
    if network is not None:
        if "network" in settings:
            raise ConfigError(f"{shown(spec, 80)} names its network: give no network= beside it")
        settings = {**settings, "network": _spec_network(spec, network)}
    if kind.unit is None:
        return kind.build(seed=seed, **settings)
    budget = parse_budget(kind.name, budget_text or "", spec, threads=kind.threads)
    agent = kind.build(seed=seed, **budget, **_with_evaluator(kind, settings))
    if network is not None:
        agent.name = f"{kind.name}({network.strip()}):{agent.name.partition(':')[2]}"
    return agent


def make_vector_opponent(spec: str | VectorAgent, game: Game | None = None) -> Opponent:
    """The native opponent (victorus.search._policy.Opponent) of an agent spec that plays
    inside the step of VectorGames, or of an agent of such a kind (its settings: a network
    of your own...); else ConfigError naming the kinds that do. ``game``: the games' start,
    which an agent's network must have been trained for.

    Args:
        spec: An agent spec of a kind in VECTOR_KINDS, or an agent of such a kind.
        game: The games' start (None: no check of the agent's network).

    Returns:
        The native opponent.

    Raises:
        ConfigError: If ``spec`` is neither, or the network was not trained for ``game``.
    """
    agent: VectorAgent
    if isinstance(spec, NativeAgent):
        agent = spec
    elif isinstance(spec, str) and (match := _SPEC.fullmatch(spec)) and match["kind"] in VECTOR_KINDS:
        agent = cast(VectorAgent, make_agent(spec, seed=0))     # a kind that plays in the step
    else:
        raise ConfigError(f"unknown agent {shown(spec, 60)}; the agents that play inside the step are "
                          f"{OPPONENT_SPECS}")
    network = getattr(agent, "network", None)
    if game is not None and network is not None:
        network.check(game)
    return agent.native_opponent()


def make_page_agent(spec: str, seed: int | None = None) -> BuiltinAgent:
    """An agent for a seat of the page: ``spec`` within its kind's PageLimits (its budget,
    threads), built with the page's settings that bound its memory, and a count budget
    (iterations, nodes) also ended by the page's seconds, whichever comes first, so that a
    decision is bounded in time on any machine; else ConfigError naming the limit.

    Args:
        spec: The agent spec.
        seed: Seeds the agent (None: fresh entropy).

    Returns:
        The agent.

    Raises:
        ConfigError: If the spec is not accepted, its kind is not on the page, or its
            budget is past the page's limits.
    """
    kind, network, budget_text = split_spec(spec)
    limits = kind.page
    if limits is None:
        raise ConfigError(f"{shown(spec, 60)}: {kind.name} does not play on the page")
    if network is not None:              # no file of the server's is read for a page
        raise ConfigError(f"{shown(spec, 60)}: on the page {kind.name} plays the shipped network; "
                          f"give {kind.name}:BUDGET without a network file")
    if kind.unit is None:
        return kind.build(seed=seed, **limits.settings)
    budget = parse_budget(kind.name, budget_text or "", spec, threads=kind.threads)
    count, seconds = budget.get("iterations"), budget.get("seconds")
    if ((count or 0) > (limits.count or 0) or (seconds or 0) > (limits.seconds or 0)
            or budget.get("threads", 1) > limits.threads):
        threads = f", on at most @{limits.threads} threads" if kind.threads else ""
        raise ConfigError(f"{shown(spec, 60)}: on the page {kind.name} takes at most {limits.count:,} "
                          f"{kind.unit} and {limits.seconds:g}s a decision{threads} (the "
                          f"agents share one thread)")
    if count is not None:
        budget["seconds"] = limits.seconds
    return kind.build(seed=seed, **budget, **_with_evaluator(kind, limits.settings))


__all__ = ["AGENT_SPECS", "BEST_EVALUATION", "BEST_HEURISTIC_EVALUATOR", "BEST_NET_EVALUATOR",
           "BEST_NET_SETTINGS", "BEST_SETTINGS", "BUDGET_HELP", "LEAF_SETTINGS",
           "KINDS", "LADDER_SPECS", "NETWORK_HELP", "NETWORK_KINDS",
           "OPPONENT_SPECS", "PAGE_MENU", "REGISTRY", "VECTOR_KINDS", "AgentKind", "BuiltinAgent",
           "VectorAgent",
           "PageLimits", "alphabeta_agent", "alphabeta_net_agent", "best_agent",
           "best_heuristic_agent", "best_net_agent", "kind_of", "make_agent",
           "make_page_agent", "make_vector_opponent", "split_spec"]
