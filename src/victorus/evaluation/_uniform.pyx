# cython: language_level=3
"""``uniform``: every legal action alike and every unfinished position worth each team's
fair share of the win on the share scale of a finished game, ``2/k - 1`` for ``k`` present
teams (two teams: 0; a finished game: its ``share_returns``), so that a search is driven by
finished games alone."""

cimport cython
from libc.stdint cimport uint64_t

from victorus._core cimport NUM_SEATS, RESULT_NONE
from victorus._engine cimport StateC, RulesC, share_returns
from victorus.evaluation._evaluator cimport made_plain, Evaluator, EvaluatorC
from victorus.evaluation._terms cimport present_teams


cdef void uniform_value(const EvaluatorC* e, void* workspace, const StateC* s,
                        const RulesC* r, uint64_t* rng, float* out) noexcept nogil:
    """The fair share per present seat (0 for an absent one); a finished game: its
    share_returns."""
    cdef bint present[NUM_SEATS]
    cdef int a, teams
    if s.result != RESULT_NONE:
        share_returns(s, r, out)
        return
    teams = present_teams(r, present)
    for a in range(NUM_SEATS):
        out[a] = 2.0 / teams - 1.0 if (r.present >> a) & 1 else 0.0


@cython.no_gc_clear
cdef class UniformEvaluator(Evaluator):
    """``uniform``: uniform priors, each team's fair share as the value."""

    def __init__(self):
        made_plain(self, uniform_value, "uniform")
        self.c.uniform_priors = True
