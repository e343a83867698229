# cython: language_level=3
# The evaluator interface (victorus.evaluation._evaluator): what a search asks of a position,
# as a plain C struct that any search calls without the GIL and without knowing which
# evaluator it holds (mctx's one evaluator function; built like victorus.search._policy's
# Opponent). The searches cimport this file only, never an evaluator's own module.
#
# To add an evaluator: one .pyx in this folder holding its ValueFn (and PriorsFn,
# WorkspaceNew/Free if it needs them), its parameter struct and a subclass of Evaluator that
# fills ``c`` in its __init__; then one line in victorus.evaluation.registry.

from libc.stdint cimport int32_t, uint64_t

from victorus._engine cimport StateC, RulesC

cdef struct EvaluatorS             # below: the function types take the struct they sit in
ctypedef EvaluatorS EvaluatorC

# The value of ``s`` per seat (``out``: NUM_SEATS floats in [-1, 1]; a finished game: its
# returns exactly). ``e``: the evaluator (its ``params`` block, its inner evaluators);
# ``workspace``: this thread's buffers from its workspace_new (NULL if it has none); ``rng``:
# the calling search's random state (an evaluator that draws, as rollouts do, draws from it
# and nothing else).
ctypedef void (*ValueFn)(const EvaluatorC* e, void* workspace, const StateC* s,
                         const RulesC* r, uint64_t* rng, float* out) noexcept nogil
# Priors over ``s``'s ``n`` legal actions (``actions``, in gen_actions order) into
# ``priors`` (n doubles, positive, not normalised); ``rng`` as for ValueFn. A search asks
# for a leaf's priors before its value.
ctypedef void (*PriorsFn)(const EvaluatorC* e, void* workspace, const StateC* s,
                          const RulesC* r, const int32_t* actions, int n, uint64_t* rng,
                          double* priors) noexcept nogil
# One thread's buffers, made once per search thread from the evaluator: NULL when out of
# memory. Freed by the matching WorkspaceFree.
ctypedef void* (*EvalWorkspaceNew)(const EvaluatorC* e) noexcept nogil
ctypedef void (*EvalWorkspaceFree)(const EvaluatorC* e, void* workspace) noexcept nogil

cdef struct EvaluatorS:
    ValueFn value                    # required
    PriorsFn priors                  # NULL: no priors of its own (capture_priors)
    bint uniform_priors              # priors: every action alike (no PriorsFn call)
    const void* params               # its parameter block (NULL: none), owned by its object
    EvalWorkspaceNew workspace_new   # NULL: it needs no buffers
    EvalWorkspaceFree workspace_free

cdef class Evaluator:
    cdef EvaluatorC c
    cdef readonly str spec           # how it was composed: "rollouts(3, network(default))"
    cdef readonly object network     # the Network it reads (its own or an inner one's), or None
    cdef object inner                # the evaluators it calls, kept alive with it
    cdef tuple args                  # its constructor's arguments (pickling)

cdef bint evaluator_workspace(const EvaluatorC* e, void** workspace) noexcept nogil
cdef void evaluator_workspace_free(const EvaluatorC* e, void* workspace) noexcept nogil
cdef bint evaluator_priors(const EvaluatorC* e, void* workspace, const StateC* s,
                           const RulesC* r, const int32_t* actions, int n, uint64_t* rng,
                           double* priors) noexcept nogil
cdef void capture_priors(const StateC* s, const int32_t* actions, int n,
                         double* priors) noexcept nogil
cdef const EvaluatorC* evaluator_c(object evaluator) except NULL
cdef int made_once(Evaluator evaluator) except -1
cdef int made_plain(Evaluator evaluator, ValueFn value, str spec) except -1
