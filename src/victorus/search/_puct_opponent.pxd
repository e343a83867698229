# cython: language_level=3
# PUCT with a C evaluator as an opponent inside the vector games' step
# (victorus.search._puct_opponent): a victorus.search._policy.ChooseFn, its parameter block, its
# workspace and its memory of a game (the tree kept between decisions).

from libc.stdint cimport int32_t, int64_t, uint64_t

from victorus._engine cimport StateC, RulesC
from victorus.evaluation._evaluator cimport EvaluatorC
from victorus.search._policy cimport Opponent

ctypedef struct PuctParams:
    int64_t iterations               # per decision; < 0: until the time budget
    double seconds                   # per decision; 0: none
    int batch_size
    int32_t max_nodes
    double c_puct, fpu_reduction, noise_alpha, noise_fraction
    bint reuse_tree
    const EvaluatorC* ev             # the C evaluator of its leaves

cdef class PuctOpponent(Opponent):
    cdef PuctParams params

cdef void* puct_workspace_new(const void* params, const int* cancel) noexcept nogil
cdef void puct_workspace_free(void* workspace) noexcept nogil
cdef void* puct_memory_new(const void* params) noexcept nogil
cdef void puct_memory_free(void* memory) noexcept nogil
cdef void puct_note(void* memory, int32_t code) noexcept nogil
cdef void puct_forget(void* memory) noexcept nogil
cdef int puct_choose(const StateC* s, const RulesC* r, const void* params, void* workspace,
                     void* memory, uint64_t* rng, const int32_t* actions,
                     int nactions) noexcept nogil
