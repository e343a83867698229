# cython: language_level=3, cdivision=True
"""UCT in C with root parallelism (:class:`victorus.agents.MCTSAgent`): a client of the
engine (victorus._engine), built as a module of its own so that an edit here never
recompiles the rules."""

cimport cython
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset
from libc.stdlib cimport calloc, malloc, realloc, free
from libc.math cimport log, sqrt

from victorus._core cimport NUM_SEATS
from victorus._engine cimport (
    StateC, RulesC, Engine, StopToken, MAX_ACTIONS, MAX_ACTION_WORDS, gen_actions, apply_action,
    stop_flag, splitmix64, mix64, atomic_load, atomic_store, SEQ_CST, RELAXED)
from victorus.evaluation._evaluator cimport (Evaluator, EvaluatorC, evaluator_c, evaluator_workspace,
                                             evaluator_workspace_free)
from victorus._portable cimport (now_seconds, MAX_THREADS, pthread_t, pthread_create, pthread_join,
                                 placement_t, current_cpu, placement_init, placement_avoid)
from victorus.search._policy cimport decisive_index, plug_search

# -- MCTS (victorus.agents.MCTSAgent) -----------------------------------------------------
# UCT with a value per seat (2-6 armies, teams share their returns): the army to act at a
# node picks the child best for its own seat. One node per expanded action, in one array
# per tree; a new leaf is valued by the search's evaluator (victorus.evaluation: the UCT's
# is rollouts(n, material), uniformly random actions whose end is scored by material).
# Root parallelism: each thread grows its own tree from its own random state
# and the root's visit counts are summed, so a search is deterministic for a seed, an
# iteration budget and a thread count. The trees live only during the search.


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
    const EvaluatorC* ev             # values a new leaf
    void* ev_workspace               # its workspace for this tree's thread
    double c                         # UCT exploration constant
    uint64_t rng
    int32_t max_nodes                # the tree stops growing here (rollouts go on)
    bint main                        # runs in the Python thread: checks for Ctrl-C
    int avoid_cpu                    # a helper thread keeps off the caller's CPU (-1: none)
    int pool                         # the search's threads
    int* stop                        # the search's stop flag, shared by its trees
    const int* cancel                # the caller's StopToken
    MctsNode* nodes
    int32_t nnodes, capacity
    int64_t done                     # iterations run
    int error                        # 1: out of memory, 2: a signal's exception is pending
    uint8_t padding[128]             # no cache line shared with the next thread's tree


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
    return mcts_new_node(t, at, actions[i], i, s.turn.to_move)


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
    """Selection, expansion, the new leaf's value per seat (the evaluator's: a random
    rollout's end for the UCT) and its backup."""
    cdef int32_t at = 0, child
    cdef int a
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
    t.ev.value(t.ev, t.ev_workspace, s, t.r, &t.rng, value)
    while at >= 0:
        t.nodes[at].visits += 1
        for a in range(NUM_SEATS):
            t.nodes[at].value[a] += value[a]
        at = t.nodes[at].parent


cdef void mcts_grow(MctsTree* t, StateC* s, int32_t* actions) noexcept nogil:
    """Grow one tree from a root node until its budget, the deadline (read before each
    iteration but the first, which always runs) or a stop; ``s`` and ``actions``: the
    iterations' scratch state and legal actions. A tree whose nodes
    are kept from a previous search is started afresh over them."""
    t.nnodes, t.done = 0, 0
    if not mcts_reserve(t):
        t.error = 1
        atomic_store(t.stop, 1, SEQ_CST)
        return
    mcts_new_node(t, -1, 0, 0, t.root.turn.to_move)
    while t.iterations < 0 or t.done < t.iterations:
        if atomic_load(t.stop, RELAXED) or atomic_load(t.cancel, RELAXED):
            break
        if t.deadline > 0 and t.done and now_seconds() >= t.deadline:   # one iteration at least
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


cdef void* mcts_run(void* arg) noexcept nogil:
    """Grow one tree (a search thread's)."""
    cdef MctsTree* t = <MctsTree*>arg
    cdef int32_t actions[MAX_ACTIONS]
    cdef placement_t place
    cdef StateC* s = <StateC*>malloc(sizeof(StateC))
    if not t.main and t.avoid_cpu >= 0:              # a thread of its own: never given back
        placement_init(&place, t.pool)
        placement_avoid(&place, t.avoid_cpu)
    if s == NULL or not evaluator_workspace(t.ev, &t.ev_workspace):
        free(s)
        t.error = 1
        atomic_store(t.stop, 1, SEQ_CST)
        return NULL
    mcts_grow(t, s, actions)
    evaluator_workspace_free(t.ev, t.ev_workspace)
    free(s)
    return NULL


