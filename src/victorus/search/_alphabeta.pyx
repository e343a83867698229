# cython: language_level=3, cdivision=True
"""Alpha-beta search in C (:class:`victorus.search.alphabeta.AlphaBetaAgent`): a client of the
engine (victorus._engine) and of the evaluator interface (victorus.evaluation._evaluator).

Values are those of the team of the army to act at the root (R33), read from the
evaluation at the leaves: a node whose army to act is of that team takes the most, any
other node the least. With two teams the evaluation is zero-sum (one team's value is the
other's negated), so this is negamax on the team value; with three or more teams it is
the paranoid search (every other team plays against the root's). Depth counts actions
(R15): a turn is several actions, and an army may act many plies in a row. Iterative
deepening from depth 1 until the depth, node or time budget ends (a deeper iteration cut
short is dropped; depth 1 always completes); a transposition table keyed by the engine's
position key keeps the best action and a bound of each searched node (a bound cuts only
at the depth it was searched at, so a search to depth d gives the depth-d minimax value
exactly); actions are tried with the table's action first, then, with an evaluator that
has priors of its own (a network's policy head), by those priors, else captures by the
R37 points of the piece taken, then the quiet actions in an order drawn from the seed. A
win found ``k`` actions deep is worth ``1 - k / 1000``, so the nearest win is taken.
"""

cimport cython
from libc.stdint cimport int16_t, int32_t, int64_t, uint8_t, uint64_t
from libc.string cimport memcpy, memset
from libc.stdlib cimport calloc, malloc, free, qsort

from victorus._core cimport NUM_SEATS, RESULT_NONE, WORD_STOP, CAPTURE_FLAG, code_target, kind_points
from victorus._engine cimport (StateC, RulesC, Engine, StopToken, MAX_ACTIONS, gen_actions,
                               apply_action, share_returns, position_key, stop_flag, mix64,
                               splitmix64, atomic_load, RELAXED, info_kind, info_royal)
from victorus.evaluation._evaluator cimport (Evaluator, EvaluatorC, evaluator_c, evaluator_workspace,
                                             evaluator_workspace_free)
from victorus._portable cimport now_seconds
from victorus.search._policy cimport decisive_index, plug_search


cdef extern from "Python.h":
    int check_signals "PyErr_CheckSignals"() noexcept   # leaves a raised exception pending

#: The deepest search, in actions.
MAX_DEPTH = 64
#: The transposition table's size bounds (log2 of its entries, 24 bytes each).
MIN_TABLE_BITS, MAX_TABLE_BITS = 8, 26
cdef enum:
    MAX_PLY = 64

cdef enum:
    CLOCK_NODES = 32                 # the clock is read every 32 nodes (a power of 2)

cdef float WIN_DECAY = 0.001          # a win k actions deep is worth 1 - k * WIN_DECAY
cdef float INFINITE = 1e30

cdef enum:
    BOUND_NONE = 0
    BOUND_EXACT = 1
    BOUND_LOWER = 2
    BOUND_UPPER = 3

ctypedef struct TableEntry:
    uint64_t key
    float value
    int32_t code                     # the best action found, -1: none
    int16_t depth
    uint8_t bound

ctypedef struct Search:
    const RulesC* r
    const EvaluatorC* ev             # values the leaves
    void* ev_workspace               # its workspace for this search's thread
    uint64_t ev_rng                  # its random state (from the seed)
    int root_team, root_seat
    TableEntry* table
    uint64_t table_mask
    uint64_t seed
    int64_t nodes
    int64_t max_nodes                # < 0: no limit
    double deadline                  # CLOCK_MONOTONIC seconds; 0: none
    const int* cancel                # the caller's StopToken
    bint interruptible               # runs in the Python thread: checks for Ctrl-C
    bint budgeted                    # the budget applies (not during depth 1)
    bint aborted
    int error                        # 2: a signal's exception is pending
    StateC* states                   # one per ply
    int32_t* actions                 # MAX_ACTIONS per ply
    uint64_t* order                  # MAX_ACTIONS per ply: sort keys, the index in the low bits
    double* priors                   # MAX_ACTIONS: the evaluator's priors of the node ordered


cdef int descending(const void* a, const void* b) noexcept nogil:
    cdef uint64_t x = (<const uint64_t*>a)[0], y = (<const uint64_t*>b)[0]
    return -1 if x > y else 1 if x < y else 0


