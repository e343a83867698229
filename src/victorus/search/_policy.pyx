# cython: language_level=3
"""The opponent interface of the vector games' step (declared in _policy.pxd): the base
type every C agent fills, and the uniformly random agent."""


cdef class Opponent:
    """The base of every C agent played inside :class:`victorus.vector.VectorGames`' step;
    a subclass fills the pointers (its search's functions and its parameter block)."""

    def __init__(self):
        raise TypeError("Opponent is a base type: build an agent's opponent with its "
                        "native_opponent()")


cdef class RandomOpponent(Opponent):
    """Uniformly random legal actions, one draw per decision (RandomAgent.native_opponent)."""

    def __init__(self):
        self.choose = random_choose
