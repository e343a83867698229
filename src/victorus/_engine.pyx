# cython: language_level=3, cdivision=True
"""The game engine in C: turn flow, bonus moves, captures, rescue, elimination, victory.

The same rules as the pure-Python :mod:`victorus._reference_game` (R13-R37),
on a fixed-size C state (about 3 KB). Search in C copies it to make a move
(copy-make); the undo history keeps, per action, only the words of the state the
action changed (about 120 bytes), shared between copies. All legal actions of a
state come out of one call as integer codes; perft runs entirely here.
:class:`victorus.Game` is the Python face of :class:`Engine`; inputs are validated
there, so these loops run without bounds checks.
"""

from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memcmp, memcpy, memset
from libc.stdlib cimport calloc, malloc, realloc, free
from libc.math cimport fmod, lround
from cpython.exc cimport PyErr_CheckSignals
from cpython.list cimport PyList_New, PyList_GET_ITEM, PyList_SET_ITEM
from cpython.ref cimport Py_INCREF
from cpython.buffer cimport (PyObject_GetBuffer, PyBuffer_Release, PyBUF_WRITABLE,
                             PyBUF_C_CONTIGUOUS, PyBUF_FORMAT)

from victorus._core cimport (
    BB, Tables, LegSpec, BoardTables, gen_leg, bb_has, bb_add, bb_del, bb_clear, bb_or,
    bb_empty, lowest_bit, make_spec, team_friends, strategic_steps, pivot_leg, travel_leg,
    kind_points, MAX_LAPS, MAX_CELLS, NUM_SEATS, NUM_KINDS, NO_KINGDOM, MAX_HELD, GATE_CAPTURES,
    KING, QUEEN, HOSPITALLER, NO_EDGE, COLOR_GREY, NUM_PLANES, PLANE_ARMY0_T, PLANE_BLACK_EDGED,
    PLANE_ROYAL, PLANE_TALLY, PLANE_LAPS, PLANE_CELL_WHITE, PLANE_KINGDOM0, PLANE_FROZEN,
    PLANE_SELF_ELIGIBLE, PLANE_MOVING, PLANE_PHASE_START, PLANE_TO_MOVE0,
    PLANE_KNIGHT_CAPTURES0, PLANE_HELD0, PLANE_ACTIVE0, PLANE_ROUND, PLANE_PASSES,
    PLANE_PENDING, ROYAL_KINDS, PROMOTABLE_KINDS, STRATEGIC_KINDS,
    PHASE_START, PHASE_MOVE, PHASE_BONUS, LEG_NORMAL, LEG_STRATEGIC, LEG_TRAVEL, LEG_PIVOT,
    LEG_SELF, ARMY_ACTIVE, ARMY_ELIMINATED, RESULT_NONE, RESULT_CENTRE, RESULT_ELIMINATION,
    RESULT_ROUND_LIMIT, RESULT_DRAW, TARGET_SHIFT, CAPTURE_FLAG, LEG_TYPE_SHIFT, KEY_MASK,
    WORD_STOP, WORD_END, WORD_PASS, WORD_FORFEIT)

from victorus.constants import ARMY_STATES, PHASES, RESULTS
from victorus.errors import StateError

cdef enum:
    MAX_ACTIONS = 2304         # 12 pieces x 192 targets bounds any position
    MAX_ACTION_WORDS = 36      # 64-bit words of a bit per action

cdef extern from *:
    int atomic_load "__atomic_load_n"(const int* ptr, int order) noexcept nogil
    void atomic_store "__atomic_store_n"(int* ptr, int value, int order) noexcept nogil
    int atomic_fetch_add "__atomic_fetch_add"(int* ptr, int value, int order) noexcept nogil
    int atomic_sub_fetch "__atomic_sub_fetch"(int* ptr, int value, int order) noexcept nogil
    int SEQ_CST "__ATOMIC_SEQ_CST"
    int RELAXED "__ATOMIC_RELAXED"

cdef class StopToken:
    """A call's cancellation: :meth:`stop` makes the native loops given this token (perft,
    random playouts, MCTS) return as soon as they can. One token per call, never shared
    process-wide, so stopping one call never stops another."""
    cdef int flag

    def stop(self):
        """Ask the calls holding this token to return early (from any thread)."""
        atomic_store(&self.flag, 1, SEQ_CST)

    @property
    def stopped(self):
        return bool(atomic_load(&self.flag, SEQ_CST))


cdef int NEVER_STOPS = 0                 # read-only: the flag of a call without a token


cdef inline const int* stop_flag(StopToken stop) noexcept:
    return &NEVER_STOPS if stop is None else &stop.flag


ctypedef struct PieceC:
    int8_t army            # -1: empty cell
    uint8_t kind
    uint8_t edge           # 0 white, 1 grey, NO_EDGE for King and Queen
    uint8_t royal
    uint8_t tally          # R25 (at most 2 per capture, promoted at the turn's end)
    int32_t laps           # R29

ctypedef struct HeldC:
    uint8_t holder         # the army holding the piece
    uint8_t army
    uint8_t kind
    uint8_t edge
    uint8_t royal

ctypedef struct StateC:
    PieceC cells[MAX_CELLS]
    BB occ[NUM_SEATS]
    BB total
    BB frozen                        # R24
    HeldC held[MAX_HELD]             # every held piece, in capture order
    int32_t nheld
    uint8_t army_state[NUM_SEATS]
    int32_t knight_caps[NUM_SEATS]   # R19
    uint8_t live                     # R8 live kingdoms
    int32_t to_move
    int32_t round
    int32_t passes                   # R26
    int32_t phase
    int32_t mover
    int32_t move_start
    int32_t legs
    int32_t captures
    int32_t last_capture
    int32_t self_cell                # R23, R37(b)
    int32_t self_color
    int32_t nocap                    # R37(c)
    int32_t pending                  # R22, R37(b)
    int32_t result
    uint8_t winners                  # seat mask
    int32_t captured[NUM_KINDS]      # captures per captured piece type (statistics)

ctypedef struct RulesC:
    const Tables* t
    uint16_t dirs[NUM_SEATS][NUM_KINDS]   # R11 direction masks
    int16_t home[NUM_SEATS][2]       # R27 King, Queen
    int16_t q[MAX_CELLS]
    int16_t r[MAX_CELLS]
    double theta[MAX_CELLS]          # R29
    double base[NUM_SEATS][2][MAX_CELLS]
    uint8_t team[NUM_SEATS]
    uint8_t order[NUM_SEATS]
    int32_t norder
    uint8_t present                  # seat mask
    int32_t quick                    # round limit, 0: not the quick game
    uint8_t view[NUM_SEATS][MAX_CELLS]   # the column of each cell in a seat's observation


cdef inline bint kind_in(int kind, int kinds) noexcept nogil:
    """Whether ``kind`` is in a kind mask (ROYAL_KINDS, PROMOTABLE_KINDS, ...)."""
    return (kinds >> kind) & 1


cdef inline bint is_royal_mover(const PieceC* p) noexcept nogil:
    """King, Queen or royal knight (R17, R21, R23)."""
    return kind_in(p.kind, ROYAL_KINDS) or p.royal


cdef inline uint8_t color_bit(int color) noexcept nogil:
    return 1 << color


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


# -- applying actions --------------------------------------------------------------

cdef inline double wrap(double angle) noexcept nogil:
    angle = fmod(angle, 360.0)
    if angle <= -180.0:
        angle += 360.0
    elif angle > 180.0:
        angle -= 360.0
    return angle


cdef inline int32_t laps_after(const RulesC* r, const PieceC* p, int origin, int target) noexcept nogil:
    """R29: laps after a leg from ``origin`` to ``target``."""
    cdef int kq = p.kind == QUEEN
    cdef double swept = wrap(r.theta[target] - r.theta[origin])
    if p.kind == KING:
        swept = -swept
    cdef double w_old = r.base[p.army][kq][origin] + 360.0 * p.laps
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
    p.kind = kind
    p.edge = NO_EDGE
    p.royal = 0
    p.tally = 0
    p.laps = 0                       # R29: placed royals start again
    place_piece(s, cell, &p)
    return cell


cdef bint rescue(StateC* s, const RulesC* r, int army, const PieceC* victim) noexcept nogil:
    """R31: exchange a captured royal for one of ours the victim's army holds."""
    cdef int other = victim.army, i, j, found = -1
    cdef int kind
    for i in range(s.nheld):
        if (s.held[i].holder == other and s.held[i].army == army
                and kind_in(s.held[i].kind, ROYAL_KINDS)):
            found = i
            break
    if found < 0:
        return False
    kind = s.held[found].kind
    for j in range(found, s.nheld - 1):
        s.held[j] = s.held[j + 1]
    s.nheld -= 1
    s.nheld -= 1                     # the victim was the last piece we took: it goes back
    cdef int own_home = return_home(s, r, army, kind)
    bb_add(&s.frozen, own_home)
    return_home(s, r, other, victim.kind)
    return True


cdef void maybe_eliminate(StateC* s, const RulesC* r, int seat, int by) noexcept nogil:
    """R30 elimination of ``seat`` when both its royals are held, then R32 victory."""
    cdef int i, c, a
    cdef int royals = 0
    for i in range(s.nheld):
        if s.held[i].holder != seat and s.held[i].army == seat:
            if s.held[i].kind == KING:
                royals |= 1
            elif s.held[i].kind == QUEEN:
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
    h.kind = victim.kind
    h.edge = victim.edge
    h.royal = victim.royal
    s.nheld += 1
    s.captured[victim.kind] += 1
    if not kind_in(capturer.kind, ROYAL_KINDS):
        s.knight_caps[army] += 1
    if kind_in(capturer.kind, PROMOTABLE_KINDS) and not capturer.royal:   # R25
        capturer.tally += 2 if is_royal_mover(victim) else 1
    if not kind_in(victim.kind, ROYAL_KINDS):
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


cdef void material_points(const StateC* s, const RulesC* r, int* board, int* held) noexcept nogil:
    """R37 points per seat: its own pieces on the board, and the pieces it holds (R20)."""
    cdef int i
    for i in range(NUM_SEATS):
        board[i] = held[i] = 0
    for i in range(r.t.ncells):
        if s.cells[i].army >= 0:
            board[s.cells[i].army] += kind_points(s.cells[i].kind, s.cells[i].royal)
    for i in range(s.nheld):
        held[s.held[i].holder] += kind_points(s.held[i].kind, s.held[i].royal)


