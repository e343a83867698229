# Part of the C engine, included by src/victorus/_engine.pyx (which lists the order).
# Applying an action to a state: legs, captures, rescue (R31), promotion (R25),
# elimination, the end of a turn and of the game (R13-R37). Only this file writes StateC.

# -- applying actions --------------------------------------------------------------

cdef inline double wrap(double angle) noexcept nogil:
    angle = fmod(angle, 360.0)
    if angle <= -180.0:
        angle += 360.0
    elif angle > 180.0:
        angle -= 360.0
    return angle


cdef inline int32_t laps_after(const StateC* s, const RulesC* r, const PieceC* p, int origin,
                               int target) noexcept nogil:
    """R29: laps of the King or Queen ``p`` after a leg from ``origin`` to ``target``."""
    cdef int kq = info_kind(p.info) == QUEEN
    cdef double swept = wrap(r.theta[target] - r.theta[origin])
    if info_kind(p.info) == KING:
        swept = -swept
    cdef double w_old = r.base[p.army][kq][origin] + 360.0 * s.laps[p.army][kq]
    cdef long laps = lround((w_old + swept - r.base[p.army][kq][target]) / 360.0)
    return <int32_t>(MAX_LAPS if laps > MAX_LAPS else -MAX_LAPS if laps < -MAX_LAPS else laps)


cdef inline void remove_piece(StateC* s, int cell) noexcept nogil:
    cdef int a = s.cells[cell].army
    bb_del(&s.occ[a], cell)
    bb_del(&s.total, cell)
    s.cells[cell].army = -1


cdef inline void place_piece(StateC* s, int cell, const PieceC* p) noexcept nogil:
    s.cells[cell] = p[0]
    bb_add(&s.occ[p.army], cell)
    bb_add(&s.total, cell)


cdef uint8_t team_seats(const RulesC* r, int seat) noexcept nogil:
    cdef uint8_t mask = 0
    cdef int s
    for s in range(NUM_SEATS):
        if (r.present >> s) & 1 and r.team[s] == r.team[seat]:
            mask |= 1 << s
    return mask


cdef inline void finish(StateC* s, uint8_t winners, int reason) noexcept nogil:
    s.result = reason
    s.winners = winners


cdef int nearest_empty(const StateC* s, const RulesC* r, int home, int kingdom) noexcept nogil:
    """The empty non-centre cell nearest to ``home`` (hex distance, ties: lower index),
    inside ``kingdom`` unless it is -1; -1 if there is none."""
    cdef int c, d, dq, dr, best = -1, best_d = 1 << 30
    for c in range(r.t.ncells):
        if s.cells[c].army >= 0 or c == r.t.centre or (kingdom >= 0 and r.t.kingdom[c] != kingdom):
            continue
        dq = r.q[c] - r.q[home]
        dr = r.r[c] - r.r[home]
        d = max(abs(dq), max(abs(dr), abs(dq + dr)))
        if d < best_d:
            best_d = d
            best = c
    return best


cdef int return_home(StateC* s, const RulesC* r, int army, int kind) noexcept nogil:
    """R31: put a royal back on its home cell, else the nearest empty cell of its
    kingdom, else the nearest empty cell of the board."""
    cdef int cell = r.home[army][kind == QUEEN], home = cell
    cdef PieceC p
    if s.cells[cell].army >= 0:
        cell = nearest_empty(s, r, home, army)
        if cell < 0:
            cell = nearest_empty(s, r, home, -1)
    p.army = army
    p.info = make_info(kind, NO_EDGE, False)
    p.tally = 0
    s.laps[army][kind == QUEEN] = 0  # R29: placed royals start again
    place_piece(s, cell, &p)
    return cell


cdef bint rescue(StateC* s, const RulesC* r, int army, const PieceC* victim) noexcept nogil:
    """R31: exchange a captured royal for one of ours the victim's army holds."""
    cdef int other = victim.army, i, j, found = -1
    cdef int kind
    for i in range(s.nheld):
        if (s.held[i].holder == other and s.held[i].army == army
                and kind_in(info_kind(s.held[i].info), ROYAL_KINDS)):
            found = i
            break
    if found < 0:
        return False
    kind = info_kind(s.held[found].info)
    for j in range(found, s.nheld - 1):
        s.held[j] = s.held[j + 1]
    s.nheld -= 1
    s.nheld -= 1                     # the victim was the last piece we took: it goes back
    cdef int own_home = return_home(s, r, army, kind)
    bb_add(&s.frozen, own_home)
    return_home(s, r, other, info_kind(victim.info))
    return True


