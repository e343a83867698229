# Part of the C engine, included by src/victorus/_engine.pyx (which lists the order).
# Generating every legal action of a state as integer codes (legs from the
# core's tables, second legs, bonus moves, the R16 look-ahead) and the plain perft (R40).

cdef inline void friends_of(const StateC* s, const RulesC* r, int army, BB* out) noexcept nogil:
    team_friends(s.occ, r.team, army, out)


cdef inline void leg(const StateC* s, const RulesC* r, int cell, int army, uint16_t dirs,
                     uint8_t colors, bint capture, bint single, int gate, bint entry, int nocap,
                     BB* quiet, BB* captures) noexcept nogil:
    cdef LegSpec spec
    cdef BB friends
    make_spec(&spec, army, dirs, colors, capture, single, gate, entry, nocap, False)
    friends_of(s, r, army, &friends)
    bb_clear(quiet)
    bb_clear(captures)
    gen_leg(r.t, &s.total, &friends, s.live, cell, &spec, quiet, captures)


cdef inline void strategic(const StateC* s, const RulesC* r, int cell, int army, uint8_t colors,
                           const BB* normal_quiet, BB* out) noexcept nogil:
    cdef BB friends
    friends_of(s, r, army, &friends)
    strategic_steps(r.t, &s.total, &friends, s.live, cell, army, colors, normal_quiet, out)


cdef inline void pivot(const StateC* s, const RulesC* r, int cell, int army, uint8_t colors,
                       int nocap, BB* quiet, BB* captures) noexcept nogil:
    cdef BB friends
    friends_of(s, r, army, &friends)
    pivot_leg(r.t, &s.total, &friends, s.live, cell, army, colors, nocap, quiet, captures)


cdef inline void travel(const StateC* s, const RulesC* r, int cell, int army, uint8_t colors,
                        BB* out) noexcept nogil:
    cdef BB friends
    friends_of(s, r, army, &friends)
    travel_leg(r.t, &s.total, &friends, s.live, cell, army, colors, out)


cdef inline int gate_of(const StateC* s, int army) noexcept nogil:
    """R19: the kingdom a King/Queen must stay in, or -1."""
    return army if s.knight_caps[army] < GATE_CAPTURES else -1


cdef inline void royal_leg(const StateC* s, const RulesC* r, int cell, uint8_t colors, int nocap,
                           BB* quiet, BB* captures) noexcept nogil:
    """One King/Queen leg: R18 colors given, R19 gating, R28 entry after a full lap."""
    cdef const PieceC* p = &s.cells[cell]
    leg(s, r, cell, p.army, r.dirs[p.army][p.kind], colors, True, False, gate_of(s, p.army),
        p.laps >= 1, nocap, quiet, captures)


# -- generating actions ------------------------------------------------------------

cdef inline int emit(int32_t* out, int n, int origin, const BB* quiet, const BB* captures,
                     int quiet_type, const BB* extra, int extra_type) noexcept nogil:
    """Append legs from ``origin`` in target order (quiet, capture and extra are disjoint)."""
    cdef int word, target
    cdef uint64_t x
    for word in range(3):
        x = quiet.w[word] | captures.w[word]
        if extra != NULL:
            x |= extra.w[word]
        while x:
            target = word * 64 + lowest_bit(x)
            x &= x - 1
            if (captures.w[word] >> (target & 63)) & 1:
                out[n] = origin | (target << TARGET_SHIFT) | CAPTURE_FLAG | (quiet_type << LEG_TYPE_SHIFT)
            elif extra != NULL and (extra.w[word] >> (target & 63)) & 1:
                out[n] = origin | (target << TARGET_SHIFT) | (extra_type << LEG_TYPE_SHIFT)
            else:
                out[n] = origin | (target << TARGET_SHIFT) | (quiet_type << LEG_TYPE_SHIFT)
            n += 1
    return n


cdef bint royal_leg1_ok(const StateC* s, const RulesC* r, int origin, int target) noexcept nogil:
    """R16 look-ahead: after this King/Queen leg 1 (all consequences), is there a leg 2?"""
    cdef StateC after
    cdef BB q, c, total, friends
    cdef LegSpec spec
    cdef const PieceC* p = &s.cells[origin]
    if s.cells[target].army < 0 and target != r.t.centre:
        # A quiet leg only moves the piece (and its laps): no need to copy the state.
        total = s.total
        bb_del(&total, origin)
        bb_add(&total, target)
        friends_of(s, r, p.army, &friends)
        bb_del(&friends, origin)
        bb_add(&friends, target)
        make_spec(&spec, p.army, r.dirs[p.army][p.kind], color_bit(r.t.color[target]), True,
                  False, gate_of(s, p.army), laps_after(r, p, origin, target) >= 1, -1, True)
        bb_clear(&q)
        bb_clear(&c)
        gen_leg(r.t, &total, &friends, s.live, target, &spec, &q, &c)
        return not (bb_empty(&q) and bb_empty(&c))
    memcpy(&after, s, sizeof(StateC))
    apply_leg(&after, r, origin, target, LEG_NORMAL)
    if after.result or after.turn.phase != PHASE_MOVE:                   # ends the game or move
        return True
    royal_leg(&after, r, target, color_bit(r.t.color[target]), -1, &q, &c)
    return not (bb_empty(&q) and bb_empty(&c))


