# Part of the C engine, included by src/victorus/_engine.pyx (which lists the order).
# Position keys (64-bit, for transposition tables, repetition and the hashed perft's
# table, perft.pxi) and position equality.

# -- position keys (search: transposition tables, repetition) --------------------------
# A 64-bit key of everything that decides what happens next: the pieces (kind, edge,
# royal, tally, laps), each army's held pieces in capture order (R39, R31; not how the
# armies' captures interleave in the one log, which same_position ignores too), the
# armies, the army to act, the phase and every bonus-state field, the frozen pieces, the
# pass count and, in the quick game, the round. Each part is mixed with its own salt (a
# Zobrist key whose random table is a hash function); ``salt`` gives independent keys
# (collision measurements).


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
