"""Shared declarations of the bitboard core (cimported by the game engine)."""

from libc.stdint cimport uint64_t, uint16_t, uint8_t, int16_t, int8_t, int32_t

# Sizes, piece kinds, action codes...: written by the build from victorus/constants.py.
include "victorus_constants.pxi"

ctypedef struct BB:
    uint64_t w[3]

ctypedef struct Step:
    int16_t to                                 # target cell or -1 (off the board)
    int16_t flank0                             # spoke flank cells, -1 off the board
    int16_t flank1                             # (both -1 for an edge step)
    uint8_t kmask                              # kingdoms touched by the step (R8)
    uint8_t spoke

ctypedef struct Tables:
    int ncells
    int centre
    Step steps[MAX_CELLS][NUM_DIRS]            # one 8-byte record per (cell, direction)
    uint8_t color[MAX_CELLS]
    uint16_t ring[MAX_CELLS]                   # edge directions to same-colored neighbours
    uint8_t kingdom[MAX_CELLS]                 # seat, or NO_KINGDOM
    int16_t portal[NUM_SEATS]                  # R28 portal cell per seat
    uint8_t up_dir[NUM_SEATS]                  # R6 up direction per seat

ctypedef struct LegSpec:
    uint16_t dirs          # bit d set: direction d may be used
    uint8_t colors         # bit 0: may stop on white, bit 1: on grey (R10, R18)
    bint capture           # the leg may capture (R20)
    bint single            # one step only (strategic step R13, pivot R14)
    int8_t gate            # R19: kingdom the leg must stay in, or -1
    int8_t army            # the moving army (its team decides R20)
    bint entry             # R28: the step from the army's portal into the centre is allowed
    int8_t nocap_kingdom   # R37(c): may not capture inside this kingdom, or -1
    bint first_only        # stop at the first destination (existence checks, R16)


cdef inline bint bb_has(const BB* b, int i) noexcept nogil:
    return (b.w[i >> 6] >> (i & 63)) & 1

cdef inline void bb_add(BB* b, int i) noexcept nogil:
    b.w[i >> 6] |= (<uint64_t>1) << (i & 63)

cdef inline void bb_del(BB* b, int i) noexcept nogil:
    b.w[i >> 6] &= ~((<uint64_t>1) << (i & 63))

cdef inline void bb_clear(BB* b) noexcept nogil:
    b.w[0] = 0
    b.w[1] = 0
    b.w[2] = 0

cdef inline void bb_or(BB* a, const BB* b) noexcept nogil:
    a.w[0] |= b.w[0]
    a.w[1] |= b.w[1]
    a.w[2] |= b.w[2]

cdef inline bint bb_empty(const BB* b) noexcept nogil:
    return (b.w[0] | b.w[1] | b.w[2]) == 0

cdef extern from *:
    int popcount64 "__builtin_popcountll"(unsigned long long) noexcept nogil
    int lowest_bit "__builtin_ctzll"(unsigned long long) noexcept nogil

cdef inline bint in_live_kingdom(const Tables* t, uint8_t live, int cell) noexcept nogil:
    cdef uint8_t k = t.kingdom[cell]
    return k != NO_KINGDOM and (live >> k) & 1

cdef inline int bb_count(const BB* b) noexcept nogil:
    return popcount64(b.w[0]) + popcount64(b.w[1]) + popcount64(b.w[2])


cdef void gen_leg(const Tables* t, const BB* total, const BB* friends, uint8_t live,
                  int start, const LegSpec* spec, BB* quiet, BB* captures) noexcept nogil

# The leg rules built on gen_leg, used by Position and by the game engine alike.
cdef void team_friends(const BB* occ, const uint8_t* team, int army, BB* out) noexcept nogil
cdef void strategic_steps(const Tables* t, const BB* total, const BB* friends, uint8_t live,
                          int cell, int army, uint8_t colors, const BB* normal_quiet,
                          BB* out) noexcept nogil
cdef void pivot_leg(const Tables* t, const BB* total, const BB* friends, uint8_t live, int cell,
                    int army, uint8_t colors, int nocap, BB* quiet, BB* captures) noexcept nogil
cdef void travel_leg(const Tables* t, const BB* total, const BB* friends, uint8_t live, int cell,
                     int army, uint8_t colors, BB* out) noexcept nogil
cdef void make_spec(LegSpec* spec, int army, uint16_t dirs, uint8_t colors, bint capture,
                    bint single, int gate, bint entry, int nocap, bint first_only) noexcept nogil

cdef list bb_cells(const BB* b)


cdef class BoardTables:
    cdef Tables t


cdef class Position:
    cdef readonly BoardTables tables
    cdef BB occ[NUM_SEATS]
    cdef BB total
    cdef int8_t owner[MAX_CELLS]
    cdef uint8_t team[NUM_SEATS]
    cdef uint8_t live_mask

    cdef int _cell(self, cell) except -1
    cdef int _army(self, army) except -1
    cdef void _friends(self, int army, BB* out) noexcept nogil
    cdef void _leg(self, int cell, LegSpec* spec, BB* quiet, BB* captures) noexcept nogil
    cdef int _spec(self, LegSpec* spec, int cell, int army, int dirs, int colors, bint capture,
                   bint single, int gate, bint entry, int nocap_kingdom) except -1
