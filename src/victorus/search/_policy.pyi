"""Types of the compiled opponent interface (src/victorus/search/_policy.pyx): the base
of every C agent played inside the vector games' step, the uniformly random one, and the
decisive shortcut, the deadlines' clock and the agents' random draws.
tests/test_reference.py holds it to the compiled module."""


from .._engine import Engine
from ..evaluation._evaluator import Evaluator

#: Threads a search may use (the UCT's root parallelism).
MAX_WORKER_THREADS: int


class Opponent:
    def __init__(self) -> None: ...     # raises TypeError: a base, made by a subclass
    @property
    def evaluator(self) -> Evaluator | None: ...


class RandomOpponent(Opponent):
    def __init__(self) -> None: ...


def decisive(engine: Engine) -> int: ...
def monotonic() -> float: ...
def splitmix_draw(state: int) -> tuple[int, int]: ...
