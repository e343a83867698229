"""The agent kinds, in one registry (OpenSpiel's registered bots): a kind's name, how it
is built, its budget grammar, whether it plays inside the vector step and what the page
lets it spend. ``make_agent``, the help texts, the ladder, the vector opponents' check and
the page's menu and limits all derive from `KINDS`. A new agent is one entry here
plus its module.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, TypeAlias, cast

from ..checks import shown
from ..errors import ConfigError
from ..evaluation import Evaluator, NetworkFileError, NetworkLike, make_evaluator
from ..evaluation.registry import network as network_evaluator
from ._policy import Opponent
from .agent import SearchAgent
from .alphabeta import AlphaBetaAgent
from .budgets import parse_budget
from .mcts import DEFAULT_EVALUATOR as MCTS_EVALUATOR
from .mcts import MCTSAgent, PythonMCTSAgent
from .protocols import NativeAgent
from .puct import DEFAULT_EVALUATOR as PUCT_EVALUATOR
from .puct import PUCTAgent
from .simple import GreedyAgent, RandomAgent

if TYPE_CHECKING:
    from ..game import Game

BuiltinAgent: TypeAlias = RandomAgent | GreedyAgent | MCTSAgent | PythonMCTSAgent | PUCTAgent | AlphaBetaAgent
"""An agent the registry builds: an instance of one of the built-in kinds' classes."""
VectorAgent: TypeAlias = RandomAgent | GreedyAgent | MCTSAgent | PUCTAgent | AlphaBetaAgent
"""An agent that plays inside the step of VectorGames (``native_opponent()``)."""

BEST_EVALUATOR = "rollouts(3, network(default))"
"""best's leaves: rollouts of 3 actions scored by the shipped network (docs/agents.md: the matches
that chose the learned evaluation and the rollouts' length)."""
BEST_HEURISTIC_EVALUATOR = "rollouts(10, heuristic)"
"""best-heuristic's leaves: rollouts of 10 actions scored by the hand-written evaluation."""
BEST_SETTINGS: Mapping[str, Any] = MappingProxyType({"c_puct": 0.35})
"""The settings of best's PUCT beside its evaluator: measured by matches at 0.05 s a move
(docs/agents.md, the ladder)."""
DEFAULT_SECONDS: Mapping[str, Any] = MappingProxyType({"iterations": None, "seconds": 0.1})
"""The budget of a kind whose spec gives none (``best``, ``alphabeta``): 0.1 s a decision."""


def _alphabeta(seed: int | None = None, iterations: int | None = None, seconds: float | None = None,
               **settings: Any) -> AlphaBetaAgent:
    """AlphaBetaAgent from a parsed budget (its count is in nodes)."""
    return AlphaBetaAgent(iterations, seed, seconds=seconds, **settings)


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
    """One kind of agent, built from what it declares: ``build(seed=..., **budget,
    **settings, evaluator=...)`` with its ``settings`` and its ``evaluator`` spec (a
    network named in the agent's spec or given as ``network=`` replaces the spec's
    ``network(...)`` terms); ``unit`` names its integer budget (None: it takes no
    budget); ``threads``: '@THREADS' accepted; ``in_vector``: it plays inside the step of
    VectorGames (``native_opponent()``); ``ladder``: it plays in the ladder; ``page``: the
    page's limits (None: not on the page).

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
        network: Whether its spec may name a network file, ``kind(FILE):BUDGET``: its
            evaluator reads the learned evaluation.
        settings: The settings it is built with beside its evaluator (``c_puct``...).
        default: Its budget when a spec gives none (empty: its class's own).
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
    settings: Mapping[str, Any] = field(default_factory=dict)
    default: Mapping[str, Any] = field(default_factory=dict)

    @property
    def spec(self) -> str:
        """Its spec's form, as help texts show it."""
        return (self.name + ("[(FILE)]" if self.network else "") + ("[:BUDGET]" if self.unit else "")
                + ("[@THREADS]" if self.threads else ""))


PAGE_TREE_NODES = 100_000
"""The largest tree a seat of the page grows, in nodes (an MCTS node is 56 bytes, a PUCT node 88;
alpha-beta's table entries are 24 bytes, 2**16 of them)."""
PAGE_PUCT = PageLimits(count=20_000, seconds=5.0, settings={"max_nodes": PAGE_TREE_NODES},
                       memory=PAGE_TREE_NODES * 88)
