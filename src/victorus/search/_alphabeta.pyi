"""Types of the compiled alpha-beta search (src/victorus/search/_alphabeta.pyx).
tests/test_reference.py holds it to the compiled module."""


from .._engine import Engine, StopToken
from ..evaluation._evaluator import Evaluator
from ._policy import Opponent

#: The deepest search, in actions.
MAX_DEPTH: int
#: The transposition table's size bounds (log2 of its entries, 24 bytes each).
MIN_TABLE_BITS: int
MAX_TABLE_BITS: int

def alphabeta(engine: Engine, depth: int, max_nodes: int, deadline: float, seed: int,
              table_bits: int, evaluator: Evaluator,
              stop: StopToken | None = None) -> tuple[int, float, int, int]: ...


class AlphaBetaOpponent(Opponent):
    def __init__(self, depth: int, max_nodes: int, seconds: float, table_bits: int,
                 evaluator: Evaluator) -> None: ...
