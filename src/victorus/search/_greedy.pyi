"""Types of the compiled greedy agent (src/victorus/search/_greedy.pyx).
tests/test_reference.py holds it to the compiled module."""

from .._engine import Engine
from ._policy import Opponent

def choose(e: Engine, rng: int) -> tuple[int, int]: ...


class GreedyOpponent(Opponent):
    def __init__(self) -> None: ...
