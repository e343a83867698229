# Part of the C engine, included by src/victorus/_engine.pyx (which lists the order).
# The Python boundary: a call's StopToken, Rules (built by victorus.game),
# Engine (a state with its history, behind victorus.Game) and GameCore.

cdef class StopToken:
    """A call's cancellation: [`stop`][victorus._engine.StopToken.stop] makes the native
    loops given this token (perft, random playouts, MCTS) return as soon as they can. One
    token per call, never shared process-wide, so stopping one call never stops another.
    Single use: once stopped it stays stopped (a run also stops its token on Ctrl-C or an
    error of its own), so make a new one for each call."""

    def stop(self):
        """Ask the calls holding this token to return early (from any thread)."""
        atomic_store(&self.flag, 1, SEQ_CST)

    @property
    def stopped(self):
        """True once [`stop`][victorus._engine.StopToken.stop] was called."""
        return bool(atomic_load(&self.flag, SEQ_CST))


cdef int NEVER_STOPS = 0                 # read-only: the flag of a call without a token


cdef const int* stop_flag(StopToken stop) noexcept:
    return &NEVER_STOPS if stop is None else &stop.flag


# -- Python boundary ------------------------------------------------------------------

cdef tuple piece_tuple(const StateC* s, const PieceC* p):
    """(army, kind, edge or None, royal, tally, laps) of a piece on the board."""
    cdef int edge = info_edge(p.info)
    return (p.army, info_kind(p.info), None if edge == NO_EDGE else edge,
            bool(info_royal(p.info)), p.tally, piece_laps(s, p))


cdef tuple held_tuple(const HeldC* h):
    """(holder, army, kind, edge or None, royal) of a held piece."""
    cdef int edge = info_edge(h.info)
    return (h.holder, h.army, info_kind(h.info), None if edge == NO_EDGE else edge,
            bool(info_royal(h.info)))


cdef class Rules:
    """Per board and configuration: tables, direction masks, home cells, angles, teams."""

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
            self.c.order_at[order[i]] = i
        self.c.present = present
        self.c.quick = quick


