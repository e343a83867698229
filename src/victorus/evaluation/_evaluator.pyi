"""Types of the compiled evaluator interface (src/victorus/evaluation/_evaluator.pyx).
tests/test_reference.py holds it to the compiled module."""

from .network import Network

class Evaluator:
    def __init__(self) -> None: ...
    @property
    def spec(self) -> str: ...
    @property
    def network(self) -> Network | None: ...
