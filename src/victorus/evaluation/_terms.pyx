# cython: language_level=3, cdivision=True
"""The terms that the heuristic evaluation (``_heuristic``) and the learned one
(``_network``) both read, each computed here once: the value bound, the share scale of a
value (`team_values`), the race to the centre
of a King or Queen (R28, R29), the teams' material (R37, board and held) and the best
capture open to the army to act."""

from libc.math cimport exp
from libc.stdint cimport int32_t

from victorus._core cimport NUM_SEATS, QUEEN, WORD_STOP, CAPTURE_FLAG, code_target, kind_points
from victorus._engine cimport (StateC, RulesC, gen_actions, material_points,
                               info_kind, info_royal, piece_laps)

#: An unfinished position's value stays within (-VALUE_BOUND, VALUE_BOUND).
VALUE_BOUND_VALUE = VALUE_BOUND


cdef int present_teams(const RulesC* r, bint* present) noexcept nogil:
    """``present[t]``: whether team number ``t`` (0-5) has a present seat (R33); returns
    how many teams have one."""
    cdef int a, teams = 0
    for a in range(NUM_SEATS):
        present[a] = False
    for a in range(NUM_SEATS):
        if (r.present >> a) & 1:
            present[r.team[a]] = True
    for a in range(NUM_SEATS):
        teams += present[a]
    return teams


cdef void team_values(const double* score, const bint* present, double* out) noexcept nogil:
    """Per team number 0-5, its value on the share scale of a finished game's
    ``share_returns``: ``VALUE_BOUND (2 p - 1)``, ``p`` its share of the win, the softmax of
    ``score`` over the ``present`` teams (0 for a team not present). Two teams: ``VALUE_BOUND
    tanh((score - the other's) / 2)``; k even teams: ``VALUE_BOUND (2/k - 1)``, what a
    drawn or balanced position is worth to each."""
    cdef double top = -1e300, total = 0
    cdef int t
    for t in range(NUM_SEATS):
        if present[t] and score[t] > top:
            top = score[t]
    for t in range(NUM_SEATS):
        out[t] = exp(score[t] - top) if present[t] else 0.0
        total += out[t]
    for t in range(NUM_SEATS):
        out[t] = VALUE_BOUND * (2 * out[t] / total - 1) if present[t] else 0.0


cdef int centre_distance(const RulesC* r, int cell) noexcept nogil:
    """R2: hex distance of a cell from the centre."""
    cdef int q = r.q[cell], rr = r.r[cell], s = -q - rr
    q = -q if q < 0 else q
    rr = -rr if rr < 0 else rr
    s = -s if s < 0 else s
    return q if q >= rr and q >= s else rr if rr >= s else s


cdef int board_rim(const RulesC* r) noexcept nogil:
    """The largest hex distance of a cell from the centre (6 compact, 9 standard)."""
    cdef int i, rim = 2
    for i in range(r.t.ncells):
        rim = max(rim, centre_distance(r, i))
    return rim


cdef double royal_progress(const StateC* s, const RulesC* r, int cell, int rim) noexcept nogil:
    """R28/R29: the winding of the King or Queen on ``cell`` as a fraction of a lap,
    clipped to [0, 1], times (1 + closeness) / 2 (closeness: 1 next to the centre, 0 at
    hex distance ``rim``)."""
    cdef int army = s.cells[cell].army, kq = info_kind(s.cells[cell].info) == QUEEN
    cdef double lap = (r.base[army][kq][cell] + 360.0 * piece_laps(s, &s.cells[cell])) / 360.0
    cdef double closeness = (rim - centre_distance(r, cell)) / <double>(rim - 1)
    lap = 0.0 if lap < 0 else 1.0 if lap > 1 else lap
    return lap * (1.0 + closeness) / 2.0


cdef void team_material(const StateC* s, const RulesC* r, int* board, int* held,
                        float* material) noexcept nogil:
    """R37 points per army on the board (``board``) and held (``held``, R20), and per
    team the sum of both over its armies, per 10 (``material``, team numbers 0-5)."""
    cdef int a
    material_points(s, r, board, held)
    for a in range(NUM_SEATS):
        material[a] = 0
    for a in range(NUM_SEATS):
        material[r.team[a]] += (board[a] + held[a]) / 10.0


cdef int best_capture(const StateC* s, const RulesC* r, int32_t* actions) noexcept nogil:
    """The R37 points of the most valuable piece the army to act can capture now (its
    legal actions; ``actions``: scratch room for MAX_ACTIONS), 0 if none."""
    cdef int n = gen_actions(s, r, actions), i, target, best = 0
    for i in range(n):
        if actions[i] < WORD_STOP and actions[i] & CAPTURE_FLAG:
            target = code_target(actions[i])
            if s.cells[target].army >= 0:
                best = max(best, kind_points(info_kind(s.cells[target].info),
                                             info_royal(s.cells[target].info)))
    return best
