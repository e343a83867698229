# cython: language_level=3, cdivision=True
"""Many games stepped at once (:mod:`victorus.vector` validates the arguments and owns the
output buffers): a client of the engine (victorus._engine), built as a module of its own
so that an edit here never recompiles the rules."""

cimport cython
from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t
from libc.string cimport memcpy, memset
from libc.stdlib cimport calloc, malloc, free

from victorus._core cimport (MAX_CELLS, NUM_PLANES, NUM_SEATS, RESULT_NONE, OBS_FLOAT32, OBS_UINT8,
                             action_id, num_action_ids, id_in_frame)
from victorus._engine cimport (
    StateC, RulesC, Engine, Rules, MAX_ACTIONS, gen_actions, apply_action, team_returns,
    observation_float32, observation_uint8, splitmix64, atomic_load, atomic_store,
    atomic_fetch_add, atomic_sub_fetch, SEQ_CST)
from cpython.exc cimport PyErr_CheckSignals
from victorus._portable cimport (
    MAX_THREADS, pthread_t, pthread_mutex_t, pthread_cond_t, pthread_create, pthread_join,
    pthread_mutex_init, pthread_mutex_destroy, pthread_mutex_lock, pthread_mutex_unlock,
    pthread_cond_init, pthread_cond_destroy, pthread_cond_wait, pthread_cond_broadcast,
    pthread_cond_signal, pthread_cond_timedwait_ms, placement_t, current_cpu, placement_init,
    placement_avoid)
from victorus.search._policy cimport (Opponent, ChooseFn, WorkspaceNew, WorkspaceFree, MemoryNew,
                                      MemoryFree, NoteFn, ForgetFn)

# -- many games stepped at once (victorus.vector) ----------------------------------------
# The games live in one C array; a step validates every action first (nothing changes if
# one is illegal), then splits the games over a pool of POSIX threads that run without
# the GIL. Each game has its own random state, so results never depend on the threads.
# A search agent has a workspace per thread (worker 0: the thread that dispatches), and
# one that keeps a tree between decisions a memory per game, told every action played.

cdef enum:
    SPIN = 200000                    # checks before a thread sleeps (a step's worth of time)
    SIGNAL_CHECK_MS = 50             # a searching step's caller checks for Ctrl-C this often
    CHUNK = 4                        # games a thread takes at a time
    TASK_RESET = 0
    TASK_STEP = 1
    TASK_LOAD = 2                    # set_game: one game (AsyncC.index) settled


ctypedef struct VecC:
    const RulesC* r
    StateC start
    StateC* states
    int32_t* legal                   # [n, MAX_ACTIONS] legal codes of each game
    int32_t* nlegal                  # [n]
    int64_t* played                  # actions of each game's current episode
    uint64_t* rng                    # each game's splitmix64 state
    uint8_t* reset_next              # gymnasium next-step autoreset
    int32_t* chosen                  # [n] index into legal of each game's validated action
    int n, threads, obs_kind, cells
    int64_t max_actions              # truncation cap, <= 0: none
    int task
    # ids in the observer's frame: legs rotated as the observation is (RulesC.view maps a
    # cell to its column in a seat's view, unview a column back to its cell)
    bint observer_frame
    uint8_t unview[NUM_SEATS][MAX_CELLS]
    # the seats played inside the step by a C agent (NULL: the caller's seat)
    ChooseFn agent[NUM_SEATS]
    const void* agent_params[NUM_SEATS]
    void* workspace[MAX_THREADS][NUM_SEATS]   # per worker thread, per seat (NULL: none)
    WorkspaceFree workspace_free[NUM_SEATS]    # the seat's own workspaces (NULL: shared, none)
    void** memory[NUM_SEATS]         # per seat, [n] each game's memory of its agent, or NULL
    NoteFn note[NUM_SEATS]           # the seat's own memories (NULL: shared, none)
    ForgetFn forget[NUM_SEATS]
    MemoryFree memory_free[NUM_SEATS]
    uint64_t* agent_rng              # [n] each game's random state of its agents
    # the caller's numpy buffers
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
    int caller_cpu                   # the CPU the step's caller ran on as it dispatched
    int cancel                       # Ctrl-C: the searches stop at once (their workspaces')


