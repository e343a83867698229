# Part of the C engine, included by src/victorus/_engine.pyx (which lists the order).
# Generating every legal action of a state as integer codes (legs from the
# core's tables, second legs, bonus moves, the R16 look-ahead), counting them, and perft
# (R40). A ``reads`` argument, unless NULL, gains the cells whose occupancy a leg looked at
# (gen_leg, Reads): perft reuses a piece's legs while those cells stay the same.
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


# -- perft -----------------------------------------------------------------------------
# Make and unmake: most actions (quiet legs, words) change only the two cells of the leg,
# the mover's occupancy, the frozen set, the turn and the result; perft saves those, plays
# the action on its one working copy and puts them back. Any other action (a capture and
# its consequences, the centre, a promotion at the turn's end) is played on the copy and
# the copy then taken afresh from the parent.

ctypedef struct QuietUndo:
    PieceC origin
    PieceC target
    BB occ
    BB total
    BB frozen
    TurnC turn
    int32_t result
    uint8_t winners
    int32_t laps[2]                  # the mover's army's King and Queen (R29)


cdef inline bint promotion_due(const StateC* s) noexcept nogil:
    """Whether ending this turn would promote a piece (R25: a tally of 2 or more)."""
    cdef int word
    cdef uint64_t x
    cdef BB moved
    moved_this_turn(s, &moved)
    for word in range(3):
        x = moved.w[word]
        while x:
            if s.cells[word * 64 + lowest_bit(x)].tally >= 2:
                return True
            x &= x - 1
    return False


cdef inline bint quiet_action(const StateC* s, const RulesC* r, int32_t code) noexcept nogil:
    """A word, or a leg onto an empty cell other than the centre (QuietUndo restores it)."""
    cdef int target = code_target(code)
    return code >= WORD_STOP or (s.cells[target].army < 0 and target != r.t.centre)


cdef inline void quiet_save(const StateC* s, int32_t code, QuietUndo* u) noexcept nogil:
    cdef int origin = code_origin(code), target = code_target(code)
    u.origin = s.cells[origin]
    u.target = s.cells[target]
    u.occ = s.occ[s.turn.to_move]
    u.total = s.total
    u.frozen = s.frozen
    u.turn = s.turn
    u.result = s.result
    u.winners = s.winners
    u.laps[0] = s.laps[s.turn.to_move][0]
    u.laps[1] = s.laps[s.turn.to_move][1]


cdef inline void quiet_restore(StateC* s, int32_t code, const QuietUndo* u) noexcept nogil:
    cdef int origin = code_origin(code), target = code_target(code)
    s.cells[origin] = u.origin
    s.cells[target] = u.target
    s.turn = u.turn
    s.occ[s.turn.to_move] = u.occ
    s.total = u.total
    s.frozen = u.frozen
    s.result = u.result
    s.winners = u.winners
    s.laps[s.turn.to_move][0] = u.laps[0]
    s.laps[s.turn.to_move][1] = u.laps[1]


# -- turn starts from their parent ---------------------------------------------------------
# Most of perft's children start the next army's turn after a quiet leg or a word of the
# army before it: their boards are the parent's but for that one leg. The next army's
# first legs are taken once per parent, piece by piece, on the parent's board, with the
# cells each piece's legs looked at (TurnStartLegs); a child takes a piece's legs again
# only where its board differs there from the parent's (the leg's two cells), and counts
# them (the last ply) or writes them (the plies above).

cdef enum:
    MAX_ARMY_PIECES = 16             # an army starts with 12; more (a set-up position): no reuse

ctypedef struct PieceLegs:
    Targets legs                     # the piece's first legs (R13-R18) on the parent's board
    Reads reads                      # the cells whose occupancy those legs looked at
    int32_t count                    # how many
    int16_t cell

ctypedef struct TurnStartLegs:
    int army                         # whose legs these are; -1: none yet
    int npieces
    # The board they were taken on (the parent's), as its pieces' cells: its children
    # differ from it by quiet actions, so no cell changes hands without emptying.
    BB total
    PieceLegs piece[MAX_ARMY_PIECES]
    int32_t count                    # all the pieces' legs
    # Per cell, the pieces (bit j: piece[j]) whose legs one quiet leg there can change
    # (their reads.one_leg).
    uint16_t readers[MAX_CELLS]


cdef inline bint starts_next_turn(const StateC* child, const StateC* parent,
                                  bint quiet) noexcept nogil:
    """Whether ``child`` starts another army's turn (nothing frozen, no self-eligible
    piece, the game going on) after a quiet action at ``parent``: the army to act has the
    same pieces on both boards."""
    return (quiet and child.turn.phase == PHASE_START and not child.result
            and child.turn.to_move != parent.turn.to_move)


cdef inline bint touches(const BB* diff, const BB* reads) noexcept nogil:
    """Whether a piece's legs looked at a cell of ``diff``."""
    return ((diff.w[0] & reads.w[0]) | (diff.w[1] & reads.w[1]) | (diff.w[2] & reads.w[2])) != 0


