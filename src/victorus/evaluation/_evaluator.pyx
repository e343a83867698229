# cython: language_level=3
"""The evaluator interface in C (``_evaluator.pxd``): the base class every evaluator's
object extends, and the calls a search makes through it (a workspace per thread, the
priors with their default). The evaluators themselves are in this folder, one module
each; ``victorus.evaluation.registry`` names and composes them."""

cimport cython
from libc.stdint cimport int32_t, uint64_t

from victorus._core cimport WORD_STOP, code_target, kind_points
from victorus._engine cimport StateC, RulesC, info_kind, info_royal


@cython.no_gc_clear
cdef class Evaluator:
    """A C evaluator as the searches call it: a value per seat for a position, optional
    priors over its legal actions, a workspace per thread and a parameter block (the
    subclass fills ``c``). ``spec`` says how it was composed; ``network`` is the learned
    evaluation it reads (its own or an inner evaluator's), None if none."""

    def __init__(self):
        raise TypeError("Evaluator is the interface: make an evaluator with "
                        "victorus.evaluation.make_evaluator or one of its functions")

    def __repr__(self):
        return f"<evaluator {self.spec}>"

    def __reduce__(self):
        """Pickled as its class and constructor's arguments (a network as its bytes)."""
        return type(self), self.args

    def check(self, game):
        """Raise ConfigError unless this evaluator serves ``game``: the network it reads
        (if any) was trained for the game's board and number of players. Every search
        checks its evaluator so before it searches; the other evaluators serve every game."""
        if self.network is not None:
            self.network.check(game)

    def __copy__(self):
        return self                  # immutable: shared by every search and thread

    def __deepcopy__(self, memo):
        return self


cdef bint evaluator_workspace(const EvaluatorC* e, void** workspace) noexcept nogil:
    """This thread's buffers of ``e`` into ``workspace`` (NULL if it needs none); False
    when out of memory."""
    workspace[0] = NULL
    if e.workspace_new == NULL:
        return True
    workspace[0] = e.workspace_new(e)
    return workspace[0] != NULL


cdef void evaluator_workspace_free(const EvaluatorC* e, void* workspace) noexcept nogil:
    """Free what evaluator_workspace made (NULL: nothing)."""
    if workspace != NULL and e.workspace_free != NULL:
        e.workspace_free(e, workspace)


cdef void capture_priors(const StateC* s, const int32_t* actions, int n,
                         double* priors) noexcept nogil:
    """The priors of an evaluator without its own: 1 + the R37 points of the piece an
    action lands on (its capture), so captures are searched first."""
    cdef int i, target
    for i in range(n):
        priors[i] = 1.0
        if actions[i] < WORD_STOP:
            target = code_target(actions[i])
            if s.cells[target].army >= 0:
                priors[i] += kind_points(info_kind(s.cells[target].info),
                                         info_royal(s.cells[target].info))


cdef bint evaluator_priors(const EvaluatorC* e, void* workspace, const StateC* s,
                           const RulesC* r, const int32_t* actions, int n, uint64_t* rng,
                           double* priors) noexcept nogil:
    """Priors over the ``n`` legal ``actions`` of ``s`` into ``priors``: ``e``'s own, or
    capture_priors; False (``priors`` untouched) when ``e``'s are uniform."""
    if e.uniform_priors:
        return False
    if e.priors != NULL:
        e.priors(e, workspace, s, r, actions, n, rng, priors)
    else:
        capture_priors(s, actions, n, priors)
    return True


cdef const EvaluatorC* evaluator_c(object evaluator) except NULL:
    """The C struct of an Evaluator (a TypeError naming what was given otherwise)."""
    if not isinstance(evaluator, Evaluator) or (<Evaluator>evaluator).c.value == NULL:
        raise TypeError(f"an evaluator must be a victorus.evaluation Evaluator made by its "
                        f"constructor, got {type(evaluator).__name__}")
    return &(<Evaluator>evaluator).c


cdef int made_once(Evaluator evaluator) except -1:
    """Refuse a second __init__ of an evaluator: searches hold pointers into it."""
    if evaluator.spec is not None:
        raise TypeError(f"{evaluator.spec} is made once: evaluators are immutable")
    return 0


cdef int made_plain(Evaluator evaluator, ValueFn value, str spec) except -1:
    """An evaluator without settings or workspace made (once): its value function, no
    arguments to pickle, its spec."""
    made_once(evaluator)
    evaluator.c.value = value
    evaluator.args = ()
    evaluator.spec = spec
    return 0
