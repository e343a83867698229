# Part of the C engine, included by src/victorus/_engine.pyx (which lists the order).
# Generating every legal action of a state as integer codes (legs from the
# core's tables, second legs, bonus moves, the R16 look-ahead) and counting them. Two
# arguments serve perft alone (perft.pxi), and play passes them as NULL and ALL_DIRS: a
# ``reads`` argument, unless NULL, gains the cells whose occupancy a leg looked at
# (gen_leg, Reads), so perft reuses a piece's legs while those cells stay the same; an
# ``only`` argument of first_legs limits a knight's legs to some directions (perft takes
# again only the lines a leg changed).
# A ``friends`` argument is the board of the moving army's team (friends_of), taken once
# per position by the caller: the pieces a leg may not capture (R33).

cdef inline void friends_of(const StateC* s, const RulesC* r, int army, BB* out) noexcept nogil:
    team_friends(s.occ, r.team, army, out)


cdef inline void leg(const StateC* s, const RulesC* r, const BB* friends, int cell, int army,
                     uint16_t dirs, uint8_t colors, bint capture, bint single, int gate,
                     bint entry, int nocap, BB* quiet, BB* captures, Reads* reads) noexcept nogil:
    cdef LegSpec spec
    make_spec(&spec, army, dirs, colors, capture, single, gate, entry, nocap, False)
    bb_clear(quiet)
    bb_clear(captures)
    gen_leg(r.t, &s.total, friends, s.live, cell, &spec, quiet, captures, reads)


cdef inline void strategic(const StateC* s, const RulesC* r, int cell, uint32_t dirs,
                           uint8_t colors, const BB* normal_quiet, BB* out,
                           Reads* reads) noexcept nogil:
    strategic_steps(r.t, &s.total, s.live, cell, dirs, colors, normal_quiet, out, reads)


cdef inline void pivot(const StateC* s, const RulesC* r, const BB* friends, int cell, int army,
                       uint8_t colors, int nocap, BB* quiet, BB* captures,
                       Reads* reads) noexcept nogil:
    pivot_leg(r.t, &s.total, friends, s.live, cell, army, colors, nocap, False, quiet, captures,
              reads)


cdef inline void travel(const StateC* s, const RulesC* r, const BB* friends, int cell, int army,
                        uint32_t dirs, uint8_t colors, BB* out, Reads* reads) noexcept nogil:
    travel_leg(r.t, &s.total, friends, s.live, cell, army, dirs, colors, out, reads)


cdef inline int gate_of(const StateC* s, int army) noexcept nogil:
    """R19: the kingdom a King/Queen must stay in, or -1."""
    return army if s.knight_caps[army] < GATE_CAPTURES else -1


cdef inline void royal_leg(const StateC* s, const RulesC* r, const BB* friends, int cell,
                           uint8_t colors, int nocap, BB* quiet, BB* captures,
                           Reads* reads) noexcept nogil:
    """One King/Queen leg: R18 colors given, R19 gating, R28 entry after a full lap."""
    cdef const PieceC* p = &s.cells[cell]
    leg(s, r, friends, cell, p.army, r.dirs[p.army][info_kind(p.info)], colors, True, False,
        gate_of(s, p.army), piece_laps(s, p) >= 1, nocap, quiet, captures, reads)


# -- generating actions ------------------------------------------------------------
# Each piece's legs come out as target sets (Targets); gen_actions writes them as codes
# and count_actions (perft's last ply) only counts them, with popcounts: one walk of the
# rules serves both, so they cannot disagree.

ctypedef struct Targets:
    BB quiet                         # quiet destinations, legs of type quiet_type
    BB captures                      # captures, legs of type quiet_type
    BB extra                         # more quiet destinations, of type extra_type (R13)
    int quiet_type
    int extra_type


cdef inline int emit(int32_t* out, int n, int origin, const Targets* t) noexcept nogil:
    """Append the legs of ``t`` from ``origin`` in target order (quiet, captures and extra
    are disjoint), or only count them when ``out`` is NULL."""
    cdef int word, target
    cdef uint64_t x
    if out == NULL:
        for word in range(3):
            n += popcount64(t.quiet.w[word] | t.captures.w[word] | t.extra.w[word])
        return n
    for word in range(3):
        x = t.quiet.w[word] | t.captures.w[word] | t.extra.w[word]
        while x:
            target = word * 64 + lowest_bit(x)
            x &= x - 1
            if (t.captures.w[word] >> (target & 63)) & 1:
                out[n] = origin | (target << TARGET_SHIFT) | CAPTURE_FLAG | (t.quiet_type << LEG_TYPE_SHIFT)
            elif (t.extra.w[word] >> (target & 63)) & 1:
                out[n] = origin | (target << TARGET_SHIFT) | (t.extra_type << LEG_TYPE_SHIFT)
            else:
                out[n] = origin | (target << TARGET_SHIFT) | (t.quiet_type << LEG_TYPE_SHIFT)
            n += 1
    return n


