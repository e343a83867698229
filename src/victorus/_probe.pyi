"""Types of the compiled first-leg probe (src/victorus/_probe.pyx, victorus bench).
tests/test_reference.py holds it to the compiled module."""

from collections.abc import Sequence

from ._engine import Engine

class FirstLegProbe:
    checksum: int

    def __init__(self, engines: Sequence[Engine]) -> None: ...
    def run(self, rounds: int) -> int: ...