cdef int first_legs(const StateC* s, const RulesC* r, int cell, int32_t* out, int n) noexcept nogil:
    """First legs of a full move (R13, R14, R16, R18)."""
    cdef const PieceC* p = &s.cells[cell]
    cdef BB q, c, extra, ok_q, ok_c
    cdef int army = p.army, word, target
    cdef uint8_t colors
    cdef uint64_t x
    if p.kind == HOSPITALLER:
        travel(s, r, cell, army, color_bit(p.edge), &q)
        bb_clear(&c)
        return emit(out, n, cell, &q, &c, LEG_TRAVEL, NULL, 0)
    if kind_in(p.kind, ROYAL_KINDS):
        colors = 3 - color_bit(r.t.color[cell])                    # R18: opposite color
        royal_leg(s, r, cell, colors, -1, &q, &c)
        bb_clear(&ok_q)
        bb_clear(&ok_c)
        for word in range(3):
            x = q.w[word] | c.w[word]
            while x:
                target = word * 64 + lowest_bit(x)
                x &= x - 1
                if royal_leg1_ok(s, r, cell, target):
                    if bb_has(&c, target):
                        bb_add(&ok_c, target)
                    else:
                        bb_add(&ok_q, target)
        return emit(out, n, cell, &ok_q, &ok_c, LEG_NORMAL, NULL, 0)
    colors = color_bit(p.edge)
    leg(s, r, cell, army, r.dirs[army][p.kind], colors, True, False, -1, False, -1, &q, &c)
    if kind_in(p.kind, STRATEGIC_KINDS):                             # R13
        strategic(s, r, cell, army, colors, &q, &extra)
        return emit(out, n, cell, &q, &c, LEG_NORMAL, &extra, LEG_STRATEGIC)
    return emit(out, n, cell, &q, &c, LEG_NORMAL, NULL, 0)


cdef int continuations(const StateC* s, const RulesC* r, int cell, int32_t* out, int n) noexcept nogil:
    """The next leg of a move in progress (R14, R16-R18)."""
    cdef const PieceC* p = &s.cells[cell]
    cdef BB q, c
    if p.kind == HOSPITALLER:
        pivot(s, r, cell, p.army, color_bit(p.edge), -1, &q, &c)
        return emit(out, n, cell, &q, &c, LEG_PIVOT, NULL, 0)
    if kind_in(p.kind, ROYAL_KINDS):
        royal_leg(s, r, cell, color_bit(r.t.color[cell]), -1, &q, &c)
    else:                                                            # royal knight, R17
        leg(s, r, cell, p.army, r.dirs[p.army][p.kind], color_bit(p.edge), True, False, -1,
            False, -1, &q, &c)
        bb_del(&q, s.turn.move_start)
        bb_del(&c, s.turn.move_start)     # a rescue (R31) may have put a royal there
    return emit(out, n, cell, &q, &c, LEG_NORMAL, NULL, 0)


cdef int self_bonus_legs(const StateC* s, const RulesC* r, int cell, int32_t* out, int n) noexcept nogil:
    """R23, R37(b): the self-eligible piece's single bonus leg."""
    cdef const PieceC* p = &s.cells[cell]
    cdef BB q, c, extra
    cdef uint8_t colors
    if p.kind == HOSPITALLER:
        pivot(s, r, cell, p.army, color_bit(p.edge), s.turn.nocap, &q, &c)
    elif kind_in(p.kind, ROYAL_KINDS):
        royal_leg(s, r, cell, color_bit(s.turn.self_color), s.turn.nocap, &q, &c)
    else:
        colors = color_bit(p.edge)
        leg(s, r, cell, p.army, r.dirs[p.army][p.kind], colors, True, False, -1, False,
            s.turn.nocap, &q, &c)
        if not p.royal and kind_in(p.kind, STRATEGIC_KINDS):         # R37(b)
            strategic(s, r, cell, p.army, colors, &q, &extra)
            bb_or(&q, &extra)
    return emit(out, n, cell, &q, &c, LEG_SELF, NULL, 0)


cdef int gen_actions(const StateC* s, const RulesC* r, int32_t* out) noexcept nogil:
    """Every legal action, legs in (origin, target) order, then the word (R15, R26)."""
    if s.result:
        return 0
    cdef int n = 0, word, cell
    cdef uint64_t x
    if s.turn.phase == PHASE_MOVE:
        n = continuations(s, r, s.turn.mover, out, n)
        if s.cells[s.turn.mover].royal:
            out[n] = WORD_STOP                                       # R16 royal knight
            n += 1
        return n
    for word in range(3):
        x = s.occ[s.turn.to_move].w[word] & ~s.frozen.w[word]
        while x:
            cell = word * 64 + lowest_bit(x)
            x &= x - 1
            if cell == s.turn.self_cell:
                n = self_bonus_legs(s, r, cell, out, n)
            else:
                n = first_legs(s, r, cell, out, n)
    if s.turn.phase == PHASE_BONUS:
        out[n] = WORD_END
        n += 1
    elif n == 0:
        out[n] = WORD_PASS
        n += 1
    return n


cdef uint64_t perft_c(const StateC* s, const RulesC* r, int depth, const int* stop) noexcept nogil:
    """R40 with copy-make; the last ply only counts. Returns early (a partial count the
    caller discards) once ``*stop`` is set."""
    if depth == 0:
        return 1
    cdef int32_t actions[MAX_ACTIONS]
    cdef int n = gen_actions(s, r, actions), i
    if depth == 1:
        return n
    cdef uint64_t total = 0
    cdef StateC child
    for i in range(n):
        if atomic_load(stop, RELAXED):
            return total
        memcpy(&child, s, sizeof(StateC))
        apply_action(&child, r, actions[i])
        total += perft_c(&child, r, depth - 1, stop)
    return total
