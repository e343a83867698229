# cython: language_level=3
# What the UCT module (victorus._mcts) shares with the other searches (victorus._puct).

from victorus._engine cimport StateC, RulesC


# Monotonic seconds (portable.h: clock_gettime(CLOCK_MONOTONIC) on POSIX,
# QueryPerformanceCounter on Windows).
cdef extern from "portable.h":
    double now_seconds "victorus_now_seconds"() noexcept nogil


cdef void mcts_value(const StateC* s, const RulesC* r, float* out) noexcept nogil


# -- the UCT as an opponent inside the vector games' step (a victorus._policy.ChooseFn) ----

from libc.stdint cimport int32_t, int64_t, uint64_t

from victorus._evaluate cimport EvalWeights
from victorus._policy cimport Opponent

ctypedef struct MctsParams:
    int64_t iterations               # per decision; < 0: until the time budget
    double seconds                   # per decision; 0: none
    int32_t rollout_actions
    double c                         # UCT exploration constant
    int32_t max_nodes                # the tree's size bound
    bint evaluated                   # rollouts scored by the evaluation (else material)
    EvalWeights weights              # the evaluation's default weights

cdef class MctsOpponent(Opponent):
    cdef MctsParams params

cdef void* mcts_workspace_new(const void* params, const int* cancel) noexcept nogil
cdef void mcts_workspace_free(void* workspace) noexcept nogil
cdef int mcts_choose(const StateC* s, const RulesC* r, const void* params, void* workspace,
                     void* memory, uint64_t* rng, const int32_t* actions, int nactions) noexcept nogil