cdef class Engine:
    """A game state with its undo history. Inputs are validated by victorus.Game."""

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
        cdef int i, a, kind
        cdef PieceC p
        royals = set()                                   # R35: one King and one Queen an army
        for piece in cells:
            if piece is not None and kind_in(piece[1], ROYAL_KINDS):
                if (piece[0], piece[1]) in royals:
                    raise ValueError(f"army {piece[0]} has two pieces of kind {piece[1]} "
                                     f"on the board; an army has one King and one Queen")
                royals.add((piece[0], piece[1]))
        memset(s, 0, sizeof(StateC))
        for i in range(MAX_CELLS):
            s.cells[i].army = -1
        for i, piece in enumerate(cells):
            if piece is None:
                continue
            p.army = piece[0]
            kind = piece[1]
            p.info = make_info(kind, NO_EDGE if piece[2] is None else piece[2], piece[3])
            p.tally = piece[4]
            if kind_in(kind, ROYAL_KINDS):               # R29
                s.laps[p.army][kind == QUEEN] = piece[5]
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
            s.held[i].info = make_info(h[2], NO_EDGE if h[3] is None else h[3], h[4])
        s.nheld = len(held)
        cdef int32_t* words = <int32_t*>&s.turn              # constants.TURN_FIELDS, in order
        for i, name in enumerate(TURN_FIELD_NAMES):
            words[i] = PHASES.index(turn[name]) if name == "phase" else turn[name]
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
                cells.append(piece_tuple(s, p))
        armies = [(ARMY_STATES[s.army_state[i]], s.knight_caps[i]) for i in range(NUM_SEATS)]
        held = [held_tuple(&s.held[i]) for i in range(s.nheld)]
        frozen = frozenset(i for i in range(self.rules.c.t.ncells) if bb_has(&s.frozen, i))
        cdef const int32_t* words = <const int32_t*>&s.turn  # constants.TURN_FIELDS, in order
        turn = {name: PHASES[words[i]] if name == "phase" else words[i]
                for i, name in enumerate(TURN_FIELD_NAMES)}
        turn["frozen"] = frozen
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

    def share_returns(self):
        """Per seat (6): a finished game's value on the share scale (a won game as
        ``returns``; a draw shares the win among the teams with an active army)."""
        cdef float out[NUM_SEATS]
        share_returns(&self.s, &self.rules.c, out)
        return tuple(out[a] for a in range(NUM_SEATS))

    def live_shares(self):
        """Per seat (6): the win shared among the teams with an active army (2/k - 1 each,
        -1 for the other present seats, 0 for absent ones): a draw's value, and an
        unfinished position's fair share."""
        cdef float out[NUM_SEATS]
        shared_among_live(&self.s, &self.rules.c, out)
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
            kind[i] = -1 if p.army < 0 else info_kind(p.info)
            edge[i] = -1 if p.army < 0 or info_edge(p.info) == NO_EDGE else info_edge(p.info)
            royal[i] = p.army >= 0 and info_royal(p.info)
            tally[i] = 0 if p.army < 0 else p.tally
            laps[i] = 0 if p.army < 0 else piece_laps(&self.s, p)
            frozen[i] = bb_has(&self.s.frozen, i)

    def piece(self, int cell):
        """(army, kind, edge, royal, tally, laps) of the piece on a cell, or None."""
        if not 0 <= cell < self.rules.c.t.ncells:
            raise IndexError(f"cell {cell} out of range")
        cdef PieceC* p = &self.s.cells[cell]
        if p.army < 0:
            return None
        return piece_tuple(&self.s, p)

    def held(self):
        """Every held piece in capture order: (holder, army, kind, edge, royal)."""
        cdef int i
        cdef HeldC* h
        out = []
        for i in range(self.s.nheld):
            h = &self.s.held[i]
            out.append(held_tuple(h))
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
        return self.s.turn.to_move

    @property
    def phase(self):
        return PHASES[self.s.turn.phase]

    @property
    def round(self):
        return self.s.turn.round

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
        cdef bint ok = (view.itemsize == 1 and view.len == num_action_ids(n)
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

    def observation_rows_into(self, float[:, ::1] planes, const float[:, ::1] weights,
                              float[:, ::1] rows, float[::1] tail, int seat):
        """The planes seen by ``seat`` into ``planes`` [NUM_PLANES, N], then per cell the
        weighted sums ``rows = weights @ planes`` ([R, NUM_PLANES] weights, [R, N] rows)
        and ``tail`` the last len(tail) planes' values in the first cell: OpenSpiel's
        small observation (victorus.openspiel.SMALL_ROWS) in one call."""
        cdef int n = self.rules.c.t.ncells, r, p, c, first
        cdef float w
        cdef float* row
        cdef const float* plane
        if planes.shape[0] != NUM_PLANES or planes.shape[1] != n or not 0 <= seat < NUM_SEATS:
            raise ValueError(f"planes must be [{NUM_PLANES}, {n}] and seat 0-5")
        if weights.shape[1] != NUM_PLANES or rows.shape[0] != weights.shape[0] \
                or rows.shape[1] != n or tail.shape[0] > NUM_PLANES:
            raise ValueError(f"weights must be [R, {NUM_PLANES}], rows [R, {n}] and tail at "
                             f"most {NUM_PLANES} long")
        write_observation(&self.s, &self.rules.c, seat, &planes[0, 0])
        for r in range(weights.shape[0]):
            row = &rows[r, 0]
            memset(row, 0, n * sizeof(float))
            for p in range(NUM_PLANES):
                w = weights[r, p]
                if w != 0:
                    plane = &planes[p, 0]
                    for c in range(n):
                        row[c] += w * plane[c]
        first = NUM_PLANES - tail.shape[0]
        for p in range(tail.shape[0]):
            tail[p] = planes[first + p, 0]

    def observation_into_uint8(self, uint8_t[:, ::1] out, int seat):
        """The same planes as saturated integer counts (the vector games' uint8 kind)."""
        cdef int n = self.rules.c.t.ncells
        if out.shape[0] != NUM_PLANES or out.shape[1] != n or not 0 <= seat < NUM_SEATS:
            raise ValueError(f"out must be [{NUM_PLANES}, {n}] and seat 0-5")
        write_observation(&self.s, &self.rules.c, seat, &out[0, 0])

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
        if self.s.result != RESULT_NONE or self.s.turn.phase != PHASE_START:
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
            n = perft_c(&s, &self.rules.c, depth, flag, NULL, NULL, NULL)
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
        self.legal_valid = False         # readers meanwhile listed the old state's actions
        self.busy = False
        return played

    def captured(self):
        """Captures so far per captured piece type (T, U, B, X, H, K, Q)."""
        return tuple(self.s.captured[i] for i in range(NUM_KINDS))


cdef class GameCore:
    """The compiled part of [`Game`][victorus.game.Game]: the methods that search loops
    call after every action, as C methods (no Python frame per call)."""

    cdef public Engine _engine
    cdef public list _actions

    def legal_actions(self):
        """All legal actions: legs in (origin, target) cell order, then stop/end/pass.

        Returns:
            The legal actions of the army to act (empty once the game is over)."""
        return self._engine._legal_objects(self._actions, self)

    def play(self, action):
        """Play an [`Action`][victorus.notation.Action] or an R38 string; an illegal one
        raises [`IllegalActionError`][victorus.errors.IllegalActionError] and changes
        nothing.

        Args:
            action: The action: an Action of this game, or its R38 text (``"h3-h7"``,
                ``"i6xi10"``, ``"stop"``, ``"end"``, ``"pass"``).

        Raises:
            NotationError: The text is not an R38 action.
            IllegalActionError: The action is not legal now (the game is unchanged)."""
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


cdef StateC _LAYOUT_PROBE


cdef tuple _field(const void* field, size_t size):
    return (<size_t>field - <size_t>&_LAYOUT_PROBE, size)


#: The bytes of one game state (StateC), and where each of its fields lies: name ->
#: (offset, bytes). docs/performance.md draws this table; the tests hold it to these.
STATE_BYTES = sizeof(StateC)
STATE_LAYOUT = MappingProxyType({
    "occ": _field(&_LAYOUT_PROBE.occ, sizeof(_LAYOUT_PROBE.occ)),
    "total": _field(&_LAYOUT_PROBE.total, sizeof(_LAYOUT_PROBE.total)),
    "frozen": _field(&_LAYOUT_PROBE.frozen, sizeof(_LAYOUT_PROBE.frozen)),
    "turn": _field(&_LAYOUT_PROBE.turn, sizeof(_LAYOUT_PROBE.turn)),
    "result": _field(&_LAYOUT_PROBE.result, sizeof(_LAYOUT_PROBE.result)),
    "nheld": _field(&_LAYOUT_PROBE.nheld, sizeof(_LAYOUT_PROBE.nheld)),
    "laps": _field(&_LAYOUT_PROBE.laps, sizeof(_LAYOUT_PROBE.laps)),
    "knight_caps": _field(&_LAYOUT_PROBE.knight_caps, sizeof(_LAYOUT_PROBE.knight_caps)),
    "captured": _field(&_LAYOUT_PROBE.captured, sizeof(_LAYOUT_PROBE.captured)),
    "army_state": _field(&_LAYOUT_PROBE.army_state, sizeof(_LAYOUT_PROBE.army_state)),
    "live": _field(&_LAYOUT_PROBE.live, sizeof(_LAYOUT_PROBE.live)),
    "winners": _field(&_LAYOUT_PROBE.winners, sizeof(_LAYOUT_PROBE.winners)),
    "cells": _field(&_LAYOUT_PROBE.cells, sizeof(_LAYOUT_PROBE.cells)),
    "held": _field(&_LAYOUT_PROBE.held, sizeof(_LAYOUT_PROBE.held)),
})