cdef inline void take_piece_legs(const StateC* base, const RulesC* r, const BB* friends,
                                 PieceLegs* pl) noexcept nogil:
    """``pl``'s first legs on ``base``, their count and the cells they looked at."""
    bb_clear(&pl.reads.cells)
    bb_clear(&pl.reads.one_leg)
    first_legs(base, r, friends, pl.cell, &pl.legs, &pl.reads, ALL_DIRS)
    pl.count = emit(NULL, 0, pl.cell, &pl.legs)


cdef inline void index_piece(TurnStartLegs* ref, int j, bint on) noexcept nogil:
    """Put ``ref.piece[j]`` into (or take it out of) ``ref``'s count and readers."""
    cdef const PieceLegs* pl = &ref.piece[j]
    cdef int word, cell
    cdef uint64_t x
    ref.count += pl.count if on else -pl.count
    for word in range(3):
        x = pl.reads.one_leg.w[word]
        while x:
            cell = word * 64 + lowest_bit(x)
            x &= x - 1
            if on:
                ref.readers[cell] |= 1 << j
            else:
                ref.readers[cell] &= ~(1 << j)


cdef bint take_turn_start_legs(const StateC* child, const StateC* parent, const RulesC* r,
                               TurnStartLegs* ref, TurnStartLegs* grand,
                               const StateC* grandparent) noexcept nogil:
    """Make ``ref`` hold the first legs of the army to act at ``child`` (starts_next_turn)
    on ``parent``'s board, unless it holds them already. ``grand``, unless NULL, keeps
    the same army's legs on the board of ``grandparent``, from which ``parent`` came by a
    quiet action: they are taken from there, the pieces that action touched taken again.
    False if the army has more pieces than ``ref`` keeps."""
    cdef StateC base
    cdef BB friends, diff
    cdef PieceLegs* pl
    cdef int army = child.turn.to_move, word, j
    cdef uint64_t x
    if ref.army == army:
        return True
    ref.army = -1
    if bb_count(&child.occ[army]) > MAX_ARMY_PIECES:
        return False
    # The parent's board with the child's turn: what a capture's look-ahead plays on.
    memcpy(&base, parent, sizeof(StateC))
    base.turn = child.turn
    base.frozen = child.frozen
    friends_of(&base, r, army, &friends)
    if (grand != NULL and memcmp(&grandparent.occ[army], &parent.occ[army], sizeof(BB)) == 0
            and take_turn_start_legs(child, grandparent, r, grand, NULL, NULL)):
        for word in range(3):
            diff.w[word] = parent.total.w[word] ^ grand.total.w[word]
        ref.npieces = grand.npieces
        memcpy(ref.piece, grand.piece, grand.npieces * sizeof(PieceLegs))
        memcpy(ref.readers, grand.readers, sizeof(ref.readers))
        ref.count = grand.count
        for j in range(ref.npieces):
            pl = &ref.piece[j]
            if touches(&diff, &pl.reads.cells):     # two quiet legs on: all the cells
                index_piece(ref, j, False)
                take_piece_legs(&base, r, &friends, pl)
                index_piece(ref, j, True)
    else:
        ref.npieces = 0
        ref.count = 0
        memset(ref.readers, 0, sizeof(ref.readers))
        for word in range(3):
            x = base.occ[army].w[word]
            while x:
                pl = &ref.piece[ref.npieces]
                pl.cell = word * 64 + lowest_bit(x)
                x &= x - 1
                take_piece_legs(&base, r, &friends, pl)
                index_piece(ref, ref.npieces, True)
                ref.npieces += 1
    ref.total = base.total
    ref.army = army
    return True


cdef void retake_legs(const StateC* s, const RulesC* r, const BB* friends, const int* changed,
                      int nchanged, const PieceLegs* pl, Targets* fresh, BB* lines) noexcept nogil:
    """The first legs of ``pl``'s piece at ``s``, whose board differs from the one ``pl``
    was taken on at the cells ``changed``, taken again where they may differ: ``fresh``
    the legs in ``lines``, the rest are ``pl``'s. A knight's or a Hospitaller's are taken
    again only in the directions that look at a changed cell (Tables.seen_from and, for a
    travel's pivots, pivots_from; the lines from a cell share no cell), a King's or
    Queen's all again (R16: the look-ahead may look anywhere; ``lines`` is every cell)."""
    cdef int kind = info_kind(s.cells[pl.cell].info), i
    cdef uint32_t again = 0
    cdef uint64_t x
    if kind_in(kind, ROYAL_KINDS):
        first_legs(s, r, friends, pl.cell, fresh, NULL, ALL_DIRS)
        lines.w[0] = lines.w[1] = lines.w[2] = ~(<uint64_t>0)
        return
    for i in range(nchanged):
        again |= r.t.seen_from[pl.cell][changed[i]]
        if kind == HOSPITALLER:
            again |= r.t.pivots_from[pl.cell][changed[i]]
    first_legs(s, r, friends, pl.cell, fresh, NULL, again)
    bb_clear(lines)
    x = again
    while x:
        bb_or(lines, &r.t.rays[pl.cell][lowest_bit(x)])
        x &= x - 1