cdef uint8_t round_limit_winners(const StateC* s, const RulesC* r) noexcept nogil:
    """R37(a): the live team with the most points held by its armies; ties draw."""
    cdef int score[NUM_SEATS]
    cdef bint alive[NUM_SEATS]
    cdef int a, i, best = -1, top = -1, ties = 0
    for a in range(NUM_SEATS):
        score[a] = 0
        alive[a] = False
    for a in range(NUM_SEATS):
        if s.army_state[a] == ARMY_ACTIVE:
            alive[r.team[a]] = True
    for i in range(s.nheld):
        a = s.held[i].holder
        if (r.present >> a) & 1:
            score[r.team[a]] += kind_points(s.held[i].kind, s.held[i].royal)
    for a in range(NUM_SEATS):
        if not alive[a]:
            continue
        if score[a] > best:
            best = score[a]
            top = a
            ties = 0
        elif score[a] == best:
            ties += 1
    if ties:
        return 0
    return team_seats(r, top)


cdef void end_turn(StateC* s, const RulesC* r, bint passed) noexcept nogil:
    """Promotion (R25), pass count (R26), next army and round (R33), draw, round limit."""
    cdef int army = s.to_move, c, i, word, live = 0
    cdef uint64_t x
    cdef PieceC* p
    for word in range(3):
        x = s.occ[army].w[word]
        while x:
            p = &s.cells[word * 64 + lowest_bit(x)]
            x &= x - 1
            if p.tally >= 2 and kind_in(p.kind, PROMOTABLE_KINDS) and not p.royal:
                p.royal = 1
                p.tally = 0
    s.passes = s.passes + 1 if passed else 0
    for i in range(r.norder):
        if r.order[i] == army:
            break
    cdef bint wrapped = False
    while True:
        i += 1
        if i == r.norder:
            i = 0
            s.round += 1
            wrapped = True
        if s.army_state[r.order[i]] == ARMY_ACTIVE:
            break
    s.to_move = r.order[i]
    s.phase = PHASE_START
    s.mover = -1
    s.move_start = -1
    s.legs = 0
    s.captures = 0
    s.last_capture = -1
    bb_clear(&s.frozen)
    s.self_cell = -1
    s.self_color = -1
    s.nocap = -1
    s.pending = 0
    for i in range(NUM_SEATS):
        if s.army_state[i] == ARMY_ACTIVE:
            live += 1
    if s.passes >= live:
        finish(s, 0, RESULT_DRAW)
    elif r.quick and wrapped and s.round > r.quick:
        finish(s, round_limit_winners(s, r), RESULT_ROUND_LIMIT)


cdef void complete_move(StateC* s, const RulesC* r, int cell, bint r21,
                        int foreign) noexcept nogil:
    """A full move ended (R16): bonus state, self-eligibility or end of turn (R21-R23, R37).

    ``foreign``: the live foreign kingdom the move's last leg captured in, or -1.
    """
    cdef bint eligible
    if r.quick:
        s.pending = s.pending + s.captures
        eligible = s.captures > 0                                   # R37(b)
    else:
        s.pending = 1 if s.captures else 0
        eligible = is_royal_mover(&s.cells[cell]) and s.captures == 2 and not r21   # R23
    if eligible:
        s.self_cell = cell
        s.self_color = r.t.color[s.last_capture]
        s.nocap = foreign        # R37(c); -1 in the standard game, where R21 prevents R23
    else:
        bb_add(&s.frozen, cell)
    s.phase = PHASE_BONUS
    s.mover = -1
    if s.pending == 0:
        end_turn(s, r, False)


cdef void self_bonus_done(StateC* s, const RulesC* r, int cell, bint captured, bint r21,
                          int foreign) noexcept nogil:
    """After a self-bonus leg (R23, R37); ``foreign`` as in complete_move."""
    if r.quick:
        s.self_cell = cell
        s.pending += captured
        if captured:
            s.self_color = r.t.color[cell]
            s.nocap = foreign                    # R37(c): lifted by a capture elsewhere
    elif not captured:
        s.pending = 0
    elif r21:
        s.pending = 1
        s.self_cell = -1
        s.nocap = -1
        bb_add(&s.frozen, cell)
    else:
        s.pending = 1
        s.self_cell = cell
        s.self_color = r.t.color[cell]
    s.phase = PHASE_BONUS
    s.mover = -1
    if s.pending == 0:
        end_turn(s, r, False)


cdef void apply_leg(StateC* s, const RulesC* r, int origin, int target, int leg_type) noexcept nogil:
    """Play one leg and every consequence of it."""
    if s.phase == PHASE_BONUS:
        s.pending -= 1
        if leg_type != LEG_SELF and s.self_cell >= 0:                # R22: another piece
            bb_add(&s.frozen, s.self_cell)
            s.self_cell = -1
            s.nocap = -1
    if s.phase != PHASE_MOVE and leg_type != LEG_SELF:
        s.move_start = origin
        s.legs = 0
        s.captures = 0
        s.last_capture = -1
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
    if kind_in(piece.kind, ROYAL_KINDS):
        piece.laps = laps_after(r, &piece, origin, target)
    place_piece(s, target, &piece)
    if captured:
        capture(s, r, piece.army, target, &victim)
        if s.result:
            return
    s.legs += 1
    s.captures += captured
    if captured:
        s.last_capture = target
    s.mover = target
    if leg_type == LEG_SELF:
        self_bonus_done(s, r, target, captured, r21, foreign)
        return
    if (r21 or leg_type == LEG_STRATEGIC or s.legs == 2
            or (kind_in(piece.kind, PROMOTABLE_KINDS) and not piece.royal)):
        complete_move(s, r, target, r21, foreign)
    else:
        s.phase = PHASE_MOVE


cdef void apply_action(StateC* s, const RulesC* r, int32_t code) noexcept nogil:
    if code == WORD_STOP:
        complete_move(s, r, s.mover, False, -1)
    elif code == WORD_END:
        end_turn(s, r, False)
    elif code == WORD_PASS:
        end_turn(s, r, True)
    elif code == WORD_FORFEIT:
        end_turn(s, r, False)                # not an R26 pass: the army had legal actions
    else:
        apply_leg(s, r, code & 0xFF, (code >> TARGET_SHIFT) & 0xFF, code >> LEG_TYPE_SHIFT)


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
    if after.result or after.phase != PHASE_MOVE:                   # ends the game or move
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
        bb_del(&q, s.move_start)
        bb_del(&c, s.move_start)     # a rescue (R31) may have put a royal there
    return emit(out, n, cell, &q, &c, LEG_NORMAL, NULL, 0)


cdef int self_bonus_legs(const StateC* s, const RulesC* r, int cell, int32_t* out, int n) noexcept nogil:
    """R23, R37(b): the self-eligible piece's single bonus leg."""
    cdef const PieceC* p = &s.cells[cell]
    cdef BB q, c, extra
    cdef uint8_t colors
    if p.kind == HOSPITALLER:
        pivot(s, r, cell, p.army, color_bit(p.edge), s.nocap, &q, &c)
    elif kind_in(p.kind, ROYAL_KINDS):
        royal_leg(s, r, cell, color_bit(s.self_color), s.nocap, &q, &c)
    else:
        colors = color_bit(p.edge)
        leg(s, r, cell, p.army, r.dirs[p.army][p.kind], colors, True, False, -1, False,
            s.nocap, &q, &c)
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
    if s.phase == PHASE_MOVE:
        n = continuations(s, r, s.mover, out, n)
        if s.cells[s.mover].royal:
            out[n] = WORD_STOP                                       # R16 royal knight
            n += 1
        return n
    for word in range(3):
        x = s.occ[s.to_move].w[word] & ~s.frozen.w[word]
        while x:
            cell = word * 64 + lowest_bit(x)
            x &= x - 1
            if cell == s.self_cell:
                n = self_bonus_legs(s, r, cell, out, n)
            else:
                n = first_legs(s, r, cell, out, n)
    if s.phase == PHASE_BONUS:
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


cdef inline uint64_t splitmix64(uint64_t* state) noexcept nogil:
    state[0] += <uint64_t>0x9E3779B97F4A7C15
    cdef uint64_t z = state[0]
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


# -- position keys (search: transposition tables, repetition) --------------------------
# A 64-bit key of everything that decides what happens next: the pieces (kind, edge,
# royal, tally, laps), the held pieces in order, the armies, the army to act, the phase
# and every bonus-state field, the frozen pieces, the pass count and, in the quick game,
# the round. Each part is mixed with its own salt (a Zobrist key whose random table is a
# hash function); ``salt`` gives independent keys (collision measurements).

cdef inline uint64_t mix64(uint64_t z) noexcept nogil:
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef inline uint64_t part_salt(uint64_t salt, int part) noexcept nogil:
    """An independent random 64-bit salt per part of the key (and per ``salt``)."""
    return mix64(mix64(salt) + <uint64_t>(part + 1) * <uint64_t>0x9E3779B97F4A7C15)


cdef enum:
    KEY_PARTS = 20

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
                                   | (<uint64_t>p.kind << 43) | (<uint64_t>p.edge << 41)
                                   | (<uint64_t>p.royal << 40) | (<uint64_t>p.tally << 32)
                                   | <uint32_t>p.laps))
    memset(rank, 0, sizeof(rank))
    for i in range(s.nheld):                    # R39: each army's held pieces in order
        h = &s.held[i]
        rank[h.holder] += 1
        key ^= mix64(held_salt ^ ((<uint64_t>rank[h.holder] << 40) | (<uint64_t>h.holder << 32)
                                  | (<uint64_t>h.army << 24) | (<uint64_t>h.kind << 16)
                                  | (<uint64_t>h.edge << 8) | h.royal))
    for a in range(NUM_SEATS):
        key ^= mix64(armies ^ ((<uint64_t>a << 56) | (<uint64_t>s.army_state[a] << 48)
                               | <uint32_t>s.knight_caps[a]))
    cdef int32_t fields[14]
    fields[0], fields[1], fields[2], fields[3] = s.to_move, s.phase, s.mover, s.move_start
    fields[4], fields[5], fields[6], fields[7] = s.legs, s.captures, s.last_capture, s.self_cell
    fields[8], fields[9], fields[10], fields[11] = s.self_color, s.nocap, s.pending, s.passes
    fields[12] = s.round if r.quick else 0             # the round limit (R37a) only
    fields[13] = s.result * 256 + s.winners
    for i in range(14):
        key ^= mix64(salts[3 + i] ^ <uint32_t>fields[i])
    for word in range(3):
        key ^= mix64(salts[17 + word] ^ mix64(s.frozen.w[word]))
    return key


