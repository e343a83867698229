# cython: language_level=3, cdivision=True, boundscheck=False, wraparound=False
"""PUCT in C with a batched evaluator (:class:`victorus.search.puct.PUCTAgent`): selection with
virtual loss, expansion, backup and the proof of decided positions run in C without the
GIL, and so does a C evaluator of victorus.evaluation; a Python callable sees a batch of
leaves at a time. A client of the engine (victorus._engine), built as a module of its own."""

cimport cython
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.string cimport memcmp, memcpy, memset
from libc.stdlib cimport malloc, realloc, free
from libc.math cimport log, sqrt, pow, cos, INFINITY

from victorus._core cimport (
    NUM_SEATS, RESULT_NONE, NUM_PLANES, action_id, id_in_frame)
from victorus._engine cimport (
    StateC, RulesC, Engine, Rules, StopToken, MAX_ACTIONS, gen_actions, apply_action, share_returns,
    stop_flag, splitmix64, mix64, observation_uint8, observation_float32)
from victorus._portable cimport atomic_load, RELAXED, now_seconds
from victorus.evaluation._evaluator cimport (EvaluatorC, Evaluator, evaluator_c, evaluator_priors,
                                             evaluator_workspace, evaluator_workspace_free)

import numpy as np

#: The most legal actions a position can have (a node's children).
MAX_LEGAL_ACTIONS = MAX_ACTIONS


cdef extern from "Python.h":
    int check_signals "PyErr_CheckSignals"() except -1
# -- the tree (PNode, PuctC: victorus.search._puct.pxd) ---------------------------------
# One array of nodes; a node's children are contiguous (made together when it is
# expanded, one per legal action in gen_actions order, each with its prior). Values are
# per seat (2-6 armies; team mates share their returns, R33): the army to act at a node
# picks the child best for its own seat (max-n). A decided position is proven: a finished
# game (its node is its own proof), a node whose army has a child won for its team, or a
# node whose children are all proven (the best of them for its army). A proven node is
# never expanded again: its exact value is backed up.

cdef enum:
    FLAG_TERMINAL = 1
    FLAG_QUEUED = 2                  # a leaf of the batch being evaluated


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
        priors = np.require(priors, np.float64, ("C_CONTIGUOUS", "WRITEABLE"))
        with np.errstate(over="ignore"):
            sums = priors.sum(axis=1) if priors.ndim == 2 else None
        if priors.shape != (k, width) or (priors < 0).any() or not np.isfinite(sums).all():
            raise ValueError(f"{accepted}; priors must be non-negative with finite sums, "
                             f"shape ({k}, {width}), got shape {priors.shape}")
    values = np.require(values, np.float64, ("C_CONTIGUOUS", "WRITEABLE"))
    if values.shape not in ((k, NUM_SEATS), (k,)) or not np.isfinite(values).all() \
            or np.abs(values).max(initial=0) > 1:
        raise ValueError(f"{accepted}; got values of shape {values.shape}")
    if values.ndim == 1:
        return priors, None, values
    return priors, values, None


cdef class LeafBatch:
    """The leaves a PUCT search asks its evaluator about, ``size`` of them: ``observations``,
    ``legal_ids``, ``num_legal``, ``seats`` and :meth:`game`, as docs/search.md ("PUCT with
    your evaluator") describes them. Valid only during the evaluator's call: its arrays are
    views of buffers the next batch reuses, so copy what you keep."""

    cdef readonly int size
    cdef readonly object observations, legal_ids, num_legal, seats
    cdef list _trees                 # the trees whose leaves these are, in row order

    def game(self, int i):
        """Leaf ``i`` as a new :class:`victorus.Game` (no history), for evaluators written
        over the public API."""
        cdef PuctTree tree
        if self._trees is None:
            raise RuntimeError("a LeafBatch is valid only during the evaluator's call: copy "
                               "what you keep")
        if not 0 <= i < self.size:
            raise IndexError(f"leaf index must be in 0..{self.size - 1}, got {i}")
        for tree in self._trees:
            if i < tree.t.k:
                return tree.game_factory(tree.leaf_engine(i))
            i -= tree.t.k


