# cython: language_level=3
# The alpha-beta search (victorus.search._alphabeta) as an opponent inside the vector games' step:
# a victorus.search._policy.ChooseFn, its parameter block and its workspace.

from libc.stdint cimport int32_t, int64_t, uint64_t

from victorus._engine cimport StateC, RulesC
from victorus.evaluation._evaluator cimport EvaluatorC
from victorus.search._policy cimport Opponent

ctypedef struct AlphaBetaParams:
    int depth                        # the deepest iteration, in actions
    int64_t max_nodes                # per decision; < 0: until the time budget
    double seconds                   # per decision; 0: none
    int table_bits                   # the transposition table's 2**table_bits entries
    const EvaluatorC* ev             # values the leaves

cdef class AlphaBetaOpponent(Opponent):
    cdef AlphaBetaParams params

cdef void* alphabeta_workspace_new(const void* params, const int* cancel) noexcept nogil
cdef void alphabeta_workspace_free(void* workspace) noexcept nogil
cdef int alphabeta_choose(const StateC* s, const RulesC* r, const void* params, void* workspace,
                          void* memory, uint64_t* rng, const int32_t* actions, int nactions) noexcept nogil
