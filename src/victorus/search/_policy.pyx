# cython: language_level=3
"""The opponent interface of the vector games' step (declared in _policy.pxd): the base
type every C agent fills, the uniformly random agent, and what every search agent shares
with its opponent in C: the decisive shortcut, the deadlines' clock and the agents'
random draws."""

from libc.stdint cimport int32_t, uint64_t

from victorus._engine cimport Engine, MAX_ACTIONS, gen_actions
from victorus._portable cimport MAX_THREADS, now_seconds

#: Threads a search may use (the UCT's root parallelism).
MAX_WORKER_THREADS = MAX_THREADS


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


def decisive(Engine engine):
    """The index (legal_actions() order) of the only legal action or the first that wins
    at once for the army to act, or -1: victorus.search.decisive."""
    cdef int32_t actions[MAX_ACTIONS]
    cdef StateC trial
    cdef int n = gen_actions(&engine.s, &engine.rules.c, actions)
    return decisive_index(&engine.s, &engine.rules.c, actions, n, &trial) if n else -1


def monotonic():
    """The clock of the searches' deadlines (monotonic seconds, read in C without the GIL
    as the searches read it): a deadline is ``monotonic()`` at a decision's start plus its
    budget."""
    return now_seconds()


def splitmix_draw(uint64_t state):
    """One draw from a 64-bit splitmix64 random state, as the C agents draw: (the draw,
    the state after it)."""
    cdef uint64_t drawn = splitmix64(&state)
    return drawn, state
