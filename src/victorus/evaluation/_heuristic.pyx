# cython: language_level=3, cdivision=True
"""A heuristic evaluation of a position in C, per seat in (-1, 1): the leaf value of the
alpha-beta search and a cheap judge for any C search, as the evaluator ``heuristic``.

Five terms, each per team (R33: the armies of a team share one value), each taken against
the mean over the present teams, so that with two teams one team's value is the other's
negated:

- ``material``: R37 points of the team's armies, on the board and held (R20), per 10;
- ``danger``: the team's Kings and Queens a capture leg of an opponent army attacks, each
  army seen at the start of its own turn (its first legs: a Hospitaller's pivot or a
  second leg is not seen); counted negatively;
- ``progress``: the race to the centre (R28, R29) of the team's best King or Queen: its
  winding ``w = base + 360 laps`` as a fraction of one lap, clipped to [0, 1], times
  ``(1 + closeness) / 2`` where closeness is 1 next to the centre and 0 on the rim;
- ``captures``: the R37 points of the most valuable piece the army to act can capture
  now (its legal actions), per 10, for its team;
- ``mobility``: the legal actions of the team's live armies at the start of their turns,
  per 100.

A team's score is the sum of weight x term; its value is on the share scale of a finished
game (``_terms.team_values``): ``0.99 (2 p - 1)`` where ``p`` is its share of the win, the
softmax of the scores over the present teams (two teams: ``0.99 tanh(score)``, the scores
being centred). A finished game is worth its ``share_returns`` exactly (+1 a win, -1 a
loss, a draw shared: 2/k - 1 for the k teams with an active army), so a real win counts
for more than any position. ``danger`` and ``mobility`` generate every army's actions; with both weights at
0 the evaluation generates only the army to act's.
"""

cimport cython
from libc.string cimport memcpy, memset

from libc.stdint cimport int32_t, uint64_t

from victorus._core cimport (BB, NUM_SEATS, RESULT_NONE, ARMY_ACTIVE, ROYAL_KINDS,
                             WORD_STOP, CAPTURE_FLAG, code_target, turn_new_move,
                             bb_clear, bb_add, bb_has)
from victorus._engine cimport (StateC, RulesC, Engine, MAX_ACTIONS, gen_actions, share_returns,
                               info_kind)
from victorus.evaluation._evaluator cimport made_once, Evaluator, EvaluatorC
from victorus.evaluation._terms cimport (team_values, present_teams, board_rim, royal_progress, team_material,
                                         best_capture)

#: The terms, in the order of their weights (EvalWeights) and of ``terms()``'s rows.
TERMS = ("material", "danger", "progress", "captures", "mobility")


cdef void default_weights(EvalWeights* w) noexcept nogil:
    """The weights tuned by self-play (docs/agents.md, "The heuristic evaluation"):
    ``danger`` off, as its cost (every army's actions) outweighed its gain at equal time."""
    w.material = 0.5
    w.danger = 0.0
    w.progress = 1.0
    w.captures = 0.4
    w.mobility = 0.0


cdef int army_threats(StateC* start, const RulesC* r, int army, int32_t* actions,
                      BB* attacked) noexcept nogil:
    """Army ``army`` at the start of its own turn (``start``: a copy the call rewrites):
    its legal actions are counted (returned) and the cells of the Kings and Queens its
    capture legs attack are added to ``attacked``."""
    cdef int n, i, target
    start.turn.to_move = army
    turn_new_move(&start.turn)
    bb_clear(&start.frozen)
    n = gen_actions(start, r, actions)
    for i in range(n):
        if actions[i] < WORD_STOP and actions[i] & CAPTURE_FLAG:
            target = code_target(actions[i])
            if (ROYAL_KINDS >> info_kind(start.cells[target].info)) & 1:
                bb_add(attacked, target)
    return n


cdef void eval_terms(const StateC* s, const RulesC* r, bint with_moves,
                     float* terms) noexcept nogil:
    """The raw terms per team: ``terms[t * NUM_SEATS + team]`` for term ``t`` in TERMS
    order (before the mean is taken). ``with_moves``: generate every live army's actions
    for danger and mobility (else both stay 0)."""
    cdef int board[NUM_SEATS]
    cdef int held[NUM_SEATS]
    cdef int32_t actions[MAX_ACTIONS]
    cdef int a, i, rim = board_rim(r)
    cdef double progress
    cdef BB attacked
    cdef StateC start
    memset(terms, 0, EVAL_TERMS * NUM_SEATS * sizeof(float))
    team_material(s, r, board, held, terms)
    for i in range(r.t.ncells):
        a = s.cells[i].army
        if a >= 0 and (ROYAL_KINDS >> info_kind(s.cells[i].info)) & 1:
            progress = royal_progress(s, r, i, rim)
            if progress > terms[2 * NUM_SEATS + r.team[a]]:
                terms[2 * NUM_SEATS + r.team[a]] = progress
    terms[3 * NUM_SEATS + r.team[s.turn.to_move]] = best_capture(s, r, actions) / 10.0
    if not with_moves:
        return
    memcpy(&start, s, sizeof(StateC))
    bb_clear(&attacked)
    for a in range(NUM_SEATS):
        if (r.present >> a) & 1 and s.army_state[a] == ARMY_ACTIVE:
            terms[4 * NUM_SEATS + r.team[a]] += army_threats(&start, r, a, actions,
                                                             &attacked) / 100.0
    for i in range(r.t.ncells):
        if bb_has(&attacked, i):
            terms[NUM_SEATS + r.team[s.cells[i].army]] += 1


