# cython: language_level=3
# PUCT's tree (victorus.search._puct works on it without the GIL), and PUCT with a C evaluator as
# an opponent inside the vector games' step: a victorus.search._policy.ChooseFn, its parameter
# block, its workspace and its memory of a game (the tree kept between decisions).

from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t

from victorus._core cimport NUM_SEATS
from victorus._engine cimport StateC, RulesC
from victorus.search._evaluate cimport EvalWeights
from victorus.search._network cimport NetworkC
from victorus.search._policy cimport Opponent

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
    int rollout_actions              # the C heuristic's rollouts
    bint evaluated                   # the C heuristic scores them by the evaluation
    bint evaluated_priors            # and takes its priors from it
    EvalWeights weights
    const NetworkC* net              # the learned evaluation in place of the heuristic; NULL: none
    int64_t done                     # iterations of the search under way
    int k                            # leaves gathered, waiting for their evaluation
    StateC* leaf_states              # batch_size of each
    int32_t* leaf_node
    int32_t* leaf_actions            # batch_size rows of MAX_ACTIONS
    int32_t* leaf_n

# -- the opponent --------------------------------------------------------------------------

ctypedef struct PuctParams:
    int64_t iterations               # per decision; < 0: until the time budget
    double seconds                   # per decision; 0: none
    int batch_size
    int32_t max_nodes
    double c_puct, fpu_reduction, noise_alpha, noise_fraction
    int rollout_actions
    bint evaluated, evaluated_priors
    bint reuse_tree
    int kind                         # the C evaluator (C_HEURISTIC or C_UNIFORM)
    const NetworkC* net              # as PuctC.net

cdef class PuctOpponent(Opponent):
    cdef PuctParams params
    cdef object network              # keeps params.net's weights alive

cdef void* puct_workspace_new(const void* params, const int* cancel) noexcept nogil
cdef void puct_workspace_free(void* workspace) noexcept nogil
cdef void* puct_memory_new(const void* params) noexcept nogil
cdef void puct_memory_free(void* memory) noexcept nogil
cdef void puct_note(void* memory, int32_t code) noexcept nogil
cdef void puct_forget(void* memory) noexcept nogil
cdef int puct_choose(const StateC* s, const RulesC* r, const void* params, void* workspace,
                     void* memory, uint64_t* rng, const int32_t* actions,
                     int nactions) noexcept nogil