# -- hashed perft ----------------------------------------------------------------------
# A transposition table of subtree counts (depth >= 2; depth 1 is counted in bulk), keyed
# by position_key. Threads share it without locks: an entry is two words, the count
# with its depth and that XORed with the key, so a torn entry reads as a miss.

ctypedef struct PerftEntry:
    uint64_t check                   # key ^ data
    uint64_t data                    # count << 8 | depth

cdef extern from *:
    uint64_t load_u64 "__atomic_load_n"(uint64_t* ptr, int order) noexcept nogil
    void store_u64 "__atomic_store_n"(uint64_t* ptr, uint64_t value, int order) noexcept nogil


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
        return perft_c(s, r, depth, stop)
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
    for i in range(n):
        if atomic_load(stop, RELAXED):
            return total                 # not stored: the caller discards it
        memcpy(&child, s, sizeof(StateC))
        apply_action(&child, r, actions[i])
        total += perft_hashed(&child, r, depth - 1, table, hits, stop)
    data = (total << 8) | <uint64_t>depth
    store_u64(&entry.data, data, RELAXED)
    store_u64(&entry.check, key ^ data, RELAXED)
    return total


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
        if (p.army != q.army or p.kind != q.kind or p.edge != q.edge or p.royal != q.royal
                or p.tally != q.tally or p.laps != q.laps):
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
            and a.to_move == b.to_move and a.phase == b.phase and a.mover == b.mover
            and a.move_start == b.move_start and a.legs == b.legs and a.captures == b.captures
            and a.last_capture == b.last_capture and a.self_cell == b.self_cell
            and a.self_color == b.self_color and a.nocap == b.nocap and a.pending == b.pending
            and a.passes == b.passes and (not r.quick or a.round == b.round)
            and a.result == b.result and a.winners == b.winners)


# -- learning tensors (victorus.tensors) ----------------------------------------------

cdef inline int action_id(int32_t code, int n) noexcept nogil:
    """The fixed action id of a code: origin * N + target, or N * N + word (0 stop, 1 end,
    2 pass)."""
    if code >= WORD_STOP:
        return n * n + (code - WORD_STOP) // (WORD_END - WORD_STOP)
    return (code & 0xFF) * n + ((code >> TARGET_SHIFT) & 0xFF)


ctypedef fused obs_t:
    float
    uint8_t


cdef inline obs_t encode(obs_t* kind, double count, double divisor) noexcept nogil:
    """float32 planes hold ``count / divisor``; uint8 planes the count, saturated."""
    if obs_t is float:
        return <float>(count / divisor)
    else:
        return <uint8_t>(0 if count < 0 else 255 if count > 255 else count)


cdef inline void fill_plane(obs_t* out, int plane, int n, obs_t value) noexcept nogil:
    cdef int j
    cdef obs_t* row = out + plane * n
    for j in range(n):
        row[j] = value


cdef void write_observation(const StateC* s, const RulesC* r, int seat,
                            obs_t* out) noexcept nogil:
    """The planes of constants.PLANES seen by ``seat`` into ``out`` [NUM_PLANES, N]
    (float32: the same numbers as victorus.tensors.observation_reference)."""
    cdef int n = r.t.ncells, c, j, k, a, rel
    cdef const PieceC* p
    cdef const uint8_t* col = r.view[seat]
    cdef int held[NUM_SEATS]
    # The planes from phase_start on are whole-board values, each written once below.
    memset(out, 0, PLANE_PHASE_START * n * sizeof(obs_t))
    for c in range(n):
        j = col[c]
        out[(PLANE_CELL_WHITE + r.t.color[c]) * n + j] = 1
        k = r.t.kingdom[c]
        if k != NO_KINGDOM and s.army_state[k] != ARMY_ELIMINATED:
            out[(PLANE_KINGDOM0 + (k - seat + NUM_SEATS) % NUM_SEATS) * n + j] = 1
        if bb_has(&s.frozen, c):
            out[PLANE_FROZEN * n + j] = 1
        p = &s.cells[c]
        if p.army < 0:
            continue
        rel = (p.army - seat + NUM_SEATS) % NUM_SEATS
        out[(PLANE_ARMY0_T + rel * NUM_KINDS + p.kind) * n + j] = 1
        if kind_in(p.kind, ROYAL_KINDS):
            out[PLANE_LAPS * n + j] = encode(out, p.laps, 1.0)
        else:
            out[PLANE_BLACK_EDGED * n + j] = p.edge == COLOR_GREY
            out[PLANE_ROYAL * n + j] = p.royal
            out[PLANE_TALLY * n + j] = p.tally
    if s.self_cell >= 0:
        out[PLANE_SELF_ELIGIBLE * n + col[s.self_cell]] = 1
    if s.mover >= 0:
        out[PLANE_MOVING * n + col[s.mover]] = 1
    for k in range(PLANE_TO_MOVE0 - PLANE_PHASE_START):
        fill_plane(out, PLANE_PHASE_START + k, n, k == s.phase)
    for rel in range(NUM_SEATS):
        fill_plane(out, PLANE_TO_MOVE0 + rel, n, rel == (s.to_move - seat + NUM_SEATS) % NUM_SEATS)
    for a in range(NUM_SEATS):
        held[a] = 0
    for k in range(s.nheld):
        held[s.held[k].holder] += 1
    for a in range(NUM_SEATS):
        rel = (a - seat + NUM_SEATS) % NUM_SEATS
        fill_plane(out, PLANE_KNIGHT_CAPTURES0 + rel, n,
                   encode(out, min(s.knight_caps[a], 30), 3.0))
        fill_plane(out, PLANE_HELD0 + rel, n, encode(out, held[a], 12.0))
        fill_plane(out, PLANE_ACTIVE0 + rel, n, s.army_state[a] == ARMY_ACTIVE)
    fill_plane(out, PLANE_ROUND, n, encode(out, s.round, 100.0))
    fill_plane(out, PLANE_PASSES, n, encode(out, s.passes, 1.0))
    fill_plane(out, PLANE_PENDING, n, encode(out, s.pending, 1.0))


# -- Python boundary ------------------------------------------------------------------

cdef class Rules:
    """Per board and configuration: tables, direction masks, home cells, angles, teams."""
    cdef RulesC c
    cdef readonly BoardTables tables

    def __init__(self, BoardTables tables, dirs, homes, coords, theta, base, teams, order,
                 int present, int quick, views):
        self.tables = tables
        memset(&self.c, 0, sizeof(RulesC))
        self.c.t = &tables.t
        cdef int n = tables.t.ncells, s, k, i
        for s in range(NUM_SEATS):
            for k in range(NUM_KINDS):
                self.c.dirs[s][k] = dirs[s][k]
            self.c.home[s][0] = homes[s][0]
            self.c.home[s][1] = homes[s][1]
            self.c.team[s] = teams[s]
            for k in range(2):
                for i in range(n):
                    self.c.base[s][k][i] = base[s][k][i]
            for i in range(n):
                self.c.view[s][i] = views[s][i]
        for i in range(n):
            self.c.q[i] = coords[i][0]
            self.c.r[i] = coords[i][1]
            self.c.theta[i] = theta[i]
        self.c.norder = len(order)
        for i in range(len(order)):
            self.c.order[i] = order[i]
        self.c.present = present
        self.c.quick = quick




# -- the undo history -----------------------------------------------------------------
# Each action played leaves an immutable node holding the action's code and the 8-byte
# words of the state it changed, with their old values (typically 10-25 words). Nodes
# form a list from the newest action back to the history's start; copies of a game share
# it (reference counts), so a copy costs the same however long the history is.

ctypedef struct UndoNode:
    UndoNode* parent
    Py_ssize_t refs
    Py_ssize_t depth                 # actions from the history's start, this one included
    int32_t code                     # the action played
    int32_t nwords                   # changed words, then uint64 old[n], uint16 index[n]

cdef enum:
    MAX_STATE_WORDS = 512            # an upper bound of sizeof(StateC) / 8, checked below

cdef int STATE_WORDS = sizeof(StateC) // 8
if sizeof(StateC) % 8 or STATE_WORDS > MAX_STATE_WORDS:
    raise ImportError(f"the C state ({sizeof(StateC)} bytes) does not fit the undo records")


cdef inline uint64_t* node_old(UndoNode* node) noexcept nogil:
    return <uint64_t*>(<char*>node + sizeof(UndoNode))


cdef inline uint16_t* node_index(UndoNode* node) noexcept nogil:
    return <uint16_t*>(<char*>node + sizeof(UndoNode) + node.nwords * sizeof(uint64_t))


cdef UndoNode* make_node(const StateC* before, const StateC* after, int32_t code,
                         UndoNode* parent) noexcept nogil:
    """The undo record of one action (NULL when out of memory); takes a reference to
    ``parent``."""
    cdef const uint64_t* old = <const uint64_t*>before
    cdef const uint64_t* new = <const uint64_t*>after
    cdef uint16_t changed[MAX_STATE_WORDS]
    cdef int i, n = 0
    for i in range(STATE_WORDS):
        if old[i] != new[i]:
            changed[n] = i
            n += 1
    cdef UndoNode* node = <UndoNode*>malloc(sizeof(UndoNode) + n * (sizeof(uint64_t)
                                                                    + sizeof(uint16_t)))
    if node == NULL:
        return NULL
    node.parent = parent
    node.refs = 1
    node.depth = 1 + (parent.depth if parent != NULL else 0)
    node.code = code
    node.nwords = n
    cdef uint64_t* values = node_old(node)
    cdef uint16_t* index = node_index(node)
    for i in range(n):
        index[i] = changed[i]
        values[i] = old[changed[i]]
    if parent != NULL:
        parent.refs += 1
    return node


