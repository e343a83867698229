# cython: language_level=3
# What the UCT module (victorus._mcts) shares with the other searches (victorus._puct).

from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

from victorus._engine cimport StateC, RulesC


cdef inline double now_seconds() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef void mcts_value(const StateC* s, const RulesC* r, float* out) noexcept nogil