cdef void mcts_setup(MctsTree* t, const StateC* root, const RulesC* r, const MctsParams* p,
                     int64_t iterations, double deadline, uint64_t seed, int index, int* stop,
                     const int* cancel) noexcept nogil:
    """Tree ``index`` of a search from ``root`` with the seed ``seed``: its own random
    state from (seed, index), ``iterations`` its share of the budget."""
    t.root = root
    t.r = r
    t.iterations = iterations
    t.deadline = deadline
    t.ev = p.ev
    t.c = p.c
    t.rng = mix64(seed + <uint64_t>(index + 1) * <uint64_t>0x9E3779B97F4A7C15)
    t.max_nodes = p.max_nodes
    t.main = False
    t.avoid_cpu = -1
    t.pool = 1
    t.stop = stop
    t.cancel = cancel
    t.error = 0


cdef void add_root_visits(const MctsTree* t, uint32_t* visits) noexcept nogil:
    """Each root action's visits in tree ``t`` added to ``visits`` (gen_actions order)."""
    cdef int32_t child
    if t.nnodes:
        child = t.nodes[0].first_child
        while child >= 0:
            visits[t.nodes[child].index] += t.nodes[child].visits
            child = t.nodes[child].next_sibling


cdef int first_most_visited(const uint32_t* visits, int nactions) noexcept nogil:
    """The choice (MCTSAgent's and its opponent's in the vector step): the root action
    with the most visits, the first of equals."""
    cdef int i, best = 0
    for i in range(1, nactions):
        if visits[i] > visits[best]:
            best = i
    return best


cdef int most_visited(const MctsTree* t, int nactions, uint32_t* visits) noexcept nogil:
    """The root action with the most visits in one tree (first of equals)."""
    memset(visits, 0, nactions * sizeof(uint32_t))
    add_root_visits(t, visits)
    return first_most_visited(visits, nactions)


# -- the opponent inside the vector games' step (victorus.search._policy) ------------------------
# One search per decision, single-threaded, as MCTSAgent.choose with threads=1: the
# decisive shortcut, else one draw from the game's agent random state seeds the search
# (the seed MCTSAgent draws from its rng). Each worker thread of the vector has its own
# workspace: the tree's nodes are kept and reused, never more than max_nodes.

@cython.no_gc_clear
cdef class MctsOpponent:
    """An MCTS budget and its settings as a parameter block (MCTSAgent.native_opponent)."""

    def __init__(self, int64_t iterations, double seconds, double c, int max_nodes,
                 Evaluator evaluator):
        if iterations < 0 and seconds <= 0 or max_nodes < 1:
            raise ValueError("an MCTS opponent needs iterations or seconds and max_nodes >= 1")
        self.params.iterations, self.params.seconds = iterations, seconds
        self.params.c, self.params.max_nodes = c, max_nodes
        self.params.ev = evaluator_c(evaluator)
        plug_search(self, mcts_choose, &self.params, mcts_workspace_new, mcts_workspace_free, evaluator)


ctypedef struct MctsWorkspace:
    MctsTree tree                    # its nodes kept from decision to decision
    StateC state                     # an iteration's position
    StateC trial                     # the decisive shortcut's
    int32_t actions[MAX_ACTIONS]
    uint32_t visits[MAX_ACTIONS]
    int stop                         # set by the search itself when out of memory
    const int* cancel                # the vector's (Ctrl-C)


cdef void* mcts_workspace_new(const void* params, const int* cancel) noexcept nogil:
    """A worker's workspace; the tree's room for an iteration budget made at once."""
    cdef const MctsParams* p = <const MctsParams*>params
    cdef MctsWorkspace* w = <MctsWorkspace*>calloc(1, sizeof(MctsWorkspace))
    if w == NULL:
        return NULL
    w.tree.max_nodes = p.max_nodes
    w.tree.ev = p.ev                 # before any failure: mcts_workspace_free reads it
    w.cancel = cancel
    if not evaluator_workspace(p.ev, &w.tree.ev_workspace):
        free(w)
        return NULL
    if p.iterations >= 0:
        w.tree.capacity = <int32_t>min(<int64_t>p.max_nodes, p.iterations + 1)
        w.tree.nodes = <MctsNode*>malloc(w.tree.capacity * sizeof(MctsNode))
        if w.tree.nodes == NULL:
            mcts_workspace_free(w)
            return NULL
    return w