cdef inline void restore_node(StateC* s, UndoNode* node) noexcept nogil:
    """Put back the words the node's action changed."""
    cdef uint64_t* words = <uint64_t*>s
    cdef uint64_t* values = node_old(node)
    cdef uint16_t* index = node_index(node)
    cdef int i
    for i in range(node.nwords):
        words[index[i]] = values[i]


cdef inline void release(UndoNode* node) noexcept nogil:
    """Drop one reference; free the nodes nobody refers to any more."""
    cdef UndoNode* parent
    while node != NULL:
        node.refs -= 1
        if node.refs:
            return
        parent = node.parent
        free(node)
        node = parent


cdef class Engine:
    """A game state with its undo history. Inputs are validated by victorus.Game."""
    cdef StateC s
    cdef readonly Rules rules
    cdef UndoNode* head              # the last action's undo record, NULL: no history
    cdef int32_t* legal              # the legal actions of ``s`` while legal_valid
    cdef int nlegal, legal_capacity
    cdef bint legal_valid
    cdef bint busy                   # a playout without history runs on a copy, GIL released

    def __cinit__(self, Rules rules):
        self.rules = rules
        self.head = NULL
        self.legal = NULL
        self.legal_capacity = 0
        self.legal_valid = False
        memset(&self.s, 0, sizeof(StateC))

    def __dealloc__(self):
        release(self.head)
        free(self.legal)

    # -- loading and exporting (VPN, tests) --
    def load(self, cells, armies, held, turn):
        """Set the state from Python values (see victorus.game); ``turn`` maps the fields
        of victorus.pieces.Turn to their values."""
        self._check_idle()
        cdef StateC* s = &self.s
        memset(s, 0, sizeof(StateC))
        cdef int i, a
        cdef PieceC p
        for i in range(MAX_CELLS):
            s.cells[i].army = -1
        for i, piece in enumerate(cells):
            if piece is None:
                continue
            p.army = piece[0]
            p.kind = piece[1]
            p.edge = NO_EDGE if piece[2] is None else piece[2]
            p.royal = piece[3]
            p.tally = piece[4]
            p.laps = piece[5]
            place_piece(s, i, &p)
        s.live = 0
        for a in range(NUM_SEATS):
            state, caps = armies[a]
            s.army_state[a] = ARMY_STATES.index(state)
            s.knight_caps[a] = caps
            if s.army_state[a] != ARMY_ELIMINATED:
                s.live |= 1 << a
        if len(held) > MAX_HELD:
            raise ValueError(f"at most {MAX_HELD} held pieces, got {len(held)}")
        for i, h in enumerate(held):
            s.held[i].holder = h[0]
            s.held[i].army = h[1]
            s.held[i].kind = h[2]
            s.held[i].edge = NO_EDGE if h[3] is None else h[3]
            s.held[i].royal = h[4]
        s.nheld = len(held)
        s.to_move = turn["to_move"]
        s.round = turn["round"]
        s.passes = turn["passes"]
        s.phase = PHASES.index(turn["phase"])
        s.mover = turn["mover"]
        s.move_start = turn["move_start"]
        s.legs = turn["legs"]
        s.captures = turn["captures"]
        s.last_capture = turn["last_capture"]
        s.self_cell = turn["self_cell"]
        s.self_color = turn["self_color"]
        s.nocap = turn["nocap"]
        s.pending = turn["pending"]
        for i in turn["frozen"]:
            bb_add(&s.frozen, i)
        s.result = RESULT_NONE
        s.winners = 0
        for i in range(NUM_KINDS):
            s.captured[i] = 0
        release(self.head)
        self.head = NULL
        self.legal_valid = False

    def export(self, bint base=False):
        """(cells, armies, held, turn, result) as plain Python values; with ``base``,
        of the state the undo history starts from."""
        cdef StateC start
        cdef StateC* s = &self.s
        cdef UndoNode* node = self.head
        if base and node != NULL:            # undo every action on a scratch copy
            memcpy(&start, &self.s, sizeof(StateC))
            while node != NULL:
                restore_node(&start, node)
                node = node.parent
            s = &start
        cdef int i
        cdef PieceC* p
        cells = []
        for i in range(self.rules.c.t.ncells):
            p = &s.cells[i]
            if p.army < 0:
                cells.append(None)
            else:
                cells.append((p.army, p.kind, None if p.edge == NO_EDGE else p.edge,
                              bool(p.royal), p.tally, p.laps))
        armies = [(ARMY_STATES[s.army_state[i]], s.knight_caps[i]) for i in range(NUM_SEATS)]
        held = [(s.held[i].holder, s.held[i].army, s.held[i].kind,
                 None if s.held[i].edge == NO_EDGE else s.held[i].edge, bool(s.held[i].royal))
                for i in range(s.nheld)]
        frozen = frozenset(i for i in range(self.rules.c.t.ncells) if bb_has(&s.frozen, i))
        turn = dict(to_move=s.to_move, round=s.round, passes=s.passes, phase=PHASES[s.phase],
                    mover=s.mover, move_start=s.move_start, legs=s.legs, captures=s.captures,
                    last_capture=s.last_capture, frozen=frozen, self_cell=s.self_cell,
                    self_color=s.self_color, nocap=s.nocap, pending=s.pending)
        result = None if s.result == RESULT_NONE else (
            tuple(a for a in range(NUM_SEATS) if (s.winners >> a) & 1), RESULTS[s.result])
        return cells, armies, held, turn, result

    def armies(self):
        """Per seat: (R39 state letter, knight captures R19)."""
        return tuple((ARMY_STATES[self.s.army_state[a]], self.s.knight_caps[a])
                     for a in range(NUM_SEATS))

    def returns(self):
        """Per seat (6): +1 winning team, -1 other present seats, 0 otherwise."""
        cdef float out[NUM_SEATS]
        team_returns(&self.s, &self.rules.c, out)
        return tuple(out[a] for a in range(NUM_SEATS))

    def material(self):
        """(on the board, held) R37 points per seat: each army's own pieces on the
        board, and the pieces it holds (R20)."""
        cdef int board_points[NUM_SEATS]
        cdef int held_points[NUM_SEATS]
        material_points(&self.s, &self.rules.c, board_points, held_points)
        return (tuple(board_points[i] for i in range(NUM_SEATS)),
                tuple(held_points[i] for i in range(NUM_SEATS)))

    def cells_into(self, int8_t[::1] army, int8_t[::1] kind, int8_t[::1] edge,
                   int8_t[::1] royal, int8_t[::1] tally, int32_t[::1] laps,
                   int8_t[::1] frozen):
        """Fill per-cell arrays of the board's size: army, kind and edge (-1: none), royal,
        tally, laps and frozen (0/1)."""
        cdef Py_ssize_t n = self.rules.c.t.ncells
        if not (army.shape[0] == kind.shape[0] == edge.shape[0] == royal.shape[0] ==
                tally.shape[0] == laps.shape[0] == frozen.shape[0] == n):
            raise ValueError(f"cells_into needs buffers of {n} cells")
        cdef int i
        cdef PieceC* p
        for i in range(n):
            p = &self.s.cells[i]
            army[i] = p.army
            kind[i] = -1 if p.army < 0 else p.kind
            edge[i] = -1 if p.army < 0 or p.edge == NO_EDGE else p.edge
            royal[i] = p.army >= 0 and p.royal
            tally[i] = 0 if p.army < 0 else p.tally
            laps[i] = 0 if p.army < 0 else p.laps
            frozen[i] = bb_has(&self.s.frozen, i)

    def piece(self, int cell):
        """(army, kind, edge, royal, tally, laps) of the piece on a cell, or None."""
        if not 0 <= cell < self.rules.c.t.ncells:
            raise IndexError(f"cell {cell} out of range")
        cdef PieceC* p = &self.s.cells[cell]
        if p.army < 0:
            return None
        return (p.army, p.kind, None if p.edge == NO_EDGE else p.edge, bool(p.royal), p.tally,
                p.laps)

    def held(self):
        """Every held piece in capture order: (holder, army, kind, edge, royal)."""
        cdef int i
        cdef HeldC* h
        out = []
        for i in range(self.s.nheld):
            h = &self.s.held[i]
            out.append((h.holder, h.army, h.kind, None if h.edge == NO_EDGE else h.edge,
                        bool(h.royal)))
        return out

    def occupied(self, int army):
        """Cells of one army per the bitboards (for consistency checks)."""
        return [i for i in range(self.rules.c.t.ncells) if bb_has(&self.s.occ[army], i)]

    @property
    def live(self):
        return self.s.live

    def result(self):
        """None while running, else (winner seats, reason)."""
        if self.s.result == RESULT_NONE:
            return None
        return (tuple(a for a in range(NUM_SEATS) if (self.s.winners >> a) & 1),
                RESULTS[self.s.result])

    @property
    def over(self):
        return self.s.result != RESULT_NONE

    @property
    def to_move(self):
        return self.s.to_move

    @property
    def phase(self):
        return PHASES[self.s.phase]

    @property
    def round(self):
        return self.s.round

    @property
    def history_length(self):
        """How many actions the undo history holds."""
        return self.head.depth if self.head != NULL else 0

    def history_bytes(self):
        """Memory held by the undo history (its nodes; shared with copies)."""
        cdef Py_ssize_t total = 0
        cdef UndoNode* node = self.head
        while node != NULL:
            total += sizeof(UndoNode) + node.nwords * (sizeof(uint64_t) + sizeof(uint16_t))
            node = node.parent
        return total

    # -- actions --
    cdef int _refresh(self) except -1:
        cdef int32_t buffer[MAX_ACTIONS]
        cdef int32_t* grown
        if self.legal_valid:
            return 0
        cdef int n = gen_actions(&self.s, &self.rules.c, buffer)
        if n > self.legal_capacity:
            grown = <int32_t*>realloc(self.legal, max(n, 64) * sizeof(int32_t))
            if grown == NULL:
                raise MemoryError()
            self.legal = grown
            self.legal_capacity = max(n, 64)
        if n:                            # memcpy to a NULL buffer is undefined even for 0 bytes
            memcpy(self.legal, buffer, n * sizeof(int32_t))
        self.nlegal = n
        self.legal_valid = True
        return 0

    cdef list _legal_objects(self, list table, object owner):
        """Legal actions as objects: ``table[action_slot(key)]``, made by
        ``owner._make_action(key)`` (and kept there) when still None. A list indexed by
        slot, not a dict: no int object is made per action."""
        self._refresh()
        cdef int i, code, key, slot
        cdef Py_ssize_t size = len(table)
        cdef list out = PyList_New(self.nlegal)
        cdef object action
        for i in range(self.nlegal):
            code = self.legal[i]
            key = code & KEY_MASK if code < WORD_STOP else code
            slot = action_slot(key)
            if slot >= size:
                raise ValueError(f"the action table has {size} slots, key {key} needs more")
            action = <object>PyList_GET_ITEM(table, slot)
            if action is None:
                action = owner._make_action(key)
                table[slot] = action
            Py_INCREF(action)
            PyList_SET_ITEM(out, i, action)
        return out

    cdef int _check_idle(self) except -1:
        """Refuse to change the state while random_playout(history=False) plays it out
        without the GIL in another thread (its result would overwrite the change)."""
        if self.busy:
            raise StateError("this game is being played out by another thread "
                             "(play_random without history); wait for that call to return")
        return 0

    cdef int _play(self, int32_t code) except -1:
        """Apply a legal action code and record it in the undo history."""
        cdef StateC before
        self._check_idle()
        memcpy(&before, &self.s, sizeof(StateC))
        apply_action(&self.s, &self.rules.c, code)
        self.legal_valid = False
        cdef UndoNode* node = make_node(&before, &self.s, code, self.head)
        if node == NULL:
            memcpy(&self.s, &before, sizeof(StateC))
            raise MemoryError("no memory left for the undo history")
        release(self.head)               # the new node holds the reference now
        self.head = node
        return 0

    # -- learning: action ids, masks, observations (victorus.tensors) --
    @property
    def legal_count(self):
        """How many actions are legal now."""
        self._refresh()
        return self.nlegal

    def legal_ids(self, empty):
        """The legal actions' ids, in legal_actions() order, in ``empty(count, "int32")``
        (numpy.empty)."""
        self._refresh()
        ids = empty(self.nlegal, "int32")
        cdef int32_t[::1] out = ids
        cdef int i, n = self.rules.c.t.ncells
        for i in range(self.nlegal):
            out[i] = action_id(self.legal[i], n)
        return ids

    def mask_into(self, out):
        """True where the action id is legal into ``out``, a writable C-contiguous bool
        buffer (numpy) of N * N + 3 entries; False (untouched) if it is not one."""
        cdef Py_buffer view
        cdef int i, n = self.rules.c.t.ncells
        try:
            PyObject_GetBuffer(out, &view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT)
        except (TypeError, ValueError, BufferError):
            return False
        cdef bint ok = (view.itemsize == 1 and view.len == n * n + 3
                        and view.format != NULL and view.format[0] == b"?" and view.format[1] == 0)
        if ok:
            self._refresh()
            memset(view.buf, 0, view.len)
            for i in range(self.nlegal):
                (<uint8_t*>view.buf)[action_id(self.legal[i], n)] = 1
        PyBuffer_Release(&view)
        return ok

    def observation_into(self, float[:, ::1] out, int seat):
        """The observation planes seen by ``seat`` into ``out`` [NUM_PLANES, N]."""
        cdef int n = self.rules.c.t.ncells
        if out.shape[0] != NUM_PLANES or out.shape[1] != n or not 0 <= seat < NUM_SEATS:
            raise ValueError(f"out must be [{NUM_PLANES}, {n}] and seat 0-5")
        write_observation(&self.s, &self.rules.c, seat, &out[0, 0])   # GIL held: never torn

    def play_id(self, int ident):
        """Play the legal action with this id; False if none is legal."""
        self._refresh()
        cdef int i, n = self.rules.c.t.ncells
        for i in range(self.nlegal):
            if action_id(self.legal[i], n) == ident:
                self._play(self.legal[i])
                return True
        return False

    def code_of_id(self, int ident):
        """The notation key of the legal action with this id, or -1."""
        self._refresh()
        cdef int i, n = self.rules.c.t.ncells
        cdef int32_t code
        for i in range(self.nlegal):
            code = self.legal[i]
            if action_id(code, n) == ident:
                return code & KEY_MASK if code < WORD_STOP else code
        return -1

    def history_keys(self):
        """Notation keys of the actions in the undo history, oldest first (a forfeit is
        written ``pass``)."""
        cdef list keys = []
        cdef UndoNode* node = self.head
        cdef int32_t code
        while node != NULL:
            code = node.code
            keys.append(code & KEY_MASK if code < WORD_STOP
                        else WORD_PASS if code == WORD_FORFEIT else code)
            node = node.parent
        keys.reverse()
        return keys

    def play_key(self, int key):
        """Play the legal action with this notation key; False if none is legal."""
        return self._play_key(key)

    cdef bint _play_key(self, int key) except -1:
        self._refresh()
        cdef int i, code
        for i in range(self.nlegal):
            code = self.legal[i]
            if (code & KEY_MASK if code < WORD_STOP else code) == key:
                self._play(code)
                return True
        return False

    cdef int _play_known(self, object action, list table) except -2:
        """Play ``action`` if it is the object ``table`` holds for its key (an Action that
        ``_legal_objects(table, ...)`` handed out): 1 if played, 0 if not legal now, -1 if
        ``action`` is no such object (the caller reads its text instead)."""
        if type(action) is str:
            return -1
        key_object = getattr(action, "key", None)
        if type(key_object) is not int or not 0 <= key_object <= WORD_FORFEIT:
            return -1
        cdef int key = key_object
        cdef Py_ssize_t slot = action_slot(key)
        if slot >= len(table) or <object>PyList_GET_ITEM(table, slot) is not action:
            return -1
        return 1 if self._play_key(key) else 0

    def forfeit(self):
        """The army to act forfeits its turn on time; False unless at the start of a
        running turn. It ends the turn like any other turn, resetting R26's pass count,
        unless ``pass`` is the army's only legal action: then it is that pass."""
        if self.s.result != RESULT_NONE or self.s.phase != PHASE_START:
            return False
        self._refresh()
        self._play(WORD_PASS if self.legal[0] == WORD_PASS else WORD_FORFEIT)
        return True

    def undo(self):
        """Restore the state before the last action; False if there is none."""
        cdef UndoNode* node = self.head
        self._check_idle()
        if node == NULL:
            return False
        restore_node(&self.s, node)
        self.head = node.parent
        if node.parent != NULL:
            node.parent.refs += 1
        release(node)
        self.legal_valid = False
        return True

    def copy(self, bint history=True):
        """An independent engine; with ``history`` it shares this one's undo history
        (immutable), so the cost does not depend on the history's length."""
        cdef Engine other = Engine.__new__(Engine, self.rules)
        memcpy(&other.s, &self.s, sizeof(StateC))
        if history and self.head != NULL:
            other.head = self.head
            self.head.refs += 1
        return other

    def key(self, uint64_t salt=0):
        """The position's 64-bit key (see position_key)."""
        return position_key(&self.s, &self.rules.c, salt)

    def same_position(self, Engine other):
        return self.rules is other.rules and same_position(&self.s, &other.s, &self.rules.c)

    def random_keys(self, uint64_t seed, uint64_t[:, ::1] out, int64_t max_actions):
        """Random games from this state (a fresh one after each end or ``max_actions``):
        the keys with salts 0 and 1 of every position met, into ``out`` [n, 2]."""
        cdef uint64_t rng = seed
        cdef Py_ssize_t i
        cdef int n
        cdef int64_t played = 0
        cdef int32_t buffer[MAX_ACTIONS]
        cdef StateC s, start
        memcpy(&start, &self.s, sizeof(StateC))
        memcpy(&s, &start, sizeof(StateC))
        with nogil:
            for i in range(out.shape[0]):
                out[i, 0] = position_key(&s, &self.rules.c, 0)
                out[i, 1] = position_key(&s, &self.rules.c, 1)
                if s.result or played >= max_actions:
                    memcpy(&s, &start, sizeof(StateC))
                    played = 0
                    continue
                n = gen_actions(&s, &self.rules.c, buffer)
                apply_action(&s, &self.rules.c, buffer[splitmix64(&rng) % <uint64_t>n])
                played += 1

    def perft(self, int depth, StopToken stop=None):
        """R40 from this state (a copy of it: play() on this engine from another thread
        meanwhile cannot tear it). A partial count if ``stop`` was set."""
        cdef uint64_t n
        cdef StateC s
        cdef const int* flag = stop_flag(stop)
        memcpy(&s, &self.s, sizeof(StateC))
        with nogil:
            n = perft_c(&s, &self.rules.c, depth, flag)
        return n

    def perft_hashed(self, int depth, PerftTable table, StopToken stop=None):
        """R40 from (a copy of) this state with ``table`` (shared by threads without
        locks: a torn entry reads as a miss): (count, table hits)."""
        cdef uint64_t n, hits = 0
        cdef StateC s
        cdef const int* flag = stop_flag(stop)
        memcpy(&s, &self.s, sizeof(StateC))
        with nogil:
            n = perft_hashed(&s, &self.rules.c, depth, table, &hits, flag)
        return n, hits

    def children(self):
        """A new engine (no history) after each legal action, in order (perft progress)."""
        self._refresh()
        out = []
        cdef int i
        cdef Engine child
        for i in range(self.nlegal):
            child = self.copy(False)
            apply_action(&child.s, &self.rules.c, self.legal[i])
            out.append(child)
        return out

    def random_playout(self, uint64_t seed, int64_t max_actions, bint history,
                       StopToken stop=None):
        """Play uniformly random actions (splitmix64) until the end, the cap (< 0: none) or
        ``stop``.

        With ``history`` every action can be undone (the GIL is held; Ctrl-C is seen
        every 4,096 actions); without it the undo history is dropped (bulk simulation)
        and the game is played out on a copy with the GIL released, written back at the
        end: meanwhile other threads may read this engine, and changing it is refused.
        """
        cdef uint64_t rng = seed
        cdef int64_t played = 0
        cdef int n
        cdef int32_t buffer[MAX_ACTIONS]
        cdef const int* flag = stop_flag(stop)
        cdef StateC s
        self._check_idle()
        self.legal_valid = False
        if history:
            while not self.s.result and (max_actions < 0 or played < max_actions):
                if played & 4095 == 4095:
                    if atomic_load(flag, RELAXED):
                        break
                    if PyErr_CheckSignals() < 0:
                        raise KeyboardInterrupt  # (or what the signal handler raised)
                n = gen_actions(&self.s, &self.rules.c, buffer)
                self._play(buffer[splitmix64(&rng) % <uint64_t>n])
                played += 1
            return played
        release(self.head)
        self.head = NULL
        memcpy(&s, &self.s, sizeof(StateC))
        self.busy = True
        with nogil:                      # other threads may play their own games meanwhile
            while not s.result and (max_actions < 0 or played < max_actions):
                if atomic_load(flag, RELAXED):
                    break
                n = gen_actions(&s, &self.rules.c, buffer)
                apply_action(&s, &self.rules.c, buffer[splitmix64(&rng) % <uint64_t>n])
                played += 1
        memcpy(&self.s, &s, sizeof(StateC))
        self.busy = False
        return played

    def captured(self):
        """Captures so far per captured piece type (T, U, B, X, H, K, Q)."""
        return tuple(self.s.captured[i] for i in range(NUM_KINDS))


