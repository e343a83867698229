# cython: language_level=3
"""``lookahead(over, value)``: priors from one action ahead, ``exp(4 v)`` where ``v`` is
``over``'s value for the army to act after the action (so that a clearly better action is
searched first), and the value of ``value`` (None: ``over``)."""

cimport cython
from libc.math cimport exp
from libc.stdint cimport int32_t, uint64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memcpy

from victorus._core cimport NUM_SEATS
from victorus._engine cimport StateC, RulesC, apply_action
from victorus.evaluation._evaluator cimport (made_once, Evaluator, EvaluatorC, evaluator_c,
                                             evaluator_workspace, evaluator_workspace_free)

cdef enum:
    PRIOR_SHARPNESS = 4              # priors exp(4 x value), value in (-1, 1)

ctypedef struct LookaheadParams:
    const EvaluatorC* over           # values the positions one action ahead
    const EvaluatorC* value          # values the position itself

ctypedef struct LookaheadWorkspace:
    StateC child
    void* over
    void* value


cdef void* lookahead_workspace_new(const EvaluatorC* e) noexcept nogil:
    """A thread's room for the child position and both inner evaluators' workspaces."""
    cdef const LookaheadParams* p = <const LookaheadParams*>e.params
    cdef LookaheadWorkspace* w = <LookaheadWorkspace*>calloc(1, sizeof(LookaheadWorkspace))
    if w != NULL and not (evaluator_workspace(p.over, &w.over)
                          and evaluator_workspace(p.value, &w.value)):
        lookahead_workspace_free(e, w)           # frees what was made (NULL: nothing)
        return NULL
    return w


cdef void lookahead_workspace_free(const EvaluatorC* e, void* workspace) noexcept nogil:
    cdef const LookaheadParams* p = <const LookaheadParams*>e.params
    cdef LookaheadWorkspace* w = <LookaheadWorkspace*>workspace
    evaluator_workspace_free(p.over, w.over)
    evaluator_workspace_free(p.value, w.value)
    free(w)


cdef void lookahead_value(const EvaluatorC* e, void* workspace, const StateC* s,
                          const RulesC* r, uint64_t* rng, float* out) noexcept nogil:
    """``value``'s value."""
    cdef const LookaheadParams* p = <const LookaheadParams*>e.params
    p.value.value(p.value, (<LookaheadWorkspace*>workspace).value, s, r, rng, out)


cdef void lookahead_priors(const EvaluatorC* e, void* workspace, const StateC* s,
                           const RulesC* r, const int32_t* actions, int n, uint64_t* rng,
                           double* priors) noexcept nogil:
    """exp(PRIOR_SHARPNESS x ``over``'s value after each action, for the army to act)."""
    cdef const LookaheadParams* p = <const LookaheadParams*>e.params
    cdef LookaheadWorkspace* w = <LookaheadWorkspace*>workspace
    cdef float v[NUM_SEATS]
    cdef int i, seat = s.turn.to_move
    for i in range(n):
        memcpy(&w.child, s, sizeof(StateC))
        apply_action(&w.child, r, actions[i])
        p.over.value(p.over, w.over, &w.child, r, rng, v)
        priors[i] = exp(PRIOR_SHARPNESS * v[seat])


@cython.no_gc_clear
cdef class LookaheadEvaluator(Evaluator):
    """``lookahead(over, value)``: the module's docstring."""
    cdef LookaheadParams params

    def __init__(self, Evaluator over, Evaluator value=None):
        made_once(self)
        self.args = (over, value)
        value = over if value is None else value
        self.params.over, self.params.value = evaluator_c(over), evaluator_c(value)
        self.inner = (over, value)
        self.network = over.network if over.network is not None else value.network
        self.c.value, self.c.priors, self.c.params = lookahead_value, lookahead_priors, &self.params
        self.c.workspace_new, self.c.workspace_free = lookahead_workspace_new, lookahead_workspace_free
        self.spec = (f"lookahead({over.spec})" if value is over
                     else f"lookahead({over.spec}, {value.spec})")
