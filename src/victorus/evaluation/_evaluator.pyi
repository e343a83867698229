"""Types of the compiled evaluator interface (src/victorus/evaluation/_evaluator.pyx).
tests/test_reference.py holds it to the compiled module."""

from typing import Any

from .network import Network

class Evaluator:
    @property
    def spec(self) -> str: ...
    @property
    def network(self) -> Network | None: ...
    def __reduce__(self) -> tuple[Any, ...]: ...
