"""Types of the compiled evaluator material (src/victorus/evaluation/_material.pyx).
tests/test_reference.py holds it to the compiled module."""

from ._evaluator import Evaluator

class MaterialEvaluator(Evaluator):
    def __init__(self) -> None: ...
