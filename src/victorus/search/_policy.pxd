# cython: language_level=3
# The C hook of an agent that plays inside the vector games' native step (victorus._vector):
# a plain function pointer and a parameter block, so that any C agent (random, greedy, a
# search) plugs in without the GIL. To add one:
# - its ChooseFn; for a search also its WorkspaceNew and WorkspaceFree (buffers per worker
#   thread) and, if it keeps something of a game between decisions, its MemoryNew,
#   MemoryFree, NoteFn and ForgetFn;
# - a subclass of Opponent (below) that holds its parameter block and fills the pointers
#   in its __init__ (as _mcts.MctsOpponent), returned by its Python agent's
#   ``native_opponent()``. The vector pool reads only these pointers: it cimports no search.

from libc.stdint cimport int32_t, uint64_t
from libc.string cimport memcpy

from victorus._core cimport RESULT_NONE
from victorus._engine cimport StateC, RulesC, splitmix64, apply_action

# Choose one of ``nactions`` legal action codes of ``s`` (``actions``, in gen_actions
# order, so legal_actions() order): return its index. ``params`` is the agent's own
# parameter block (NULL when it has none), ``workspace`` its buffers for the thread that
# calls (from its WorkspaceNew, reused from decision to decision; NULL when it has none),
# ``memory`` what it keeps of this game between decisions (from its MemoryNew; NULL when
# it keeps nothing), ``rng`` the game's splitmix64 state of its agents: an agent draws
# its random numbers from it and nothing else.
ctypedef int (*ChooseFn)(const StateC* s, const RulesC* r, const void* params, void* workspace,
                         void* memory, uint64_t* rng, const int32_t* actions,
                         int nactions) noexcept nogil

# A search's buffers for one thread (its tree, its table), made once from its parameter
# block: NULL when out of memory. Freed by the matching WorkspaceFree (never given NULL: the
# vector frees only what was made). ``cancel``: the vector's flag, set on Ctrl-C (it
# outlives the workspace): while it is set, a search stops at once and chooses from what
# it has searched.
ctypedef void* (*WorkspaceNew)(const void* params, const int* cancel) noexcept nogil
ctypedef void (*WorkspaceFree)(void* workspace) noexcept nogil

# An agent's memory of one game (PUCT's kept tree), made once per game: NULL when out of
# memory; freed by the matching MemoryFree (never given NULL). The game tells it every
# action played in it (NoteFn, the action's code, after the agent's own choices too) and
# every new episode (ForgetFn: reset, autoreset, set_game).
ctypedef void* (*MemoryNew)(const void* params) noexcept nogil
ctypedef void (*MemoryFree)(void* memory) noexcept nogil
ctypedef void (*NoteFn)(void* memory, int32_t code) noexcept nogil
ctypedef void (*ForgetFn)(void* memory) noexcept nogil


cdef inline int random_choose(const StateC* s, const RulesC* r, const void* params,
                              void* workspace, void* memory, uint64_t* rng,
                              const int32_t* actions, int nactions) noexcept nogil:
    """Uniformly random: one draw per decision."""
    return <int>(splitmix64(rng) % <uint64_t>nactions)


cdef inline int decisive_index(const StateC* s, const RulesC* r, const int32_t* actions,
                               int nactions, StateC* trial) noexcept nogil:
    """The search agents' shortcut (victorus.search.decisive): the only legal action, or
    the first that wins at once for the army to act (R33: its team wins), taken without
    search and without a random draw; -1 if there is neither. ``trial``: a scratch state."""
    cdef int k, me = s.turn.to_move
    if nactions == 1:
        return 0
    for k in range(nactions):
        memcpy(trial, s, sizeof(StateC))
        apply_action(trial, r, actions[k])
        if trial.result != RESULT_NONE and (trial.winners >> me) & 1:
            return k
    return -1


cdef class Opponent:
    """A C agent as the vector games' step plays it: its functions and parameter block.
    ``choose`` is required; ``block`` (NULL: no settings) points into the subclass's own
    parameter struct, which lives as long as the object; a NULL ``workspace_new`` or
    ``memory_new`` means the agent keeps no buffers or no memory of a game."""
    cdef ChooseFn choose
    cdef const void* block
    cdef WorkspaceNew workspace_new
    cdef WorkspaceFree workspace_free
    cdef MemoryNew memory_new
    cdef MemoryFree memory_free
    cdef NoteFn note
    cdef ForgetFn forget
    cdef readonly object evaluator   # a search's C evaluator (keeps its block's pointer alive), or None


cdef inline void plug_search(Opponent opponent, ChooseFn choose, const void* block,
                             WorkspaceNew workspace_new, WorkspaceFree workspace_free,
                             object evaluator):
    """A search's opponent wired: its choose function, its parameter block and its
    workspace functions, and the evaluator its block points into, kept alive with it."""
    opponent.choose, opponent.block = choose, block
    opponent.workspace_new, opponent.workspace_free = workspace_new, workspace_free
    opponent.evaluator = evaluator


cdef class RandomOpponent(Opponent):
    pass
