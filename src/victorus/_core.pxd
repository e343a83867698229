"""Shared declarations of the bitboard core (cimported by the game engine)."""

from libc.stdint cimport uint64_t, uint32_t, uint16_t, uint8_t, int16_t, int8_t, int32_t

# Sizes, piece kinds, action codes...: written by the build from victorus/constants.py.
include "victorus_constants.pxi"

ctypedef struct BB:
    uint64_t w[3]

ctypedef struct Step:
    int16_t to                                 # target cell or -1 (off the board)
    int16_t flank0                             # spoke flank cells, -1 off the board
    int16_t flank1                             # (both -1 for an edge step)
    uint8_t kmask                              # kingdoms touched by the step (R8)
    uint8_t special                            # STEP_* bits: what a slide checks here

# What makes a step more than "the next cell": set by BoardTables from the other fields.
# A step with none of them (most steps) only asks whether its target is free.
cdef enum:
    STEP_OFF = 1                               # to < 0: off the board
    STEP_WALL = 2                              # two or more kingdoms in kmask (R8)
    STEP_FLANKED = 4                           # a spoke step with both flanks on the board (R12)

ctypedef struct Tables:
    int ncells
    int centre
    Step steps[MAX_CELLS][NUM_DIRS]            # one 8-byte record per (cell, direction)
    uint8_t color[MAX_CELLS]
    uint16_t ring[MAX_CELLS]                   # edge directions to same-colored neighbours
    uint8_t kingdom[MAX_CELLS]                 # seat, or NO_KINGDOM
    int16_t portal[NUM_SEATS]                  # R28 portal cell per seat
    uint8_t up_dir[NUM_SEATS]                  # R6 up direction per seat
    # Where a slide can look, for taking a leg again in some directions only: the cells
    # of each straight line from a cell (to the board's edge or the centre; the lines
    # from one cell share no cell, BoardTables checks it), and per pair of cells the
    # directions from the first whose line holds the second or a spoke flank beside it
    # (seen_from), or holds a cell whose pivot (R14) steps onto it (pivots_from).
    BB rays[MAX_CELLS][NUM_DIRS]
    uint16_t seen_from[MAX_CELLS][MAX_CELLS]
    uint16_t pivots_from[MAX_CELLS][MAX_CELLS]

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

# Bit counts (declared in _portable.pxd, with the rest of portable.h).
from victorus._portable cimport popcount64, lowest_bit

cdef inline bint in_live_kingdom(const Tables* t, uint8_t live, int cell) noexcept nogil:
    cdef uint8_t k = t.kingdom[cell]
    return k != NO_KINGDOM and (live >> k) & 1

cdef inline int bb_count(const BB* b) noexcept nogil:
    return popcount64(b.w[0]) + popcount64(b.w[1]) + popcount64(b.w[2])


# The leg rules, inline in every module that generates legs (the core's Position and the
# game engine): called once per piece and node, they must not cost a call across modules.

ctypedef struct Reads:
    # The cells whose occupancy a leg looked at (gen_leg's ``reads``), two ways. ``cells``:
    # all of them; over a board that differs only elsewhere, the same leg has the same
    # destinations and looks at the same cells. ``one_leg``: those where one quiet leg of
    # another piece (one cell emptied, one filled) can change the destinations; a spoke's
    # flank only where the other flank blocks, since one filled cell cannot block a spoke
    # whose flanks are both free, and an emptied one was not free.
    BB cells
    BB one_leg


cdef inline void reads_add(Reads* reads, int cell) noexcept nogil:
    bb_add(&reads.cells, cell)
    bb_add(&reads.one_leg, cell)


cdef inline bint walled(const Step* st, uint8_t live) noexcept nogil:
    """R8: the step touches two live kingdoms (a wall)."""
    cdef uint8_t walls
    if not st.special & STEP_WALL:
        return False
    walls = st.kmask & live
    return walls & (walls - 1) != 0


cdef inline void gen_leg(const Tables* t, const BB* total, const BB* friends, uint8_t live,
                         int start, const LegSpec* spec, BB* quiet, BB* captures,
                         Reads* reads) noexcept nogil:
    """Destinations of one leg from ``start`` (R12): slides, walls, spokes, R19, R20, R28.

    ``reads``, unless NULL, gains the cells whose occupancy the leg looked at (Reads: all
    of them, and those where one quiet leg elsewhere can change the destinations)."""
    cdef int d, cur, nxt
    cdef uint8_t k_start, k_dest
    cdef bint block0, block1
    cdef uint32_t dirs = spec.dirs
    cdef const Step* st
    cdef int centre = t.centre
    cdef BB blockers = total[0]                      # R12: pieces and the centre block flanks
    bb_add(&blockers, centre)
    if spec.gate >= 0 and t.kingdom[start] != spec.gate:    # R19: gated outside its kingdom
        return
    k_start = t.kingdom[start] if in_live_kingdom(t, live, start) else NO_KINGDOM
    while dirs:
        d = lowest_bit(dirs)
        dirs &= dirs - 1
        cur = start
        while True:
            st = &t.steps[cur][d]
            nxt = st.to
            if st.special:
                if st.special & STEP_OFF or walled(st, live):
                    break
                if st.special & STEP_FLANKED:
                    block0 = bb_has(&blockers, st.flank0)     # (block1: where it matters)
                    block1 = (block0 or reads != NULL) and bb_has(&blockers, st.flank1)
                    if reads != NULL:                # one filled cell blocks a spoke only
                        bb_add(&reads.cells, st.flank0)      # if the other flank blocks
                        bb_add(&reads.cells, st.flank1)
                        if block1:
                            bb_add(&reads.one_leg, st.flank0)
                        if block0:
                            bb_add(&reads.one_leg, st.flank1)
                    if block0 and block1:            # R12: a spoke between blockers
                        break
            if spec.gate >= 0 and t.kingdom[nxt] != spec.gate:   # R19
                break
            if nxt == centre:                        # R28: only the portal entry
                if spec.entry and cur == t.portal[spec.army] and d == t.up_dir[spec.army]:
                    bb_add(quiet, nxt)
                    if spec.first_only:
                        return
                break
            if reads != NULL:                        # and this cell's
                reads_add(reads, nxt)
            if bb_has(total, nxt):
                if (spec.capture and not bb_has(friends, nxt)
                        and (spec.colors >> t.color[nxt]) & 1):
                    k_dest = t.kingdom[nxt] if in_live_kingdom(t, live, nxt) else NO_KINGDOM
                    if ((k_start == NO_KINGDOM or k_dest == NO_KINGDOM or k_start == k_dest)
                            and not (spec.nocap_kingdom >= 0 and k_dest == spec.nocap_kingdom)):
                        bb_add(captures, nxt)        # R20
                        if spec.first_only:
                            return
                break
            if (spec.colors >> t.color[nxt]) & 1:
                bb_add(quiet, nxt)
                if spec.first_only:
                    return
            if spec.single:
                break
            cur = nxt


