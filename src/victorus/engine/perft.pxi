# Part of the C engine, included by src/victorus/_engine.pyx (which lists the order).
# perft (R40), all of it: counting by make and unmake (quiet actions undone in place, the
# rest copied), the last ply counted in bulk, a turn start's legs taken from its parent's
# (kept legs, retaken where a leg changed what they looked at), the hashed perft's table,
# and the split of one count among threads (PerftSplit). The generator it counts with is
# generate.pxi's; the Python face is boundary.pxi's Engine.perft and Engine.perft_hashed.


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


cdef class PerftSplit:
    """perft (R40) below many positions, shared out among threads: every thread calling
    :meth:`run` takes the next position not yet taken until none is left, so a thread
    that another process holds up leaves the rest to the others (perft's threads split
    the tree two plies down: hundreds of small parts). Positions come in groups (a root
    action's children); :meth:`groups_done` counts the groups whose parts are all
    counted. A thread that finds itself on the CPU of a thread that came before it keeps
    off that CPU while it counts (Linux, ``threads`` CPUs or more): with another process
    busy on a core the kernel may leave two of perft's threads taking turns on one."""
    cdef Rules rules
    cdef StateC* states
    cdef uint64_t* counts
    cdef int* group                      # each position's group
    cdef int* left                       # per group: positions not yet counted
    cdef int n, ngroups, depth, next_index, finished_groups
    cdef int threads, runners            # the threads meant to run it, those that came
    cdef int cpu_of[MAX_THREADS]         # per thread that came (in order): its CPU, -1: gone
    cdef PerftTable table                # None: plain perft

    def __init__(self, groups, int depth, PerftTable table=None, int threads=1):
        cdef list engines = [e for members in groups for e in members]
        cdef int t
        self.threads = threads
        for t in range(MAX_THREADS):
            self.cpu_of[t] = -1
        self.n = len(engines)
        self.ngroups = len(groups)
        self.depth = depth
        self.table = table
        self.states = <StateC*>malloc(max(1, self.n) * sizeof(StateC))
        self.counts = <uint64_t*>calloc(max(1, self.n), sizeof(uint64_t))
        self.group = <int*>malloc(max(1, self.n) * sizeof(int))
        self.left = <int*>malloc(max(1, self.ngroups) * sizeof(int))
        if not (self.states and self.counts and self.group and self.left):
            raise MemoryError("no memory for perft's parts")
        cdef int i = 0, g
        cdef Engine e
        for g, members in enumerate(groups):
            self.left[g] = len(members)
            if not members:
                self.finished_groups += 1
            for e in members:
                self.rules = e.rules
                memcpy(&self.states[i], &e.s, sizeof(StateC))
                self.group[i] = g
                i += 1

    def __dealloc__(self):
        free(self.states)
        free(self.counts)
        free(self.group)
        free(self.left)

    def run(self, StopToken stop=None):
        """Count parts until none is left or ``stop`` is set (then the total is partial);
        the table hits of this thread's parts."""
        cdef const int* flag = stop_flag(stop)
        cdef int i
        cdef uint64_t hits = 0
        cdef bint hashed = self.table is not None
        cdef StateC s
        cdef int me = atomic_fetch_add(&self.runners, 1, SEQ_CST)
        cdef placement_t place
        with nogil:
            placement_init(&place, self.threads)
            while not atomic_load(flag, RELAXED):
                i = atomic_fetch_add(&self.next_index, 1, SEQ_CST)
                if i >= self.n:
                    break
                self.keep_apart(me, &place)
                memcpy(&s, &self.states[i], sizeof(StateC))      # on this thread's stack
                if not hashed:
                    self.counts[i] = perft_c(&s, &self.rules.c, self.depth, flag, NULL,
                                             NULL, NULL)
                else:
                    self.counts[i] = perft_hashed(&s, &self.rules.c, self.depth, self.table,
                                                  &hits, flag)
                if atomic_sub_fetch(&self.left[self.group[i]], 1, SEQ_CST) == 0:
                    atomic_fetch_add(&self.finished_groups, 1, SEQ_CST)
            if me < MAX_THREADS:
                atomic_store(&self.cpu_of[me], -1, SEQ_CST)
            placement_restore(&place)            # the caller's thread, as it came
        return hits

    cdef void keep_apart(self, int me, placement_t* place) noexcept nogil:
        """Note the CPU of the ``me``-th thread, and keep it off that CPU if a thread that
        came before it is there."""
        cdef int cpu = current_cpu(), j
        if me >= MAX_THREADS or cpu < 0:
            return
        atomic_store(&self.cpu_of[me], cpu, SEQ_CST)
        for j in range(me):
            if atomic_load(&self.cpu_of[j], SEQ_CST) == cpu:
                placement_avoid(place, cpu)
                return

    def groups_done(self):
        """Groups whose parts are all counted."""
        return atomic_load(&self.finished_groups, SEQ_CST)

    def total(self):
        """The sum of the parts' counts."""
        cdef uint64_t t = 0
        cdef int i
        for i in range(self.n):
            t += self.counts[i]
        return t
