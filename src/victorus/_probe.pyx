# cython: language_level=3, cdivision=True
"""A naive first-leg generator in C: the yardstick perft's speed is measured against.

The simplest fast program a move generator could be: each cell's army in a byte, the
core's own step tables, and for every piece of the army to move its slides (stopping on
its colors, capturing any other army's piece; R10, R12, R18) and its strategic steps
(R13), each leg written out as a code. No walls, spoke flanks, gates, look-ahead, second
legs, turn or bonus rules: what it generates is not the game's legal actions, only
legs at the price of the plainest table walk. ``victorus bench`` reports perft's leaves
per second as a ratio to this probe's legs per second, measured in the same run.
"""

from libc.stdint cimport int8_t, int32_t, uint8_t, uint16_t, uint64_t
from libc.stdlib cimport malloc, free

from victorus._core cimport Tables, MAX_CELLS, NUM_KINDS, ROYAL_KINDS, STRATEGIC_KINDS
from victorus._engine cimport Engine, Rules, StateC, info_kind, info_edge


ctypedef struct ProbePosition:
    int8_t army[MAX_CELLS]           # -1: empty
    uint8_t kind[MAX_CELLS]
    uint8_t colors[MAX_CELLS]        # bit 0: a leg from here may stop on white, bit 1: grey
    int8_t to_move


cdef int probe_legs(const Tables* t, const uint16_t (*dirs)[NUM_KINDS], const ProbePosition* p,
                    int32_t* out) noexcept nogil:
    """Write every probe leg of the army to move as ``origin | target << 8 | capture << 16``;
    return how many."""
    cdef int n = 0, cell, d, cur, nxt, army = p.to_move
    cdef uint16_t mask
    cdef uint8_t colors
    for cell in range(t.ncells):
        if p.army[cell] != army:
            continue
        colors = p.colors[cell]
        mask = dirs[army][p.kind[cell]]
        for d in range(12):
            if not (mask >> d) & 1:
                continue
            cur = cell
            while True:
                nxt = t.steps[cur][d].to
                if nxt < 0 or nxt == t.centre:
                    break
                if p.army[nxt] >= 0:
                    if p.army[nxt] != army and (colors >> t.color[nxt]) & 1:
                        out[n] = cell | (nxt << 8) | (1 << 16)
                        n += 1
                    break
                if (colors >> t.color[nxt]) & 1:
                    out[n] = cell | (nxt << 8)
                    n += 1
                cur = nxt
        if (STRATEGIC_KINDS >> p.kind[cell]) & 1:           # one edge step along its ring
            for d in range(6):
                nxt = t.steps[cell][d].to
                if ((t.ring[cell] >> d) & 1 and not (mask >> d) & 1 and p.army[nxt] < 0
                        and nxt != t.centre and (colors >> t.color[nxt]) & 1):
                    out[n] = cell | (nxt << 8)
                    n += 1
    return n


cdef class FirstLegProbe:
    """The probe over a fixed set of positions (game engines, copied once)."""
    cdef Rules rules
    cdef ProbePosition* positions
    cdef int count
    cdef readonly uint64_t checksum  # of the last run's legs (what keeps their writes)

    def __init__(self, engines):
        engines = list(engines)
        if not engines:
            raise ValueError("FirstLegProbe needs at least one position")
        self.positions = <ProbePosition*>malloc(len(engines) * sizeof(ProbePosition))
        if self.positions == NULL:
            raise MemoryError("no memory for the probe's positions")
        cdef Engine engine
        cdef const StateC* s
        cdef ProbePosition* p
        cdef int i, cell
        for i, engine in enumerate(engines):
            if self.rules is None:
                self.rules = engine.rules
            elif engine.rules is not self.rules:
                raise ValueError("FirstLegProbe: every position must be of one game's rules")
            s = &engine.s
            p = &self.positions[i]
            p.to_move = s.turn.to_move
            for cell in range(MAX_CELLS):
                p.army[cell] = s.cells[cell].army if cell < self.rules.c.t.ncells else -1
                p.kind[cell] = info_kind(s.cells[cell].info)
                if (ROYAL_KINDS >> p.kind[cell]) & 1:           # R18: the other color
                    p.colors[cell] = 3 - (1 << self.rules.c.t.color[cell])
                else:
                    p.colors[cell] = 1 << info_edge(s.cells[cell].info)
        self.count = len(engines)

    def __dealloc__(self):
        free(self.positions)

    def run(self, int rounds):
        """Generate every position's legs ``rounds`` times, without the GIL; the legs
        generated."""
        cdef int32_t out[4096]
        cdef uint64_t legs = 0, check = 0
        cdef int _round, i, n
        cdef const Tables* t = self.rules.c.t
        with nogil:
            for _round in range(rounds):
                for i in range(self.count):
                    n = probe_legs(t, self.rules.c.dirs, &self.positions[i], out)
                    legs += n
                    if n:
                        check += <uint64_t>out[n - 1]     # the legs are used, not elided
        self.checksum = check
        return legs