"""A PUCT seat of the page: its tree bounded to PAGE_TREE_NODES nodes."""
PAGE_ALPHABETA = PageLimits(count=2_000_000, seconds=5.0, settings={"table_bits": 16},
                            memory=(1 << 16) * 24)
"""An alpha-beta seat of the page: its table bounded to 2**16 entries."""
PAGE_FREE = PageLimits(menu=("",))
"""A seat of an agent without a search (nothing to bound), on the page's menu."""

KINDS: tuple[AgentKind, ...] = (
    AgentKind("random", RandomAgent, "uniformly random", in_vector=True, page=PAGE_FREE),
    AgentKind("greedy", GreedyAgent, "captures first, in C", in_vector=True, page=PAGE_FREE),
    AgentKind("mcts", MCTSAgent, "UCT in C", unit="iterations", threads=True, in_vector=True,
              evaluator=MCTS_EVALUATOR,
              page=PageLimits(count=20_000, seconds=5.0, threads=4,
                              settings={"max_nodes": PAGE_TREE_NODES},
                              memory=4 * PAGE_TREE_NODES * 56, menu=("0.2s", "1s"))),
    AgentKind("mcts-py", PythonMCTSAgent, "the same UCT in Python", unit="iterations",
              page=PageLimits(count=2_000, seconds=5.0)),
    AgentKind("puct", PUCTAgent, "PUCT in C over rollouts scored by material", unit="iterations",
              in_vector=True, evaluator=PUCT_EVALUATOR, page=PAGE_PUCT),
    AgentKind("alphabeta", _alphabeta, "alpha-beta in C on the heuristic", unit="nodes",
              in_vector=True, evaluator="heuristic", page=PAGE_ALPHABETA, default=DEFAULT_SECONDS),
    AgentKind("alphabeta-net", _alphabeta, "alpha-beta in C on the learned evaluation",
              unit="nodes", in_vector=True, evaluator="network(default)", network=True,
              page=PAGE_ALPHABETA, default=DEFAULT_SECONDS),
    AgentKind("best", PUCTAgent, "the strongest", unit="iterations", in_vector=True,
              evaluator=BEST_EVALUATOR, settings=BEST_SETTINGS, default=DEFAULT_SECONDS,
              page=replace(PAGE_PUCT, menu=("0.2s", "1s"))),
    AgentKind("best-net", PUCTAgent, "best's search on the learned evaluation",
              unit="iterations", in_vector=True, evaluator=BEST_EVALUATOR, network=True,
              settings=BEST_SETTINGS, default=DEFAULT_SECONDS, page=replace(PAGE_PUCT, menu=("1s",))),
    AgentKind("best-heuristic", PUCTAgent, "best's search on the heuristic",
              unit="iterations", in_vector=True, evaluator=BEST_HEURISTIC_EVALUATOR,
              settings=BEST_SETTINGS, default=DEFAULT_SECONDS, page=PAGE_PUCT),
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


def _spec_network(spec: str, network: str) -> Evaluator:
    """The learned evaluation a spec names, or NetworkFileError naming the spec, the file and
    what is accepted."""
    try:
        return network_evaluator(network.strip())
    except NetworkFileError as error:
        raise NetworkFileError(f"agent {shown(spec, 80)}: {error} ({NETWORK_HELP})") from None


def read_spec_network(spec: str) -> tuple[str, Evaluator | None]:
    """The network file an agent spec names (``best-net(FILE):400``), read once: the spec
    without it (``best-net:400``) and the evaluator of its network (``spec`` itself and None
    when it names none). ``make_agent(bare, seed, network=evaluator)`` is the spec's agent
    (but for its name, ``best-net:400``), built without reading the file again: a run that
    builds an agent per game reads each file at its start only.

    Args:
        spec: An agent spec (AGENT_SPECS).

    Returns:
        The spec without its network, and the network's evaluator (None: none named).

    Raises:
        ConfigError: If the spec or its budget is not accepted.
        NetworkFileError: If the network it names cannot be read.
    """
    kind, network, budget = split_spec(spec)
    if network is None:
        return spec, None
    parse_budget(kind.name, budget or "", spec, threads=kind.threads)     # refused before the file
    return kind.name + ("" if budget is None else f":{budget}"), _spec_network(spec, network)


def _build(kind: AgentKind, spec: str, network: str | None, seed: int | None, budget: Mapping[str, Any],
           settings: Mapping[str, Any], given: NetworkLike | None = None) -> BuiltinAgent:
    """``kind``'s agent from what it declares (its settings, its evaluator spec with the network
    named in ``spec`` or ``given`` in place of its own), named by the spec's kind, network and
    budget. ``settings`` may replace its declared settings, or name another ``evaluator``."""
    if network is not None and given is not None:
        raise ConfigError(f"{shown(spec, 80)} names its network: give no network= beside it")
    if (network is not None or given is not None) and "evaluator" in settings:
        raise ConfigError(f"{shown(spec, 80)}: give its network or an evaluator=, not both")
    learned = _spec_network(spec, network) if network is not None else given
    if learned is not None and not kind.network:
        raise ConfigError(f"{shown(spec, 80)}: {kind.name} takes no network; the kinds that do are "
                          f"{', '.join(NETWORK_KINDS)}, as 'KIND(FILE):BUDGET' ({NETWORK_HELP})")
    built = {**kind.settings, **settings}
    if kind.evaluator is not None and "evaluator" not in settings:
        built["evaluator"] = make_evaluator(kind.evaluator, learned)
    if kind.unit is None:
        agent = kind.build(seed=seed, **built)
    else:
        agent = kind.build(seed=seed, **(budget or kind.default), **built)
        agent.name = (f"{kind.name}" + (f"({network.strip()})" if network is not None else "")
                      + ":" + agent.name.partition(":")[2])
    return agent


def make_agent(spec: str, seed: int | None = None, network: NetworkLike | None = None,
               **settings: Any) -> BuiltinAgent:
    """An agent from a spec (AGENT_SPECS): ``mcts:2000``, ``mcts:0.5s@2``, ``mcts-py:200``,
    built from what its kind declares (`AgentKind`: its evaluator spec and settings). A
    kind of NETWORK_KINDS names its network file in parentheses, ``best-net(my.vnet):400``
    (named so), or takes ``network=`` (a .vnet file's path, a Network, or the Evaluator of
    one, ``victorus.evaluation.registry.network(net)``: it pickles, for worker processes):
    either replaces the network of its evaluator spec. ``settings``: more keyword
    arguments of the kind's class (``max_nodes``, ``noise_fraction``..., or ``evaluator``
    in place of the kind's).

    Args:
        spec: The agent spec.
        seed: Seeds the agent (None: fresh entropy).
        network: The learned evaluation of a kind of NETWORK_KINDS (None: its spec's).
        **settings: More keyword arguments of the kind's class.

    Returns:
        The agent.

    Raises:
        ConfigError: If the spec, its budget or a setting is not accepted, the spec
            names a network and ``network`` is given too, or the kind takes no network.
        NetworkFileError: If the network the spec names cannot be read.
    """
    kind, named, budget_text = split_spec(spec)
    budget = ({} if kind.unit is None
              else parse_budget(kind.name, budget_text or "", spec, threads=kind.threads))
    return _build(kind, spec, named, seed, budget, settings, network)


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
    if game is not None and isinstance(agent, SearchAgent):
        agent.check(game)
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
        return _build(kind, spec, None, seed, {}, limits.settings)
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
    return _build(kind, spec, None, seed, budget, limits.settings)


__all__ = ["AGENT_SPECS", "BEST_EVALUATOR", "BEST_HEURISTIC_EVALUATOR", "BEST_SETTINGS", "BUDGET_HELP",
           "DEFAULT_SECONDS", "KINDS", "LADDER_SPECS", "NETWORK_HELP", "NETWORK_KINDS",
           "OPPONENT_SPECS", "PAGE_MENU", "REGISTRY", "VECTOR_KINDS", "AgentKind", "BuiltinAgent",
           "PageLimits", "VectorAgent", "kind_of", "make_agent", "make_page_agent",
           "make_vector_opponent", "read_spec_network", "split_spec"]