cdef bint royal_leg1_ok(const StateC* s, const RulesC* r, const BB* friends, int origin,
                        int target, Reads* reads) noexcept nogil:
    """R16 look-ahead: after this King/Queen leg 1 (all consequences), is there a leg 2?"""
    cdef StateC after
    cdef BB q, c, total, moved
    cdef LegSpec spec
    cdef const PieceC* p = &s.cells[origin]
    if s.cells[target].army < 0 and target != r.t.centre:
        # A quiet leg only moves the piece (and its laps): no need to copy the state.
        total = s.total
        bb_del(&total, origin)
        bb_add(&total, target)
        moved = friends[0]
        bb_del(&moved, origin)
        bb_add(&moved, target)
        make_spec(&spec, p.army, r.dirs[p.army][info_kind(p.info)], color_bit(r.t.color[target]),
                  True, False, gate_of(s, p.army), laps_after(s, r, p, origin, target) >= 1, -1,
                  True)
        bb_clear(&q)
        bb_clear(&c)
        gen_leg(r.t, &total, &moved, s.live, target, &spec, &q, &c, reads)
        return not (bb_empty(&q) and bb_empty(&c))
    if reads != NULL:              # a capture's consequences (R31) may look anywhere
        reads.cells.w[0] = reads.cells.w[1] = reads.cells.w[2] = ~(<uint64_t>0)
        reads.one_leg = reads.cells
    memcpy(&after, s, sizeof(StateC))
    apply_leg(&after, r, origin, target, LEG_NORMAL)
    if after.result or after.turn.phase != PHASE_MOVE:                   # ends the game or move
        return True
    friends_of(&after, r, p.army, &moved)
    royal_leg(&after, r, &moved, target, color_bit(r.t.color[target]), -1, &q, &c, NULL)
    return not (bb_empty(&q) and bb_empty(&c))


cdef inline void targets_start(Targets* t, int quiet_type) noexcept nogil:
    """No extra destinations (only first legs of strategic kinds have them)."""
    bb_clear(&t.extra)
    t.quiet_type = quiet_type
    t.extra_type = LEG_STRATEGIC


cdef enum:
    ALL_DIRS = (1 << NUM_DIRS) - 1


cdef void first_legs(const StateC* s, const RulesC* r, const BB* friends, int cell, Targets* t,
                     Reads* reads, uint32_t only) noexcept nogil:
    """First legs of a full move (R13, R14, R16, R18). A knight's or Hospitaller's only in
    the directions of ``only`` (ALL_DIRS: all of them); a King's or Queen's always all."""
    cdef const PieceC* p = &s.cells[cell]
    cdef BB* q = &t.quiet
    cdef BB* c = &t.captures
    cdef BB lq, lc
    cdef int army = p.army, kind = info_kind(p.info), word, target
    cdef uint8_t colors
    cdef uint64_t x
    if kind == HOSPITALLER:
        targets_start(t, LEG_TRAVEL)
        travel(s, r, friends, cell, army, SPOKE_MASK & only, color_bit(info_edge(p.info)), q,
               reads)
        bb_clear(c)
        return
    targets_start(t, LEG_NORMAL)
    if kind_in(kind, ROYAL_KINDS):
        colors = 3 - color_bit(r.t.color[cell])                    # R18: opposite color
        royal_leg(s, r, friends, cell, colors, -1, &lq, &lc, reads)
        bb_clear(q)
        bb_clear(c)
        for word in range(3):
            x = lq.w[word] | lc.w[word]
            while x:
                target = word * 64 + lowest_bit(x)
                x &= x - 1
                if royal_leg1_ok(s, r, friends, cell, target, reads):
                    if bb_has(&lc, target):
                        bb_add(c, target)
                    else:
                        bb_add(q, target)
        return
    colors = color_bit(info_edge(p.info))
    leg(s, r, friends, cell, army, r.dirs[army][kind] & only, colors, True, False, -1, False, -1,
        q, c, reads)
    if kind_in(kind, STRATEGIC_KINDS):                               # R13
        strategic(s, r, cell, r.t.ring[cell] & only, colors, q, &t.extra, reads)


