# cython: language_level=3, cdivision=True
"""Bitboard core: one-leg move generation over a hex board (R10-R14, R19, R20, R28).

Boards are fixed-width 192-bit sets (three 64-bit words). The geometry tables
come from :mod:`victorus.geometry` (derived, never typed in) and are validated
once in :class:`BoardTables`; the generation loops run without bounds checks
and without Python objects. :class:`Position` keeps the occupancy per army,
the team of every army and the set of live kingdoms, updated incrementally.
"""

from cpython cimport array
import array

from libc.stdint cimport uint64_t
from libc.string cimport memset


cdef list bb_cells(const BB* b):
    """Cell indices of a bitboard in increasing order (Python boundary only)."""
    cdef list out = []
    cdef int word, bit
    cdef uint64_t x
    for word in range(3):
        x = b.w[word]
        bit = 0
        while x:
            if x & 1:
                out.append(word * 64 + bit)
            x >>= 1
            bit += 1
    return out


cdef class BoardTables:
    """Validated geometry tables of one board, in the core's C layout."""

    def __init__(self, int ncells, int centre, steps, flanks, kmasks, colors,
                 kingdoms, portals, up_dirs):
        if not 0 < ncells <= MAX_CELLS:
            raise ValueError(f"ncells must be in 1..{MAX_CELLS}, got {ncells}")
        if not 0 <= centre < ncells:
            raise ValueError(f"centre {centre} is not a cell")
        _check_len("steps", steps, ncells * NUM_DIRS)
        _check_len("flanks", flanks, ncells * NUM_DIRS * 2)
        _check_len("kmasks", kmasks, ncells * NUM_DIRS)
        _check_len("colors", colors, ncells)
        _check_len("kingdoms", kingdoms, ncells)
        _check_len("portals", portals, NUM_SEATS)
        _check_len("up_dirs", up_dirs, NUM_SEATS)
        memset(&self.t, 0, sizeof(Tables))
        self.t.ncells = ncells
        self.t.centre = centre
        cdef int i, d, k
        cdef Step* st
        for i in range(ncells):
            self.t.color[i] = _checked(colors[i], 0, 2, "color")
            self.t.kingdom[i] = _checked(kingdoms[i], 0, NO_KINGDOM, "kingdom")
            for d in range(NUM_DIRS):
                st = &self.t.steps[i][d]
                st.to = _checked(steps[i * NUM_DIRS + d], -1, ncells - 1, "step")
                st.kmask = _checked(kmasks[i * NUM_DIRS + d], 0, 63, "kingdom mask")
                st.flank0 = _checked(flanks[(i * NUM_DIRS + d) * 2], -1, ncells - 1, "flank")
                st.flank1 = _checked(flanks[(i * NUM_DIRS + d) * 2 + 1], -1, ncells - 1, "flank")
                st.special = ((STEP_OFF if st.to < 0 else 0)
                              | (STEP_WALL if st.kmask & (st.kmask - 1) else 0)
                              | (STEP_FLANKED if not (EDGE_MASK >> d) & 1 and st.flank0 >= 0
                                 and st.flank1 >= 0 else 0))
        for i in range(ncells):
            self.t.ring[i] = 0
            for d in range(6):
                k = self.t.steps[i][d].to
                if k >= 0 and self.t.color[k] == self.t.color[i]:
                    self.t.ring[i] |= 1 << d
        self._lines()
        for i in range(NUM_SEATS):
            self.t.portal[i] = _checked(portals[i], 0, ncells - 1, "portal")
            self.t.up_dir[i] = _checked(up_dirs[i], 0, NUM_DIRS - 1, "direction")

    cdef int _lines(self) except -1:
        """rays, seen_from and pivots_from: each straight line from each cell, step by
        step to the board's edge or the centre, with its spoke flanks and the cells its
        cells pivot onto (R14). Refuses lines that cross or loop."""
        cdef int i, d, e, cur, nxt
        cdef BB lines
        cdef const Step* st
        for i in range(self.t.ncells):
            bb_clear(&lines)
            for d in range(NUM_DIRS):
                bb_clear(&self.t.rays[i][d])
                cur = i
                while True:                          # ends: a cell seen twice raises
                    st = &self.t.steps[cur][d]
                    nxt = st.to
                    if nxt < 0:
                        break
                    if nxt == i or bb_has(&lines, nxt) or bb_has(&self.t.rays[i][d], nxt):
                        raise ValueError(f"the lines from cell {i} cross or loop at cell {nxt}")
                    bb_add(&self.t.rays[i][d], nxt)
                    self.t.seen_from[i][nxt] |= 1 << d
                    for e in range(NUM_DIRS):                # R14: pivots from nxt
                        if (self.t.ring[nxt] >> e) & 1:
                            self.t.pivots_from[i][self.t.steps[nxt][e].to] |= 1 << d
                    if st.special & STEP_FLANKED:
                        self.t.seen_from[i][st.flank0] |= 1 << d
                        self.t.seen_from[i][st.flank1] |= 1 << d
                    if nxt == self.t.centre:
                        break
                    cur = nxt
                bb_or(&lines, &self.t.rays[i][d])
        return 0

    @property
    def ncells(self):
        return self.t.ncells