cdef bint leaf_buffers_new(LeafBuffers* b, int batch_size) noexcept nogil:
    """Room for a batch of ``batch_size`` leaves; False when out of memory (what was
    made stays in ``b`` for leaf_buffers_free)."""
    b.states = <StateC*>malloc(batch_size * sizeof(StateC))
    b.node = <int32_t*>malloc(batch_size * sizeof(int32_t))
    b.n = <int32_t*>malloc(batch_size * sizeof(int32_t))
    b.actions = <int32_t*>malloc(<size_t>batch_size * MAX_ACTIONS * sizeof(int32_t))
    return b.states != NULL and b.node != NULL and b.n != NULL and b.actions != NULL


cdef void leaf_buffers_free(LeafBuffers* b) noexcept nogil:
    free(b.states)
    free(b.node)
    free(b.n)
    free(b.actions)


cdef bint puct_reserve(PuctC* t, int32_t more) noexcept nogil:
    """Room for ``more`` nodes: False if the tree is full or out of memory."""
    cdef PNode* grown
    cdef int32_t capacity
    if t.nnodes + more > t.max_nodes:
        return False
    if t.nnodes + more > t.capacity:
        capacity = min(t.max_nodes, max(t.nnodes + more, 1024, 2 * t.capacity))
        grown = <PNode*>realloc(t.nodes, capacity * sizeof(PNode))
        if grown == NULL:
            return False
        t.nodes = grown
        t.capacity = capacity
    return True


cdef int32_t puct_new_children(PuctC* t, int32_t parent, int n, const int32_t* codes) noexcept nogil:
    """``n`` fresh nodes below ``parent`` (after reserve); the first one's index."""
    cdef int32_t first = t.nnodes, i
    cdef PNode* node
    for i in range(first, first + n):
        node = &t.nodes[i]
        memset(node, 0, sizeof(PNode))
        node.parent = parent
        node.first_child = -1
        node.proof = -1
        node.seat = -1
        node.code = codes[i - first] if codes != NULL else 0
    t.nnodes += n
    if parent >= 0:
        t.nodes[parent].first_child = first
        t.nodes[parent].nchildren = n
    return first


# -- selection -----------------------------------------------------------------------

cdef int32_t puct_select_child(PuctC* t, int32_t at) noexcept nogil:
    """PUCT: the child maximising Q + c P sqrt(N) / (1 + n) for the army to act at
    ``at`` (first of equals). A pending leaf counts as a loss (virtual loss); an
    unvisited child's Q is the parent's minus ``fpu_reduction``; a proven child's Q
    is exact."""
    cdef PNode* node = &t.nodes[at]
    cdef PNode* c
    cdef int seat = node.seat, i
    cdef double n, q, p, score, best_score = -INFINITY
    cdef double sqrt_n = sqrt(<double>(node.visits + node.pending))
    cdef double fpu = ((node.value[seat] / node.visits if node.visits else 0.0)
                       - t.fpu_reduction)
    cdef int32_t child, best = node.first_child
    for i in range(node.nchildren):
        child = node.first_child + i
        c = &t.nodes[child]
        n = c.visits + c.pending
        if c.proof >= 0:
            q = exact_value(t.nodes, child, seat)
        elif n == 0:
            q = fpu
        else:
            q = (c.value[seat] - c.pending) / n
        p = t.root_prior[i] if at == 0 and t.root_prior != NULL else c.prior
        score = q + t.c_puct * p * sqrt_n / (1 + n)
        if score > best_score:
            best_score = score
            best = child
    return best


cdef void puct_backup(PuctC* t, int32_t at, const double* value, bint was_pending) noexcept nogil:
    """Add ``value`` (per seat) to ``at`` and its ancestors; release virtual loss."""
    cdef int a
    while at >= 0:
        t.nodes[at].visits += 1
        if was_pending:
            t.nodes[at].pending -= 1
        for a in range(NUM_SEATS):
            t.nodes[at].value[a] += value[a]
        at = t.nodes[at].parent


cdef void puct_prove_up(PuctC* t, int32_t at) noexcept nogil:
    """After ``at`` was proven: prove its ancestors that now are (see above)."""
    cdef int32_t parent, child, best
    cdef int seat, i
    cdef double v, best_v
    cdef bint all_proven
    while at > 0:
        parent = t.nodes[at].parent
        if t.nodes[parent].proof >= 0:
            return
        seat = t.nodes[parent].seat
        best, best_v, all_proven = -1, -INFINITY, True
        for i in range(t.nodes[parent].nchildren):
            child = t.nodes[parent].first_child + i
            if t.nodes[child].proof < 0:
                all_proven = False
                continue
            v = exact_value(t.nodes, child, seat)
            if v > best_v:
                best, best_v = child, v
        if best_v >= 1.0 or (all_proven and best >= 0 and puct_ties_agree(t, parent, best)):
            t.nodes[parent].proof = best
            at = parent
        else:
            return


