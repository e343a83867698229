# cython: language_level=3
# The alpha-beta search (victorus.search._alphabeta) as an opponent inside the vector games' step:
# its parameter block. Its functions (ChooseFn, workspace) are the module's own: nothing
# cimports them.

from libc.stdint cimport int64_t

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