cdef void maybe_eliminate(StateC* s, const RulesC* r, int seat, int by) noexcept nogil:
    """R30 elimination of ``seat`` when both its royals are held, then R32 victory."""
    cdef int i, c, a
    cdef int royals = 0
    for i in range(s.nheld):
        if s.held[i].holder != seat and s.held[i].army == seat:
            if info_kind(s.held[i].info) == KING:
                royals |= 1
            elif info_kind(s.held[i].info) == QUEEN:
                royals |= 2
    if royals != 3:
        return
    for c in range(r.t.ncells):
        if s.cells[c].army == seat:
            remove_piece(s, c)
    s.army_state[seat] = ARMY_ELIMINATED
    s.live &= ~(1 << seat)
    for a in range(NUM_SEATS):
        if (r.present >> a) & 1 and r.team[a] != r.team[by] and s.army_state[a] != ARMY_ELIMINATED:
            return
    finish(s, team_seats(r, by), RESULT_ELIMINATION)


cdef void capture(StateC* s, const RulesC* r, int army, int cell, const PieceC* victim) noexcept nogil:
    """Consequences of a capture (R19, R20, R25, R30-R32)."""
    cdef PieceC* capturer = &s.cells[cell]
    cdef HeldC* h = &s.held[s.nheld]
    h.holder = army
    h.army = victim.army
    h.info = victim.info
    s.nheld += 1
    s.captured[info_kind(victim.info)] += 1
    if not kind_in(info_kind(capturer.info), ROYAL_KINDS):
        s.knight_caps[army] += 1
    if kind_in(info_kind(capturer.info), PROMOTABLE_KINDS) and not info_royal(capturer.info):  # R25
        capturer.tally += 2 if is_royal_mover(victim) else 1
    if not kind_in(info_kind(victim.info), ROYAL_KINDS):
        return
    if rescue(s, r, army, victim):
        return
    maybe_eliminate(s, r, victim.army, army)


cdef inline int action_slot(int key) noexcept nogil:
    """Where a notation key's Action is kept in its board's table: constants.action_slot."""
    return key if key <= KEY_MASK else KEY_MASK + (key >> 24)


cdef void team_returns(const StateC* s, const RulesC* r, float* out) noexcept nogil:
    """Per seat: +1 for the seats of the winning team and -1 for the other present seats
    when a game is won; 0 otherwise (a draw, a game not over, an absent seat)."""
    cdef int a
    for a in range(NUM_SEATS):
        out[a] = 0.0
        if s.result != RESULT_NONE and s.winners and (r.present >> a) & 1:
            out[a] = 1.0 if (s.winners >> a) & 1 else -1.0


cdef void share_returns(const StateC* s, const RulesC* r, float* out) noexcept nogil:
    """Per seat, a finished game's value on the share scale that every evaluation and
    search uses: 2 x its team's share of the win - 1. A won game: ``team_returns``
    (+1 / -1). A draw shares the win equally among the teams it is drawn between: at the
    quick game's round limit (R37) the live teams tied at the top, otherwise the teams
    with an active army (`shared_among_live`); each of their seats 2/k - 1 for k such
    teams, the other present seats -1 (two teams: 0, as ``team_returns``). 0 for a game
    not over and for an absent seat."""
    cdef bint leader[NUM_SEATS]
    cdef int a, k
    team_returns(s, r, out)
    if s.result == RESULT_NONE or s.winners:
        return
    if s.result != RESULT_ROUND_LIMIT:
        shared_among_live(s, r, out)
        return
    k = round_limit_leaders(s, r, leader)
    for a in range(NUM_SEATS):
        if (r.present >> a) & 1:
            out[a] = 2.0 / k - 1.0 if leader[r.team[a]] else -1.0


cdef void shared_among_live(const StateC* s, const RulesC* r, float* out) noexcept nogil:
    """Per seat, the win shared equally among the teams with an active army (R39): each of
    their seats 2/k - 1 for k such teams, the other present seats -1, absent seats 0 (no
    army active: every present team shares). A draw's value, and the fair share of an
    unfinished position that nothing else values (the ``uniform`` evaluator)."""
    cdef int a, k = 0
    cdef bint live[NUM_SEATS]
    for a in range(NUM_SEATS):
        live[a] = False
        out[a] = 0.0
    for a in range(NUM_SEATS):
        if (r.present >> a) & 1 and s.army_state[a] == ARMY_ACTIVE:
            live[r.team[a]] = True
    for a in range(NUM_SEATS):
        k += live[a]
    if k == 0:                              # (no army active: every present team shares)
        for a in range(NUM_SEATS):
            if (r.present >> a) & 1:
                live[r.team[a]] = True
        for a in range(NUM_SEATS):
            k += live[a]
    for a in range(NUM_SEATS):
        if (r.present >> a) & 1:
            out[a] = 2.0 / k - 1.0 if live[r.team[a]] else -1.0