cdef class GameCore:
    """The part of ``victorus.Game`` that search loops call after every action, as C
    methods (no Python frame per call): ``legal_actions``, ``play`` of the Actions it
    handed out, ``is_over``. Everything else is in victorus/game.py."""

    cdef public Engine _engine
    cdef public list _actions

    def legal_actions(self):
        """All legal actions: legs in (origin, target) cell order, then stop/end/pass."""
        return self._engine._legal_objects(self._actions, self)

    def play(self, action):
        """Play an Action or an R38 string; an illegal one raises and changes nothing."""
        cdef int played = self._engine._play_known(action, self._actions)
        if played <= 0:
            self._play_text(action, played == 0)

    @property
    def is_over(self):
        """True once the game has ended (R26-R34; not at the R36 cap)."""
        return self._engine.s.result != RESULT_NONE


#: The values this module was compiled with (victorus_constants.pxi), checked against
#: victorus.constants by the tests: a stale build cannot pass unnoticed.
COMPILED_CONSTANTS = dict(
    NUM_SEATS=NUM_SEATS, MAX_CELLS=MAX_CELLS, NUM_KINDS=NUM_KINDS, KING=KING, QUEEN=QUEEN,
    HOSPITALLER=HOSPITALLER, ROYAL_KINDS=ROYAL_KINDS, PROMOTABLE_KINDS=PROMOTABLE_KINDS,
    STRATEGIC_KINDS=STRATEGIC_KINDS, GATE_CAPTURES=GATE_CAPTURES, TARGET_SHIFT=TARGET_SHIFT,
    CAPTURE_FLAG=CAPTURE_FLAG, LEG_TYPE_SHIFT=LEG_TYPE_SHIFT, KEY_MASK=KEY_MASK,
    WORD_STOP=WORD_STOP, WORD_END=WORD_END, WORD_PASS=WORD_PASS, WORD_FORFEIT=WORD_FORFEIT,
    POINTS=[(kind_points(k, False), kind_points(k, True)) for k in range(NUM_KINDS)])