cdef void vec_outputs(VecC* v, int i) noexcept nogil:
    """Legal actions, observation, mask or ids and the seat to act of game ``i``."""
    cdef StateC* s = &v.states[i]
    cdef int32_t* legal = v.legal + <Py_ssize_t>i * MAX_ACTIONS
    cdef int k, n = v.cells, size = NUM_PLANES * v.cells
    cdef Py_ssize_t actions = num_action_ids(n)
    v.nlegal[i] = gen_actions(s, v.r, legal)          # 0 once the game is over
    v.counts[i] = v.nlegal[i]
    v.to_move[i] = s.turn.to_move
    if v.obs_kind == OBS_FLOAT32:
        observation_float32(s, v.r, s.turn.to_move, <float*>v.obs + <Py_ssize_t>i * size)
    elif v.obs_kind == OBS_UINT8:
        observation_uint8(s, v.r, s.turn.to_move, <uint8_t*>v.obs + <Py_ssize_t>i * size)
    if v.masks != NULL:
        memset(v.masks + i * actions, 0, actions)
        for k in range(v.nlegal[i]):
            v.masks[i * actions + frame_id(v, s.turn.to_move, action_id(legal[k], n))] = 1
    if v.ids != NULL:
        for k in range(v.nlegal[i]):
            v.ids[<Py_ssize_t>i * MAX_ACTIONS + k] = frame_id(
                v, s.turn.to_move, action_id(legal[k], n))


cdef inline int frame_id(const VecC* v, int seat, int ident) noexcept nogil:
    """An absolute action id as the caller sees it: in ``seat``'s frame when the ids are
    the observer's (a leg's cells replaced by their columns in the seat's view)."""
    return id_in_frame(ident, v.cells, v.r.view[seat]) if v.observer_frame else ident


cdef inline int absolute_id(const VecC* v, int seat, int ident) noexcept nogil:
    """The inverse of frame_id (ids out of range are left alone: they match nothing)."""
    return id_in_frame(ident, v.cells, v.unview[seat]) if v.observer_frame else ident


cdef void vec_apply(VecC* v, int i, int32_t code) noexcept nogil:
    """Play ``code`` in game ``i`` (counted towards ``max_actions``) and tell the agents'
    memories of the game."""
    cdef int seat
    apply_action(&v.states[i], v.r, code)
    v.played[i] += 1
    for seat in range(NUM_SEATS):
        if v.note[seat] != NULL:
            v.note[seat](v.memory[seat][i], code)


cdef void vec_forget(VecC* v, int i) noexcept nogil:
    """Game ``i`` starts a new episode: its agents' memories of it are forgotten."""
    cdef int seat
    for seat in range(NUM_SEATS):
        if v.forget[seat] != NULL:
            v.forget[seat](v.memory[seat][i])


cdef void play_agents(VecC* v, int i, int worker) noexcept nogil:
    """Let the C agents play game ``i`` until a seat of the caller's is to act, the game
    is over or the ``max_actions`` cap is reached (their actions count towards it, R36);
    a search uses worker thread ``worker``'s workspace."""
    cdef StateC* s = &v.states[i]
    cdef int32_t* legal = v.legal + <Py_ssize_t>i * MAX_ACTIONS
    cdef ChooseFn agent
    cdef int seat, count
    while s.result == RESULT_NONE and not (v.max_actions > 0 and v.played[i] >= v.max_actions):
        seat = s.turn.to_move
        agent = v.agent[seat]
        if agent == NULL:
            return
        count = gen_actions(s, v.r, legal)
        if count == 0:
            return
        vec_apply(v, i, legal[agent(s, v.r, v.agent_params[seat], v.workspace[worker][seat],
                                    v.memory[seat][i] if v.memory[seat] != NULL else NULL,
                                    &v.agent_rng[i], legal, count)])


