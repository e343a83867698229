# cython: language_level=3
# The C hook of an agent that plays inside the vector games' native step (victorus._vector):
# a plain function pointer and a parameter block, so that any C agent (random, greedy, a
# search) plugs in without the GIL. To add one: its ChooseFn (and parameter block, kept
# alive by the VectorEngine, set in VecC.agent_params), an AGENT_* number in _vector.pyx
# and its name in victorus.vector.AGENTS.

from libc.stdint cimport int32_t, uint64_t

from victorus._engine cimport StateC, RulesC, splitmix64

# Choose one of ``nactions`` legal action codes of ``s`` (``actions``, in gen_actions
# order, so legal_actions() order): return its index. ``params`` is the agent's own
# parameter block (NULL when it has none), ``rng`` the game's splitmix64 state of its
# agents: an agent draws its random numbers from it and nothing else.
ctypedef int (*ChooseFn)(const StateC* s, const RulesC* r, const void* params, uint64_t* rng,
                         const int32_t* actions, int nactions) noexcept nogil


cdef inline int random_choose(const StateC* s, const RulesC* r, const void* params,
                              uint64_t* rng, const int32_t* actions, int nactions) noexcept nogil:
    """Uniformly random: one draw per decision."""
    return <int>(splitmix64(rng) % <uint64_t>nactions)