# -- many games stepped at once (victorus.vector) ----------------------------------------
# The games live in one C array; a step validates every action first (nothing changes if
# one is illegal), then splits the games over a pool of POSIX threads that run without
# the GIL. Each game has its own random state, so results never depend on the threads.

cdef extern from "<pthread.h>" nogil:
    ctypedef unsigned long pthread_t
    ctypedef struct pthread_mutex_t:
        pass
    ctypedef struct pthread_cond_t:
        pass
    int pthread_create(pthread_t* thread, const void* attr, void* (*start)(void*) noexcept nogil,
                       void* arg)
    int pthread_join(pthread_t thread, void** result)
    int pthread_mutex_init(pthread_mutex_t* mutex, const void* attr)
    int pthread_mutex_destroy(pthread_mutex_t* mutex)
    int pthread_mutex_lock(pthread_mutex_t* mutex)
    int pthread_mutex_unlock(pthread_mutex_t* mutex)
    int pthread_cond_init(pthread_cond_t* cond, const void* attr)
    int pthread_cond_destroy(pthread_cond_t* cond)
    int pthread_cond_wait(pthread_cond_t* cond, pthread_mutex_t* mutex)
    int pthread_cond_broadcast(pthread_cond_t* cond)
    int pthread_cond_signal(pthread_cond_t* cond)

cdef enum:
    MAX_THREADS = 64
    SPIN = 200000                    # checks before a thread sleeps (a step's worth of time)
    CHUNK = 4                        # games a thread takes at a time
    TASK_RESET = 0
    TASK_STEP = 1
    OBS_NONE = 0
    OBS_FLOAT32 = 1
    OBS_UINT8 = 2


ctypedef struct VecC:
    const RulesC* r
    StateC start
    StateC* states
    int32_t* legal                   # [n, MAX_ACTIONS] legal codes of each game
    int32_t* nlegal                  # [n]
    int64_t* played                  # actions of each game's current episode
    uint64_t* rng                    # each game's splitmix64 state
    uint8_t* reset_next              # gymnasium next-step autoreset
    int n, threads, obs_kind, cells
    int64_t max_actions              # truncation cap, <= 0: none
    int task
    # the caller's numpy buffers
    const int32_t* actions           # [n] ids in, or out for TASK_SAMPLE
    int32_t* sampled
    void* obs                        # [n, NUM_PLANES, cells] float32 or uint8, or NULL
    uint8_t* masks                   # [n, N * N + 3] or NULL
    int32_t* ids                     # [n, MAX_ACTIONS] or NULL
    int32_t* counts                  # [n] legal actions
    float* rewards                   # [n, NUM_SEATS]
    uint8_t* terminated
    uint8_t* truncated
    int32_t* to_move
    # the pool
    pthread_mutex_t lock
    pthread_cond_t start_cv
    pthread_cond_t done_cv
    int generation, busy, stop, next


cdef void vec_outputs(VecC* v, int i) noexcept nogil:
    """Legal actions, observation, mask or ids and the seat to act of game ``i``."""
    cdef StateC* s = &v.states[i]
    cdef int32_t* legal = v.legal + <Py_ssize_t>i * MAX_ACTIONS
    cdef int k, n = v.cells, size = NUM_PLANES * v.cells
    cdef Py_ssize_t actions = n * n + 3
    v.nlegal[i] = gen_actions(s, v.r, legal)          # 0 once the game is over
    v.counts[i] = v.nlegal[i]
    v.to_move[i] = s.to_move
    if v.obs_kind == OBS_FLOAT32:
        write_observation(s, v.r, s.to_move, <float*>v.obs + <Py_ssize_t>i * size)
    elif v.obs_kind == OBS_UINT8:
        write_observation(s, v.r, s.to_move, <uint8_t*>v.obs + <Py_ssize_t>i * size)
    if v.masks != NULL:
        memset(v.masks + i * actions, 0, actions)
        for k in range(v.nlegal[i]):
            v.masks[i * actions + action_id(legal[k], n)] = 1
    if v.ids != NULL:
        for k in range(v.nlegal[i]):
            v.ids[<Py_ssize_t>i * MAX_ACTIONS + k] = action_id(legal[k], n)


cdef int find_legal(const VecC* v, int i, int ident) noexcept nogil:
    """The index of game ``i``'s legal action with this id, or -1: a binary search, since
    gen_actions lists legs in (origin, target) order, then the word, so ids increase."""
    cdef const int32_t* legal = v.legal + <Py_ssize_t>i * MAX_ACTIONS
    cdef int lo = 0, hi = v.nlegal[i] - 1, mid, found
    while lo <= hi:
        mid = (lo + hi) >> 1
        found = action_id(legal[mid], v.cells)
        if found == ident:
            return mid
        if found < ident:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1


cdef void vec_reset_one(VecC* v, int i) noexcept nogil:
    memcpy(&v.states[i], &v.start, sizeof(StateC))
    v.played[i] = 0
    v.reset_next[i] = 0
    v.terminated[i] = 0
    v.truncated[i] = 0
    cdef int a
    for a in range(NUM_SEATS):
        v.rewards[i * NUM_SEATS + a] = 0.0


cdef void vec_step_one(VecC* v, int i) noexcept nogil:
    cdef StateC* s = &v.states[i]
    cdef int32_t* legal = v.legal + <Py_ssize_t>i * MAX_ACTIONS
    cdef int k, a
    if v.reset_next[i]:                               # next-step autoreset: the action is ignored
        vec_reset_one(v, i)
        vec_outputs(v, i)
        return
    apply_action(s, v.r, legal[find_legal(v, i, v.actions[i])])     # validated by the caller
    v.played[i] += 1
    team_returns(s, v.r, &v.rewards[i * NUM_SEATS])
    v.terminated[i] = s.result != RESULT_NONE
    v.truncated[i] = not v.terminated[i] and v.max_actions > 0 and v.played[i] >= v.max_actions
    v.reset_next[i] = v.terminated[i] or v.truncated[i]
    vec_outputs(v, i)


cdef void vec_run(VecC* v) noexcept nogil:
    """Take games a few at a time until none is left (every thread, the caller's too)."""
    cdef int lo, i
    while True:
        lo = atomic_fetch_add(&v.next, CHUNK, SEQ_CST)
        if lo >= v.n:
            return
        for i in range(lo, min(lo + CHUNK, v.n)):
            if v.task == TASK_RESET:
                vec_reset_one(v, i)
                vec_outputs(v, i)
            else:
                vec_step_one(v, i)


