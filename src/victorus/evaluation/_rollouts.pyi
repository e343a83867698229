"""Types of the compiled evaluator rollouts (src/victorus/evaluation/_rollouts.pyx).
tests/test_reference.py holds it to the compiled module."""

from ._evaluator import Evaluator

class RolloutsEvaluator(Evaluator):
    def __init__(self, actions: int, over: Evaluator) -> None: ...
    @property
    def actions(self) -> int: ...
