# cython: language_level=3
# The heuristic evaluation (victorus.evaluation._heuristic) as other C modules see it: the
# weights record and the nogil function giving a value per seat.

from victorus._engine cimport StateC, RulesC
from victorus.evaluation._evaluator cimport Evaluator

ctypedef struct EvalWeights:
    float material       # per 10 R37 points (board and held) of the team against the mean
    float danger         # per own King or Queen a legal capture of an opponent attacks
    float progress       # per unit of R28/R29 progress of the team's best royal
    float captures       # per 10 points of the best capture open to the army to act
    float mobility       # per 100 legal actions of the team's armies at their turn start

cdef enum:
    EVAL_TERMS = 5

cdef void default_weights(EvalWeights* w) noexcept nogil
cdef void evaluate(const StateC* s, const RulesC* r, const EvalWeights* w,
                   float* out) noexcept nogil

cdef class HeuristicEvaluator(Evaluator):
    cdef EvalWeights weights
