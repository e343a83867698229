"""Types of the compiled UCT (src/victorus/search/_mcts.pyx).
tests/test_reference.py holds it to the compiled module."""

from .._engine import Engine, StopToken
from ._policy import Opponent

#: Threads an MCTS search may use.
MAX_WORKER_THREADS: int


class MctsOpponent(Opponent):
    def __init__(self, iterations: int, seconds: float, rollout_actions: int, c: float,
                 max_nodes: int, evaluated: bool) -> None: ...


def decisive(engine: Engine) -> int: ...
def splitmix_draw(state: int) -> tuple[int, int]: ...
def mcts(engine: Engine, iterations: int, seconds: float, threads: int, seed: int,
         rollout_actions: int, c: float, max_nodes: int, stop: StopToken | None = None,
         evaluated: bool = False) -> tuple[list[int], list[float], int, int]: ...