cdef void material_points(const StateC* s, const RulesC* r, int* board, int* held) noexcept nogil:
    """R37 points per seat: its own pieces on the board, and the pieces it holds (R20)."""
    cdef int i
    for i in range(NUM_SEATS):
        board[i] = held[i] = 0
    for i in range(r.t.ncells):
        if s.cells[i].army >= 0:
            board[s.cells[i].army] += kind_points(info_kind(s.cells[i].info), info_royal(s.cells[i].info))
    for i in range(s.nheld):
        held[s.held[i].holder] += kind_points(info_kind(s.held[i].info), info_royal(s.held[i].info))


cdef int round_limit_leaders(const StateC* s, const RulesC* r, bint* leader) noexcept nogil:
    """R37(a): ``leader[t]`` for the live teams (team numbers 0-5) tied at the most points
    held by their armies; returns how many they are."""
    cdef int score[NUM_SEATS]
    cdef bint alive[NUM_SEATS]
    cdef int a, i, best = -1, count = 0
    for a in range(NUM_SEATS):
        score[a] = 0
        alive[a] = False
    for a in range(NUM_SEATS):
        if s.army_state[a] == ARMY_ACTIVE:
            alive[r.team[a]] = True
    for i in range(s.nheld):
        a = s.held[i].holder
        if (r.present >> a) & 1:
            score[r.team[a]] += kind_points(info_kind(s.held[i].info), info_royal(s.held[i].info))
    for a in range(NUM_SEATS):
        if alive[a] and score[a] > best:
            best = score[a]
    for a in range(NUM_SEATS):
        leader[a] = alive[a] and score[a] == best
        count += leader[a]
    return count


cdef uint8_t round_limit_winners(const StateC* s, const RulesC* r) noexcept nogil:
    """R37(a): the live team with the most points held by its armies; ties draw."""
    cdef bint leader[NUM_SEATS]
    cdef int a
    if round_limit_leaders(s, r, leader) != 1:
        return 0
    for a in range(NUM_SEATS):
        if leader[a]:
            return team_seats(r, a)          # (a team's number is its first seat)
    return 0


cdef inline void moved_this_turn(const StateC* s, BB* out) noexcept nogil:
    """The cells of the pieces of the army to act that may hold a tally of 2 (R25): a tally
    grows only by capturing, so in a move of this turn (the last turn's end promoted or
    cleared it), and every piece that moved this turn is frozen (R24) or is the
    self-eligible piece (R23, R37(b)). A standard self-bonus leg that captures nothing ends
    the turn without moving self_cell along; that piece is a King, a Queen or a royal
    knight (R23), never promoted."""
    out[0] = s.frozen
    if s.turn.self_cell >= 0:
        bb_add(out, s.turn.self_cell)
    for word in range(3):
        out.w[word] &= s.occ[s.turn.to_move].w[word]


cdef inline int active_armies(const StateC* s) noexcept nogil:
    """The armies still playing (R26: a draw when they have all passed in turn)."""
    cdef int a, n = 0
    for a in range(NUM_SEATS):
        n += s.army_state[a] == ARMY_ACTIVE
    return n


cdef void end_turn(StateC* s, const RulesC* r, bint passed) noexcept nogil:
    """Promotion (R25), pass count (R26), next army and round (R33), draw, round limit."""
    cdef int army = s.turn.to_move, i, word
    cdef uint64_t x
    cdef PieceC* p
    cdef BB moved
    moved_this_turn(s, &moved)
    for word in range(3):
        x = moved.w[word]
        while x:
            p = &s.cells[word * 64 + lowest_bit(x)]
            x &= x - 1
            if p.tally >= 2 and kind_in(info_kind(p.info), PROMOTABLE_KINDS) and not info_royal(p.info):
                p.info = make_info(info_kind(p.info), info_edge(p.info), True)
                p.tally = 0
    s.turn.passes = s.turn.passes + 1 if passed else 0
    i = r.order_at[army]
    cdef bint wrapped = False
    while True:
        i += 1
        if i == r.norder:
            i = 0
            s.turn.round += 1
            wrapped = True
        if s.army_state[r.order[i]] == ARMY_ACTIVE:
            break
    s.turn.to_move = r.order[i]
    turn_new_move(&s.turn)                          # phase to pending (constants.TURN_FIELDS)
    bb_clear(&s.frozen)                             # R24: frozen pieces thaw
    if s.turn.passes and s.turn.passes >= active_armies(s):     # R26: all passed in turn
        finish(s, 0, RESULT_DRAW)
    elif r.quick and wrapped and s.turn.round > r.quick:
        finish(s, round_limit_winners(s, r), RESULT_ROUND_LIMIT)


