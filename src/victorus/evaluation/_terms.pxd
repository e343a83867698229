# cython: language_level=3
# The terms that the heuristic evaluation (_heuristic) and the learned one (_network) both
# read, written once (victorus.evaluation._terms): the value bound, the share scale of a
# value (team_values), the race's progress
# (R28, R29), material (R37) and the best capture open to the army to act.

from libc.stdint cimport int32_t

from victorus._engine cimport StateC, RulesC

cdef extern from *:
    """
    /* An unfinished position's value stays within (-bound, bound): a real win (its
       returns, +1) counts for more than any position. */
    #define VICTORUS_VALUE_BOUND 0.99
    """
    const double VALUE_BOUND "VICTORUS_VALUE_BOUND"

cdef int present_teams(const RulesC* r, bint* present) noexcept nogil
cdef void team_values(const double* score, const bint* present, double* out) noexcept nogil
cdef int centre_distance(const RulesC* r, int cell) noexcept nogil
cdef int board_rim(const RulesC* r) noexcept nogil
cdef double royal_progress(const StateC* s, const RulesC* r, int cell, int rim) noexcept nogil
cdef void team_material(const StateC* s, const RulesC* r, int* board, int* held,
                        float* material) noexcept nogil
cdef int best_capture(const StateC* s, const RulesC* r, int32_t* actions) noexcept nogil