cdef void order_actions(Search* t, const StateC* s, const int32_t* actions, int n,
                        int32_t best, uint64_t* order) noexcept nogil:
    """Sort keys, best first: the table's action, then by the evaluator's own priors if
    it has any, else captures by the points taken, then quiet actions in a seeded
    pseudo-random order; the action's index in the low 12 bits."""
    cdef int i, target
    cdef uint64_t key
    cdef double top = 0
    cdef bint learned = t.ev.priors != NULL and not t.ev.uniform_priors
    if learned:                      # priors are positive, not normalised: scaled to (0, 1]
        t.ev.priors(t.ev, t.ev_workspace, s, t.r, actions, n, &t.ev_rng, t.priors)
        for i in range(n):
            top = t.priors[i] if t.priors[i] > top else top
        learned = top > 0
    for i in range(n):
        key = (mix64(t.seed ^ <uint64_t>actions[i]) >> 24) << 12        # 40 random bits
        if actions[i] == best:
            key |= <uint64_t>3 << 60
        elif learned:                # a prior in [0, 1] on bits 36-58, above 24 random ones
            key = (key & (<uint64_t>0xFFFFFF << 12)) \
                | (<uint64_t>(min(t.priors[i] / top, 1.0) * 4194304.0) << 36)
        elif actions[i] < WORD_STOP and actions[i] & CAPTURE_FLAG:
            target = code_target(actions[i])
            key |= (<uint64_t>2 << 60) | (<uint64_t>kind_points(
                info_kind(s.cells[target].info), info_royal(s.cells[target].info)) << 52)
        order[i] = key | <uint64_t>i
    qsort(order, n, sizeof(uint64_t), descending)


cdef bint out_of_budget(Search* t) noexcept nogil:
    """True when the search must stop: Ctrl-C, or (past depth 1, which always completes)
    the caller's token or the vector's Ctrl-C flag, a node or a time budget."""
    if t.interruptible and t.nodes & 4095 == 0:
        with gil:
            if check_signals() < 0:
                t.error = 2
                return True
    if not t.budgeted:
        return False
    if atomic_load(t.cancel, RELAXED):
        return True
    if t.max_nodes >= 0 and t.nodes > t.max_nodes:
        return True
    return t.deadline > 0 and t.nodes & (CLOCK_NODES - 1) == 0 and now_seconds() >= t.deadline


cdef float leaf_value(Search* t, const StateC* s, int ply) noexcept nogil:
    """The root team's value of a leaf: a finished game's return (nearer wins first),
    else the evaluation."""
    cdef float out[NUM_SEATS]
    if s.result != RESULT_NONE:
        share_returns(s, t.r, out)
        return out[t.root_seat] * (1 - ply * WIN_DECAY)
    t.ev.value(t.ev, t.ev_workspace, s, t.r, &t.ev_rng, out)
    return out[t.root_seat]


cdef float search(Search* t, int ply, int depth, float alpha, float beta) noexcept nogil:
    """The root team's minimax value of ``t.states[ply]`` searched ``depth`` actions deep
    (alpha-beta, fail-soft); 0 once the search is aborted."""
    cdef StateC* s = &t.states[ply]
    cdef int32_t* actions = &t.actions[ply * MAX_ACTIONS]
    cdef uint64_t* order = &t.order[ply * MAX_ACTIONS]
    cdef TableEntry* entry
    cdef uint64_t key
    cdef int32_t best_code = -1, tried = -1
    cdef float best, value, alpha0 = alpha, beta0 = beta
    cdef int n, i
    cdef bint maximise
    t.nodes += 1
    if out_of_budget(t):
        t.aborted = True
        return 0
    if depth == 0 or s.result != RESULT_NONE:
        return leaf_value(t, s, ply)
    key = position_key(s, t.r, 0)
    entry = &t.table[key & t.table_mask]
    if entry.bound != BOUND_NONE and entry.key == key:
        tried = entry.code
        if entry.depth == depth:
            if entry.bound == BOUND_EXACT:
                return entry.value
            if entry.bound == BOUND_LOWER and entry.value > alpha:
                alpha = entry.value
            elif entry.bound == BOUND_UPPER and entry.value < beta:
                beta = entry.value
            if alpha >= beta:
                return entry.value
    n = gen_actions(s, t.r, actions)
    order_actions(t, s, actions, n, tried, order)
    maximise = t.r.team[s.turn.to_move] == t.root_team
    best = -INFINITE if maximise else INFINITE
    for i in range(n):
        memcpy(&t.states[ply + 1], s, sizeof(StateC))
        apply_action(&t.states[ply + 1], t.r, actions[order[i] & 4095])
        value = search(t, ply + 1, depth - 1, alpha, beta)
        if t.aborted:
            return 0
        if maximise and value > best:
            best = value
            best_code = actions[order[i] & 4095]
            alpha = max(alpha, value)
        elif not maximise and value < best:
            best = value
            best_code = actions[order[i] & 4095]
            beta = min(beta, value)
        if alpha >= beta:
            break
    entry.key = key
    entry.value = best
    entry.code = best_code
    entry.depth = depth
    entry.bound = (BOUND_LOWER if best >= beta0 else BOUND_UPPER if best <= alpha0
                   else BOUND_EXACT)
    return best


