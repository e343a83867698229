# cython: language_level=3
# What the UCT module (victorus.search._mcts) shares with the other searches (victorus.search._puct).

from victorus._engine cimport StateC, RulesC


cdef void mcts_value(const StateC* s, const RulesC* r, float* out) noexcept nogil


# -- the UCT as an opponent inside the vector games' step (a victorus.search._policy.ChooseFn) ----

from libc.stdint cimport int32_t, int64_t, uint64_t

from victorus.search._evaluate cimport EvalWeights
from victorus.search._policy cimport Opponent

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
