"""What every search agent's budget is: iterations, seconds and threads, their bounds and
checks, an agent's name from its budget, the budget grammar of the specs, and the clock
and deadline of a time budget.

A time budget bounds the whole decision: its deadline is `now` when ``choose`` or
``search`` is called plus the seconds, and everything until the call returns counts
(the checks, the copy of the game, the tree's reuse, the evaluator's workspace, the
search, the choice and its result). The searches read the clock in C without the GIL:
the alpha-beta every 32 nodes, MCTS every iteration, PUCT after every batch; each
does its least work even past the deadline (alpha-beta its depth 1, MCTS one iteration
a tree, PUCT one batch: the root evaluated), so a budget already spent still gives a
legal, searched choice.
"""

from __future__ import annotations

import re
from typing import TypedDict

from ..checks import check_int, parse_int, shown
from ..errors import ConfigError
from . import _policy


def now() -> float:
    """The searches' clock: monotonic seconds, the clock their C code reads a deadline on.

    Returns:
        Seconds since an arbitrary start.
    """
    return _policy.monotonic()


def deadline(seconds: float | None, start: float) -> float:
    """The deadline of a decision with a budget of ``seconds`` started at ``start``.

    Args:
        seconds: The time budget (None: none).
        start: `now` when the decision was asked for.

    Returns:
        The deadline on `now`'s clock, 0.0 for none (the searches' convention); a deadline
        at or before the clock's zero (a start read long ago on a machine just booted) is
        the smallest positive time, already past, never "none".
    """
    return max(start + seconds, MIN_DEADLINE) if seconds else 0.0


MIN_DEADLINE = 1e-9
"""The earliest deadline: 0.0 means none, so a deadline is never below this."""


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


def check_budget(iterations: int | None, seconds: float | None, threads: int, *,
                 unit: str = "iterations", most: int | None = None) -> None:
    """A search budget: ``iterations`` (counted in ``unit``) and/or ``seconds``, on
    ``threads`` threads.

    Args:
        iterations: Its count per decision (None: no count), 1 to ``most``.
        seconds: Seconds per decision (None: no time limit), as `check_seconds` takes it.
        threads: Search threads, 1 to MAX_THREADS.
        unit: What the count counts, for the errors: "iterations", "nodes".
        most: The largest count (None: MAX_ITERATIONS).

    Raises:
        ConfigError: If both are None, or one is out of its range.
    """
    if iterations is None and seconds is None:
        raise ConfigError(f"give a search budget: {unit}, seconds or both")
    if iterations is not None:
        check_int(unit, iterations, 1, MAX_ITERATIONS if most is None else most)
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
MAX_SECONDS, MAX_THREADS, MAX_ITERATIONS = 3600.0, _policy.MAX_WORKER_THREADS, 2**31 - 1


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