cdef void complete_move(StateC* s, const RulesC* r, int cell, bint r21,
                        int foreign) noexcept nogil:
    """A full move ended (R16): bonus state, self-eligibility or end of turn (R21-R23, R37).

    ``foreign``: the live foreign kingdom the move's last leg captured in, or -1.
    """
    cdef bint eligible
    if r.quick:
        s.turn.pending = s.turn.pending + s.turn.captures
        eligible = s.turn.captures > 0                                   # R37(b)
    else:
        s.turn.pending = 1 if s.turn.captures else 0
        eligible = is_royal_mover(&s.cells[cell]) and s.turn.captures == 2 and not r21   # R23
    if eligible:
        s.turn.self_cell = cell
        s.turn.self_color = r.t.color[s.turn.last_capture]
        s.turn.nocap = foreign        # R37(c); -1 in the standard game, where R21 prevents R23
    else:
        bb_add(&s.frozen, cell)
    s.turn.phase = PHASE_BONUS
    s.turn.mover = -1
    if s.turn.pending == 0:
        end_turn(s, r, False)


cdef void self_bonus_done(StateC* s, const RulesC* r, int cell, bint captured, bint r21,
                          int foreign) noexcept nogil:
    """After a self-bonus leg (R23, R37); ``foreign`` as in complete_move."""
    if r.quick:
        s.turn.self_cell = cell
        s.turn.pending += captured
        if captured:
            s.turn.self_color = r.t.color[cell]
            s.turn.nocap = foreign                    # R37(c): lifted by a capture elsewhere
    elif not captured:
        s.turn.pending = 0
    elif r21:
        s.turn.pending = 1
        s.turn.self_cell = -1
        s.turn.nocap = -1
        bb_add(&s.frozen, cell)
    else:
        s.turn.pending = 1
        s.turn.self_cell = cell
        s.turn.self_color = r.t.color[cell]
    s.turn.phase = PHASE_BONUS
    s.turn.mover = -1
    if s.turn.pending == 0:
        end_turn(s, r, False)


cdef void apply_leg(StateC* s, const RulesC* r, int origin, int target, int leg_type) noexcept nogil:
    """Play one leg and every consequence of it."""
    if s.turn.phase == PHASE_BONUS:
        s.turn.pending -= 1
        if leg_type != LEG_SELF and s.turn.self_cell >= 0:                # R22: another piece
            bb_add(&s.frozen, s.turn.self_cell)
            s.turn.self_cell = -1
            s.turn.nocap = -1
    if s.turn.phase != PHASE_MOVE and leg_type != LEG_SELF:
        s.turn.move_start = origin
        s.turn.legs = 0
        s.turn.captures = 0
        s.turn.last_capture = -1
    cdef PieceC piece = s.cells[origin]
    cdef PieceC victim = s.cells[target]
    cdef bint captured = victim.army >= 0
    cdef int k = r.t.kingdom[target]
    # A capture inside another live kingdom (liveness judged before the capture's
    # consequences): R21 stops a King, Queen or royal knight; R37(c) bars any piece.
    cdef int foreign = (k if captured and k != NO_KINGDOM and k != piece.army
                        and s.army_state[k] != ARMY_ELIMINATED else -1)
    cdef bint r21 = foreign >= 0 and is_royal_mover(&piece)
    remove_piece(s, origin)
    if target == r.t.centre:                                        # R28
        finish(s, team_seats(r, piece.army), RESULT_CENTRE)
        return
    if captured:
        remove_piece(s, target)
        if kind_in(info_kind(victim.info), ROYAL_KINDS):                 # R29: off the board
            s.laps[victim.army][info_kind(victim.info) == QUEEN] = 0
    if kind_in(info_kind(piece.info), ROYAL_KINDS):
        s.laps[piece.army][info_kind(piece.info) == QUEEN] = laps_after(s, r, &piece, origin, target)
    place_piece(s, target, &piece)
    if captured:
        capture(s, r, piece.army, target, &victim)
        if s.result:
            return
    s.turn.legs += 1
    s.turn.captures += captured
    if captured:
        s.turn.last_capture = target
    s.turn.mover = target
    if leg_type == LEG_SELF:
        self_bonus_done(s, r, target, captured, r21, foreign)
        return
    if (r21 or leg_type == LEG_STRATEGIC or s.turn.legs == 2
            or (kind_in(info_kind(piece.info), PROMOTABLE_KINDS) and not info_royal(piece.info))):
        complete_move(s, r, target, r21, foreign)
    else:
        s.turn.phase = PHASE_MOVE


cdef void apply_action(StateC* s, const RulesC* r, int32_t code) noexcept nogil:
    if code == WORD_STOP:
        complete_move(s, r, s.turn.mover, False, -1)
    elif code == WORD_END:
        end_turn(s, r, False)
    elif code == WORD_PASS:
        end_turn(s, r, True)
    elif code == WORD_FORFEIT:
        end_turn(s, r, False)                # not an R26 pass: the army had legal actions
    else:
        apply_leg(s, r, code_origin(code), code_target(code), code >> LEG_TYPE_SHIFT)
