# Part of the C engine, included by src/victorus/_engine.pyx (which lists the order).
# Position keys (64-bit, for transposition tables and repetition), position
# equality, and the hashed perft's lock-free table of subtree counts (R40).

# -- position keys (search: transposition tables, repetition) --------------------------
# A 64-bit key of everything that decides what happens next: the pieces (kind, edge,
# royal, tally, laps), the held pieces in order, the armies, the army to act, the phase
# and every bonus-state field, the frozen pieces, the pass count and, in the quick game,
# the round. Each part is mixed with its own salt (a Zobrist key whose random table is a
# hash function); ``salt`` gives independent keys (collision measurements).


cdef inline uint64_t part_salt(uint64_t salt, int part) noexcept nogil:
    """An independent random 64-bit salt per part of the key (and per ``salt``)."""
    return mix64(mix64(salt) + <uint64_t>(part + 1) * <uint64_t>0x9E3779B97F4A7C15)


cdef enum:
    KEY_PARTS = 7 + TURN_FIELD_COUNT           # pieces, held, armies, the turn, result, frozen

cdef uint64_t KEY_SALTS[KEY_PARTS]              # the part salts of salt 0, made once
for _part in range(KEY_PARTS):
    KEY_SALTS[_part] = part_salt(0, _part)


cdef uint64_t position_key(const StateC* s, const RulesC* r, uint64_t salt) noexcept nogil:
    cdef uint64_t key = 0, x
    cdef uint64_t salts[KEY_PARTS]
    cdef int i
    if salt == 0:
        memcpy(salts, KEY_SALTS, sizeof(salts))
    else:
        for i in range(KEY_PARTS):
            salts[i] = part_salt(salt, i)
    cdef uint64_t pieces = salts[0], held_salt = salts[1], armies = salts[2]
    cdef const PieceC* p
    cdef const HeldC* h
    cdef int word, c, a
    cdef int rank[NUM_SEATS]
    for word in range(3):
        x = s.total.w[word]
        while x:
            c = word * 64 + lowest_bit(x)
            x &= x - 1
            p = &s.cells[c]
            key ^= mix64(pieces ^ ((<uint64_t>c << 49) | (<uint64_t>p.army << 46)
                                   | (<uint64_t>info_kind(p.info) << 43)
                                   | (<uint64_t>info_edge(p.info) << 41)
                                   | (<uint64_t>info_royal(p.info) << 40)
                                   | (<uint64_t>p.tally << 32) | <uint32_t>piece_laps(s, p)))
    memset(rank, 0, sizeof(rank))
    for i in range(s.nheld):                    # R39: each army's held pieces in order
        h = &s.held[i]
        rank[h.holder] += 1
        key ^= mix64(held_salt ^ ((<uint64_t>rank[h.holder] << 40) | (<uint64_t>h.holder << 32)
                                  | (<uint64_t>h.army << 24) | (<uint64_t>info_kind(h.info) << 16)
                                  | (<uint64_t>info_edge(h.info) << 8) | info_royal(h.info)))
    for a in range(NUM_SEATS):
        key ^= mix64(armies ^ ((<uint64_t>a << 56) | (<uint64_t>s.army_state[a] << 48)
                               | <uint32_t>s.knight_caps[a]))
    cdef const int32_t* turn = <const int32_t*>&s.turn      # every turn field in order
    for i in range(TURN_FIELD_COUNT):
        if i != TURN_ROUND or r.quick:              # the round only for the round limit (R37a)
            key ^= mix64(salts[3 + i] ^ <uint32_t>turn[i])
    key ^= mix64(salts[3 + TURN_FIELD_COUNT] ^ <uint32_t>(s.result * 256 + s.winners))
    for word in range(3):
        key ^= mix64(salts[4 + TURN_FIELD_COUNT + word] ^ mix64(s.frozen.w[word]))
    return key


# -- hashed perft ----------------------------------------------------------------------
# A transposition table of subtree counts (depth >= 2; depth 1 is counted in bulk), keyed
# by position_key. Threads share it without locks: an entry is two words, the count
# with its depth and that XORed with the key, so a torn entry reads as a miss.

ctypedef struct PerftEntry:
    uint64_t check                   # key ^ data
    uint64_t data                    # count << 8 | depth


