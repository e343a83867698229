"""Types of the compiled evaluator lookahead (src/victorus/evaluation/_lookahead.pyx).
tests/test_reference.py holds it to the compiled module."""

from ._evaluator import Evaluator

class LookaheadEvaluator(Evaluator):
    def __init__(self, over: Evaluator, value: Evaluator | None = None) -> None: ...
