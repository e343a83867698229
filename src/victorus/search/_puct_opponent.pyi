"""Types of the compiled PUCT opponent of the vector games' step
(src/victorus/search/_puct_opponent.pyx). tests/test_reference.py holds it to the compiled
module."""

from ..evaluation._evaluator import Evaluator
from ._policy import Opponent

class PuctOpponent(Opponent):
    def __init__(self, iterations: int, seconds: float, batch_size: int, max_nodes: int,
                 c_puct: float, fpu_reduction: float, noise_alpha: float, noise_fraction: float,
                 reuse_tree: bool, evaluator: Evaluator) -> None: ...
