# cython: language_level=3
"""``rollouts(n, over)``: a random rollout of up to ``n`` actions from the position (each
drawn uniformly from the legal actions, with the calling search's random state), whose
end ``over`` values; the priors are ``over``'s. The UCT's simulation and the leaf value of
``best``."""

cimport cython
from libc.stdint cimport int32_t, uint64_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy

from victorus._core cimport RESULT_NONE
from victorus._engine cimport StateC, RulesC, MAX_ACTIONS, gen_actions, apply_action, splitmix64
from victorus.evaluation._evaluator cimport (made_once, Evaluator, EvaluatorC, evaluator_c,
                                             evaluator_workspace, evaluator_workspace_free)

ctypedef struct RolloutParams:
    int actions                      # the rollout's most actions
    const EvaluatorC* over           # values its end

ctypedef struct RolloutWorkspace:
    StateC sim                       # the rollout's position
    int32_t actions[MAX_ACTIONS]
    void* over                       # over's workspace


cdef void* rollouts_workspace_new(const EvaluatorC* e) noexcept nogil:
    cdef const RolloutParams* p = <const RolloutParams*>e.params
    cdef RolloutWorkspace* w = <RolloutWorkspace*>malloc(sizeof(RolloutWorkspace))
    if w == NULL:
        return NULL
    if not evaluator_workspace(p.over, &w.over):
        free(w)
        return NULL
    return w


cdef void rollouts_workspace_free(const EvaluatorC* e, void* workspace) noexcept nogil:
    cdef RolloutWorkspace* w = <RolloutWorkspace*>workspace
    evaluator_workspace_free((<const RolloutParams*>e.params).over, w.over)
    free(w)


cdef void rollouts_value(const EvaluatorC* e, void* workspace, const StateC* s,
                         const RulesC* r, uint64_t* rng, float* out) noexcept nogil:
    """Roll out, then value the end by ``over``."""
    cdef const RolloutParams* p = <const RolloutParams*>e.params
    cdef RolloutWorkspace* w = <RolloutWorkspace*>workspace
    cdef int n, played = 0
    memcpy(&w.sim, s, sizeof(StateC))
    while w.sim.result == RESULT_NONE and played < p.actions:
        n = gen_actions(&w.sim, r, w.actions)
        apply_action(&w.sim, r, w.actions[splitmix64(rng) % <uint64_t>n])
        played += 1
    p.over.value(p.over, w.over, &w.sim, r, rng, out)


cdef void rollouts_priors(const EvaluatorC* e, void* workspace, const StateC* s,
                          const RulesC* r, const int32_t* actions, int n, uint64_t* rng,
                          double* priors) noexcept nogil:
    """``over``'s priors."""
    cdef const RolloutParams* p = <const RolloutParams*>e.params
    p.over.priors(p.over, (<RolloutWorkspace*>workspace).over, s, r, actions, n, rng, priors)


@cython.no_gc_clear
cdef class RolloutsEvaluator(Evaluator):
    """``rollouts(n, over)``: the module's docstring."""
    cdef RolloutParams params

    def __init__(self, int actions, Evaluator over):
        made_once(self)
        if actions < 0:
            raise ValueError(f"a rollout's length must be >= 0, got {actions}")
        self.params.actions, self.params.over = actions, evaluator_c(over)
        self.inner, self.network = over, over.network
        self.args = (actions, over)
        self.c.value, self.c.params = rollouts_value, &self.params
        if over.c.priors != NULL:
            self.c.priors = rollouts_priors
        self.c.uniform_priors = over.c.uniform_priors
        self.c.workspace_new, self.c.workspace_free = rollouts_workspace_new, rollouts_workspace_free
        self.spec = f"rollouts({actions}, {over.spec})"

    @property
    def actions(self):
        """The rollout's most actions."""
        return self.params.actions
