# cython: language_level=3
"""``uniform``: every legal action alike and every unfinished position worth each team's
fair share of the win on the share scale of a finished game (``shared_among_live``: 2/k - 1
for the k teams with an active army, -1 for the others; two teams: 0; a finished game: its
``share_returns``), so that a search is driven by finished games alone."""

cimport cython
from libc.stdint cimport uint64_t

from victorus._core cimport RESULT_NONE
from victorus._engine cimport StateC, RulesC, share_returns, shared_among_live
from victorus.evaluation._evaluator cimport made_plain, Evaluator, EvaluatorC


cdef void uniform_value(const EvaluatorC* e, void* workspace, const StateC* s,
                        const RulesC* r, uint64_t* rng, float* out) noexcept nogil:
    """Each team's fair share; a finished game: its share_returns."""
    if s.result != RESULT_NONE:
        share_returns(s, r, out)
    else:
        shared_among_live(s, r, out)


@cython.no_gc_clear
cdef class UniformEvaluator(Evaluator):
    """``uniform``: uniform priors, each team's fair share as the value."""

    def __init__(self):
        made_plain(self, uniform_value, "uniform")
        self.c.uniform_priors = True
