# cython: language_level=3
# PUCT with a C evaluator as an opponent inside the vector games' step
# (victorus.search._puct_opponent): its parameter block. Its functions (ChooseFn, workspace,
# its memory of a game: the tree kept between decisions) are the module's own: nothing
# cimports them.

from libc.stdint cimport int32_t, int64_t

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