cdef bint puct_ties_agree(PuctC* t, int32_t parent, int32_t best) noexcept nogil:
    """Whether every child as good as ``best`` for the army to act at ``parent`` has
    the same value for every seat: with three teams or more, children equal for the
    mover may decide between the others, and then the node is not proven."""
    cdef int seat = t.nodes[parent].seat, i, a
    cdef int32_t child
    cdef double v = exact_value(t.nodes, best, seat)
    for i in range(t.nodes[parent].nchildren):
        child = t.nodes[parent].first_child + i
        if child == best or exact_value(t.nodes, child, seat) != v:
            continue
        for a in range(NUM_SEATS):
            if exact_value(t.nodes, child, a) != exact_value(t.nodes, best, a):
                return False
    return True


cdef int puct_gather(PuctC* t, int want, int64_t* done) noexcept nogil:
    """Walk from the root up to ``want`` times: a finished or proven position is
    backed up at once (one iteration each); an unexpanded one becomes a leaf of the
    batch, with virtual loss on its path. Stops at a leaf already in the batch.
    Returns the number of leaves."""
    cdef int k = 0, a
    cdef int32_t at
    cdef StateC* s
    cdef double value[NUM_SEATS]
    cdef float returns[NUM_SEATS]
    while k < want and t.nodes[0].proof < 0:
        s = &t.leaf.states[k]
        memcpy(s, &t.root, sizeof(StateC))
        at = 0
        while t.nodes[at].first_child >= 0 and t.nodes[at].proof < 0:
            at = puct_select_child(t, at)
            apply_action(s, t.r, t.nodes[at].code)
        if t.nodes[at].flags & FLAG_QUEUED:
            return k
        if t.nodes[at].proof < 0 and s.result != RESULT_NONE:
            share_returns(s, t.r, returns)
            for a in range(NUM_SEATS):
                value[a] = returns[a]
            t.nodes[at].flags |= FLAG_TERMINAL
            t.nodes[at].seat = s.turn.to_move
            puct_backup(t, at, value, False)
            t.nodes[at].proof = at
            puct_prove_up(t, at)
            done[0] += 1
            want -= 1
            continue
        if t.nodes[at].proof >= 0:
            for a in range(NUM_SEATS):
                value[a] = exact_value(t.nodes, at, a)
            puct_backup(t, at, value, False)
            done[0] += 1
            want -= 1
            continue
        t.nodes[at].seat = s.turn.to_move
        t.nodes[at].flags |= FLAG_QUEUED
        t.leaf.node[k] = at
        t.leaf.n[k] = gen_actions(s, t.r, t.leaf.actions + <Py_ssize_t>k * MAX_ACTIONS)
        while at >= 0:
            t.nodes[at].pending += 1
            at = t.nodes[at].parent
        k += 1
    return k


# -- expansion ---------------------------------------------------------------------

cdef void puct_expand_leaf(PuctC* t, int k, const double* priors, const double* value) noexcept nogil:
    """Leaf ``k`` of the batch gets its children (priors normalised over its legal
    actions; uniform if they sum to 0) unless the tree is full; its value is backed
    up. ``priors`` NULL: uniform."""
    cdef int32_t at = t.leaf.node[k], first
    cdef int n = t.leaf.n[k], i
    cdef double total = 0
    t.nodes[at].flags &= ~FLAG_QUEUED
    if puct_reserve(t, n):
        first = puct_new_children(t, at, n, t.leaf.actions + <Py_ssize_t>k * MAX_ACTIONS)
        if priors != NULL:
            for i in range(n):
                total += priors[i]
        for i in range(n):
            t.nodes[first + i].prior = priors[i] / total if total > 0 else 1.0 / n
        if at == 0 and t.noise_fraction > 0:
            puct_add_root_noise(t, )
    puct_backup(t, at, value, True)