cdef void vec_settle(VecC* v, int i, int worker) noexcept nogil:
    """After the caller's action (or a fresh start): the agents' replies, then the
    rewards (those of the game's end, if it ended over the agents' actions too) and the
    end flags."""
    cdef StateC* s = &v.states[i]
    play_agents(v, i, worker)
    team_returns(s, v.r, &v.rewards[i * NUM_SEATS])
    v.terminated[i] = s.result != RESULT_NONE
    v.truncated[i] = not v.terminated[i] and v.max_actions > 0 and v.played[i] >= v.max_actions
    v.reset_next[i] = v.terminated[i] or v.truncated[i]


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


cdef void vec_reset_one(VecC* v, int i, int worker) noexcept nogil:
    """Game ``i`` back to the start, its agents' opening actions played."""
    memcpy(&v.states[i], &v.start, sizeof(StateC))
    v.played[i] = 0
    vec_forget(v, i)
    vec_settle(v, i, worker)


cdef void vec_step_one(VecC* v, int i, int worker) noexcept nogil:
    cdef int32_t* legal = v.legal + <Py_ssize_t>i * MAX_ACTIONS
    if v.reset_next[i]:                               # next-step autoreset: the action is ignored
        vec_reset_one(v, i, worker)
        vec_outputs(v, i)
        return
    vec_apply(v, i, legal[v.chosen[i]])               # validated by the caller
    vec_settle(v, i, worker)
    vec_outputs(v, i)


cdef void vec_run(VecC* v, int worker) noexcept nogil:
    """Take games a few at a time until none is left (every thread, the caller's too, as
    worker ``worker``); ``busy`` counts the games not yet done: whoever finishes the last
    wakes the caller."""
    cdef int lo, i, hi
    while True:
        lo = atomic_fetch_add(&v.next, CHUNK, SEQ_CST)
        if lo >= v.n:
            return
        hi = min(lo + CHUNK, v.n)
        for i in range(lo, hi):
            if v.task == TASK_RESET:
                vec_reset_one(v, i, worker)
                vec_outputs(v, i)
            else:
                vec_step_one(v, i, worker)
        if atomic_sub_fetch(&v.busy, hi - lo, SEQ_CST) == 0:
            pthread_mutex_lock(&v.lock)          # the caller may be asleep: wake it
            pthread_cond_signal(&v.done_cv)
            pthread_mutex_unlock(&v.lock)


ctypedef struct WorkerC:
    VecC* v
    int index                        # its workspaces: VecC.workspace[index]


cdef void* vec_worker(void* arg) noexcept nogil:
    """A pool thread: spin briefly, then sleep, until the next task; take its games while
    any is left. A thread that wakes late (another process had its core) finds none and
    holds nothing up: the caller waits for games, never for threads. Woken, it keeps off
    the CPU the caller dispatched from (Linux): with a third busy thread on two cores the
    kernel would often wake it there, where the two take turns instead of sharing."""
    cdef VecC* v = (<WorkerC*>arg).v
    cdef int worker = (<WorkerC*>arg).index
    cdef int seen = 0, spin
    cdef placement_t place                           # its CPUs: it keeps off its caller's
    placement_init(&place, v.threads)
    while True:
        spin = 0
        while atomic_load(&v.generation, SEQ_CST) == seen and spin < SPIN // 10:
            spin += 1
        pthread_mutex_lock(&v.lock)
        while atomic_load(&v.generation, SEQ_CST) == seen and not v.stop:
            pthread_cond_wait(&v.start_cv, &v.lock)
        if v.stop:
            pthread_mutex_unlock(&v.lock)
            return NULL
        seen = atomic_load(&v.generation, SEQ_CST)
        pthread_mutex_unlock(&v.lock)
        placement_avoid(&place, atomic_load(&v.caller_cpu, SEQ_CST))
        vec_run(v, worker)