cdef inline int legs_within(const Targets* t, const BB* lines) noexcept nogil:
    """How many of the legs of ``t`` end in ``lines``."""
    cdef int word, n = 0
    for word in range(3):
        n += popcount64((t.quiet.w[word] | t.captures.w[word] | t.extra.w[word]) & lines.w[word])
    return n


cdef inline void merge_legs(Targets* t, const Targets* fresh, const BB* lines) noexcept nogil:
    """``t``'s legs with those in ``lines`` replaced by ``fresh``'s."""
    cdef int word
    for word in range(3):
        t.quiet.w[word] = (t.quiet.w[word] & ~lines.w[word]) | fresh.quiet.w[word]
        t.captures.w[word] = (t.captures.w[word] & ~lines.w[word]) | fresh.captures.w[word]
        t.extra.w[word] = (t.extra.w[word] & ~lines.w[word]) | fresh.extra.w[word]


cdef int turn_start_actions(const StateC* s, const RulesC* r, const TurnStartLegs* ref,
                            int32_t* out) noexcept nogil:
    """actions_of a state that starts ``ref``'s army's turn and whose board differs from
    ``ref``'s by one quiet leg of another army: a piece's legs are taken again only if
    that leg can change them (``ref.readers``); with ``out`` NULL, only counted."""
    cdef Targets t, fresh
    cdef BB friends, lines
    cdef const PieceLegs* pl
    cdef int n, j, word, nchanged = 0
    cdef int changed[2]                              # the leg's two cells (a word: none)
    cdef uint64_t x
    cdef uint32_t touched = 0
    for word in range(3):
        x = s.total.w[word] ^ ref.total.w[word]
        while x:
            if nchanged == 2:                        # not one leg apart: from scratch
                return actions_of(s, r, out)
            changed[nchanged] = word * 64 + lowest_bit(x)
            touched |= ref.readers[changed[nchanged]]
            nchanged += 1
            x &= x - 1
    if touched:
        friends_of(s, r, ref.army, &friends)
    if out == NULL:
        n = ref.count
        while touched:
            pl = &ref.piece[lowest_bit(touched)]
            touched &= touched - 1
            retake_legs(s, r, &friends, changed, nchanged, pl, &fresh, &lines)
            n += emit(NULL, 0, pl.cell, &fresh) - legs_within(&pl.legs, &lines)
        return add_word(s, NULL, n)
    n = 0
    for j in range(ref.npieces):
        pl = &ref.piece[j]
        if (touched >> j) & 1:
            retake_legs(s, r, &friends, changed, nchanged, pl, &fresh, &lines)
            t = pl.legs
            merge_legs(&t, &fresh, &lines)
            n = emit(out, n, pl.cell, &t)
        else:
            n = emit(out, n, pl.cell, &pl.legs)
    return add_word(s, out, n)


cdef uint64_t perft_c(const StateC* s, const RulesC* r, int depth, const int* stop,
                      const TurnStartLegs* given, TurnStartLegs* grand,
                      const StateC* parent) noexcept nogil:
    """R40 by make and unmake; the last ply is counted in bulk (count_actions). ``given``,
    unless NULL: the first legs of the army to act on the parent's board (``s`` starts
    its turn, starts_next_turn). ``grand``, unless NULL: the parent's legs of the army two
    turns on (``s`` came from ``parent`` by a quiet action; take_turn_start_legs). Returns
    early (a partial count the caller discards) once ``*stop`` is set."""
    if depth == 0:
        return 1
    if depth == 1:
        return count_actions(s, r) if given == NULL else turn_start_actions(s, r, given, NULL)
    cdef int32_t actions[MAX_ACTIONS]
    cdef int n, i
    cdef uint64_t total = 0
    cdef StateC child
    cdef QuietUndo undo
    cdef TurnStartLegs ref, ahead
    cdef bint undoable = not promotion_due(s), quiet
    n = gen_actions(s, r, actions) if given == NULL else turn_start_actions(s, r, given, actions)
    ref.army = -1
    ahead.army = -1
    memcpy(&child, s, sizeof(StateC))
    for i in range(n):
        if atomic_load(stop, RELAXED):
            return total
        quiet = undoable and quiet_action(s, r, actions[i])
        if quiet:
            quiet_save(&child, actions[i], &undo)
        apply_action(&child, r, actions[i])
        if (starts_next_turn(&child, s, quiet)
                and take_turn_start_legs(&child, s, r, &ref, grand, parent)):
            if depth == 2:
                total += turn_start_actions(&child, r, &ref, NULL)
            else:
                total += perft_c(&child, r, depth - 1, stop, &ref, &ahead if quiet else NULL, s)
        elif depth == 2:
            total += count_actions(&child, r)
        else:
            total += perft_c(&child, r, depth - 1, stop, NULL, &ahead if quiet else NULL, s)
        if quiet:
            quiet_restore(&child, actions[i], &undo)
        else:
            memcpy(&child, s, sizeof(StateC))
    return total