cdef void puct_release_batch(PuctC* t, int k) noexcept nogil:
    """Undo the virtual loss of ``k`` gathered leaves (their evaluation failed)."""
    cdef int j
    cdef int32_t at
    for j in range(k):
        at = t.leaf.node[j]
        t.nodes[at].flags &= ~FLAG_QUEUED
        while at >= 0:
            t.nodes[at].pending -= 1
            at = t.nodes[at].parent


cdef void puct_add_root_noise(PuctC* t) noexcept nogil:
    """Root priors mixed with Dirichlet(alpha) noise: (1 - fraction) P + fraction
    eta, used by selection at the root for this search only."""
    cdef int n = t.nodes[0].nchildren, i
    cdef double total = 0
    free(t.root_prior)
    t.root_prior = <double*>malloc(max(n, 1) * sizeof(double))
    if t.root_prior == NULL:
        return
    for i in range(n):
        t.root_prior[i] = gamma_sample(&t.rng, t.noise_alpha)
        total += t.root_prior[i]
    for i in range(n):
        t.root_prior[i] = ((1 - t.noise_fraction) * t.nodes[t.nodes[0].first_child + i].prior
                           + t.noise_fraction * (t.root_prior[i] / total if total > 0
                                                 else 1.0 / n))


cdef bint puct_set_evaluator(PuctC* t, const EvaluatorC* ev) noexcept nogil:
    """The tree's C evaluator (NULL: a Python callable's) and its workspace for the tree's
    thread; False when out of memory."""
    if t.ev != NULL:
        evaluator_workspace_free(t.ev, t.ev_workspace)
    t.ev, t.ev_workspace = ev, NULL
    return ev == NULL or evaluator_workspace(ev, &t.ev_workspace)


cdef void puct_c_batch(PuctC* t, int k) noexcept nogil:
    """The gathered leaves evaluated by the tree's C evaluator: each leaf's priors, then
    its value per seat (from the tree's random state), then its expansion."""
    cdef int j, a
    cdef float v[NUM_SEATS]
    cdef double value[NUM_SEATS]
    cdef double priors[MAX_ACTIONS]
    cdef bint have
    for j in range(k):
        have = evaluator_priors(t.ev, t.ev_workspace, &t.leaf.states[j], t.r,
                                t.leaf.actions + <Py_ssize_t>j * MAX_ACTIONS, t.leaf.n[j],
                                &t.rng, priors)
        t.ev.value(t.ev, t.ev_workspace, &t.leaf.states[j], t.r, &t.rng, v)
        for a in range(NUM_SEATS):
            value[a] = v[a]
        puct_expand_leaf(t, j, priors if have else NULL, value)


cdef int puct_step(PuctC* t, int64_t iterations) noexcept nogil:
    """One batch of a search by the tree's C evaluator (the one driver of run_trees and
    of the opponent in the vector step): leaves gathered up to those wanted, evaluated
    and backed up. 0 when the search is over (its budget spent or its root proven)."""
    cdef int want = puct_leaves_wanted(t, iterations)
    if want:
        t.k = puct_gather(t, want, &t.done)
    if not t.k:
        return puct_leaves_wanted(t, iterations) != 0
    puct_c_batch(t, t.k)
    t.done += t.k
    t.k = 0
    return 1


cdef int puct_pick(const PuctC* t) noexcept nogil:
    """The choice at temperature 0 (PUCTAgent's and its opponent's in the vector step):
    the proven child, else the most visited (then the best valued, then the first) root
    child; its index among the root's children (legal_actions() order)."""
    cdef const PNode* root = &t.nodes[0]
    cdef const PNode* c
    cdef int i, best = 0, seat = root.seat
    cdef uint32_t best_visits = 0
    cdef double value, best_value = -INFINITY
    if root.proof > 0:
        return root.proof - root.first_child
    if root.first_child < 0:
        return 0
    for i in range(root.nchildren):
        c = &t.nodes[root.first_child + i]
        value = (exact_value(t.nodes, root.first_child + i, seat) if c.proof >= 0
                 else c.value[seat] / c.visits if c.visits else 0.0)
        if i == 0 or c.visits > best_visits or c.visits == best_visits and value > best_value:
            best, best_visits, best_value = i, c.visits, value
    return best


