"""What every search agent shares: the budget (iterations, seconds, threads) and its
spec grammar, the shortcut for a decisive action, and
[`SearchResult`][victorus.search.budgets.SearchResult]."""

from __future__ import annotations

import inspect
import math
import re
from dataclasses import dataclass
from typing import Protocol, TypedDict

from ..checks import check_int, parse_int, shown
from ..errors import ConfigError
from ..game import Game
from ..notation import Action
from . import _mcts


class Agent(Protocol):
    """What every agent is (`victorus.agents`): a ``name`` and ``choose(game)``, a legal
    action of the army to act. The built-in agents' ``choose`` also takes ``stop``
    (`takes_stop`)."""

    name: str

    def choose(self, game: Game) -> Action:
        """The action to play.

        Args:
            game: The position (not over); the agent may play and undo on it.

        Returns:
            A legal action of the army to act.
        """


def check_seconds(seconds: float | None) -> None:
    """A time budget per decision: None, or a number in (0, MAX_SECONDS].

    Args:
        seconds: The budget to check.

    Raises:
        ConfigError: If it is neither None nor such a number.
    """
    if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, (int, float))
                                or not 0 < seconds <= MAX_SECONDS):
        raise ConfigError(f"seconds must be a number in (0, {MAX_SECONDS}], got {shown(seconds, 60)}")


def check_budget(iterations: int | None, seconds: float | None, threads: int) -> None:
    """A search budget: ``iterations`` and/or ``seconds``, on ``threads`` threads.

    Args:
        iterations: Iterations per decision (None: no count), 1 to MAX_ITERATIONS.
        seconds: Seconds per decision (None: no time limit), as `check_seconds` takes it.
        threads: Search threads, 1 to MAX_THREADS.

    Raises:
        ConfigError: If both are None, or one is out of its range.
    """
    if iterations is None and seconds is None:
        raise ConfigError("give a search budget: iterations, seconds or both")
    if iterations is not None:
        check_int("iterations", iterations, 1, MAX_ITERATIONS)
    check_seconds(seconds)
    check_int("threads", threads, 1, MAX_THREADS)


def budget_name(kind: str, iterations: int | None, seconds: float | None, threads: int) -> str:
    """An agent's name from its kind and budget: ``mcts:500``, ``mcts:0.5s@2``.

    Args:
        kind: The kind's name.
        iterations: Its count budget (None: the seconds name it).
        seconds: Its seconds per decision, used when ``iterations`` is None.
        threads: Its threads (shown as ``@<threads>`` above 1).

    Returns:
        The agent's name.
    """
    budget = f"{seconds:g}s" if iterations is None else str(iterations)
    return f"{kind}:{budget}" + (f"@{threads}" if threads > 1 else "")


#: Bounds of an MCTS budget: seconds per decision, search threads, iterations (a node's
#: visits are 32-bit counters in the engine).
MAX_SECONDS, MAX_THREADS, MAX_ITERATIONS = 3600.0, _mcts.MAX_WORKER_THREADS, 2**31 - 1


def takes_stop(agent: Agent) -> bool:
    """Whether ``agent.choose`` takes a ``stop`` token (every built-in agent does; an
    agent of one's own needs only ``choose(game)``).

    Args:
        agent: The agent.

    Returns:
        True if its ``choose`` has a ``stop`` parameter.
    """
    try:
        return "stop" in inspect.signature(agent.choose).parameters
    except (TypeError, ValueError):              # a builtin or C callable: no signature
        return False


def legal_now(game: Game, name: str) -> list[Action]:
    """The legal actions; ConfigError on a finished game, as every agent refuses one.

    Args:
        game: The position.
        name: The agent's name, for the error.

    Returns:
        ``game.legal_actions()``.

    Raises:
        ConfigError: If the game is over.
    """
    if game.is_over:
        raise ConfigError(f"the game is over: {name} has nothing to choose")
    return game.legal_actions()


def decisive(game: Game, actions: list[Action]) -> Action | None:
    """The only legal action, or the first that wins at once (``actions``: the game's
    legal_actions()); None if there is neither. In C (``victorus.search._policy``), as the
    search opponents inside [`victorus.vector.VectorGames`][victorus.vector.VectorGames] take it.

    Args:
        game: The position.
        actions: Its legal actions, in legal_actions() order.

    Returns:
        The decisive action, or None.
    """
    index = _mcts.decisive(game._engine)
    return None if index < 0 else actions[index]


