# cython: language_level=3, cdivision=True, boundscheck=False, wraparound=False
"""PUCT in C with a batched evaluator (:class:`victorus.puct.PUCTAgent`): selection with
virtual loss, expansion, backup and the proof of decided positions run in C without the
GIL; the evaluator (a Python callable, or the C heuristic) sees a batch of leaves at a
time. A client of the engine (victorus._engine), built as a module of its own."""

from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memcmp, memcpy, memset
from libc.stdlib cimport malloc, realloc, free
from libc.math cimport log, sqrt, pow, cos, INFINITY

from victorus._core cimport (
    NUM_SEATS, RESULT_NONE, NUM_PLANES, KEY_MASK, WORD_STOP, action_id, code_origin, code_target,
    kind_points)
from victorus._engine cimport (
    StateC, RulesC, Engine, Rules, StopToken, MAX_ACTIONS, gen_actions, apply_action, team_returns,
    stop_flag, splitmix64, mix64, atomic_load, RELAXED, observation_uint8, observation_float32)
from victorus._mcts cimport mcts_value, now_seconds

import numpy as np


cdef extern from "Python.h":
    int check_signals "PyErr_CheckSignals"() except -1

# -- the tree ----------------------------------------------------------------------------
# One array of nodes; a node's children are contiguous (made together when it is
# expanded, one per legal action in gen_actions order, each with its prior). Values are
# per seat (2-6 armies; team mates share their returns, R33): the army to act at a node
# picks the child best for its own seat (max-n). A decided position is proven: a finished
# game (its node is its own proof), a node whose army has a child won for its team, or a
# node whose children are all proven (the best of them for its army). A proven node is
# never expanded again: its exact value is backed up.

cdef enum:
    C_HEURISTIC = 0                  # the evaluators in C (PuctTree.run)
    C_UNIFORM = 1
    FLAG_TERMINAL = 1
    FLAG_QUEUED = 2                  # a leaf of the batch being evaluated

ctypedef struct PNode:
    int32_t parent                   # -1 at the root
    int32_t first_child              # -1: not expanded
    int32_t nchildren
    int32_t code                     # the action from the parent
    int32_t proof                    # -1: not proven; else itself (finished) or a child
    uint32_t visits
    uint16_t pending                 # leaves in flight below (virtual loss)
    int8_t seat                      # the army to act here, -1 until the state is seen
    uint8_t flags
    double prior
    double value[NUM_SEATS]          # summed values per seat


cdef inline double exact_value(const PNode* nodes, int32_t i, int seat) noexcept nogil:
    """The value of a proven node for ``seat``: its finished game's returns."""
    while nodes[i].proof != i:
        i = nodes[i].proof
    return nodes[i].value[seat] / nodes[i].visits


cdef double gamma_sample(uint64_t* rng, double alpha) noexcept nogil:
    """A Gamma(alpha, 1) draw (Marsaglia and Tsang; alpha < 1 by the power trick)."""
    cdef double d, c, x, v, u, boost = 1.0
    if alpha < 1:
        u = ((splitmix64(rng) >> 11) + 0.5) * (1.0 / 9007199254740992.0)
        boost = pow(u, 1.0 / alpha)
        alpha += 1
    d = alpha - 1.0 / 3
    c = 1.0 / sqrt(9 * d)
    while True:
        u = ((splitmix64(rng) >> 11) + 0.5) * (1.0 / 9007199254740992.0)
        x = sqrt(-2 * log(u)) * cos(6.283185307179586
                                    * ((splitmix64(rng) >> 11) + 0.5) * (1.0 / 9007199254740992.0))
        v = (1 + c * x) ** 3
        if v <= 0:
            continue
        u = ((splitmix64(rng) >> 11) + 0.5) * (1.0 / 9007199254740992.0)
        if log(u) < 0.5 * x * x + d - d * v + d * log(v):
            return boost * d * v


cdef inline int32_t code_key(int32_t code) noexcept nogil:
    """An action code's notation key (Engine.history_keys)."""
    return code & KEY_MASK if code < WORD_STOP else code


cdef int count_teams(const RulesC* r) noexcept nogil:
    cdef int a, teams = 0
    cdef uint8_t seen = 0
    for a in range(NUM_SEATS):
        if (r.present >> a) & 1 and not (seen >> r.team[a]) & 1:
            seen |= 1 << r.team[a]
            teams += 1
    return teams