cdef void puct_begin(PuctC* t, double noise_alpha, double noise_fraction, uint64_t seed) noexcept nogil:
    """A new search: its random state, and root noise drawn anew if asked for."""
    t.rng = mix64(seed)
    t.done = 0
    t.noise_alpha, t.noise_fraction = noise_alpha, noise_fraction
    free(t.root_prior)
    t.root_prior = NULL
    if noise_fraction > 0 and t.nodes[0].first_child >= 0:
        puct_add_root_noise(t, )


cdef int puct_leaves_wanted(PuctC* t, int64_t iterations) noexcept nogil:
    """How many leaves the next batch may gather: 0 when the search is done."""
    if t.nodes[0].proof >= 0 or (iterations >= 0 and t.done >= iterations):
        return 0
    if iterations < 0:
        return t.batch_size
    return <int>min(t.batch_size, iterations - t.done)


cdef int puct_widest(PuctC* t) noexcept nogil:
    cdef int j, width = 0
    for j in range(t.k):
        width = max(width, t.leaf.n[j])
    return width


cdef void puct_expand_rows(PuctC* t, const double* priors, Py_ssize_t stride,
                           const double* values, const double* mover_values) noexcept nogil:
    """Expand the batch's leaves with the evaluator's rows (``priors`` NULL: uniform;
    per seat ``values`` [k, 6] or ``mover_values`` [k] for the army to act)."""
    cdef int j, a, seat, teams = count_teams(t.r)
    cdef double value[NUM_SEATS]
    for j in range(t.k):
        if values == NULL:
            seat = t.leaf.states[j].turn.to_move
            for a in range(NUM_SEATS):
                value[a] = (0.0 if not (t.r.present >> a) & 1
                            else mover_values[j] if t.r.team[a] == t.r.team[seat]
                            else -mover_values[j] / (teams - 1))
        else:
            for a in range(NUM_SEATS):
                value[a] = values[j * NUM_SEATS + a]
        puct_expand_leaf(t, j, priors + j * stride if priors != NULL else NULL, value)


cdef bint puct_reset(PuctC* t, const StateC* s) noexcept nogil:
    """Forget the tree: a new root at ``s``. False if out of memory."""
    memcpy(&t.root, s, sizeof(StateC))
    t.nnodes = 0
    free(t.root_prior)
    t.root_prior = NULL
    if not puct_reserve(t, 1):
        return False
    puct_new_children(t, -1, 1, NULL)
    return True


cdef int32_t puct_follow(PuctC* t, int32_t at, int32_t key, StateC* s) noexcept nogil:
    """The child of node ``at`` reached by the action with notation key ``key`` (the
    first such), its action played on ``s`` (``at``'s position); -1 if ``at`` is not
    expanded or has no such child (tree reuse: the actions played since the root)."""
    cdef int32_t child
    cdef int i
    if t.nodes[at].first_child < 0:
        return -1
    for i in range(t.nodes[at].nchildren):
        child = t.nodes[at].first_child + i
        if code_key(t.nodes[child].code) == key:
            apply_action(s, t.r, t.nodes[child].code)
            return child
    return -1


cdef bint puct_keep_subtree(PuctC* t, int32_t at, const StateC* s) noexcept nogil:
    """Make node ``at`` (position ``s``) the root, keeping its subtree, compacted in place
    (no second array, no copy of what is dropped): a node's children are made after it,
    so one pass in index order finds the subtree (a node is in it if its parent is) and
    each kept node's new index (the kept nodes before it); a second moves the kept nodes
    down, their links renumbered. Their order is kept, so children stay contiguous.
    False if out of memory."""
    cdef int32_t i, kept = 0, parent, n = t.nnodes - at
    cdef int32_t* renumber               # by index - at: the new index, -1: dropped
    cdef PNode node
    if at == 0:
        return True
    renumber = <int32_t*>malloc(n * sizeof(int32_t))
    if renumber == NULL:
        return False
    for i in range(n):
        parent = t.nodes[at + i].parent
        renumber[i] = -1
        if i == 0 or (parent >= at and renumber[parent - at] >= 0):
            renumber[i] = kept
            kept += 1
    for i in range(n):
        if renumber[i] < 0:
            continue
        node = t.nodes[at + i]
        node.parent = -1 if i == 0 else renumber[node.parent - at]
        if node.first_child >= 0:
            node.first_child = renumber[node.first_child - at]
        if node.proof >= 0:              # itself or a child: renumbered alike
            node.proof = renumber[node.proof - at]
        t.nodes[renumber[i]] = node
    free(renumber)
    t.nnodes = kept
    memcpy(&t.root, s, sizeof(StateC))
    return True