cdef class PerftTable:
    """The table of a hashed perft: ``megabytes`` rounded down to a power of two of
    16-byte entries, zeroed."""
    cdef PerftEntry* entries
    cdef uint64_t mask
    cdef readonly uint64_t entry_count

    def __cinit__(self, uint64_t megabytes):
        cdef uint64_t count = 1
        while count * 2 * sizeof(PerftEntry) <= megabytes << 20:
            count *= 2
        self.entries = <PerftEntry*>calloc(count, sizeof(PerftEntry))
        if self.entries == NULL:
            raise MemoryError(f"no memory for a {megabytes} MB perft table")
        self.entry_count = count
        self.mask = count - 1

    def __dealloc__(self):
        free(self.entries)


cdef uint64_t perft_hashed(const StateC* s, const RulesC* r, int depth, PerftTable table,
                           uint64_t* hits, const int* stop) noexcept nogil:
    """perft_c, with the counts of subtrees of depth >= 2 kept in ``table``."""
    if depth <= 1:
        return perft_c(s, r, depth, stop, NULL, NULL, NULL)
    cdef uint64_t key = position_key(s, r, 0)
    cdef PerftEntry* entry = &table.entries[key & table.mask]
    cdef uint64_t data = load_u64(&entry.data, RELAXED)
    if (load_u64(&entry.check, RELAXED) ^ data) == key and (data & 0xFF) == <uint64_t>depth:
        hits[0] += 1
        return data >> 8
    cdef int32_t actions[MAX_ACTIONS]
    cdef int n = gen_actions(s, r, actions), i
    cdef uint64_t total = 0
    cdef StateC child
    cdef QuietUndo undo
    cdef TurnStartLegs ref
    cdef bint undoable = not promotion_due(s), quiet
    ref.army = -1
    memcpy(&child, s, sizeof(StateC))
    for i in range(n):                   # make and unmake, and the last ply, as perft_c
        if atomic_load(stop, RELAXED):
            return total                 # not stored: the caller discards it
        quiet = undoable and quiet_action(s, r, actions[i])
        if quiet:
            quiet_save(&child, actions[i], &undo)
        apply_action(&child, r, actions[i])
        if depth > 2:
            total += perft_hashed(&child, r, depth - 1, table, hits, stop)
        elif starts_next_turn(&child, s, quiet) and take_turn_start_legs(&child, s, r, &ref, NULL, NULL):
            total += turn_start_actions(&child, r, &ref, NULL)
        else:
            total += count_actions(&child, r)
        if quiet:
            quiet_restore(&child, actions[i], &undo)
        else:
            memcpy(&child, s, sizeof(StateC))
    if atomic_load(stop, RELAXED):
        return total                     # a child was cut short: partial, not stored
    data = (total << 8) | <uint64_t>depth
    store_u64(&entry.data, data, RELAXED)
    store_u64(&entry.check, key ^ data, RELAXED)
    return total


cdef inline bint same_turn(const TurnC* a, const TurnC* b, bint quick) noexcept nogil:
    """Every turn field equal (the round only in the quick game), as position_key reads."""
    cdef const int32_t* x = <const int32_t*>a
    cdef const int32_t* y = <const int32_t*>b
    cdef int i
    for i in range(TURN_FIELD_COUNT):
        if x[i] != y[i] and (i != TURN_ROUND or quick):
            return False
    return True


cdef bint same_position(const StateC* a, const StateC* b, const RulesC* r) noexcept nogil:
    """Whether two states are the same position (what position_key reads, exactly)."""
    cdef int c, i
    cdef const PieceC* p
    cdef const PieceC* q
    if memcmp(&a.total, &b.total, sizeof(BB)) or memcmp(&a.frozen, &b.frozen, sizeof(BB)):
        return False
    for c in range(r.t.ncells):
        if not bb_has(&a.total, c):
            continue
        p, q = &a.cells[c], &b.cells[c]
        if (p.army != q.army or p.info != q.info or p.tally != q.tally
                or piece_laps(a, p) != piece_laps(b, q)):
            return False
    if a.nheld != b.nheld:
        return False
    cdef int holder, j
    for holder in range(NUM_SEATS):             # each army's held pieces, in order (R39)
        j = 0
        for i in range(a.nheld):
            if a.held[i].holder != holder:
                continue
            while j < b.nheld and b.held[j].holder != holder:
                j += 1
            if j == b.nheld or memcmp(&a.held[i], &b.held[j], sizeof(HeldC)):
                return False
            j += 1
        while j < b.nheld:                      # b holds more for this army
            if b.held[j].holder == holder:
                return False
            j += 1
    return (memcmp(a.army_state, b.army_state, sizeof(a.army_state)) == 0
            and memcmp(a.knight_caps, b.knight_caps, sizeof(a.knight_caps)) == 0
            and same_turn(&a.turn, &b.turn, r.quick)
            and a.result == b.result and a.winners == b.winners)
