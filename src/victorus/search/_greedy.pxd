# cython: language_level=3
# The greedy agent in C (victorus.search._greedy): a victorus.search._policy.ChooseFn.

from libc.stdint cimport int32_t, uint64_t

from victorus._engine cimport StateC, RulesC
from victorus.search._policy cimport Opponent

cdef int greedy_choose(const StateC* s, const RulesC* r, const void* params, void* workspace,
                       void* memory, uint64_t* rng, const int32_t* actions, int nactions) noexcept nogil

cdef class GreedyOpponent(Opponent):
    pass