@cython.no_gc_clear
cdef class PuctTree:
    """A PUCT tree over one position, kept between searches (tree reuse). Not thread
    safe on its own: victorus.search.puct.PUCTAgent serialises calls with a lock."""

    cdef PuctC t
    cdef readonly Rules rules
    cdef int obs_kind                # 0: none, 1: uint8, 2: float32
    cdef bint observer_ids
    cdef object obs_buffer, ids_buffer, num_buffer, seat_buffer, game_factory
    cdef readonly object evaluator   # the C evaluator (keeps t.ev alive), None: a callable's

    def __cinit__(self):
        self.t.ev = NULL
        self.t.ev_workspace = NULL
        self.t.nodes = NULL
        self.t.root_prior = NULL
        memset(&self.t.leaf, 0, sizeof(LeafBuffers))

    def __init__(self, Engine engine, int batch_size, int max_nodes, double c_puct,
                 double fpu_reduction, str observation, bint observer_ids, game_factory,
                 Evaluator evaluator=None):
        """A tree rooted at ``engine``'s position. ``observation``: 'uint8', 'float32' or
        'none' (what a Python evaluator's batch carries). ``evaluator``: the C evaluator of
        the leaves (victorus.evaluation), None when a Python callable evaluates them."""
        if self.rules is not None:
            raise RuntimeError("a PuctTree is made once")
        if batch_size < 1 or max_nodes < 2:
            raise ValueError("batch_size must be >= 1 and max_nodes >= 2")
        self.rules = engine.rules
        self.t.r = &self.rules.c
        self.t.batch_size, self.t.max_nodes = batch_size, max_nodes
        self.t.c_puct, self.t.fpu_reduction = c_puct, fpu_reduction
        self.observer_ids = observer_ids
        self.evaluator = evaluator
        if not puct_set_evaluator(&self.t, NULL if evaluator is None else evaluator_c(evaluator)):
            raise MemoryError()
        self.obs_kind = {"none": 0, "uint8": 1, "float32": 2}[observation]
        if not leaf_buffers_new(&self.t.leaf, batch_size):
            raise MemoryError()
        cdef int cells = engine.rules.c.t.ncells
        if self.obs_kind:
            self.obs_buffer = np.zeros((batch_size, NUM_PLANES, cells),
                                       dtype=np.uint8 if self.obs_kind == 1 else np.float32)
        self.ids_buffer = np.full((batch_size, MAX_ACTIONS), -1, dtype=np.int32)
        self.num_buffer = np.zeros(batch_size, dtype=np.int32)
        self.seat_buffer = np.zeros(batch_size, dtype=np.int8)
        self.game_factory = game_factory
        self.reset(engine)

    def __dealloc__(self):
        puct_set_evaluator(&self.t, NULL)
        free(self.t.nodes)
        free(self.t.root_prior)
        leaf_buffers_free(&self.t.leaf)

    def reset(self, Engine engine):
        """Forget the tree: a new root at ``engine``'s position."""
        if engine.rules is not self.rules:
            raise ValueError("the position is of another board or configuration")
        if not puct_reset(&self.t, &engine.s):
            raise MemoryError("no memory left for the PUCT tree")

    @property
    def nodes_used(self):
        return self.t.nnodes

    @property
    def root_visits(self):
        return self.t.nodes[0].visits

    cdef int fill_batch(self, int k, int width) except -1:
        """Observations, legal ids (padded with -1 to ``width``), counts and movers of the
        ``k`` leaves into the tree's buffers."""
        cdef int j, i, n, seat, cells = self.rules.c.t.ncells
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
        with nogil:
            for j in range(k):
                seat = self.t.leaf.states[j].turn.to_move
                n = self.t.leaf.n[j]
                num[j] = n
                seats[j] = seat
                col = self.rules.c.view[seat]
                for i in range(n):
                    code = self.t.leaf.actions[<Py_ssize_t>j * MAX_ACTIONS + i]
                    ids[j, i] = action_id(code, cells)
                    if self.observer_ids:
                        ids[j, i] = id_in_frame(ids[j, i], cells, col)
                for i in range(n, width):
                    ids[j, i] = -1
                if self.obs_kind == 1:
                    observation_uint8(&self.t.leaf.states[j], &self.rules.c, seat, &obs8[j, 0, 0])
                elif self.obs_kind == 2:
                    observation_float32(&self.t.leaf.states[j], &self.rules.c, seat, &obs32[j, 0, 0])
        return 0

    def run(self, evaluator, int64_t iterations, double deadline, double noise_alpha,
            double noise_fraction, uint64_t seed, StopToken stop=None):
        """This tree searched alone: run_trees([self], ...); the iterations run."""
        return run_trees([self], evaluator, iterations, deadline, noise_alpha, noise_fraction,
                         [seed], stop)[0]

    def root_children(self):
        """Per legal action of the root (gen_actions order): (visits, mean value for the
        army to act, prior, proven value for the army to act or None)."""
        cdef PNode* root = &self.t.nodes[0]
        cdef int seat = root.seat, i
        cdef int32_t child
        cdef PNode* c
        out = []
        if root.first_child < 0:
            return out
        for i in range(root.nchildren):
            child = root.first_child + i
            c = &self.t.nodes[child]
            out.append((c.visits, c.value[seat] / c.visits if c.visits else 0.0, c.prior,
                        exact_value(self.t.nodes, child, seat) if c.proof >= 0 else None))
        return out

    def pick(self):
        """The choice at temperature 0 (puct_pick): the index of a root child."""
        return puct_pick(&self.t)

    def root_values(self):
        """Per seat (6 floats), the root's mean backed-up value (0 before any visit)."""
        cdef PNode* root = &self.t.nodes[0]
        return tuple(root.value[a] / root.visits if root.visits else 0.0
                     for a in range(NUM_SEATS))

    @property
    def proven_child(self):
        """The root's proof: the index of the child that decides it, or -1 (not proven, or
        the root's own game is over)."""
        cdef int32_t proof = self.t.nodes[0].proof
        return proof - self.t.nodes[0].first_child if proof > 0 else -1

    def advance(self, Engine engine, keys):
        """Keep the subtree reached by the actions with these notation keys (played since
        the root) if the tree has it and it is ``engine``'s position; else start afresh.
        Returns True if a subtree was kept."""
        cdef int32_t at = 0
        cdef StateC s
        memcpy(&s, &self.t.root, sizeof(StateC))
        for key in keys:
            at = puct_follow(&self.t, at, key, &s)
            if at < 0:
                break
        if at < 0 or not same_state(&s, &engine.s) or not puct_keep_subtree(&self.t, at, &s):
            self.reset(engine)
            return False
        return True

    cdef object leaf_engine(self, int k):
        """Leaf ``k``'s position in a new Engine without history."""
        cdef Engine engine = Engine.__new__(Engine, self.rules)
        memcpy(&engine.s, &self.t.leaf.states[k], sizeof(StateC))
        return engine


