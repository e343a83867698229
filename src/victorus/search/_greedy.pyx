# cython: language_level=3, cdivision=True
"""The greedy agent in C: victorus.agents.GreedyAgent calls it, and the vector games play
it inside their native step (victorus._vector), so both are one agent, move for move.

Each legal action is played on a copy and scored: the R37 points of the piece it captures,
plus 100 if it wins at once, minus the points of the most valuable piece the next army to
act could then capture when that army is of another team (R33). Ties are broken by one
draw from the caller's random state (one draw per decision, ties or not)."""

from libc.stdint cimport int32_t, uint64_t
from libc.string cimport memcpy

from victorus._core cimport RESULT_NONE, WORD_STOP, CAPTURE_FLAG, code_target, kind_points
from victorus._engine cimport (StateC, RulesC, Engine, MAX_ACTIONS, gen_actions, apply_action,
                               splitmix64, info_kind, info_royal)

cdef enum:
    WIN_BONUS = 100


cdef inline int captured_points(const StateC* s, int32_t code) noexcept nogil:
    """R37 points of the piece a capturing leg takes (at its target); 0 for anything else."""
    if code >= WORD_STOP or not (code & CAPTURE_FLAG):
        return 0
    cdef int target = code_target(code)
    if s.cells[target].army < 0:
        return 0
    return kind_points(info_kind(s.cells[target].info), info_royal(s.cells[target].info))


cdef int greedy_score(const StateC* s, const RulesC* r, int32_t code, StateC* trial,
                      int32_t* replies) noexcept nogil:
    cdef int me = s.turn.to_move, score = captured_points(s, code), worst = 0, k, n
    memcpy(trial, s, sizeof(StateC))
    apply_action(trial, r, code)
    if trial.result != RESULT_NONE:
        return score + (WIN_BONUS if (trial.winners >> me) & 1 else 0)
    if r.team[trial.turn.to_move] == r.team[me]:
        return score
    n = gen_actions(trial, r, replies)
    for k in range(n):
        worst = max(worst, captured_points(trial, replies[k]))
    return score - worst


cdef int greedy_choose(const StateC* s, const RulesC* r, const void* params, void* workspace,
                       void* memory, uint64_t* rng, const int32_t* actions, int nactions) noexcept nogil:
    """The index of the best-scoring action; equals at random (one draw from ``rng``)."""
    cdef StateC trial
    cdef int32_t replies[MAX_ACTIONS]
    cdef int32_t best[MAX_ACTIONS]
    cdef int k, score, nbest = 0, best_score = -2147483647
    for k in range(nactions):
        score = greedy_score(s, r, actions[k], &trial, replies)
        if score > best_score:
            best_score, nbest = score, 0
        if score == best_score:
            best[nbest] = k
            nbest += 1
    return best[splitmix64(rng) % <uint64_t>nbest]


def choose(Engine e, uint64_t rng):
    """Greedy's choice in ``e``'s position (not over): ``(index into legal_actions(),
    the random state after the draw)``."""
    cdef StateC s
    cdef int32_t actions[MAX_ACTIONS]
    cdef int n, index
    memcpy(&s, &e.s, sizeof(StateC))          # the position, read with the GIL held
    with nogil:
        n = gen_actions(&s, &e.rules.c, actions)
        index = greedy_choose(&s, &e.rules.c, NULL, NULL, NULL, &rng, actions, n) if n else -1
    if index < 0:
        raise ValueError("the game is over: greedy has nothing to choose")
    return index, rng


cdef class GreedyOpponent(Opponent):
    """The greedy agent as an opponent inside the vector games' step
    (GreedyAgent.native_opponent): no settings, no workspace."""

    def __init__(self):
        self.choose = greedy_choose
