# cython: language_level=3
# PUCT's tree (victorus.search._puct works on it without the GIL) and the tree work that PUCT
# as an opponent inside the vector games' step (victorus.search._puct_opponent) shares.

from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t

from victorus._core cimport NUM_SEATS
from victorus._engine cimport StateC, RulesC
from victorus.evaluation._evaluator cimport EvaluatorC

# -- the tree (its work: victorus.search._puct) ---------------------------------------------------

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

ctypedef struct LeafBuffers:
    # a batch of leaves, batch_size of each (leaf_buffers_new makes them, leaf_buffers_free
    # frees them): their positions, their nodes, their legal actions and how many
    StateC* states
    int32_t* node
    int32_t* actions                 # batch_size rows of MAX_ACTIONS
    int32_t* n

ctypedef struct PuctC:
    # one tree (victorus.search._puct.PuctTree's, or a vector game's opponent's): the tree work
    # of victorus.search._puct reads and writes nothing else, without the GIL
    PNode* nodes
    int32_t nnodes, capacity, max_nodes
    StateC root
    const RulesC* r
    double c_puct, fpu_reduction, noise_alpha, noise_fraction
    double* root_prior               # the root's priors with Dirichlet noise, NULL: none
    uint64_t rng
    int batch_size
    const EvaluatorC* ev             # the C evaluator of its leaves; NULL: a Python callable's
    void* ev_workspace               # its workspace for this tree's thread
    int64_t done                     # iterations of the search under way
    int k                            # leaves gathered, waiting for their evaluation
    LeafBuffers leaf                 # its owner's (PuctTree's, or a vector worker's)

# -- what the opponent in the vector step (victorus.search._puct_opponent) uses ----------

from victorus._core cimport KEY_MASK, WORD_STOP

cdef inline double exact_value(const PNode* nodes, int32_t i, int seat) noexcept nogil:
    """The value of a proven node for ``seat``: its finished game's returns."""
    while nodes[i].proof != i:
        i = nodes[i].proof
    return nodes[i].value[seat] / nodes[i].visits

cdef inline int32_t code_key(int32_t code) noexcept nogil:
    """An action code's notation key (Engine.history_keys)."""
    return code & KEY_MASK if code < WORD_STOP else code

cdef bint leaf_buffers_new(LeafBuffers* b, int batch_size) noexcept nogil
cdef void leaf_buffers_free(LeafBuffers* b) noexcept nogil
cdef int puct_gather(PuctC* t, int want, int64_t* done) noexcept nogil
cdef void puct_c_batch(PuctC* t, int k) noexcept nogil
cdef int puct_step(PuctC* t, int64_t iterations) noexcept nogil
cdef int puct_pick(const PuctC* t) noexcept nogil
cdef bint puct_set_evaluator(PuctC* t, const EvaluatorC* ev) noexcept nogil
cdef void puct_begin(PuctC* t, double noise_alpha, double noise_fraction, uint64_t seed) noexcept nogil
cdef int puct_leaves_wanted(PuctC* t, int64_t iterations) noexcept nogil
cdef bint puct_reset(PuctC* t, const StateC* s) noexcept nogil
cdef int32_t puct_follow(PuctC* t, int32_t at, int32_t key, StateC* s) noexcept nogil
cdef bint puct_keep_subtree(PuctC* t, int32_t at, const StateC* s) noexcept nogil
cdef bint same_state(const StateC* a, const StateC* b) noexcept nogil
