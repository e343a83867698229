# cython: language_level=3, cdivision=True, boundscheck=False, wraparound=False
"""PUCT as an opponent inside the vector games' step (victorus.search._policy's interface):
PUCTAgent.native_opponent's parameter block, the worker thread's workspace, the game's
memory (its tree) and the choice, all without the GIL, on the tree work of
victorus.search._puct."""

cimport cython
from libc.stdint cimport int32_t, int64_t, uint64_t
from libc.string cimport memcpy
from libc.stdlib cimport calloc, free

from victorus._engine cimport StateC, RulesC, MAX_ACTIONS, splitmix64
from victorus._portable cimport atomic_load, RELAXED, now_seconds
from victorus.evaluation._evaluator cimport (Evaluator, EvaluatorC, evaluator_c, evaluator_workspace,
                                             evaluator_workspace_free)
from victorus.search._policy cimport decisive_index, plug_search
from victorus.search._puct cimport (
    PuctC, LeafBuffers, leaf_buffers_new, leaf_buffers_free, code_key, puct_step, puct_pick,
    puct_begin, puct_reset, puct_follow, puct_keep_subtree, same_state)


# -- the opponent inside the vector games' step (victorus.search._policy) ------------------------
# PUCTAgent.choose with a C evaluator: the decisive shortcut, else a search seeded by one
# draw from the game's agent random state (the seed PUCTAgent draws from its rng). The
# tree is the game's memory: kept between decisions and advanced by the actions the game
# tells it (tree reuse, as PUCTAgent advances its tree by the game's history), forgotten
# at a new episode. The batch's leaf buffers are the worker thread's workspace.

@cython.no_gc_clear
cdef class PuctOpponent:
    """A PUCT budget and its settings as a parameter block (PUCTAgent.native_opponent);
    ``evaluator``: the C evaluator of its leaves (victorus.evaluation)."""

    def __init__(self, int64_t iterations, double seconds, int batch_size, int max_nodes,
                 double c_puct, double fpu_reduction, double noise_alpha, double noise_fraction,
                 bint reuse_tree, Evaluator evaluator):
        if iterations < 0 and seconds <= 0 or batch_size < 1 or max_nodes <= MAX_ACTIONS:
            raise ValueError(f"a PUCT opponent needs iterations or seconds, batch_size >= 1 "
                             f"and max_nodes > {MAX_ACTIONS}")
        self.params.iterations, self.params.seconds = iterations, seconds
        self.params.batch_size, self.params.max_nodes = batch_size, max_nodes
        self.params.c_puct, self.params.fpu_reduction = c_puct, fpu_reduction
        self.params.noise_alpha, self.params.noise_fraction = noise_alpha, noise_fraction
        self.params.reuse_tree = reuse_tree
        self.params.ev = evaluator_c(evaluator)
        plug_search(self, puct_choose, &self.params, puct_workspace_new, puct_workspace_free, evaluator)
        self.note, self.forget = puct_note, puct_forget
        self.memory_new, self.memory_free = puct_memory_new, puct_memory_free


ctypedef struct PuctWorkspace:
    StateC trial                     # the decisive shortcut's
    const int* cancel                # the vector's (Ctrl-C)
    LeafBuffers leaf                 # the batch's buffers, lent to the tree searched
    const EvaluatorC* evaluator
    void* ev_workspace               # the evaluator's, lent to the tree searched

ctypedef struct PuctMemory:
    PuctC tree                       # nnodes 0: none yet, or forgotten
    int32_t cursor                   # the node of the game's position (-1: not in the tree)
    StateC at                        # that node's position, replayed as PuctTree.advance does


cdef void* puct_workspace_new(const void* params, const int* cancel) noexcept nogil:
    cdef const PuctParams* p = <const PuctParams*>params
    cdef PuctWorkspace* w = <PuctWorkspace*>calloc(1, sizeof(PuctWorkspace))
    if w == NULL:
        return NULL
    w.cancel = cancel
    w.evaluator = p.ev
    if not (leaf_buffers_new(&w.leaf, p.batch_size)
            and evaluator_workspace(p.ev, &w.ev_workspace)):
        puct_workspace_free(w)
        return NULL
    return w


cdef void puct_workspace_free(void* workspace) noexcept nogil:
    cdef PuctWorkspace* w = <PuctWorkspace*>workspace
    evaluator_workspace_free(w.evaluator, w.ev_workspace)
    leaf_buffers_free(&w.leaf)
    free(w)


cdef void* puct_memory_new(const void* params) noexcept nogil:
    """A game's memory: the tree's settings, no node yet (they grow at its searches)."""
    cdef const PuctParams* p = <const PuctParams*>params
    cdef PuctMemory* m = <PuctMemory*>calloc(1, sizeof(PuctMemory))
    if m == NULL:
        return NULL
    m.tree.max_nodes, m.tree.batch_size = p.max_nodes, p.batch_size
    m.tree.c_puct, m.tree.fpu_reduction = p.c_puct, p.fpu_reduction
    m.tree.ev = p.ev
    m.cursor = -1
    return m


cdef void puct_memory_free(void* memory) noexcept nogil:
    cdef PuctMemory* m = <PuctMemory*>memory
    free(m.tree.nodes)
    free(m.tree.root_prior)
    free(m)


cdef void puct_note(void* memory, int32_t code) noexcept nogil:
    """An action played in the game: follow it down the tree, if the tree has it."""
    cdef PuctMemory* m = <PuctMemory*>memory
    if m.cursor >= 0:
        m.cursor = puct_follow(&m.tree, m.cursor, code_key(code), &m.at)


cdef void puct_forget(void* memory) noexcept nogil:
    (<PuctMemory*>memory).cursor = -1


cdef void puct_search_alone(PuctC* t, int64_t iterations, double deadline,
                            const int* cancel) noexcept nogil:
    """run_trees for this one tree with its C evaluator: puct_step until the budget, the
    ``deadline`` (0: none; read after each batch, the first always run) or ``cancel``."""
    while not atomic_load(cancel, RELAXED):
        if not puct_step(t, iterations) or deadline > 0 and now_seconds() >= deadline:
            break


cdef int puct_choose(const StateC* s, const RulesC* r, const void* params, void* workspace,
                     void* memory, uint64_t* rng, const int32_t* actions,
                     int nactions) noexcept nogil:
    """PUCTAgent's choice: the decisive action, else a search of the game's tree (the
    subtree of the position kept, with tree reuse) seeded by one draw from ``rng``, its
    time budget counted from the call's start (the tree's reuse included). Out of memory,
    the first action."""
    cdef const PuctParams* p = <const PuctParams*>params
    cdef double deadline = now_seconds() + p.seconds if p.seconds > 0 else 0
    cdef PuctWorkspace* w = <PuctWorkspace*>workspace
    cdef PuctMemory* m = <PuctMemory*>memory
    cdef PuctC* t = &m.tree
    cdef int index = decisive_index(s, r, actions, nactions, &w.trial)
    if index >= 0:
        return index
    t.r = r
    t.leaf = w.leaf
    t.ev_workspace = w.ev_workspace
    if not (p.reuse_tree and m.cursor >= 0 and same_state(&m.at, s)
            and puct_keep_subtree(t, m.cursor, s)) and not puct_reset(t, s):
        m.cursor = -1
        return 0
    m.cursor = 0
    memcpy(&m.at, s, sizeof(StateC))
    puct_begin(t, p.noise_alpha, p.noise_fraction, splitmix64(rng))
    puct_search_alone(t, p.iterations, deadline, w.cancel)
    return puct_pick(t)