cdef int reraise() except -1:
    return -1                        # the exception check_signals left pending goes on


cdef bint search_buffers(Search* t, int depth, int table_bits,
                         const EvaluatorC* ev) noexcept nogil:
    """The table (``2**table_bits`` entries), the per-ply buffers of a search up to
    ``depth`` actions and the workspace of its evaluator ``ev``; False if out of memory
    (what was made is freed by search_free)."""
    t.ev = ev
    if not evaluator_workspace(ev, &t.ev_workspace):
        return False
    t.table_mask = (<uint64_t>1 << table_bits) - 1
    t.table = <TableEntry*>calloc(<size_t>1 << table_bits, sizeof(TableEntry))
    t.states = <StateC*>malloc((depth + 1) * sizeof(StateC))
    t.actions = <int32_t*>malloc(depth * MAX_ACTIONS * sizeof(int32_t))
    t.order = <uint64_t*>malloc(depth * MAX_ACTIONS * sizeof(uint64_t))
    t.priors = <double*>malloc(MAX_ACTIONS * sizeof(double))
    return t.table != NULL and t.states != NULL and t.actions != NULL and t.order != NULL \
        and t.priors != NULL


cdef void search_free(Search* t) noexcept nogil:
    if t.ev != NULL:
        evaluator_workspace_free(t.ev, t.ev_workspace)
    free(t.table)
    free(t.states)
    free(t.actions)
    free(t.order)
    free(t.priors)


cdef int32_t deepen(Search* t, int depth, int64_t max_nodes, double deadline, uint64_t seed,
                    float* value, int* reached) noexcept nogil:
    """Iterative deepening from ``t.states[0]`` (the buffers made by search_buffers, the
    table empty) until ``deadline`` (0: none; depth 1 always completes): the best action's
    code found by the last complete iteration (-1: none), its ``value`` for the root team
    and that iteration's depth (``reached``)."""
    cdef int d
    cdef int32_t best_code = -1
    cdef float found
    cdef uint64_t key
    t.root_seat = t.states[0].turn.to_move
    t.root_team = t.r.team[t.root_seat]
    t.seed = mix64(seed)
    t.ev_rng = mix64(t.seed)
    t.nodes = 0
    t.max_nodes = max_nodes
    t.deadline = deadline
    t.aborted = False
    t.error = 0
    value[0], reached[0] = 0, 0
    key = position_key(&t.states[0], t.r, 0)
    for d in range(1, depth + 1):
        t.budgeted = d > 1
        found = search(t, 0, d, -INFINITE, INFINITE)
        if t.aborted:
            break
        value[0] = found
        reached[0] = d
        best_code = t.table[key & t.table_mask].code     # the root's entry, just made
        if t.max_nodes >= 0 and t.nodes >= t.max_nodes:
            break
        if t.deadline > 0 and now_seconds() >= t.deadline:
            break
    return best_code


cdef int code_index(const int32_t* actions, int n, int32_t code) noexcept nogil:
    """The index of ``code`` among ``actions`` (0 if absent)."""
    cdef int i
    for i in range(n):
        if actions[i] == code:
            return i
    return 0