cdef void* vec_worker(void* arg) noexcept nogil:
    """A pool thread: spin a little, then sleep, until the next task; run it; report."""
    cdef VecC* v = <VecC*>arg
    cdef int seen = 0, spin
    while True:
        spin = 0
        while atomic_load(&v.generation, SEQ_CST) == seen and spin < SPIN:
            spin += 1
        pthread_mutex_lock(&v.lock)
        while atomic_load(&v.generation, SEQ_CST) == seen and not v.stop:
            pthread_cond_wait(&v.start_cv, &v.lock)
        if v.stop:
            pthread_mutex_unlock(&v.lock)
            return NULL
        seen = atomic_load(&v.generation, SEQ_CST)
        pthread_mutex_unlock(&v.lock)
        vec_run(v)
        if atomic_sub_fetch(&v.busy, 1, SEQ_CST) == 0:
            pthread_mutex_lock(&v.lock)          # the caller may be asleep: wake it
            pthread_cond_signal(&v.done_cv)
            pthread_mutex_unlock(&v.lock)


cdef void vec_dispatch(VecC* v, int task) noexcept nogil:
    """Run ``task`` on every game, shared out over the threads (this one included)."""
    cdef int spin = 0
    v.task = task
    atomic_store(&v.next, 0, SEQ_CST)
    if v.threads > 1:
        atomic_store(&v.busy, v.threads - 1, SEQ_CST)
        pthread_mutex_lock(&v.lock)
        atomic_fetch_add(&v.generation, 1, SEQ_CST)
        pthread_cond_broadcast(&v.start_cv)
        pthread_mutex_unlock(&v.lock)
    vec_run(v)
    if v.threads > 1:
        while atomic_load(&v.busy, SEQ_CST) and spin < SPIN:
            spin += 1
        pthread_mutex_lock(&v.lock)
        while atomic_load(&v.busy, SEQ_CST):
            pthread_cond_wait(&v.done_cv, &v.lock)
        pthread_mutex_unlock(&v.lock)


cdef class VectorEngine:
    """``n`` games of one configuration stepped together (victorus.vector validates the
    arguments and owns the output buffers)."""
    cdef VecC v
    cdef pthread_t handles[MAX_THREADS]
    cdef int started                     # worker threads running
    cdef bint pool_ready                 # the lock and conditions exist
    cdef readonly Rules rules
    cdef object buffers                  # keeps the numpy outputs alive

    def __cinit__(self):
        memset(&self.v, 0, sizeof(VecC))
        self.started = 0
        self.pool_ready = False

    def __init__(self, Engine start, int n, int threads, int64_t max_actions, int obs_kind,
                 buffers):
        self.rules = start.rules
        cdef VecC* v = &self.v
        v.r = &self.rules.c
        memcpy(&v.start, &start.s, sizeof(StateC))
        v.n, v.threads, v.max_actions, v.obs_kind = n, threads, max_actions, obs_kind
        v.cells = self.rules.c.t.ncells
        v.states = <StateC*>malloc(n * sizeof(StateC))
        v.legal = <int32_t*>malloc(<Py_ssize_t>n * MAX_ACTIONS * sizeof(int32_t))
        v.nlegal = <int32_t*>malloc(n * sizeof(int32_t))
        v.played = <int64_t*>malloc(n * sizeof(int64_t))
        v.rng = <uint64_t*>malloc(n * sizeof(uint64_t))
        v.reset_next = <uint8_t*>malloc(n)
        if (v.states == NULL or v.legal == NULL or v.nlegal == NULL or v.played == NULL
                or v.rng == NULL or v.reset_next == NULL):
            raise MemoryError(f"no memory for {n} games")
        memset(v.reset_next, 0, n)
        memset(v.nlegal, 0, n * sizeof(int32_t))
        self.buffers = buffers
        cdef float[:, ::1] rewards = buffers["rewards"]
        cdef uint8_t[::1] terminated = buffers["terminated"]
        cdef uint8_t[::1] truncated = buffers["truncated"]
        cdef int32_t[::1] to_move = buffers["to_move"]
        cdef int32_t[::1] counts = buffers["counts"]
        cdef int32_t[::1] sampled = buffers["sampled"]
        cdef uint8_t[:, ::1] masks
        cdef int32_t[:, ::1] ids
        cdef float[:, :, ::1] obs32
        cdef uint8_t[:, :, ::1] obs8
        v.rewards, v.terminated, v.truncated = &rewards[0, 0], &terminated[0], &truncated[0]
        v.to_move, v.counts, v.sampled = &to_move[0], &counts[0], &sampled[0]
        if buffers.get("masks") is not None:
            masks = buffers["masks"]
            v.masks = &masks[0, 0]
        if buffers.get("ids") is not None:
            ids = buffers["ids"]
            v.ids = &ids[0, 0]
        if obs_kind == OBS_FLOAT32:
            obs32 = buffers["observations"]
            v.obs = &obs32[0, 0, 0]
        elif obs_kind == OBS_UINT8:
            obs8 = buffers["observations"]
            v.obs = &obs8[0, 0, 0]
        pthread_mutex_init(&v.lock, NULL)
        pthread_cond_init(&v.start_cv, NULL)
        pthread_cond_init(&v.done_cv, NULL)
        self.pool_ready = True
        cdef int t
        for t in range(1, threads):
            if pthread_create(&self.handles[t], NULL, vec_worker, v):
                self.v.threads = t               # run with the threads that did start
                break
            self.started = t

    def __dealloc__(self):
        cdef int t
        if self.pool_ready:
            pthread_mutex_lock(&self.v.lock)
            self.v.stop = 1
            pthread_cond_broadcast(&self.v.start_cv)
            pthread_mutex_unlock(&self.v.lock)
            for t in range(1, self.started + 1):
                pthread_join(self.handles[t], NULL)
            pthread_mutex_destroy(&self.v.lock)
            pthread_cond_destroy(&self.v.start_cv)
            pthread_cond_destroy(&self.v.done_cv)
        free(self.v.states)
        free(self.v.legal)
        free(self.v.nlegal)
        free(self.v.played)
        free(self.v.rng)
        free(self.v.reset_next)

    @property
    def threads(self):
        return self.v.threads

    def reset(self, uint64_t seed):
        """Every game back to the start; game ``i``'s random state from (seed, i)."""
        cdef int i
        for i in range(self.v.n):
            self.v.rng[i] = seed ^ (<uint64_t>i * <uint64_t>0x9E3779B97F4A7C15)
            splitmix64(&self.v.rng[i])
        with nogil:
            vec_dispatch(&self.v, TASK_RESET)

    def step(self, const int32_t[::1] actions):
        """Play one action id per game (ignored for a game that ended at the last step: it
        starts again). Returns -1, or the first game whose id is not legal (nothing moved)."""
        cdef int i
        for i in range(self.v.n):             # validate first: all or nothing
            if not self.v.reset_next[i] and find_legal(&self.v, i, actions[i]) < 0:
                return i
        self.v.actions = &actions[0]
        with nogil:
            vec_dispatch(&self.v, TASK_STEP)
        return -1

    def sample(self):
        """Uniformly random legal ids into the 'sampled' buffer (each game's own random
        state; -1 for a game without a legal action or about to start again)."""
        cdef VecC* v = &self.v
        cdef int i, k
        with nogil:
            for i in range(v.n):
                k = v.nlegal[i]
                v.sampled[i] = (-1 if k == 0 or v.reset_next[i] else
                                action_id(v.legal[<Py_ssize_t>i * MAX_ACTIONS
                                                  + splitmix64(&v.rng[i]) % <uint64_t>k],
                                          v.cells))

    def engine(self, int i):
        """An Engine holding a copy of game ``i`` (no history)."""
        cdef Engine e = Engine.__new__(Engine, self.rules)
        memcpy(&e.s, &self.v.states[i], sizeof(StateC))
        return e

    def legal_codes(self, int i):
        return [self.v.legal[<Py_ssize_t>i * MAX_ACTIONS + k] for k in range(self.v.nlegal[i])]


MAX_LEGAL_ACTIONS = MAX_ACTIONS
#: Threads a vector of games or an MCTS search may use.
MAX_WORKER_THREADS = MAX_THREADS


# -- MCTS (victorus.agents.MCTSAgent) -----------------------------------------------------
# UCT with a value per seat (2-6 armies, teams share their returns): the army to act at a
# node picks the child best for its own seat. One node per expanded action, in one array
# per tree; rollouts are uniformly random actions; an unfinished rollout is scored by
# material. Root parallelism: each thread grows its own tree from its own random state
# and the root's visit counts are summed, so a search is deterministic for a seed, an
# iteration budget and a thread count. The trees live only during the search.

from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC
from libc.math cimport log, sqrt, tanh

cdef extern from "Python.h":
    int check_signals "PyErr_CheckSignals"() noexcept   # leaves a raised exception pending

ctypedef struct MctsNode:
    int32_t parent                   # -1 at the root
    int32_t first_child              # -1: none yet
    int32_t next_sibling
    int32_t code                     # the action from the parent
    int32_t nactions                 # legal actions here, -1 until known
    int32_t nchildren
    uint32_t visits
    int16_t index                    # the action's place in the parent's gen_actions order
    int8_t seat                      # the army to act here
    float value[NUM_SEATS]           # summed returns per seat

ctypedef struct MctsTree:
    const StateC* root
    const RulesC* r
    int64_t iterations               # this tree's budget; < 0: until the deadline
    double deadline                  # CLOCK_MONOTONIC seconds; 0: none
    int32_t rollout_actions
    double c                         # UCT exploration constant
    uint64_t rng
    int32_t max_nodes                # the tree stops growing here (rollouts go on)
    bint main                        # runs in the Python thread: checks for Ctrl-C
    int* stop                        # the search's stop flag, shared by its trees
    const int* cancel                # the caller's StopToken
    MctsNode* nodes
    int32_t nnodes, capacity
    int64_t done                     # iterations run
    int error                        # 1: out of memory, 2: a signal's exception is pending
    uint8_t padding[128]             # no cache line shared with the next thread's tree


