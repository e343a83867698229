"""Types of the compiled UCT (src/victorus/search/_mcts.pyx).
tests/test_reference.py holds it to the compiled module."""

from .._engine import Engine, StopToken
from ..evaluation._evaluator import Evaluator
from ._policy import Opponent

class MctsOpponent(Opponent):
    def __init__(self, iterations: int, seconds: float, c: float, max_nodes: int,
                 evaluator: Evaluator) -> None: ...


def mcts(engine: Engine, iterations: int, deadline: float, threads: int, seed: int,
         c: float, max_nodes: int, evaluator: Evaluator,
         stop: StopToken | None = None) -> tuple[list[int], list[float], int, int, int]: ...
