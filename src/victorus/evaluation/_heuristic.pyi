"""Types of the compiled heuristic evaluation (src/victorus/evaluation/_heuristic.pyx).
tests/test_reference.py holds it to the compiled module."""

from collections.abc import Mapping

from .._engine import Engine
from ._evaluator import Evaluator

#: The terms, in the order of their weights and of ``engine_terms()``'s rows.
TERMS: tuple[str, ...]

def evaluate_engine(engine: Engine,
                    weights: Mapping[str, float] | None = None) -> tuple[float, ...]: ...
def engine_terms(engine: Engine) -> dict[str, tuple[float, ...]]: ...
def default_weight_values() -> dict[str, float]: ...


class HeuristicEvaluator(Evaluator):
    def __init__(self, weights: Mapping[str, float] | None = None) -> None: ...
    def weight_values(self) -> dict[str, float]: ...
