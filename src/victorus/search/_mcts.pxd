# cython: language_level=3
# The UCT (victorus.search._mcts) as an opponent inside the vector games' step: its
# parameter block. Its functions (ChooseFn, workspace) are the module's own: nothing
# cimports them.

from libc.stdint cimport int32_t, int64_t

from victorus.evaluation._evaluator cimport EvaluatorC
from victorus.search._policy cimport Opponent

ctypedef struct MctsParams:
    int64_t iterations               # per decision; < 0: until the time budget
    double seconds                   # per decision; 0: none
    double c                         # UCT exploration constant
    int32_t max_nodes                # the tree's size bound
    const EvaluatorC* ev             # values a new leaf (the UCT's: rollouts(n, material))

cdef class MctsOpponent(Opponent):
    cdef MctsParams params