cdef bint same_state(const StateC* a, const StateC* b) noexcept nogil:
    return memcmp(a, b, sizeof(StateC)) == 0


def verify_tree(PuctTree tree):
    """Check the tree's invariants (for tests and debugging): no virtual loss or queued
    leaf left between searches, children linked to their parent, and an expanded
    unproven node's visits one more than its children's (its own evaluation)."""
    cdef int32_t i, j, total
    cdef PNode* node
    for i in range(tree.t.nnodes):
        node = &tree.t.nodes[i]
        if node.pending or node.flags & FLAG_QUEUED:
            raise ValueError(f"node {i}: virtual loss left ({node.pending})")
        if node.first_child < 0:
            continue
        total = 0
        for j in range(node.first_child, node.first_child + node.nchildren):
            if tree.t.nodes[j].parent != i:
                raise ValueError(f"node {j}: parent {tree.t.nodes[j].parent}, expected {i}")
            total += tree.t.nodes[j].visits
        if node.visits != total + 1 and not (node.proof >= 0 and node.visits > total):
            raise ValueError(f"node {i}: {node.visits} visits, its children {total}")


cdef int evaluate_group(list trees, evaluator) except -1:
    """One call of ``evaluator`` for the leaves gathered by ``trees`` (rows in tree
    order), then each tree expanded with its rows. On any error every tree's virtual
    loss is released first, so the trees stay as they were."""
    cdef PuctTree tree
    cdef int width = 0, size = 0, row = 0
    cdef double[:, ::1] priors
    cdef double[:, ::1] values
    cdef double[::1] mover_values
    cdef LeafBatch batch
    try:
        for tree in trees:
            width = max(width, puct_widest(&tree.t))
            size += tree.t.k
        for tree in trees:
            tree.fill_batch(tree.t.k, width)
        batch = LeafBatch.__new__(LeafBatch)
        batch._trees = trees
        batch.size = size
        parts = [[], [], [], []]
        for tree in trees:
            parts[0].append(tree.obs_buffer[:tree.t.k] if tree.obs_kind else None)
            parts[1].append(tree.ids_buffer[:tree.t.k, :width])
            parts[2].append(tree.num_buffer[:tree.t.k])
            parts[3].append(tree.seat_buffer[:tree.t.k])
        batch.observations = join(parts[0]) if (<PuctTree>trees[0]).obs_kind else None
        batch.legal_ids, batch.num_legal, batch.seats = join(parts[1]), join(parts[2]), join(parts[3])
        try:
            answer = evaluator(batch)
        finally:
            batch._trees = None                  # its buffers are the next batch's
        priors, values, mover_values = parse_evaluation(answer, size, width)
    except BaseException:
        for tree in trees:
            puct_release_batch(&tree.t, tree.t.k)
            tree.t.k = 0
        raise
    for tree in trees:
        puct_expand_rows(&tree.t, &priors[row, 0] if priors is not None else NULL, width,
                         &values[row, 0] if values is not None else NULL,
                         &mover_values[row] if mover_values is not None else NULL)
        row += tree.t.k
    return 0