cdef tuple parse_evaluation(result, int k, int width):
    """An evaluator's answer as (priors [k, width] or None, values [k, 6] or None,
    mover's values [k] or None), checked: what was wrong and what is accepted."""
    accepted = ("an evaluator returns (priors, values): priors of shape (leaves, width of "
                "legal_ids) or None for uniform, values of shape (leaves, 6) per seat or "
                "(leaves,) for the army to act, finite numbers in [-1, 1]")
    if not isinstance(result, tuple) or len(result) != 2:
        raise ValueError(f"{accepted}; got {type(result).__name__}")
    priors, values = result
    if priors is not None:
        priors = np.ascontiguousarray(priors, dtype=np.float64)
        if priors.shape != (k, width) or not np.isfinite(priors).all() or (priors < 0).any():
            raise ValueError(f"{accepted}; priors must be non-negative, shape ({k}, {width}), "
                             f"got shape {priors.shape}")
    values = np.ascontiguousarray(values, dtype=np.float64)
    if values.shape not in ((k, NUM_SEATS), (k,)) or not np.isfinite(values).all() \
            or np.abs(values).max(initial=0) > 1:
        raise ValueError(f"{accepted}; got values of shape {values.shape}")
    if values.ndim == 1:
        return priors, None, values
    return priors, values, None


cdef class LeafBatch:
    """The leaves a PUCT search asks its evaluator about, ``size`` of them: what an
    evaluator reads. ``observations`` [size, planes, cells] in each leaf's mover's frame
    (uint8 or float32 as the search was asked; None if it was not), ``legal_ids``
    [size, width] the legal action ids in legal_actions() order, padded with -1
    (absolute ids, or in the mover's frame with ``id_frame="observer"``), ``num_legal``
    [size], ``seats`` [size] the army to act. :meth:`game` gives a leaf as a Game."""

    cdef readonly int size
    cdef readonly object observations, legal_ids, num_legal, seats
    cdef object _tree, _game_factory

    def game(self, int i):
        """Leaf ``i`` as a new :class:`victorus.Game` (no history), for evaluators written
        over the public API."""
        if not 0 <= i < self.size:
            raise IndexError(f"leaf index must be in 0..{self.size - 1}, got {i}")
        return self._game_factory((<PuctTree>self._tree).leaf_engine(i))


