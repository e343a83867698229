"""Types of the compiled evaluator uniform (src/victorus/evaluation/_uniform.pyx).
tests/test_reference.py holds it to the compiled module."""

from ._evaluator import Evaluator

class UniformEvaluator(Evaluator):
    def __init__(self) -> None: ...
