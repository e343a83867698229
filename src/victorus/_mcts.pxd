# cython: language_level=3
# What the UCT module (victorus._mcts) shares with the other searches (victorus._puct).

from victorus._engine cimport StateC, RulesC


# Monotonic seconds (portable.h: clock_gettime(CLOCK_MONOTONIC) on POSIX,
# QueryPerformanceCounter on Windows).
cdef extern from "portable.h":
    double now_seconds "victorus_now_seconds"() noexcept nogil


cdef void mcts_value(const StateC* s, const RulesC* r, float* out) noexcept nogil