class SplitMix64:
    """A 64-bit splitmix64 random state as a search agent's ``rng``: ``getrandbits(64)``
    draws a search's seed as the C agents do. Given the state of
    [`victorus.vector.VectorGames.agent_rng`][victorus.vector.VectorGames.agent_rng], an
    [`MCTSAgent`][victorus.search.mcts.MCTSAgent],
    [`AlphaBetaAgent`][victorus.search.alphabeta.AlphaBetaAgent]
    or [`PUCTAgent`][victorus.search.puct.PUCTAgent] plays as that game's opponents of the same spec (one
    draw per searched decision); ``state`` is then theirs again.

    Args:
        state: The 64-bit state, 0 to 2**64 - 1.

    Raises:
        ConfigError: If ``state`` is not such an integer.
    """

    def __init__(self, state: int) -> None:
        check_int("state", state, 0, 2**64 - 1)
        self.state = state

    def getrandbits(self, k: int) -> int:
        """The next draw, as ``random.Random.getrandbits(64)``.

        Args:
            k: The bits drawn: 64 only.

        Returns:
            A 64-bit integer.

        Raises:
            ConfigError: If ``k`` is not 64.
        """
        if k != 64:
            raise ConfigError(f"SplitMix64 draws 64 bits at a time, got {shown(k, 60)}")
        drawn, self.state = _mcts.splitmix_draw(self.state)
        return drawn


@dataclass(frozen=True)
class SearchResult:
    """What an MCTS search found: the root's legal ``actions`` (legal_actions() order),
    the ``visits`` and mean ``values`` (for the army to act) of each, and the chosen
    ``action`` (most visits, first of equals).

    Args:
        action: The chosen action.
        actions: The root's legal actions, in legal_actions() order.
        visits: Each action's visits.
        values: Each action's mean value for the army to act.
        iterations: The iterations searched.
        nodes: The nodes the tree grew to.
        priors: PUCT: the evaluator's prior of each action (else empty).
        seat_values: PUCT: the root's mean value for each seat, 6 (else empty).
    """

    action: Action
    actions: tuple[Action, ...]
    visits: tuple[int, ...]
    values: tuple[float, ...]
    iterations: int
    nodes: int
    priors: tuple[float, ...] = ()          # PUCT: the evaluator's prior of each action
    seat_values: tuple[float, ...] = ()     # PUCT: the root's mean value for each seat (6)

    def policy(self, temperature: float = 1.0) -> tuple[float, ...]:
        """The visit distribution as a training target: visits^(1/temperature),
        normalised; temperature 0 puts all the weight on the most visited action (first
        of equals). Uniform when nothing was visited.

        Args:
            temperature: A number >= 0.

        Returns:
            One probability per action, in ``actions`` order.

        Raises:
            ConfigError: If ``temperature`` is not a number >= 0.
        """
        if isinstance(temperature, bool) or not isinstance(temperature, (int, float)) \
                or not 0 <= temperature < math.inf:
            raise ConfigError(f"temperature must be a number >= 0, got {shown(temperature, 60)}")
        n = len(self.visits)
        if not sum(self.visits):
            return (1.0 / n,) * n
        if temperature == 0:
            best = max(range(n), key=lambda i: (self.visits[i], -i))
            return tuple(float(i == best) for i in range(n))
        top = max(self.visits)
        weights = [(v / top) ** (1.0 / temperature) for v in self.visits]
        total = sum(weights)
        return tuple(w / total for w in weights)


_BUDGET = re.compile(r"(?:(?P<iterations>[0-9]+)|(?P<seconds>[0-9]+(?:\.[0-9]*)?|\.[0-9]+)s)"
                     r"(?:@(?P<threads>[0-9]+))?")


class Budget(TypedDict, total=False):
    """make_agent's keyword arguments for a budget (`parse_budget`)."""

    iterations: int | None
    seconds: float | None
    threads: int


def parse_budget(kind: str, arg: str, spec: str, threads: bool = False) -> Budget:
    """make_agent's keyword arguments for a search spec's budget ``arg`` (empty: the
    default): ``<iterations>`` or ``<seconds>s``, then ``@<threads>`` if ``threads``.

    Args:
        kind: The kind's name, for the error.
        arg: The budget: the spec after its ':'.
        spec: The whole spec, for the error.
        threads: Whether ``@<threads>`` is accepted.

    Returns:
        ``iterations``, ``seconds`` and ``threads`` as given (none: the default budget).

    Raises:
        ConfigError: If ``arg`` is not such a budget.
    """
    match = _BUDGET.fullmatch(arg)
    if arg and (match is None or (match["threads"] and not threads)):
        at = ", then optionally '@<threads>'" if threads else ""
        raise ConfigError(f"bad search budget in {shown(spec, 60)}: '{kind}:<iterations>' or "
                          f"'{kind}:<seconds>s' with a positive number{at}")
    kwargs: Budget = {}
    if match and match["iterations"]:
        kwargs.update({"iterations": parse_int(f"spec {shown(spec, 40)}: iterations", match["iterations"],
                                               1, MAX_ITERATIONS, canonical=False)})
    elif match:
        kwargs.update({"iterations": None, "seconds": float(match["seconds"])})   # (no digit limit)
    if match and match["threads"]:
        kwargs.update({"threads": parse_int(f"spec {shown(spec, 40)}: threads", match["threads"], 1,
                                            MAX_THREADS, canonical=False)})
    return kwargs