cdef void vec_dispatch(VecC* v, int task) noexcept nogil:
    """Run ``task`` on every game, shared out over the threads (this one included); return
    once every game is done, whichever threads did them."""
    cdef int spin = 0
    v.task = task
    atomic_store(&v.busy, v.n, SEQ_CST)
    atomic_store(&v.next, 0, SEQ_CST)
    if v.threads > 1:
        atomic_store(&v.caller_cpu, current_cpu(), SEQ_CST)
        pthread_mutex_lock(&v.lock)
        atomic_fetch_add(&v.generation, 1, SEQ_CST)
        pthread_cond_broadcast(&v.start_cv)
        pthread_mutex_unlock(&v.lock)
    vec_run(v, 0)
    while atomic_load(&v.busy, SEQ_CST) and spin < SPIN // 10:
        spin += 1
    pthread_mutex_lock(&v.lock)
    while atomic_load(&v.busy, SEQ_CST):
        pthread_cond_wait(&v.done_cv, &v.lock)
    pthread_mutex_unlock(&v.lock)


cdef void vec_load_one(VecC* v, int i) noexcept nogil:
    """Game ``i``, just given a position (VectorEngine.load), starts an episode there:
    its agents play up to a caller's seat, as worker 0."""
    vec_forget(v, i)
    vec_settle(v, i, 0)
    vec_outputs(v, i)


# -- send() / recv(): a step on a thread of its own while the caller computes -------------
# One thread per VectorEngine, started at the first send(), runs the step (vec_dispatch,
# the pool's threads included) and reports; the caller waits for it in recv(). With a
# search among the agents it runs every step, reset and load, the caller waiting in
# VectorEngine.wait() (Ctrl-C).

ctypedef struct AsyncC:
    VecC* v
    pthread_t handle
    pthread_mutex_t lock
    pthread_cond_t cv
    int task                         # TASK_STEP, TASK_RESET or TASK_LOAD
    int index                        # TASK_LOAD's game
    bint started, requested, done, stop


cdef void* async_main(void* arg) noexcept nogil:
    cdef AsyncC* a = <AsyncC*>arg
    while True:
        pthread_mutex_lock(&a.lock)
        while not a.requested and not a.stop:
            pthread_cond_wait(&a.cv, &a.lock)
        if not a.requested:                      # stopped, nothing left to run
            pthread_mutex_unlock(&a.lock)
            return NULL
        a.requested = False
        pthread_mutex_unlock(&a.lock)
        if a.task == TASK_LOAD:
            vec_load_one(a.v, a.index)
        else:
            vec_dispatch(a.v, a.task)
        pthread_mutex_lock(&a.lock)
        a.done = True
        pthread_cond_broadcast(&a.cv)
        pthread_mutex_unlock(&a.lock)


cdef bint async_start(AsyncC* a, VecC* v, int task) noexcept nogil:
    """Hand ``task`` (the validated step, a reset, or game ``a.index``'s load) to the
    step thread (started on first use); False if the thread could not start."""
    if not a.started:
        a.v = v
        pthread_mutex_init(&a.lock, NULL)
        pthread_cond_init(&a.cv, NULL)
        if pthread_create(&a.handle, NULL, async_main, a):
            pthread_mutex_destroy(&a.lock)
            pthread_cond_destroy(&a.cv)
            return False
        a.started = True
    pthread_mutex_lock(&a.lock)
    a.task = task
    a.done = False
    a.requested = True
    pthread_cond_broadcast(&a.cv)
    pthread_mutex_unlock(&a.lock)
    return True


cdef void async_wait(AsyncC* a) noexcept nogil:
    """Until the step handed over last has finished."""
    if not a.started:
        return
    pthread_mutex_lock(&a.lock)
    while a.requested or not a.done:
        pthread_cond_wait(&a.cv, &a.lock)
    pthread_mutex_unlock(&a.lock)


cdef bint async_wait_for(AsyncC* a, unsigned ms) noexcept nogil:
    """Wait up to ``ms`` milliseconds for the step handed over last: whether it has
    finished."""
    cdef bint finished
    pthread_mutex_lock(&a.lock)
    if a.requested or not a.done:
        pthread_cond_timedwait_ms(&a.cv, &a.lock, ms)
    finished = not a.requested and a.done
    pthread_mutex_unlock(&a.lock)
    return finished