cdef inline void make_spec(LegSpec* spec, int army, uint16_t dirs, uint8_t colors, bint capture,
                           bint single, int gate, bint entry, int nocap, bint first_only) noexcept nogil:
    spec.dirs = dirs
    spec.colors = colors
    spec.capture = capture
    spec.single = single
    spec.gate = gate
    spec.army = army
    spec.entry = entry
    spec.nocap_kingdom = nocap
    spec.first_only = first_only


cdef inline void team_friends(const BB* occ, const uint8_t* team, int army,
                              BB* out) noexcept nogil:
    """Cells of ``army``'s team (R33): they block but are never captured."""
    cdef int a
    bb_clear(out)
    for a in range(NUM_SEATS):
        if team[a] == team[army]:
            bb_or(out, &occ[a])


cdef inline void strategic_steps(const Tables* t, const BB* total, uint8_t live, int cell,
                                 uint32_t dirs, uint8_t colors, const BB* normal_quiet, BB* out,
                                 Reads* reads) noexcept nogil:
    """R13: one edge step to an empty cell of the piece's color, never a capture; a step
    that ``normal_quiet`` (the piece's normal leg) already reaches is that normal leg.

    gen_leg's rules for one step that may not capture, written out: only ring
    neighbours share the piece's color (R5), so no other edge step can stop, and
    they are on the board, never the centre (its own color) and have no spoke flanks.
    ``dirs``: ``t.ring[cell]``, or the part of it to take again."""
    cdef int nxt
    cdef const Step* st
    bb_clear(out)
    while dirs:
        st = &t.steps[cell][lowest_bit(dirs)]
        dirs &= dirs - 1
        if walled(st, live):                         # R8
            continue
        nxt = st.to
        if reads != NULL:
            reads_add(reads, nxt)
        if not bb_has(total, nxt) and (colors >> t.color[nxt]) & 1:
            bb_add(out, nxt)
    out.w[0] &= ~normal_quiet.w[0]
    out.w[1] &= ~normal_quiet.w[1]
    out.w[2] &= ~normal_quiet.w[2]


cdef inline void pivot_leg(const Tables* t, const BB* total, const BB* friends, uint8_t live,
                           int cell, int army, uint8_t colors, int nocap, bint first_only,
                           BB* quiet, BB* captures, Reads* reads) noexcept nogil:
    """R14: one edge step to a same-colored neighbour, quiet or capture (R37(c): none
    inside ``nocap``'s kingdom); with ``first_only``, only the first found (is there one?)."""
    cdef LegSpec spec
    make_spec(&spec, army, t.ring[cell], colors, True, True, -1, False, nocap, first_only)
    bb_clear(quiet)
    bb_clear(captures)
    gen_leg(t, total, friends, live, cell, &spec, quiet, captures, reads)


cdef inline void travel_leg(const Tables* t, const BB* total, const BB* friends, uint8_t live,
                            int cell, int army, uint32_t dirs, uint8_t colors, BB* out,
                            Reads* reads) noexcept nogil:
    """R14, R16: spoke slides to empty cells of the color from which a pivot exists;
    ``dirs``: SPOKE_MASK, or the part of it to take again."""
    cdef LegSpec spec
    cdef BB ends, caps, pq, pc
    cdef int word, p
    cdef uint64_t x
    make_spec(&spec, army, dirs, colors, False, False, -1, False, -1, False)
    bb_clear(&ends)
    bb_clear(&caps)
    gen_leg(t, total, friends, live, cell, &spec, &ends, &caps, reads)
    bb_clear(out)
    # The start cell is never edge-adjacent to a travel destination, so the
    # piece still standing there cannot change any pivot.
    for word in range(3):
        x = ends.w[word]
        while x:
            p = word * 64 + lowest_bit(x)
            x &= x - 1
            pivot_leg(t, total, friends, live, p, army, colors, -1, True, &pq, &pc, reads)
            if not (bb_empty(&pq) and bb_empty(&pc)):
                bb_add(out, p)


cdef list bb_cells(const BB* b)


cdef class BoardTables:
    cdef Tables t

    cdef int _lines(self) except -1


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
