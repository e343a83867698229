# cython: language_level=3, cdivision=True
"""A heuristic evaluation of a position in C, per seat in (-1, 1): the leaf value of the
alpha-beta search (victorus.search._alphabeta) and a cheap judge for any C search.

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

The value of a team is ``0.99 tanh(sum of weight x term)``; a finished game is worth its
returns exactly (+1 / -1 / 0, ``team_returns``), so a real win counts for more than any
position. ``danger`` and ``mobility`` generate every army's actions; with both weights at
0 the evaluation generates only the army to act's.
"""

from libc.math cimport tanh
from libc.string cimport memcpy, memset

from libc.stdint cimport int32_t

from victorus._core cimport (BB, NUM_SEATS, RESULT_NONE, ARMY_ACTIVE, ROYAL_KINDS, QUEEN,
                             WORD_STOP, CAPTURE_FLAG, code_target, kind_points, turn_new_move,
                             bb_clear, bb_add, bb_has)
from victorus._engine cimport (StateC, RulesC, Engine, MAX_ACTIONS, gen_actions, team_returns,
                               material_points, info_kind, info_royal, piece_laps)

#: The terms, in the order of their weights (EvalWeights) and of ``terms()``'s rows.
TERMS = ("material", "danger", "progress", "captures", "mobility")

cdef double VALUE_BOUND = 0.99     # an unfinished position's bound: a win counts for more


cdef void default_weights(EvalWeights* w) noexcept nogil:
    """The weights tuned by self-play (docs/agents.md, "The heuristic evaluation"):
    ``danger`` off, as its cost (every army's actions) outweighed its gain at equal time."""
    w.material = 0.5
    w.danger = 0.0
    w.progress = 1.0
    w.captures = 0.4
    w.mobility = 0.0


cdef inline int centre_distance(const RulesC* r, int cell) noexcept nogil:
    """R2: hex distance of a cell from the centre."""
    cdef int q = r.q[cell], rr = r.r[cell], s = -q - rr
    q = -q if q < 0 else q
    rr = -rr if rr < 0 else rr
    s = -s if s < 0 else s
    return q if q >= rr and q >= s else rr if rr >= s else s


cdef double royal_progress(const StateC* s, const RulesC* r, int cell, int rim) noexcept nogil:
    """R28/R29: the winding of the King or Queen on ``cell`` as a fraction of a lap,
    clipped to [0, 1], times (1 + closeness) / 2 (closeness: 1 next to the centre, 0 at
    hex distance ``rim``)."""
    cdef int army = s.cells[cell].army, kq = info_kind(s.cells[cell].info) == QUEEN
    cdef double lap = (r.base[army][kq][cell] + 360.0 * piece_laps(s, &s.cells[cell])) / 360.0
    cdef double closeness = (rim - centre_distance(r, cell)) / <double>(rim - 1)
    lap = 0.0 if lap < 0 else 1.0 if lap > 1 else lap
    return lap * (1.0 + closeness) / 2.0


cdef int board_rim(const RulesC* r) noexcept nogil:
    """The largest hex distance of a cell from the centre (6 compact, 9 standard)."""
    cdef int i, rim = 2
    for i in range(r.t.ncells):
        rim = max(rim, centre_distance(r, i))
    return rim


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
    cdef int a, i, n, target, rim = board_rim(r), best = 0, points
    cdef double progress
    cdef BB attacked
    cdef StateC start
    memset(terms, 0, EVAL_TERMS * NUM_SEATS * sizeof(float))
    material_points(s, r, board, held)
    for a in range(NUM_SEATS):
        terms[r.team[a]] += (board[a] + held[a]) / 10.0
    for i in range(r.t.ncells):
        a = s.cells[i].army
        if a >= 0 and (ROYAL_KINDS >> info_kind(s.cells[i].info)) & 1:
            progress = royal_progress(s, r, i, rim)
            if progress > terms[2 * NUM_SEATS + r.team[a]]:
                terms[2 * NUM_SEATS + r.team[a]] = progress
    n = gen_actions(s, r, actions)
    for i in range(n):
        if actions[i] < WORD_STOP and actions[i] & CAPTURE_FLAG:
            target = code_target(actions[i])
            if s.cells[target].army >= 0:
                points = kind_points(info_kind(s.cells[target].info),
                                     info_royal(s.cells[target].info))
                best = max(best, points)
    terms[3 * NUM_SEATS + r.team[s.turn.to_move]] = best / 10.0
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
    """Per seat in (-1, 1): ``VALUE_BOUND tanh`` of the weighted terms of its team
    against the mean of the present teams; a finished game: its returns exactly."""
    cdef float terms[EVAL_TERMS * NUM_SEATS]
    cdef float weight[EVAL_TERMS]
    cdef double score[NUM_SEATS]
    cdef double mean, total
    cdef bint present[NUM_SEATS]
    cdef int a, t, teams = 0
    if s.result != RESULT_NONE:
        team_returns(s, r, out)
        return
    weight[0] = w.material
    weight[1] = -w.danger
    weight[2] = w.progress
    weight[3] = w.captures
    weight[4] = w.mobility
    eval_terms(s, r, w.danger != 0 or w.mobility != 0, terms)
    for a in range(NUM_SEATS):
        present[a] = False
        score[a] = 0
    for a in range(NUM_SEATS):
        if (r.present >> a) & 1:
            present[r.team[a]] = True
    for a in range(NUM_SEATS):
        teams += present[a]
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
    for a in range(NUM_SEATS):
        out[a] = VALUE_BOUND * tanh(score[r.team[a]]) if (r.present >> a) & 1 else 0.0


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
