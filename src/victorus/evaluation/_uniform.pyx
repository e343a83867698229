# cython: language_level=3
"""``uniform``: every legal action alike and a value of 0 for every unfinished position (a
finished game: its returns), so that a search is driven by finished games alone."""

cimport cython
from libc.stdint cimport uint64_t
from libc.string cimport memset

from victorus._core cimport NUM_SEATS, RESULT_NONE
from victorus._engine cimport StateC, RulesC, team_returns
from victorus.evaluation._evaluator cimport made_plain, Evaluator, EvaluatorC


cdef void uniform_value(const EvaluatorC* e, void* workspace, const StateC* s,
                        const RulesC* r, uint64_t* rng, float* out) noexcept nogil:
    """0 per seat; a finished game: its returns."""
    if s.result != RESULT_NONE:
        team_returns(s, r, out)
    else:
        memset(out, 0, NUM_SEATS * sizeof(float))


@cython.no_gc_clear
cdef class UniformEvaluator(Evaluator):
    """``uniform``: uniform priors, values of 0."""

    def __init__(self):
        made_plain(self, uniform_value, "uniform")
        self.c.uniform_priors = True