cdef void evaluate(const StateC* s, const RulesC* r, const EvalWeights* w,
                   float* out) noexcept nogil:
    """Per seat in (-1, 1): ``team_values`` of the weighted terms of the teams (each taken
    against the mean of the present teams); a finished game: its share_returns exactly."""
    cdef float terms[EVAL_TERMS * NUM_SEATS]
    cdef float weight[EVAL_TERMS]
    cdef double score[NUM_SEATS]
    cdef double value[NUM_SEATS]
    cdef double mean, total
    cdef bint present[NUM_SEATS]
    cdef int a, t, teams = 0
    if s.result != RESULT_NONE:
        share_returns(s, r, out)
        return
    weight[0] = w.material
    weight[1] = -w.danger
    weight[2] = w.progress
    weight[3] = w.captures
    weight[4] = w.mobility
    eval_terms(s, r, w.danger != 0 or w.mobility != 0, terms)
    for a in range(NUM_SEATS):
        score[a] = 0
    teams = present_teams(r, present)
    for t in range(EVAL_TERMS):
        if weight[t] == 0:
            continue
        total = 0
        for a in range(NUM_SEATS):
            if present[a]:
                total += terms[t * NUM_SEATS + a]
        mean = total / teams
        for a in range(NUM_SEATS):
            score[a] += weight[t] * (terms[t * NUM_SEATS + a] - mean)
    team_values(score, present, value)
    for a in range(NUM_SEATS):
        out[a] = value[r.team[a]] if (r.present >> a) & 1 else 0.0


cdef int read_weights(object weights, EvalWeights* w) except -1:
    """``weights``: None (the defaults) or a mapping of term names to numbers."""
    default_weights(w)
    if weights is None:
        return 0
    from victorus.errors import ConfigError
    if not hasattr(weights, "items"):
        raise ConfigError(f"weights must be a mapping of {TERMS} to numbers, got {weights!r}")
    for name, value in weights.items():
        if name not in TERMS:
            raise ConfigError(f"unknown evaluation term {name!r}: accepted are {TERMS}")
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value \
                or abs(value) > 1e6:
            raise ConfigError(f"weight {name!r} must be a finite number, got {value!r}")
        (&w.material)[TERMS.index(name)] = value
    return 0


def evaluate_engine(Engine engine, weights=None):
    """Per seat (6 floats): the evaluation of ``engine``'s position with ``weights``
    (None: the defaults; a mapping of TERMS names to numbers, missing ones default)."""
    cdef EvalWeights w
    cdef float out[NUM_SEATS]
    read_weights(weights, &w)
    evaluate(&engine.s, &engine.rules.c, &w, out)
    return tuple(out[a] for a in range(NUM_SEATS))


def engine_terms(Engine engine):
    """Per term (TERMS order), the raw value of each team number 0-5 (before the mean;
    teams without a present seat stay 0): the unit tests' view of eval_terms."""
    cdef float terms[EVAL_TERMS * NUM_SEATS]
    eval_terms(&engine.s, &engine.rules.c, True, terms)
    return {name: tuple(terms[t * NUM_SEATS + a] for a in range(NUM_SEATS))
            for t, name in enumerate(TERMS)}


def default_weight_values():
    """The default weights as a dict of TERMS names."""
    cdef EvalWeights w
    default_weights(&w)
    return {name: round((&w.material)[t], 6) for t, name in enumerate(TERMS)}


cdef void heuristic_value(const EvaluatorC* e, void* workspace, const StateC* s,
                          const RulesC* r, uint64_t* rng, float* out) noexcept nogil:
    """The evaluator's ValueFn: ``evaluate`` with its weights."""
    evaluate(s, r, <const EvalWeights*>e.params, out)


@cython.no_gc_clear
cdef class HeuristicEvaluator(Evaluator):
    """``heuristic(weights)``: the hand-written evaluation with ``weights`` (None: the
    defaults; a mapping of TERMS names to numbers, missing ones default); no priors of its
    own."""

    def __init__(self, weights=None):
        made_once(self)
        read_weights(weights, &self.weights)
        self.args = (None if weights is None else dict(weights),)
        self.c.value = heuristic_value
        self.c.params = &self.weights
        self.spec = "heuristic" if weights is None else f"heuristic({dict(weights)!r})"

    def weight_values(self):
        """Its weights as a dict of TERMS names."""
        return {name: round((&self.weights.material)[t], 6) for t, name in enumerate(TERMS)}