cdef void async_stop(AsyncC* a) noexcept nogil:
    """End the step thread (after the step it may be running)."""
    if not a.started:
        return
    pthread_mutex_lock(&a.lock)
    a.stop = True
    pthread_cond_broadcast(&a.cv)
    pthread_mutex_unlock(&a.lock)
    pthread_join(a.handle, NULL)
    pthread_mutex_destroy(&a.lock)
    pthread_cond_destroy(&a.cv)
    a.started = False


@cython.no_gc_clear
cdef class VectorEngine:
    """``n`` games of one configuration stepped together (victorus.vector validates the
    arguments and owns the output buffers)."""
    cdef VecC v
    cdef pthread_t handles[MAX_THREADS]
    cdef WorkerC workers[MAX_THREADS]
    cdef int started                     # worker threads running
    cdef bint pool_ready                 # the lock and conditions exist
    cdef readonly Rules rules
    cdef object buffers                  # keeps the numpy outputs alive
    cdef tuple opponents                 # keeps the searches' parameter blocks alive
    cdef bint searching                  # a seat is a search's: steps run on step_thread
    cdef AsyncC step_thread              # send() / recv()

    def __cinit__(self):
        memset(&self.v, 0, sizeof(VecC))
        memset(&self.step_thread, 0, sizeof(AsyncC))
        self.started = 0
        self.pool_ready = False

    def __init__(self, Engine start, int n, int threads, int64_t max_actions, int obs_kind,
                 buffers, bint observer_frame=False, agents=(None,) * NUM_SEATS):
        """``agents``: per seat, None (the caller plays it) or an agent's
        :class:`victorus.search._policy.Opponent` (its ``native_opponent()``), played inside the
        step; seats given one object share its workspaces and memories."""
        self.rules = start.rules
        cdef VecC* v = &self.v
        cdef int seat, cell
        v.r = &self.rules.c
        v.observer_frame = observer_frame
        for seat in range(NUM_SEATS):
            for cell in range(self.rules.c.t.ncells):
                v.unview[seat][self.rules.c.view[seat][cell]] = cell
        memcpy(&v.start, &start.s, sizeof(StateC))
        v.n, v.threads, v.max_actions, v.obs_kind = n, threads, max_actions, obs_kind
        self.opponents = tuple(agents)
        self.set_agents(threads)
        v.cells = self.rules.c.t.ncells
        v.states = <StateC*>malloc(n * sizeof(StateC))
        v.legal = <int32_t*>malloc(<Py_ssize_t>n * MAX_ACTIONS * sizeof(int32_t))
        v.nlegal = <int32_t*>malloc(n * sizeof(int32_t))
        v.played = <int64_t*>malloc(n * sizeof(int64_t))
        v.rng = <uint64_t*>malloc(n * sizeof(uint64_t))
        v.reset_next = <uint8_t*>malloc(n)
        v.chosen = <int32_t*>malloc(n * sizeof(int32_t))
        v.agent_rng = <uint64_t*>malloc(n * sizeof(uint64_t))
        if (v.states == NULL or v.legal == NULL or v.nlegal == NULL or v.played == NULL
                or v.rng == NULL or v.reset_next == NULL or v.chosen == NULL
                or v.agent_rng == NULL):
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
        for t in range(threads):
            self.workers[t].v, self.workers[t].index = v, t
        for t in range(1, threads):
            if pthread_create(&self.handles[t], NULL, vec_worker, &self.workers[t]):
                self.v.threads = t               # run with the threads that did start
                break
            self.started = t

    cdef set_agents(self, int threads):
        """Each seat's ChooseFn and parameter block, a search's workspaces (one per worker
        thread) and memories (one per game), made here once; a seat given the same object
        as an earlier one shares that seat's."""
        cdef int seat, earlier
        for seat in range(NUM_SEATS):
            for earlier in range(seat):
                if self.opponents[earlier] is self.opponents[seat] \
                        and self.v.agent_params[earlier] != NULL:
                    self.share(seat, earlier, threads)
                    break
            else:
                self.set_agent(seat, self.opponents[seat], threads)

    cdef set_agent(self, int seat, agent, int threads):
        """Seat ``seat``'s agent from its Opponent's pointers (None: the caller's seat)."""
        cdef VecC* v = &self.v
        v.agent[seat], v.agent_params[seat] = NULL, NULL
        if agent is None:
            return
        cdef Opponent opponent = <Opponent?>agent
        v.agent[seat], v.agent_params[seat] = opponent.choose, opponent.block
        if opponent.workspace_new != NULL:
            v.workspace_free[seat] = opponent.workspace_free
            self.make_workspaces(seat, threads, opponent.workspace_new)
        if opponent.memory_new != NULL:
            v.memory_free[seat] = opponent.memory_free
            self.make_memories(seat, opponent.memory_new)
            v.note[seat], v.forget[seat] = opponent.note, opponent.forget

    cdef make_workspaces(self, int seat, int threads, WorkspaceNew make):
        cdef int t
        self.searching = True
        for t in range(threads):
            self.v.workspace[t][seat] = make(self.v.agent_params[seat], &self.v.cancel)
            if self.v.workspace[t][seat] == NULL:
                raise MemoryError("no memory for an opponent's search")

    cdef make_memories(self, int seat, MemoryNew make):
        cdef int i
        self.v.memory[seat] = <void**>calloc(self.v.n, sizeof(void*))
        if self.v.memory[seat] == NULL:
            raise MemoryError("no memory for an opponent's games")
        for i in range(self.v.n):
            self.v.memory[seat][i] = make(self.v.agent_params[seat])
            if self.v.memory[seat][i] == NULL:
                raise MemoryError("no memory for an opponent's games")

    cdef share(self, int seat, int earlier, int threads):
        """Seat ``seat`` plays as seat ``earlier``, on its workspaces and memories (whose
        owner, told the actions and freeing them, is ``earlier``)."""
        cdef VecC* v = &self.v
        cdef int t
        v.agent[seat], v.agent_params[seat] = v.agent[earlier], v.agent_params[earlier]
        for t in range(threads):
            v.workspace[t][seat] = v.workspace[t][earlier]
        v.memory[seat] = v.memory[earlier]

    cdef free_agent(self, int seat):
        """Free seat ``seat``'s own workspaces and memories (none if shared)."""
        cdef VecC* v = &self.v
        cdef int t, i
        if v.workspace_free[seat] != NULL:
            for t in range(MAX_THREADS):
                if v.workspace[t][seat] != NULL:
                    v.workspace_free[seat](v.workspace[t][seat])
                v.workspace[t][seat] = NULL
        if v.memory_free[seat] != NULL and v.memory[seat] != NULL:
            for i in range(v.n):
                if v.memory[seat][i] != NULL:
                    v.memory_free[seat](v.memory[seat][i])
            free(v.memory[seat])
        v.memory[seat] = NULL

    def __dealloc__(self):
        cdef int t, seat
        atomic_store(&self.v.cancel, 1, SEQ_CST)  # a step still running: its searches stop
        async_stop(&self.step_thread)            # it may be stepping: it finishes first
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
        free(self.v.chosen)
        free(self.v.agent_rng)
        for seat in range(NUM_SEATS):
            self.free_agent(seat)

    @property
    def threads(self):
        return self.v.threads

    def reset(self, uint64_t seed):
        """Every game back to the start; game ``i``'s random states (sample(), its agents)
        from (seed, i)."""
        cdef int i
        for i in range(self.v.n):
            self.v.rng[i] = seed ^ (<uint64_t>i * <uint64_t>0x9E3779B97F4A7C15)
            splitmix64(&self.v.rng[i])
            self.v.agent_rng[i] = splitmix64(&self.v.rng[i])
        self.run(TASK_RESET)

    cdef run(self, int task):
        """Run ``task`` over every game. With a search among the agents, on the step
        thread while this thread waits for Ctrl-C (see wait())."""
        if not self.searching:
            with nogil:
                vec_dispatch(&self.v, task)
            return
        if not async_start(&self.step_thread, &self.v, task):
            raise MemoryError("could not start the step thread")
        self.wait()

    cdef wait(self):
        """Wait for the step thread's task, checking for Ctrl-C (a signal's exception):
        on one, the searches are told to stop (each decision taken from what it searched),
        the task ends, and the exception is raised."""
        cdef bint finished = False
        while not finished:
            with nogil:
                finished = async_wait_for(&self.step_thread, SIGNAL_CHECK_MS)
            try:
                PyErr_CheckSignals()
            except BaseException:
                atomic_store(&self.v.cancel, 1, SEQ_CST)
                with nogil:
                    async_wait(&self.step_thread)
                atomic_store(&self.v.cancel, 0, SEQ_CST)
                raise

    cdef int validate(self, const int32_t[::1] actions):
        """Find every game's action among its legal ones (into ``chosen``): -1, or the
        first game whose id is not legal."""
        cdef int i, k
        for i in range(self.v.n):
            if self.v.reset_next[i]:
                continue
            k = find_legal(&self.v, i, absolute_id(
                &self.v, self.v.states[i].turn.to_move, actions[i]))
            if k < 0:
                return i
            self.v.chosen[i] = k
        return -1

    def step(self, const int32_t[::1] actions):
        """Play one action id per game (ignored for a game that ended at the last step: it
        starts again). Returns -1, or the first game whose id is not legal (nothing moved)."""
        cdef int bad = self.validate(actions)      # all or nothing
        if bad >= 0:
            return bad
        self.run(TASK_STEP)
        return -1

    def send(self, const int32_t[::1] actions):
        """Start the step of these ids on the step thread and return at once (-1), or
        return the first game whose id is not legal (nothing started). The caller keeps
        the outputs untouched until recv()."""
        cdef int bad = self.validate(actions)
        if bad >= 0:
            return bad
        if not async_start(&self.step_thread, &self.v, TASK_STEP):
            raise MemoryError("could not start the step thread")
        return -1

    def recv(self):
        """Wait for the step started by send() to finish (with a search among the agents,
        stopped early by Ctrl-C, whose exception is then raised: see wait())."""
        if self.searching:
            self.wait()
            return
        with nogil:
            async_wait(&self.step_thread)

    def sample(self):
        """Uniformly random legal ids into the 'sampled' buffer (each game's own random
        state; -1 for a game without a legal action or about to start again)."""
        cdef VecC* v = &self.v
        cdef int i, k
        with nogil:
            for i in range(v.n):
                k = v.nlegal[i]
                v.sampled[i] = (-1 if k == 0 or v.reset_next[i] else frame_id(
                    v, v.states[i].turn.to_move,
                    action_id(v.legal[<Py_ssize_t>i * MAX_ACTIONS + splitmix64(&v.rng[i])
                                      % <uint64_t>k], v.cells)))

    def load(self, int i, Engine e):
        """Game ``i`` becomes a copy of ``e``'s position (the same rules, checked by the
        caller), as a fresh episode (its agents play up to a caller's seat): outputs
        rewritten. With a search among the agents, on the step thread (see wait())."""
        memcpy(&self.v.states[i], &e.s, sizeof(StateC))
        self.v.played[i] = 0
        if not self.searching:
            with nogil:                          # no step runs: worker 0's workspaces are free
                vec_load_one(&self.v, i)
            return
        self.step_thread.index = i               # read by the step thread after its lock
        if not async_start(&self.step_thread, &self.v, TASK_LOAD):
            raise MemoryError("could not start the step thread")
        self.wait()

    def agent_rng(self, int i):
        """The random state game ``i``'s agents draw from next."""
        return self.v.agent_rng[i]

    def engine(self, int i):
        """An Engine holding a copy of game ``i`` (no history)."""
        cdef Engine e = Engine.__new__(Engine, self.rules)
        memcpy(&e.s, &self.v.states[i], sizeof(StateC))
        return e

    def legal_codes(self, int i):
        return [self.v.legal[<Py_ssize_t>i * MAX_ACTIONS + k] for k in range(self.v.nlegal[i])]


MAX_LEGAL_ACTIONS = MAX_ACTIONS
#: Threads a vector of games may use.
MAX_WORKER_THREADS = MAX_THREADS
