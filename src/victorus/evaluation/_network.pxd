# cython: language_level=3
# The learned evaluation (victorus.evaluation._network) as other C modules see it: a
# network's weights as read-only C arrays, the nogil function giving a value per seat, and
# its evaluator.

from libc.stdint cimport int32_t

from victorus._engine cimport StateC, RulesC, Engine
from victorus.evaluation._evaluator cimport Evaluator

cdef enum:
    NETWORK_BOARDS = 2               # one block of first-layer rows per board (compact, standard)

ctypedef struct NetworkC:
    # Weights owned by a victorus.evaluation._network.NetworkCore (numpy float32 arrays, C order),
    # never written after it is made: shared by every thread that evaluates with it.
    int hidden                       # first layer (the accumulator)
    int hidden2                      # second layer
    int block_cells[NETWORK_BOARDS]  # each board's cells, to find its block from the rules
    int block_start[NETWORK_BOARDS]  # the first row of each board's block
    int block_rim[NETWORK_BOARDS]    # each board's largest hex distance from the centre
    const float* w1                  # [rows, hidden]: one row per sparse feature
    const float* wd                  # [DENSE_INPUTS, hidden]
    const float* b1                  # [hidden]
    const float* w2                  # [hidden, hidden2]
    const float* b2                  # [hidden2]
    const float* w3                  # [hidden2, NUM_SEATS]
    const float* b3                  # [NUM_SEATS]
    const float* skip                # [SKIP_TERMS]: the heuristic's terms, weighted
    # The policy head (NULL: the network has none; its evaluator then gives capture_priors):
    # an action's logit is [h1, 1] . from row + [h1, 1] . to row + pair[to, moving kind] (a
    # word: its row) + capture x log(capture_priors).
    int cell_start[NETWORK_BOARDS]   # the first row of each board's cells in policy_from/_to
    const float* policy_from         # [cells of every board, hidden + 1]: by origin column
    const float* policy_to           # [cells of every board, hidden + 1]: by target column
    const float* policy_word         # [NUM_ID_WORDS, hidden + 1]: stop, end, pass
    const float* policy_capture      # [1]: the weight of log(capture_priors)
    # [cells of every board, NUM_KINDS]: by target column and the moving piece's kind (NULL:
    # the head has no pair term, which is 0)
    const float* policy_pair

cdef class NetworkCore:
    cdef NetworkC c
    cdef readonly object arrays
    cdef readonly tuple block_cells

cdef void network_evaluate(const StateC* s, const RulesC* r, const NetworkC* net,
                           float* acc, float* h2, float* out) noexcept nogil
cdef void network_priors(const StateC* s, const RulesC* r, const NetworkC* net,
                         const float* h1, const int32_t* actions, int n,
                         double* priors) noexcept nogil

cdef class NetworkEvaluator(Evaluator):
    pass