cdef bint searching(list trees, int64_t iterations):
    cdef PuctTree tree
    for tree in trees:
        if puct_leaves_wanted(&tree.t, iterations):
            return True
    return False


cdef object join(list arrays):
    return arrays[0] if len(arrays) == 1 else np.concatenate(arrays)


def run_trees(list trees, evaluator, int64_t iterations, double deadline, double noise_alpha,
              double noise_fraction, seeds, StopToken stop=None):
    """Search several trees together (their leaves share each evaluator call): each
    ``iterations`` more backups (< 0: no limit) in all, until ``deadline`` (on the clock
    of victorus.search._policy.monotonic; 0: none), its root proven or ``stop`` set. The
    first batch runs even past the deadline (the least a search does: the root
    evaluated); the clock is read after each batch. ``evaluator`` None: each tree's C
    evaluator; else a callable. Returns the iterations each tree ran."""
    cdef PuctTree tree
    cdef const int* cancel = stop_flag(stop)
    cdef bint in_c = evaluator is None
    if in_c and any((<PuctTree>tree).t.ev == NULL for tree in trees):
        raise ValueError("a tree without a C evaluator needs a callable")
    for tree, seed in zip(trees, seeds):
        puct_begin(&tree.t, noise_alpha, noise_fraction, seed)
    while not atomic_load(cancel, RELAXED):
        if not (c_batches(trees, iterations) if in_c else python_batch(trees, evaluator, iterations)):
            break
        check_signals()
        if deadline > 0 and now_seconds() >= deadline:
            break
    return [tree.t.done for tree in trees]


cdef bint c_batches(list trees, int64_t iterations) except -1:
    """One batch of each tree by its C evaluator; False when every search is over."""
    cdef PuctTree tree
    cdef bint more = False
    cdef int step
    for tree in trees:
        with nogil:
            step = puct_step(&tree.t, iterations)
        more = more or step
    return more


cdef bint python_batch(list trees, evaluator, int64_t iterations) except -1:
    """One batch of leaves of all the trees, for one call of the Python ``evaluator``;
    False when every search is over."""
    cdef PuctTree tree
    cdef int want
    gathered = []
    for tree in trees:
        want = puct_leaves_wanted(&tree.t, iterations)
        if want:
            with nogil:
                tree.t.k = puct_gather(&tree.t, want, &tree.t.done)
            if tree.t.k:
                gathered.append(tree)
    if not gathered:
        return searching(trees, iterations)
    evaluate_group(gathered, evaluator)
    for tree in gathered:
        tree.t.done += tree.t.k
        tree.t.k = 0
    return True
