# cython: language_level=3, cdivision=True
"""``material``: the UCT's own scoring of a position, as an evaluator: a finished game's
returns (``share_returns``: a draw shared among the teams still in it); otherwise each live
team's fair share of the win (2/k - 1 for k live teams) plus its R37 material (board and
held) against the teams' mean, squashed into (-1/t, 1/t) for t present teams (two teams:
0.5 tanh about 0), so that a real win always counts for more. No priors of its own."""

cimport cython
from libc.math cimport tanh
from libc.stdint cimport uint64_t

from victorus._core cimport NUM_SEATS, RESULT_NONE
from victorus._engine cimport StateC, RulesC, share_returns, shared_among_live, material_points
from victorus.evaluation._evaluator cimport made_plain, Evaluator, EvaluatorC


cdef void material_value(const EvaluatorC* e, void* workspace, const StateC* s,
                         const RulesC* r, uint64_t* rng, float* out) noexcept nogil:
    """Per seat: the result (share_returns) of a finished game; otherwise, for a team with
    an active army, its fair share (``shared_among_live``, 2/k - 1) plus its R37 material
    against the teams' mean squashed into (-1/t, 1/t) for t present teams (two teams:
    (-0.5, 0.5) about 0), and -1 for the others."""
    cdef double team_points[NUM_SEATS]
    cdef bint team_present[NUM_SEATS]
    cdef int board[NUM_SEATS]
    cdef int held[NUM_SEATS]
    cdef double total = 0, mean
    cdef int a, teams = 0
    if s.result != RESULT_NONE:
        share_returns(s, r, out)
        return
    shared_among_live(s, r, out)
    material_points(s, r, board, held)
    for a in range(NUM_SEATS):
        team_points[a] = 0
        team_present[a] = False
    for a in range(NUM_SEATS):
        if (r.present >> a) & 1:
            team_present[r.team[a]] = True
        team_points[r.team[a]] += board[a] + held[a]
    for a in range(NUM_SEATS):
        if team_present[a]:
            teams += 1
            total += team_points[a]
    if total <= 0:
        total = 1
    mean = total / teams
    for a in range(NUM_SEATS):
        if (r.present >> a) & 1 and out[a] > -1:
            out[a] += tanh(4 * (team_points[r.team[a]] - mean) / total) / teams


@cython.no_gc_clear
cdef class MaterialEvaluator(Evaluator):
    """``material``: the UCT's scoring (the module's docstring)."""

    def __init__(self):
        made_plain(self, material_value, "material")
