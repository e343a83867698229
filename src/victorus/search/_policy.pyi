"""Types of the compiled opponent interface (src/victorus/search/_policy.pyx): the base
of every C agent played inside the vector games' step, and the uniformly random one.
tests/test_reference.py holds it to the compiled module."""


class Opponent:
    def __init__(self) -> None: ...     # raises TypeError: a base, made by a subclass


class RandomOpponent(Opponent):
    def __init__(self) -> None: ...