cdef void mcts_workspace_free(void* workspace) noexcept nogil:
    cdef MctsWorkspace* w = <MctsWorkspace*>workspace
    evaluator_workspace_free(w.tree.ev, w.tree.ev_workspace)
    free(w.tree.nodes)
    free(w)


cdef int mcts_choose(const StateC* s, const RulesC* r, const void* params, void* workspace,
                     void* memory, uint64_t* rng, const int32_t* actions, int nactions) noexcept nogil:
    """MCTSAgent's choice (one thread): the decisive action, else the most visited root
    action of a search seeded by one draw from ``rng``. Out of memory, the search stops
    where it is (the first action if nothing was visited)."""
    cdef const MctsParams* p = <const MctsParams*>params
    cdef double deadline = now_seconds() + p.seconds if p.seconds > 0 else 0   # from the start
    cdef MctsWorkspace* w = <MctsWorkspace*>workspace
    cdef int index = decisive_index(s, r, actions, nactions, &w.trial)
    if index >= 0:
        return index
    mcts_setup(&w.tree, s, r, p, p.iterations, deadline, splitmix64(rng), 0, &w.stop, w.cancel)
    w.stop = 0                       # set by the last decision if it ran out of memory
    mcts_grow(&w.tree, &w.state, w.actions)
    return most_visited(&w.tree, nactions, w.visits)


cdef int reraise() except -1:
    return -1                        # the exception check_signals left pending goes on


def mcts(Engine engine, int64_t iterations, double deadline, int threads, uint64_t seed,
         double c, int max_nodes, Evaluator evaluator, StopToken stop=None):
    """Search from ``engine``'s state (at least two legal actions): ``iterations`` in all
    (split over the threads; < 0: no limit) and/or until ``deadline`` (on ``monotonic()``'s
    clock; 0: none; each tree runs one iteration at least). Returns
    (visits per legal action in gen_actions order, summed value per legal action for the
    army to act, iterations run, nodes made, the choice: first_most_visited over the summed
    visits). The search reads a copy of the state, so
    play() on ``engine`` from another thread cannot tear it; ``stop`` (a StopToken) ends
    it early, as the budget would. ``evaluator`` values each new leaf (victorus.evaluation;
    the UCT's: rollouts(n, material))."""
    cdef const EvaluatorC* ev = evaluator_c(evaluator)          # before anything is made
    cdef int32_t actions[MAX_ACTIONS]
    cdef int n = gen_actions(&engine.s, &engine.rules.c, actions)
    if n == 0 or not 1 <= threads <= MAX_THREADS or max_nodes < 1:
        raise ValueError(f"mcts needs a legal action, 1-{MAX_THREADS} threads and max_nodes >= 1")
    cdef MctsTree* trees = <MctsTree*>calloc(threads, sizeof(MctsTree))
    cdef pthread_t handles[MAX_THREADS]
    cdef int i, started = 0, error = 0, seat = engine.s.turn.to_move
    cdef int32_t child
    # The stop flag in the middle of its own 256 bytes: no cache line shared with data
    # a thread writes (each tree polls it every iteration).
    cdef uint8_t* stop_block = <uint8_t*>calloc(256, 1)
    cdef int* halt = <int*>(stop_block + 128)
    cdef const int* cancel = stop_flag(stop)
    # tree 0 grows in this thread; the others keep off its CPU (docs/performance.md)
    cdef int caller_cpu = current_cpu() if threads > 1 else -1
    cdef MctsParams params
    params.iterations, params.seconds = iterations, 0      # (the deadline is given)
    params.c, params.max_nodes = c, max_nodes
    params.ev = ev
    cdef StateC* root = <StateC*>malloc(sizeof(StateC))
    if trees == NULL or stop_block == NULL or root == NULL:
        free(trees)
        free(stop_block)
        free(root)
        raise MemoryError()
    memcpy(root, &engine.s, sizeof(StateC))
    for i in range(threads):
        mcts_setup(&trees[i], root, &engine.rules.c, &params,
                   -1 if iterations < 0 else iterations // threads + (i < iterations % threads),
                   deadline, seed, i, halt, cancel)
        trees[i].main = i == 0
        trees[i].pool = threads
        trees[i].avoid_cpu = caller_cpu
    cdef uint32_t counts[MAX_ACTIONS]
    memset(counts, 0, n * sizeof(uint32_t))
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
            add_root_visits(&trees[i], counts)
            if trees[i].nnodes:
                child = trees[i].nodes[0].first_child
                while child >= 0:
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
    return [counts[i] for i in range(n)], values, done, nodes, first_most_visited(counts, n)