cdef void continuations(const StateC* s, const RulesC* r, const BB* friends, int cell,
                        Targets* t) noexcept nogil:
    """The next leg of a move in progress (R14, R16-R18)."""
    cdef const PieceC* p = &s.cells[cell]
    cdef BB* q = &t.quiet
    cdef BB* c = &t.captures
    cdef int kind = info_kind(p.info)
    if kind == HOSPITALLER:
        targets_start(t, LEG_PIVOT)
        pivot(s, r, friends, cell, p.army, color_bit(info_edge(p.info)), -1, q, c, NULL)
        return
    targets_start(t, LEG_NORMAL)
    if kind_in(kind, ROYAL_KINDS):
        royal_leg(s, r, friends, cell, color_bit(r.t.color[cell]), -1, q, c, NULL)
    else:                                                            # royal knight, R17
        leg(s, r, friends, cell, p.army, r.dirs[p.army][kind], color_bit(info_edge(p.info)), True,
            False, -1, False, -1, q, c, NULL)
        bb_del(q, s.turn.move_start)
        bb_del(c, s.turn.move_start)      # a rescue (R31) may have put a royal there


cdef void self_bonus_legs(const StateC* s, const RulesC* r, const BB* friends, int cell,
                          Targets* t) noexcept nogil:
    """R23, R37(b): the self-eligible piece's single bonus leg."""
    cdef const PieceC* p = &s.cells[cell]
    cdef BB* q = &t.quiet
    cdef BB* c = &t.captures
    cdef BB extra
    cdef uint8_t colors
    cdef int kind = info_kind(p.info)
    targets_start(t, LEG_SELF)
    if kind == HOSPITALLER:
        pivot(s, r, friends, cell, p.army, color_bit(info_edge(p.info)), s.turn.nocap, q, c, NULL)
    elif kind_in(kind, ROYAL_KINDS):
        royal_leg(s, r, friends, cell, color_bit(s.turn.self_color), s.turn.nocap, q, c, NULL)
    else:
        colors = color_bit(info_edge(p.info))
        leg(s, r, friends, cell, p.army, r.dirs[p.army][kind], colors, True, False, -1, False,
            s.turn.nocap, q, c, NULL)
        if not info_royal(p.info) and kind_in(kind, STRATEGIC_KINDS):    # R37(b)
            strategic(s, r, cell, r.t.ring[cell], colors, q, &extra, NULL)
            bb_or(q, &extra)


cdef inline int add_word(const StateC* s, int32_t* out, int n) noexcept nogil:
    """After ``n`` legs of a turn's start or bonus: the end word in a bonus (R15), the pass
    when there is no leg (R26); written unless ``out`` is NULL. The new count."""
    if s.turn.phase == PHASE_BONUS:
        if out != NULL:
            out[n] = WORD_END
        n += 1
    elif n == 0:
        if out != NULL:
            out[n] = WORD_PASS
        n += 1
    return n


cdef int actions_of(const StateC* s, const RulesC* r, int32_t* out) noexcept nogil:
    """Every legal action, legs in (origin, target) order, then the word (R15, R26); with
    ``out`` NULL, only their number."""
    if s.result:
        return 0
    cdef int n = 0, word, cell
    cdef uint64_t x
    cdef Targets t
    cdef BB friends
    friends_of(s, r, s.turn.to_move, &friends)
    if s.turn.phase == PHASE_MOVE:
        continuations(s, r, &friends, s.turn.mover, &t)
        n = emit(out, n, s.turn.mover, &t)
        if info_royal(s.cells[s.turn.mover].info):                   # R16 royal knight
            if out != NULL:
                out[n] = WORD_STOP
            n += 1
        return n
    for word in range(3):
        x = s.occ[s.turn.to_move].w[word] & ~s.frozen.w[word]
        while x:
            cell = word * 64 + lowest_bit(x)
            x &= x - 1
            if cell == s.turn.self_cell:
                self_bonus_legs(s, r, &friends, cell, &t)
            else:
                first_legs(s, r, &friends, cell, &t, NULL, ALL_DIRS)
            n = emit(out, n, cell, &t)
    return add_word(s, out, n)


cdef int gen_actions(const StateC* s, const RulesC* r, int32_t* out) noexcept nogil:
    """Every legal action as codes in ``out`` (actions_of); their number."""
    return actions_of(s, r, out)


cdef inline int count_actions(const StateC* s, const RulesC* r) noexcept nogil:
    """The number of legal actions, none written (perft's bulk count of its last ply)."""
    return actions_of(s, r, NULL)