cdef class PuctTree:
    """A PUCT tree over one position, kept between searches (tree reuse). Not thread
    safe on its own: victorus.puct.PUCTAgent serialises calls with a lock."""

    cdef PNode* nodes
    cdef int32_t nnodes, capacity, max_nodes
    cdef StateC root
    cdef readonly Rules rules
    cdef double c_puct, fpu_reduction, noise_alpha, noise_fraction
    cdef double* root_prior          # the root's priors with Dirichlet noise, NULL: none
    cdef uint64_t rng
    cdef int batch_size, obs_kind    # obs_kind 0: none, 1: uint8, 2: float32
    cdef int rollout_actions         # the C heuristic's rollouts
    cdef bint observer_ids
    cdef StateC* leaf_states
    cdef int32_t* leaf_node
    cdef int32_t* leaf_actions       # batch_size rows of MAX_ACTIONS
    cdef int32_t* leaf_n
    cdef object obs_buffer, ids_buffer, num_buffer, seat_buffer
    cdef LeafBatch batch

    def __cinit__(self):
        self.nodes = NULL
        self.root_prior = NULL
        self.leaf_states = NULL
        self.leaf_node = NULL
        self.leaf_actions = NULL
        self.leaf_n = NULL

    def __init__(self, Engine engine, int batch_size, int max_nodes, double c_puct,
                 double fpu_reduction, str observation, bint observer_ids, game_factory,
                 int rollout_actions=10):
        """A tree rooted at ``engine``'s position. ``observation``: 'uint8', 'float32' or
        'none' (what the evaluator's batch carries)."""
        if batch_size < 1 or max_nodes < 2:
            raise ValueError("batch_size must be >= 1 and max_nodes >= 2")
        self.rules = engine.rules
        self.batch_size, self.max_nodes = batch_size, max_nodes
        self.c_puct, self.fpu_reduction = c_puct, fpu_reduction
        self.observer_ids = observer_ids
        self.rollout_actions = rollout_actions
        self.obs_kind = {"none": 0, "uint8": 1, "float32": 2}[observation]
        self.leaf_states = <StateC*>malloc(batch_size * sizeof(StateC))
        self.leaf_node = <int32_t*>malloc(batch_size * sizeof(int32_t))
        self.leaf_n = <int32_t*>malloc(batch_size * sizeof(int32_t))
        self.leaf_actions = <int32_t*>malloc(<size_t>batch_size * MAX_ACTIONS * sizeof(int32_t))
        if (self.leaf_states == NULL or self.leaf_node == NULL or self.leaf_n == NULL
                or self.leaf_actions == NULL):
            raise MemoryError()
        cdef int cells = engine.rules.c.t.ncells
        if self.obs_kind:
            self.obs_buffer = np.zeros((batch_size, NUM_PLANES, cells),
                                       dtype=np.uint8 if self.obs_kind == 1 else np.float32)
        self.ids_buffer = np.full((batch_size, MAX_ACTIONS), -1, dtype=np.int32)
        self.num_buffer = np.zeros(batch_size, dtype=np.int32)
        self.seat_buffer = np.zeros(batch_size, dtype=np.int8)
        self.batch = LeafBatch.__new__(LeafBatch)
        self.batch._tree = self
        self.batch._game_factory = game_factory
        self.reset(engine)

    def __dealloc__(self):
        free(self.nodes)
        free(self.root_prior)
        free(self.leaf_states)
        free(self.leaf_node)
        free(self.leaf_n)
        free(self.leaf_actions)

    def reset(self, Engine engine):
        """Forget the tree: a new root at ``engine``'s position."""
        if engine.rules is not self.rules:
            raise ValueError("the position is of another board or configuration")
        memcpy(&self.root, &engine.s, sizeof(StateC))
        self.nnodes = 0
        free(self.root_prior)
        self.root_prior = NULL
        if not self.reserve(1):
            raise MemoryError("no memory left for the PUCT tree")
        self.new_children(-1, 1, NULL)

    @property
    def nodes_used(self):
        return self.nnodes

    @property
    def root_visits(self):
        return self.nodes[0].visits

    cdef bint reserve(self, int32_t more) noexcept nogil:
        """Room for ``more`` nodes: False if the tree is full or out of memory."""
        cdef PNode* grown
        cdef int32_t capacity
        if self.nnodes + more > self.max_nodes:
            return False
        if self.nnodes + more > self.capacity:
            capacity = min(self.max_nodes, max(self.nnodes + more, 1024, 2 * self.capacity))
            grown = <PNode*>realloc(self.nodes, capacity * sizeof(PNode))
            if grown == NULL:
                return False
            self.nodes = grown
            self.capacity = capacity
        return True

    cdef int32_t new_children(self, int32_t parent, int n, const int32_t* codes) noexcept nogil:
        """``n`` fresh nodes below ``parent`` (after reserve); the first one's index."""
        cdef int32_t first = self.nnodes, i
        cdef PNode* node
        for i in range(first, first + n):
            node = &self.nodes[i]
            memset(node, 0, sizeof(PNode))
            node.parent = parent
            node.first_child = -1
            node.proof = -1
            node.seat = -1
            node.code = codes[i - first] if codes != NULL else 0
        self.nnodes += n
        if parent >= 0:
            self.nodes[parent].first_child = first
            self.nodes[parent].nchildren = n
        return first

    # -- selection -----------------------------------------------------------------------

    cdef int32_t select_child(self, int32_t at) noexcept nogil:
        """PUCT: the child maximising Q + c P sqrt(N) / (1 + n) for the army to act at
        ``at`` (first of equals). A pending leaf counts as a loss (virtual loss); an
        unvisited child's Q is the parent's minus ``fpu_reduction``; a proven child's Q
        is exact."""
        cdef PNode* node = &self.nodes[at]
        cdef PNode* c
        cdef int seat = node.seat, i
        cdef double n, q, p, score, best_score = -INFINITY
        cdef double sqrt_n = sqrt(<double>(node.visits + node.pending))
        cdef double fpu = ((node.value[seat] / node.visits if node.visits else 0.0)
                           - self.fpu_reduction)
        cdef int32_t child, best = node.first_child
        for i in range(node.nchildren):
            child = node.first_child + i
            c = &self.nodes[child]
            n = c.visits + c.pending
            if c.proof >= 0:
                q = exact_value(self.nodes, child, seat)
            elif n == 0:
                q = fpu
            else:
                q = (c.value[seat] - c.pending) / n
            p = self.root_prior[i] if at == 0 and self.root_prior != NULL else c.prior
            score = q + self.c_puct * p * sqrt_n / (1 + n)
            if score > best_score:
                best_score = score
                best = child
        return best

    cdef void backup(self, int32_t at, const double* value, bint was_pending) noexcept nogil:
        """Add ``value`` (per seat) to ``at`` and its ancestors; release virtual loss."""
        cdef int a
        while at >= 0:
            self.nodes[at].visits += 1
            if was_pending:
                self.nodes[at].pending -= 1
            for a in range(NUM_SEATS):
                self.nodes[at].value[a] += value[a]
            at = self.nodes[at].parent

    cdef void prove_up(self, int32_t at) noexcept nogil:
        """After ``at`` was proven: prove its ancestors that now are (see above)."""
        cdef int32_t parent, child, best
        cdef int seat, i
        cdef double v, best_v
        cdef bint all_proven
        while at > 0:
            parent = self.nodes[at].parent
            if self.nodes[parent].proof >= 0:
                return
            seat = self.nodes[parent].seat
            best, best_v, all_proven = -1, -INFINITY, True
            for i in range(self.nodes[parent].nchildren):
                child = self.nodes[parent].first_child + i
                if self.nodes[child].proof < 0:
                    all_proven = False
                    continue
                v = exact_value(self.nodes, child, seat)
                if v > best_v:
                    best, best_v = child, v
            if best_v >= 1.0 or (all_proven and best >= 0):
                self.nodes[parent].proof = best
                at = parent
            else:
                return

    cdef int gather(self, int want, int64_t* done) noexcept nogil:
        """Walk from the root up to ``want`` times: a finished or proven position is
        backed up at once (one iteration each); an unexpanded one becomes a leaf of the
        batch, with virtual loss on its path. Stops at a leaf already in the batch.
        Returns the number of leaves."""
        cdef int k = 0, a
        cdef int32_t at
        cdef StateC* s
        cdef double value[NUM_SEATS]
        cdef float returns[NUM_SEATS]
        while k < want and self.nodes[0].proof < 0:
            s = &self.leaf_states[k]
            memcpy(s, &self.root, sizeof(StateC))
            at = 0
            while self.nodes[at].first_child >= 0 and self.nodes[at].proof < 0:
                at = self.select_child(at)
                apply_action(s, &self.rules.c, self.nodes[at].code)
            if self.nodes[at].flags & FLAG_QUEUED:
                return k
            if self.nodes[at].proof < 0 and s.result != RESULT_NONE:
                team_returns(s, &self.rules.c, returns)
                for a in range(NUM_SEATS):
                    value[a] = returns[a]
                self.nodes[at].flags |= FLAG_TERMINAL
                self.nodes[at].seat = s.turn.to_move
                self.backup(at, value, False)
                self.nodes[at].proof = at
                self.prove_up(at)
                done[0] += 1
                want -= 1
                continue
            if self.nodes[at].proof >= 0:
                for a in range(NUM_SEATS):
                    value[a] = exact_value(self.nodes, at, a)
                self.backup(at, value, False)
                done[0] += 1
                want -= 1
                continue
            self.nodes[at].seat = s.turn.to_move
            self.nodes[at].flags |= FLAG_QUEUED
            self.leaf_node[k] = at
            self.leaf_n[k] = gen_actions(s, &self.rules.c,
                                         self.leaf_actions + <Py_ssize_t>k * MAX_ACTIONS)
            while at >= 0:
                self.nodes[at].pending += 1
                at = self.nodes[at].parent
            k += 1
        return k

    # -- expansion ---------------------------------------------------------------------

    cdef void expand_leaf(self, int k, const double* priors, const double* value) noexcept nogil:
        """Leaf ``k`` of the batch gets its children (priors normalised over its legal
        actions; uniform if they sum to 0) unless the tree is full; its value is backed
        up. ``priors`` NULL: uniform."""
        cdef int32_t at = self.leaf_node[k], first
        cdef int n = self.leaf_n[k], i
        cdef double total = 0
        self.nodes[at].flags &= ~FLAG_QUEUED
        if self.reserve(n):
            first = self.new_children(at, n, self.leaf_actions + <Py_ssize_t>k * MAX_ACTIONS)
            if priors != NULL:
                for i in range(n):
                    total += priors[i]
            for i in range(n):
                self.nodes[first + i].prior = priors[i] / total if total > 0 else 1.0 / n
            if at == 0 and self.noise_fraction > 0:
                self.add_root_noise()
        self.backup(at, value, True)

    cdef void release_batch(self, int k) noexcept nogil:
        """Undo the virtual loss of ``k`` gathered leaves (their evaluation failed)."""
        cdef int j
        cdef int32_t at
        for j in range(k):
            at = self.leaf_node[j]
            self.nodes[at].flags &= ~FLAG_QUEUED
            while at >= 0:
                self.nodes[at].pending -= 1
                at = self.nodes[at].parent

    cdef void add_root_noise(self) noexcept nogil:
        """Root priors mixed with Dirichlet(alpha) noise: (1 - fraction) P + fraction
        eta, used by selection at the root for this search only."""
        cdef int n = self.nodes[0].nchildren, i
        cdef double total = 0
        free(self.root_prior)
        self.root_prior = <double*>malloc(max(n, 1) * sizeof(double))
        if self.root_prior == NULL:
            return
        for i in range(n):
            self.root_prior[i] = gamma_sample(&self.rng, self.noise_alpha)
            total += self.root_prior[i]
        for i in range(n):
            self.root_prior[i] = ((1 - self.noise_fraction) * self.nodes[self.nodes[0].first_child + i].prior
                                  + self.noise_fraction * self.root_prior[i] / total)

    cdef void c_batch(self, int k, int kind) noexcept nogil:
        """The C evaluators. C_UNIFORM: uniform priors and values of 0. C_HEURISTIC:
        priors 1 + the R37 points an action captures, and the value of a short random
        rollout (``rollout_actions``) scored as the UCT scores its rollouts (a finished
        game's returns, else squashed material per team)."""
        cdef int j, a, i, n, target, played
        cdef float v[NUM_SEATS]
        cdef double value[NUM_SEATS]
        cdef double priors[MAX_ACTIONS]
        cdef int32_t* actions
        cdef int32_t rollout[MAX_ACTIONS]
        cdef StateC* s
        cdef StateC sim
        for j in range(k):
            if kind == C_UNIFORM:
                for a in range(NUM_SEATS):
                    value[a] = 0.0
                self.expand_leaf(j, NULL, value)
                continue
            s = &self.leaf_states[j]
            actions = self.leaf_actions + <Py_ssize_t>j * MAX_ACTIONS
            for i in range(self.leaf_n[j]):
                priors[i] = 1.0
                if actions[i] < WORD_STOP:
                    target = code_target(actions[i])
                    if s.cells[target].army >= 0:
                        priors[i] += kind_points(s.cells[target].kind, s.cells[target].royal)
            memcpy(&sim, s, sizeof(StateC))
            played = 0
            while sim.result == RESULT_NONE and played < self.rollout_actions:
                n = gen_actions(&sim, &self.rules.c, rollout)
                apply_action(&sim, &self.rules.c, rollout[splitmix64(&self.rng) % <uint64_t>n])
                played += 1
            mcts_value(&sim, &self.rules.c, v)
            for a in range(NUM_SEATS):
                value[a] = v[a]
            self.expand_leaf(j, priors, value)

    cdef int fill_batch(self, int k) except -1:
        """Observations, legal ids, counts and movers of the ``k`` leaves into the batch's
        buffers; returns the widest row."""
        cdef int j, i, n, width = 0, seat, cells = self.rules.c.t.ncells
        cdef int32_t code
        cdef int32_t[:, ::1] ids = self.ids_buffer
        cdef int32_t[::1] num = self.num_buffer
        cdef int8_t[::1] seats = self.seat_buffer
        cdef uint8_t[:, :, ::1] obs8
        cdef float[:, :, ::1] obs32
        cdef const uint8_t* col
        if self.obs_kind == 1:
            obs8 = self.obs_buffer
        elif self.obs_kind == 2:
            obs32 = self.obs_buffer
        for j in range(k):
            width = max(width, self.leaf_n[j])
        with nogil:
            for j in range(k):
                seat = self.leaf_states[j].turn.to_move
                n = self.leaf_n[j]
                num[j] = n
                seats[j] = seat
                col = self.rules.c.view[seat]
                for i in range(n):
                    code = self.leaf_actions[<Py_ssize_t>j * MAX_ACTIONS + i]
                    ids[j, i] = action_id(code, cells)
                    if self.observer_ids and ids[j, i] < cells * cells:
                        ids[j, i] = col[code_origin(code)] * cells + col[code_target(code)]
                for i in range(n, width):
                    ids[j, i] = -1
                if self.obs_kind == 1:
                    observation_uint8(&self.leaf_states[j], &self.rules.c, seat, &obs8[j, 0, 0])
                elif self.obs_kind == 2:
                    observation_float32(&self.leaf_states[j], &self.rules.c, seat, &obs32[j, 0, 0])
        return width

    cdef int evaluate_batch(self, int k, evaluator) except -1:
        """Ask ``evaluator`` about the ``k`` gathered leaves and expand them; on any error
        the batch's virtual loss is released first, so the tree stays as it was."""
        cdef int j, a, width, seat
        cdef double[:, ::1] priors
        cdef double[:, ::1] values
        cdef double[::1] mover_values
        cdef double value[NUM_SEATS]
        cdef int teams
        try:
            width = self.fill_batch(k)
            batch = self.batch
            batch.size = k
            batch.observations = None if self.obs_kind == 0 else self.obs_buffer[:k]
            batch.legal_ids = self.ids_buffer[:k, :width]
            batch.num_legal = self.num_buffer[:k]
            batch.seats = self.seat_buffer[:k]
            result = evaluator(batch)
            priors, values, mover_values = parse_evaluation(result, k, width)
        except BaseException:
            self.release_batch(k)
            raise
        teams = count_teams(&self.rules.c)
        for j in range(k):
            if values is None:
                seat = self.leaf_states[j].turn.to_move
                for a in range(NUM_SEATS):
                    value[a] = (0.0 if not (self.rules.c.present >> a) & 1
                                else mover_values[j] if self.rules.c.team[a] == self.rules.c.team[seat]
                                else -mover_values[j] / (teams - 1))
            else:
                for a in range(NUM_SEATS):
                    value[a] = values[j, a]
            self.expand_leaf(j, &priors[j, 0] if priors is not None else NULL, value)
        return 0

    def run(self, evaluator, int64_t iterations, double seconds, double noise_alpha,
            double noise_fraction, uint64_t seed, StopToken stop=None):
        """Search: ``iterations`` more backups (< 0: no limit) and/or ``seconds`` (0: no
        limit), or until the root is proven or ``stop`` is set. ``evaluator`` None: the C
        heuristic; 'uniform': uniform priors and values of 0, in C. Root noise
        (``noise_fraction`` > 0) is drawn anew for this search.
        Returns the iterations run."""
        cdef int64_t done = 0
        cdef int want, k, kind
        cdef double deadline = now_seconds() + seconds if seconds > 0 else 0
        cdef const int* cancel = stop_flag(stop)
        self.rng = mix64(seed)
        self.noise_alpha, self.noise_fraction = noise_alpha, noise_fraction
        free(self.root_prior)
        self.root_prior = NULL
        if noise_fraction > 0 and self.nodes[0].first_child >= 0:
            self.add_root_noise()
        while (iterations < 0 or done < iterations) and self.nodes[0].proof < 0:
            if atomic_load(cancel, RELAXED) or (deadline > 0 and now_seconds() >= deadline):
                break
            want = self.batch_size if iterations < 0 else <int>min(self.batch_size, iterations - done)
            with nogil:
                k = self.gather(want, &done)
            if k == 0:
                continue
            if evaluator is None or isinstance(evaluator, str):
                kind = C_UNIFORM if evaluator == "uniform" else C_HEURISTIC
                with nogil:
                    self.c_batch(k, kind)
            else:
                self.evaluate_batch(k, evaluator)
            done += k
            check_signals()
        return done

    def root_children(self):
        """Per legal action of the root (gen_actions order): (visits, mean value for the
        army to act, prior, proven value for the army to act or None)."""
        cdef PNode* root = &self.nodes[0]
        cdef int seat = root.seat, i
        cdef int32_t child
        cdef PNode* c
        out = []
        if root.first_child < 0:
            return out
        for i in range(root.nchildren):
            child = root.first_child + i
            c = &self.nodes[child]
            out.append((c.visits, c.value[seat] / c.visits if c.visits else 0.0, c.prior,
                        exact_value(self.nodes, child, seat) if c.proof >= 0 else None))
        return out

    @property
    def proven_child(self):
        """The root's proof: the index of the child that decides it, or -1 (not proven, or
        the root's own game is over)."""
        cdef int32_t proof = self.nodes[0].proof
        return proof - self.nodes[0].first_child if proof > 0 else -1

    def advance(self, Engine engine, keys):
        """Keep the subtree reached by the actions with these notation keys (played since
        the root) if the tree has it and it is ``engine``'s position; else start afresh.
        Returns True if a subtree was kept."""
        cdef int32_t at = 0, child
        cdef int i
        cdef StateC s
        memcpy(&s, &self.root, sizeof(StateC))
        for key in keys:
            if self.nodes[at].first_child < 0:
                at = -1
                break
            for i in range(self.nodes[at].nchildren):
                child = self.nodes[at].first_child + i
                if code_key(self.nodes[child].code) == key:
                    break
            else:
                at = -1
                break
            at = child
            apply_action(&s, &self.rules.c, self.nodes[at].code)
        if at < 0 or not same_state(&s, &engine.s) or not self.keep_subtree(at, &s):
            self.reset(engine)
            return False
        return True

    cdef bint keep_subtree(self, int32_t at, const StateC* s) noexcept:
        """Make node ``at`` (position ``s``) the root, keeping its subtree: copied breadth
        first into a new array (children stay contiguous). False if out of memory."""
        cdef PNode* kept
        cdef int32_t head = 0, tail = 1, i, first, n
        if at == 0:
            return True
        kept = <PNode*>malloc(self.capacity * sizeof(PNode))
        if kept == NULL:
            return False
        cdef int32_t* origin = <int32_t*>malloc(self.capacity * sizeof(int32_t))
        if origin == NULL:
            free(kept)
            return False
        kept[0] = self.nodes[at]
        kept[0].parent = -1
        origin[0] = at
        while head < tail:
            first, n = self.nodes[origin[head]].first_child, self.nodes[origin[head]].nchildren
            if first >= 0:
                kept[head].first_child = tail
                for i in range(n):
                    kept[tail + i] = self.nodes[first + i]
                    kept[tail + i].parent = head
                    origin[tail + i] = first + i
                tail += n
            head += 1
        for i in range(tail):                 # proofs name nodes: follow the renumbering
            if kept[i].proof >= 0:
                kept[i].proof = (i if kept[i].proof == origin[i]
                                 else kept[i].first_child + kept[i].proof
                                 - self.nodes[origin[i]].first_child)
        free(origin)
        free(self.nodes)
        self.nodes = kept
        self.nnodes = tail
        memcpy(&self.root, s, sizeof(StateC))
        return True

    cdef object leaf_engine(self, int k):
        """Leaf ``k``'s position in a new Engine without history."""
        cdef Engine engine = Engine.__new__(Engine, self.rules)
        memcpy(&engine.s, &self.leaf_states[k], sizeof(StateC))
        return engine


cdef bint same_state(const StateC* a, const StateC* b) noexcept nogil:
    return memcmp(a, b, sizeof(StateC)) == 0


def verify_tree(PuctTree tree):
    """Check the tree's invariants (for tests and debugging): no virtual loss or queued
    leaf left between searches, children linked to their parent, and an expanded
    unproven node's visits one more than its children's (its own evaluation)."""
    cdef int32_t i, j, total
    cdef PNode* node
    for i in range(tree.nnodes):
        node = &tree.nodes[i]
        if node.pending or node.flags & FLAG_QUEUED:
            raise ValueError(f"node {i}: virtual loss left ({node.pending})")
        if node.first_child < 0:
            continue
        total = 0
        for j in range(node.first_child, node.first_child + node.nchildren):
            if tree.nodes[j].parent != i:
                raise ValueError(f"node {j}: parent {tree.nodes[j].parent}, expected {i}")
            total += tree.nodes[j].visits
        if node.visits != total + 1 and not (node.proof >= 0 and node.visits > total):
            raise ValueError(f"node {i}: {node.visits} visits, its children {total}")