def alphabeta(Engine engine, int depth, int64_t max_nodes, double deadline, uint64_t seed,
              int table_bits, Evaluator evaluator, StopToken stop=None):
    """Search from ``engine``'s state (at least one legal action) by iterative deepening
    to ``depth`` actions, ``max_nodes`` nodes (< 0: no limit) and/or until ``deadline``
    (on victorus.search._policy.monotonic's clock; 0: none; depth 1 always completes);
    ``evaluator`` values the leaves (victorus.evaluation). Returns (the best action's
    index in gen_actions order, its value for the root team, the depth of the last
    complete iteration, nodes searched). Reads a copy of the state; ``stop`` (a
    StopToken) ends it early, as the budget would."""
    cdef int32_t root_actions[MAX_ACTIONS]
    cdef int n = gen_actions(&engine.s, &engine.rules.c, root_actions)
    if n == 0 or not 1 <= depth <= MAX_PLY or not MIN_TABLE_BITS <= table_bits <= MAX_TABLE_BITS:
        raise ValueError(f"alphabeta needs a legal action, 1 <= depth <= {MAX_PLY} and "
                         f"{MIN_TABLE_BITS} <= table_bits <= {MAX_TABLE_BITS}")
    cdef Search t
    memset(&t, 0, sizeof(Search))
    t.r = &engine.rules.c
    t.cancel = stop_flag(stop)
    t.interruptible = True
    cdef int reached = 0
    cdef int32_t best_code
    cdef float value = 0
    try:
        if not search_buffers(&t, depth, table_bits, evaluator_c(evaluator)):
            raise MemoryError("no memory left for the alpha-beta search")
        memcpy(&t.states[0], &engine.s, sizeof(StateC))   # the position, read with the GIL held
        with nogil:
            best_code = deepen(&t, depth, max_nodes, deadline, seed, &value, &reached)
        if t.error == 2:
            reraise()
    finally:
        search_free(&t)
    return code_index(root_actions, n, best_code), value, reached, t.nodes


# -- the opponent inside the vector games' step (victorus.search._policy) ------------------------
# One search per decision, as AlphaBetaAgent.choose: the decisive shortcut, else one draw
# from the game's agent random state seeds the search (the seed AlphaBetaAgent draws from
# its rng), with an empty table as each of its searches has. Each worker thread of the
# vector has its own workspace: the table and the per-ply buffers, made once.

@cython.no_gc_clear
cdef class AlphaBetaOpponent:
    """An alpha-beta budget and its settings as a parameter block
    (AlphaBetaAgent.native_opponent); ``evaluator`` values the leaves."""

    def __init__(self, int depth, int64_t max_nodes, double seconds, int table_bits,
                 Evaluator evaluator):
        if (not 1 <= depth <= MAX_PLY or not MIN_TABLE_BITS <= table_bits <= MAX_TABLE_BITS
                or max_nodes < 0 and seconds <= 0):
            raise ValueError(f"an alpha-beta opponent needs 1 <= depth <= {MAX_PLY}, "
                             f"{MIN_TABLE_BITS} <= table_bits <= {MAX_TABLE_BITS} and a budget")
        self.params.depth, self.params.max_nodes = depth, max_nodes
        self.params.seconds, self.params.table_bits = seconds, table_bits
        self.params.ev = evaluator_c(evaluator)
        plug_search(self, alphabeta_choose, &self.params, alphabeta_workspace_new,
                    alphabeta_workspace_free, evaluator)


ctypedef struct AlphaBetaWorkspace:
    Search search                    # its cancel: the vector's (Ctrl-C)
    StateC trial                     # the decisive shortcut's


cdef void* alphabeta_workspace_new(const void* params, const int* cancel) noexcept nogil:
    cdef const AlphaBetaParams* p = <const AlphaBetaParams*>params
    cdef AlphaBetaWorkspace* w = <AlphaBetaWorkspace*>calloc(1, sizeof(AlphaBetaWorkspace))
    if w == NULL:
        return NULL
    if not search_buffers(&w.search, p.depth, p.table_bits, p.ev):
        search_free(&w.search)
        free(w)
        return NULL
    w.search.cancel = cancel
    return w


cdef void alphabeta_workspace_free(void* workspace) noexcept nogil:
    search_free(&(<AlphaBetaWorkspace*>workspace).search)
    free(workspace)


cdef int alphabeta_choose(const StateC* s, const RulesC* r, const void* params, void* workspace,
                          void* memory, uint64_t* rng, const int32_t* actions, int nactions) noexcept nogil:
    """AlphaBetaAgent's choice: the decisive action, else the best action of a search
    seeded by one draw from ``rng``."""
    cdef const AlphaBetaParams* p = <const AlphaBetaParams*>params
    cdef double deadline = now_seconds() + p.seconds if p.seconds > 0 else 0   # from the start
    cdef AlphaBetaWorkspace* w = <AlphaBetaWorkspace*>workspace
    cdef int index = decisive_index(s, r, actions, nactions, &w.trial), reached
    cdef float value
    if index >= 0:
        return index
    memset(w.search.table, 0, (w.search.table_mask + 1) * sizeof(TableEntry))
    memcpy(&w.search.states[0], s, sizeof(StateC))
    w.search.r = r
    cdef int32_t best = deepen(&w.search, p.depth, p.max_nodes, deadline, splitmix64(rng),
                               &value, &reached)
    return code_index(actions, nactions, best)