def _check_len(name, seq, int expected):
    if len(seq) != expected:
        raise ValueError(f"{name}: expected {expected} entries, got {len(seq)}")


cdef int _checked(value, int lo, int hi, str what) except? -2:
    cdef int v = value
    if not lo <= v <= hi:
        raise ValueError(f"{what} {v} out of range {lo}..{hi}")
    return v


cdef class Position:
    """Occupancy of a board by up to six armies, with teams and live kingdoms.

    Kept in step with the game by :meth:`put` and :meth:`remove`; leg
    generation reads it without touching Python objects.
    """
    def __init__(self, BoardTables tables, teams=(0, 1, 2, 3, 4, 5), int live=0x3F):
        self.tables = tables
        cdef int i
        for i in range(NUM_SEATS):
            bb_clear(&self.occ[i])
        bb_clear(&self.total)
        for i in range(MAX_CELLS):
            self.owner[i] = -1
        self.set_teams(teams)
        self.set_live(live)

    def copy(self):
        """An independent copy (same tables, copied occupancy)."""
        cdef Position other = Position.__new__(Position)
        other.tables = self.tables
        other.occ = self.occ
        other.total = self.total
        other.owner = self.owner
        other.team = self.team
        other.live_mask = self.live_mask
        return other

    def set_teams(self, teams):
        """Team of each army (R33); armies of one team never capture each other."""
        if len(teams) != NUM_SEATS:
            raise ValueError(f"teams: expected {NUM_SEATS} entries, got {len(teams)}")
        cdef int i
        for i in range(NUM_SEATS):
            self.team[i] = _checked(teams[i], 0, NUM_SEATS - 1, "team")

    def set_live(self, int live):
        """Bit s set: seat s's kingdom is live (R8, R30)."""
        if not 0 <= live <= 0x3F:
            raise ValueError(f"live kingdom mask must be in 0..63, got {live}")
        self.live_mask = live

    @property
    def live(self):
        return self.live_mask

    cdef int _cell(self, cell) except -1:
        cdef int c = cell
        if not 0 <= c < self.tables.t.ncells:
            raise ValueError(f"cell index {c} out of range 0..{self.tables.t.ncells - 1}")
        return c

    cdef int _army(self, army) except -1:
        cdef int a = army
        if not 0 <= a < NUM_SEATS:
            raise ValueError(f"army {a} out of range 0..{NUM_SEATS - 1}")
        return a

    def put(self, cell, army):
        """Place a piece of ``army`` on an empty, non-centre cell."""
        cdef int c = self._cell(cell), a = self._army(army)
        if c == self.tables.t.centre:
            raise ValueError("the centre never holds a piece (R20)")
        if self.owner[c] >= 0:
            raise ValueError(f"cell {c} is already occupied")
        self.owner[c] = a
        bb_add(&self.occ[a], c)
        bb_add(&self.total, c)

    def remove(self, cell):
        """Empty an occupied cell."""
        cdef int c = self._cell(cell)
        cdef int a = self.owner[c]
        if a < 0:
            raise ValueError(f"cell {c} is empty")
        self.owner[c] = -1
        bb_del(&self.occ[a], c)
        bb_del(&self.total, c)

    def army_at(self, cell):
        """Army on a cell, or None."""
        cdef int a = self.owner[self._cell(cell)]
        return None if a < 0 else a

    def occupied(self, army=None):
        """Occupied cell indices, of one army or of all."""
        if army is None:
            return bb_cells(&self.total)
        return bb_cells(&self.occ[self._army(army)])

    cdef void _friends(self, int army, BB* out) noexcept nogil:
        team_friends(self.occ, self.team, army, out)

    cdef void _leg(self, int cell, LegSpec* spec, BB* quiet, BB* captures) noexcept nogil:
        cdef BB friends
        self._friends(spec.army, &friends)
        bb_clear(quiet)
        bb_clear(captures)
        gen_leg(&self.tables.t, &self.total, &friends, self.live_mask, cell, spec, quiet, captures,
                NULL)

    cdef int _spec(self, LegSpec* spec, int cell, int army, int dirs, int colors, bint capture,
                   bint single, int gate, bint entry, int nocap_kingdom) except -1:
        self._cell(cell)
        spec.army = self._army(army)
        spec.dirs = _checked(dirs, 0, (1 << NUM_DIRS) - 1, "direction mask")
        spec.colors = _checked(colors, 0, 3, "color mask")
        spec.capture = capture
        spec.single = single
        spec.gate = _checked(gate, -1, NUM_SEATS - 1, "gate kingdom")
        spec.entry = entry
        spec.nocap_kingdom = _checked(nocap_kingdom, -1, NUM_SEATS - 1, "no-capture kingdom")
        spec.first_only = False
        return 0

    def leg(self, int cell, int army, int dirs, int colors, bint capture=True,
            bint single=False, int gate=-1, bint entry=False, int nocap_kingdom=-1):
        """Quiet and capture destinations (sorted cell lists) of one leg (R12).

        ``dirs`` is a bit mask of direction indices (geometry.DIRECTIONS),
        ``colors`` bit 0 allows stopping on white, bit 1 on grey. ``gate`` is
        the R19 kingdom or -1; ``entry`` allows the R28 portal step.
        """
        cdef LegSpec spec
        cdef BB quiet, captures
        self._spec(&spec, cell, army, dirs, colors, capture, single, gate, entry, nocap_kingdom)
        self._leg(cell, &spec, &quiet, &captures)
        return bb_cells(&quiet), bb_cells(&captures)

    def mobility(self, const int[:] movers):
        """Destination counts (quiet + captures) of many legs in one call.

        ``movers`` is a flat int buffer of (cell, army, direction mask, colors)
        quadruples, e.g. ``array('i', ...)``; returns an ``array('i')`` of counts.
        Each leg is generated as by :meth:`leg` with its defaults.
        """
        if movers.shape[0] % 4:
            raise ValueError(f"movers: a flat sequence of (cell, army, dirs, colors) "
                             f"quadruples, got {movers.shape[0]} numbers")
        cdef Py_ssize_t n = movers.shape[0] // 4, i
        cdef LegSpec spec
        for i in range(n):      # validate at the boundary: the loop below trusts the data
            self._spec(&spec, movers[4 * i], movers[4 * i + 1], movers[4 * i + 2],
                       movers[4 * i + 3], True, False, -1, False, -1)
        counts = array.array("i", bytes(4 * n))
        cdef int[:] out = counts
        cdef BB quiet, captures
        with nogil:
            for i in range(n):
                spec.army = movers[4 * i + 1]
                spec.dirs = movers[4 * i + 2]
                spec.colors = movers[4 * i + 3]
                self._leg(movers[4 * i], &spec, &quiet, &captures)
                out[i] = bb_count(&quiet) + bb_count(&captures)
        return counts

    def strategic_step(self, int cell, int army, int colors, int normal_dirs):
        """R13: empty edge-adjacent cells of the color that no normal leg reaches."""
        cdef LegSpec spec
        cdef BB captures, normal_quiet, steps
        self._spec(&spec, cell, army, normal_dirs, colors, False, False, -1, False, -1)
        self._leg(cell, &spec, &normal_quiet, &captures)
        strategic_steps(&self.tables.t, &self.total, self.live_mask, cell,
                        self.tables.t.ring[cell], colors, &normal_quiet, &steps, NULL)
        return bb_cells(&steps)

    def pivot(self, int cell, int army, int colors, int nocap_kingdom=-1):
        """R14 pivot leg: one edge step to a same-colored neighbour, quiet or capture."""
        cdef LegSpec spec
        cdef BB quiet, captures, friends
        self._spec(&spec, cell, army, EDGE_MASK, colors, True, True, -1, False, nocap_kingdom)
        self._friends(army, &friends)
        pivot_leg(&self.tables.t, &self.total, &friends, self.live_mask, cell, army, colors,
                  nocap_kingdom, False, &quiet, &captures, NULL)
        return bb_cells(&quiet), bb_cells(&captures)

    def travel(self, int cell, int army, int colors):
        """R14 travel leg: spoke slides to empty cells from which a pivot exists."""
        cdef LegSpec spec
        cdef BB result, friends
        self._spec(&spec, cell, army, SPOKE_MASK, colors, False, False, -1, False, -1)
        self._friends(army, &friends)
        travel_leg(&self.tables.t, &self.total, &friends, self.live_mask, cell, army, SPOKE_MASK,
                   colors, &result, NULL)
        return bb_cells(&result)