cdef inline double now_seconds() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef void mcts_value(const StateC* s, const RulesC* r, float* out) noexcept nogil:
    """Per seat: the result (team_returns) of a finished game; otherwise the team's R37
    material (board and held) against the teams' mean, squashed into (-0.5, 0.5) so a
    real win always counts for more."""
    cdef double team_points[NUM_SEATS]
    cdef bint team_present[NUM_SEATS]
    cdef int board[NUM_SEATS]
    cdef int held[NUM_SEATS]
    cdef double total = 0, mean
    cdef int a, teams = 0
    if s.result != RESULT_NONE:
        team_returns(s, r, out)
        return
    material_points(s, r, board, held)
    for a in range(NUM_SEATS):
        team_points[a] = 0
        team_present[a] = False
    for a in range(NUM_SEATS):
        if (r.present >> a) & 1:
            team_present[r.team[a]] = True
        team_points[r.team[a]] += board[a] + held[a]
    for a in range(NUM_SEATS):
        if team_present[a]:
            teams += 1
            total += team_points[a]
    if total <= 0:
        total = 1
    mean = total / teams
    for a in range(NUM_SEATS):
        out[a] = (0.5 * tanh(4 * (team_points[r.team[a]] - mean) / total)
                  if (r.present >> a) & 1 else 0.0)


cdef bint mcts_reserve(MctsTree* t) noexcept nogil:
    """Room for one more node: False if the tree is full or no memory is left (then
    ``t.error``)."""
    cdef MctsNode* grown
    cdef int32_t capacity
    if t.nnodes >= t.max_nodes:
        return False
    if t.nnodes == t.capacity:
        capacity = min(t.max_nodes, max(1024, 2 * t.capacity))
        grown = <MctsNode*>realloc(t.nodes, capacity * sizeof(MctsNode))
        if grown == NULL:
            t.error = 1
            return False
        t.nodes = grown
        t.capacity = capacity
    return True


cdef int32_t mcts_new_node(MctsTree* t, int32_t parent, int32_t code, int index,
                           int seat) noexcept nogil:
    """A node linked first among ``parent``'s children (after mcts_reserve)."""
    cdef int32_t i = t.nnodes
    cdef MctsNode* node = &t.nodes[i]
    t.nnodes += 1
    memset(node, 0, sizeof(MctsNode))
    node.parent = parent
    node.first_child = -1
    node.next_sibling = -1
    node.code = code
    node.index = index
    node.seat = seat
    node.nactions = -1
    if parent >= 0:
        node.next_sibling = t.nodes[parent].first_child
        t.nodes[parent].first_child = i
        t.nodes[parent].nchildren += 1
    return i


cdef int32_t mcts_expand(MctsTree* t, int32_t at, StateC* s, int32_t* actions) noexcept nogil:
    """Add one untried action of node ``at`` (uniformly at random) and play it on ``s``;
    -1 if every action is tried or the tree cannot grow."""
    cdef int n = gen_actions(s, t.r, actions)
    cdef uint64_t tried[MAX_ACTION_WORDS]
    cdef int32_t child
    cdef int i, k
    t.nodes[at].nactions = n
    if t.nodes[at].nchildren >= n or not mcts_reserve(t):
        return -1
    memset(tried, 0, ((n + 63) >> 6) * sizeof(uint64_t))
    child = t.nodes[at].first_child
    while child >= 0:
        tried[t.nodes[child].index >> 6] |= (<uint64_t>1) << (t.nodes[child].index & 63)
        child = t.nodes[child].next_sibling
    k = <int>(splitmix64(&t.rng) % <uint64_t>(n - t.nodes[at].nchildren))
    for i in range(n):
        if not (tried[i >> 6] >> (i & 63)) & 1:
            if k == 0:
                break
            k -= 1
    apply_action(s, t.r, actions[i])
    return mcts_new_node(t, at, actions[i], i, s.to_move)


cdef int32_t mcts_select(MctsTree* t, int32_t at) noexcept nogil:
    """UCT: the child best for the army to act at ``at`` (first of equals)."""
    cdef MctsNode* node = &t.nodes[at]
    cdef MctsNode* c
    cdef double log_n = log(<double>node.visits), score, best_score = -1e300
    cdef int32_t child = node.first_child, best = -1
    while child >= 0:
        c = &t.nodes[child]
        score = c.value[node.seat] / c.visits + t.c * sqrt(log_n / c.visits)
        if score > best_score:
            best_score = score
            best = child
        child = c.next_sibling
    return best


cdef void mcts_iteration(MctsTree* t, StateC* s, int32_t* actions) noexcept nogil:
    """Selection, expansion, a random rollout and the backup of its value per seat."""
    cdef int32_t at = 0, child
    cdef int n, played = 0, a
    cdef float value[NUM_SEATS]
    memcpy(s, t.root, sizeof(StateC))
    while not s.result:
        if t.nodes[at].nactions < 0 or t.nodes[at].nchildren < t.nodes[at].nactions:
            child = mcts_expand(t, at, s, actions)
            if child >= 0:
                at = child
                break
            if t.nodes[at].nchildren == 0:         # the tree is full: roll out from here
                break
        at = mcts_select(t, at)
        apply_action(s, t.r, t.nodes[at].code)
    while not s.result and played < t.rollout_actions:
        n = gen_actions(s, t.r, actions)
        apply_action(s, t.r, actions[splitmix64(&t.rng) % <uint64_t>n])
        played += 1
    mcts_value(s, t.r, value)
    while at >= 0:
        t.nodes[at].visits += 1
        for a in range(NUM_SEATS):
            t.nodes[at].value[a] += value[a]
        at = t.nodes[at].parent


cdef void* mcts_run(void* arg) noexcept nogil:
    """Grow one tree until its budget, the deadline or a stop."""
    cdef MctsTree* t = <MctsTree*>arg
    cdef int32_t actions[MAX_ACTIONS]
    cdef StateC* s = <StateC*>malloc(sizeof(StateC))
    if s == NULL or not mcts_reserve(t):
        t.error = 1
        atomic_store(t.stop, 1, SEQ_CST)
        free(s)
        return NULL
    mcts_new_node(t, -1, 0, 0, t.root.to_move)
    while t.iterations < 0 or t.done < t.iterations:
        if atomic_load(t.stop, RELAXED) or atomic_load(t.cancel, RELAXED):
            break
        if t.deadline > 0 and now_seconds() >= t.deadline:
            break
        if t.main and t.done & 63 == 63:
            with gil:
                if check_signals() < 0:
                    t.error = 2
                    atomic_store(t.stop, 1, SEQ_CST)
                    break
        mcts_iteration(t, s, actions)
        t.done += 1
        if t.error:
            atomic_store(t.stop, 1, SEQ_CST)
            break
    free(s)
    return NULL


cdef int reraise() except -1:
    return -1                        # the exception check_signals left pending goes on


def mcts(Engine engine, int64_t iterations, double seconds, int threads, uint64_t seed,
         int rollout_actions, double c, int max_nodes, StopToken stop=None):
    """Search from ``engine``'s state (at least two legal actions): ``iterations`` in all
    (split over the threads; < 0: no limit) and/or ``seconds`` (0: no limit). Returns
    (visits per legal action in gen_actions order, summed value per legal action for the
    army to act, iterations run, nodes made). The search reads a copy of the state, so
    play() on ``engine`` from another thread cannot tear it; ``stop`` (a StopToken) ends
    it early, as the budget would."""
    cdef int32_t actions[MAX_ACTIONS]
    cdef int n = gen_actions(&engine.s, &engine.rules.c, actions)
    if n == 0 or not 1 <= threads <= MAX_THREADS or max_nodes < 1 or rollout_actions < 0:
        raise ValueError(f"mcts needs a legal action, 1-{MAX_THREADS} threads, max_nodes >= 1 "
                         f"and rollout_actions >= 0")
    cdef MctsTree* trees = <MctsTree*>calloc(threads, sizeof(MctsTree))
    cdef pthread_t handles[MAX_THREADS]
    cdef int i, started = 0, error = 0, seat = engine.s.to_move
    cdef int32_t child
    cdef double deadline = now_seconds() + seconds if seconds > 0 else 0
    # The stop flag in the middle of its own 256 bytes: no cache line shared with data
    # a thread writes (each tree polls it every iteration).
    cdef uint8_t* stop_block = <uint8_t*>calloc(256, 1)
    cdef int* halt = <int*>(stop_block + 128)
    cdef const int* cancel = stop_flag(stop)
    cdef StateC* root = <StateC*>malloc(sizeof(StateC))
    if trees == NULL or stop_block == NULL or root == NULL:
        free(trees)
        free(stop_block)
        free(root)
        raise MemoryError()
    memcpy(root, &engine.s, sizeof(StateC))
    for i in range(threads):
        trees[i].root = root
        trees[i].r = &engine.rules.c
        trees[i].iterations = (-1 if iterations < 0 else
                               iterations // threads + (i < iterations % threads))
        trees[i].deadline = deadline
        trees[i].rollout_actions = rollout_actions
        trees[i].c = c
        trees[i].rng = mix64(seed + <uint64_t>(i + 1) * <uint64_t>0x9E3779B97F4A7C15)
        trees[i].max_nodes = max_nodes
        trees[i].main = i == 0
        trees[i].stop = halt
        trees[i].cancel = cancel
    visits = [0] * n
    values = [0.0] * n
    cdef int64_t done = 0, nodes = 0
    try:
        with nogil:
            for i in range(1, threads):
                if pthread_create(&handles[i], NULL, mcts_run, &trees[i]) != 0:
                    trees[i].error = 1
                    atomic_store(halt, 1, SEQ_CST)
                    break
                started = i
            mcts_run(&trees[0])
            for i in range(1, started + 1):
                pthread_join(handles[i], NULL)
        for i in range(threads):
            error = max(error, trees[i].error)
            done += trees[i].done
            nodes += trees[i].nnodes
            if trees[i].nnodes:
                child = trees[i].nodes[0].first_child
                while child >= 0:
                    visits[trees[i].nodes[child].index] += trees[i].nodes[child].visits
                    values[trees[i].nodes[child].index] += trees[i].nodes[child].value[seat]
                    child = trees[i].nodes[child].next_sibling
    finally:
        for i in range(threads):
            free(trees[i].nodes)
        free(trees)
        free(stop_block)
        free(root)
    if error == 2:
        reraise()
    if error == 1:
        raise MemoryError("no memory left for the MCTS tree")
    return visits, values, done, nodes
