# cython: language_level=3, cdivision=True, boundscheck=False, wraparound=False
"""The learned evaluation in C: a small network giving a value per seat in (-1, 1), an
evaluator (``network(name)``) that any search calls without the GIL through the evaluator
interface (``_evaluator.pxd``). Its weights live in a file (victorus.evaluation.network);
its numpy twin is victorus.evaluation.twin, which training differentiates.

The network sees the position from the army to act, ``p`` (one set of weights for every
seat): seat ``i`` below is the army ``i`` seats after ``p``, and a cell is its column in
``p``'s observation (``RulesC.view``, the board turned so that every army's home looks
the same).

- **Sparse inputs** (the first layer's rows, summed): for every piece on the board, the
  row of (its seat, its kind, its cell); a royal knight (R35) also the row of (seat,
  ``royal``, cell); the piece in the middle of a move (R22) the row of (its seat,
  ``moving``, cell); a frozen piece (R24) the row of (its seat, ``frozen``, cell).
  Each board has its own block of rows (``NetworkC.block_*``).
- **Dense inputs**, per seat (SEAT_INPUTS): present, active (R39), a team mate of ``p``
  (R33), its R37 points on the board / 10, the points it holds (R20) / 10, its King's and
  its Queen's race progress (R28, R29, as in the heuristic evaluation), its knight
  captures (R19) / 3; then GLOBAL_INPUTS: the phase (R22, one-hot), passes (R26) / 6,
  pending bonus moves / 3, the quick game (R37: 1, and the share of its rounds left),
  the best capture open to ``p`` / 10, the present seats / 6.
- **Layers:** ``h1 = clamp(b1 + wd . dense + sum of w1 rows, 0, 1)`` (``hidden`` units),
  ``h2 = clamp(b2 + w2 . h1, 0, 1)``, ``raw_i = b3_i + w3 . h2 + skip . terms_i``, where
  ``terms_i`` are the heuristic evaluation's material, progress and captures terms of
  seat ``i``'s team: with ``w3 = b3 = 0`` and ``skip`` the heuristic's weights, the
  network *is* the heuristic evaluation (without its danger and mobility terms, off by
  default), which is where training starts.
- **Value:** a team's score is the mean ``raw`` of its present seats; each seat gets its
  team's share of the win on the scale of a finished game, ``0.99 (2 p - 1)`` with ``p``
  the softmax of the scores over the present teams (``_terms.team_values``; two teams:
  ``0.99 tanh(its team's score - the mean over present teams)``), as the heuristic
  evaluation; a finished game is worth its ``share_returns`` exactly (a draw shared).
- **Policy** (a network with a policy head): the logit of a move's leg is
  ``[h1, 1] . policy_from[origin column] + [h1, 1] . policy_to[target column]``, plus
  ``policy_pair[target column, kind]`` (the moving piece's kind: what this kind of piece
  gains on that cell) where the head has the pair term (POLICY_PAIR_LAYOUT; a head
  without it: 0), of a word (stop, end, pass) ``[h1, 1] . policy_word[word]``, each plus
  ``policy_capture x log(capture_priors)``; the priors are ``exp(logit - the largest)``.
  With the head at zero and ``policy_capture`` 1 they are the hand-written capture priors,
  where training starts.
"""

cimport cython
from libc.math cimport exp, log
from libc.string cimport memset, memcpy, memcmp
from libc.stdlib cimport malloc, free
from libc.stdint cimport int32_t, uint64_t

from victorus._core cimport (NUM_SEATS, NUM_KINDS, MAX_CELLS, RESULT_NONE, ARMY_ACTIVE, KING,
                             QUEEN, WORD_STOP, WORD_END, NUM_ID_WORDS, bb_has, lowest_bit,
                             code_origin, code_target)
from victorus._engine cimport (StateC, RulesC, Engine, MAX_ACTIONS, share_returns, info_kind,
                               info_royal, gen_actions)
from victorus.evaluation._evaluator cimport made_once, Evaluator, EvaluatorC, capture_priors
from victorus.evaluation._heuristic cimport EvalWeights, default_weights, evaluate
from victorus.evaluation._terms cimport (team_values, board_rim, royal_progress, team_material,
                                         best_capture)

from types import MappingProxyType

import numpy as np

cdef enum:
    TYPE_ROYAL = NUM_KINDS           # the sparse rows' "kinds" after the seven pieces
    TYPE_MOVING = NUM_KINDS + 1
    TYPE_FROZEN = NUM_KINDS + 2
    TYPES = NUM_KINDS + 3
    SEAT_INPUTS = 8
    GLOBAL_INPUTS = 9
    DENSE_INPUTS = NUM_SEATS * SEAT_INPUTS + GLOBAL_INPUTS
    SKIP_TERMS = 3                   # material, progress, captures (victorus.evaluation._terms)
    MAX_SPARSE = 3 * MAX_CELLS + 1   # a piece, its royal row, its frozen row; one mover
    MAX_HIDDEN = 1024

#: The feature layout's name, written in every network file: a file of another layout is
#: refused. Derived from the sizes above, so a change of the inputs cannot ship under an
#: old name.
LAYOUT = f"seat-kind-cell/t{TYPES}-s{SEAT_INPUTS}-g{GLOBAL_INPUTS}-k{SKIP_TERMS}"
#: The sizes the Python side (files, training) reads.
SIZES = {"boards": NETWORK_BOARDS, "types": TYPES, "seat_inputs": SEAT_INPUTS, "global_inputs": GLOBAL_INPUTS,
         "dense_inputs": DENSE_INPUTS, "skip_terms": SKIP_TERMS, "seats": NUM_SEATS,
         "max_sparse": MAX_SPARSE, "max_hidden": MAX_HIDDEN, "words": NUM_ID_WORDS,
         "kinds": NUM_KINDS}
#: The policy head's feature layout, written in the files of networks that have one without
#: the pair term...
POLICY_LAYOUT = f"from-to-word/w{NUM_ID_WORDS}-c1"
#: ... and with it (POLICY_PAIR).
POLICY_PAIR_LAYOUT = f"from-to-word-pair/w{NUM_ID_WORDS}-c1-k{NUM_KINDS}"
#: The policy head's arrays, in the file's order after the value's.
POLICY_NAMES = ("policy_from", "policy_to", "policy_word", "policy_capture")
#: The pair term's array, after them in the file of a head that has it.
POLICY_PAIR = "policy_pair"
#: The names of the skip weights, and of the type rows after the pieces.
SKIP_NAMES = ("material", "progress", "captures")
TYPE_NAMES = ("royal", "moving", "frozen")


cdef inline int block_rows(int ncells) noexcept nogil:
    """The rows of one board's block."""
    return NUM_SEATS * TYPES * ncells


cdef int sparse_inputs(const StateC* s, const RulesC* r, int rim, int32_t* rows, float* dense,
                       float* progress) noexcept nogil:
    """The sparse rows of the position seen by the army to act (their count is returned),
    in one pass over its pieces; on the way each seat's King and Queen race progress into
    ``dense`` and each team's best into ``progress`` (team numbers 0-5)."""
    cdef int n = r.t.ncells, p = s.turn.to_move, c, w, a, kind, seat, count = 0
    cdef const unsigned char* col = r.view[p]
    cdef uint64_t bits
    cdef double value
    for w in range(3):
        bits = s.total.w[w]
        while bits:
            c = w * 64 + lowest_bit(bits)
            bits &= bits - 1
            a = s.cells[c].army
            kind = info_kind(s.cells[c].info)
            seat = (a - p + NUM_SEATS) % NUM_SEATS
            rows[count] = (seat * TYPES + kind) * n + col[c]
            count += 1
            if kind == KING or kind == QUEEN:
                value = royal_progress(s, r, c, rim)
                dense[seat * SEAT_INPUTS + 5 + (kind == QUEEN)] = value
                if value > progress[r.team[a]]:
                    progress[r.team[a]] = value
            elif info_royal(s.cells[c].info):
                rows[count] = (seat * TYPES + TYPE_ROYAL) * n + col[c]
                count += 1
            if bb_has(&s.frozen, c):
                rows[count] = (seat * TYPES + TYPE_FROZEN) * n + col[c]
                count += 1
    c = s.turn.mover
    if c >= 0 and s.cells[c].army >= 0:
        seat = (s.cells[c].army - p + NUM_SEATS) % NUM_SEATS
        rows[count] = (seat * TYPES + TYPE_MOVING) * n + col[c]
        count += 1
    return count


cdef void global_inputs(const StateC* s, const RulesC* r, int best, int present,
                        float* row) noexcept nogil:
    """GLOBAL_INPUTS into ``row``: the phase (one-hot), passes, pending bonus moves, the
    quick game and its rounds left, the best capture (``best`` points), present seats."""
    if 0 <= s.turn.phase < 3:
        row[s.turn.phase] = 1
    row[3] = s.turn.passes / 6.0
    row[4] = (s.turn.pending if s.turn.pending < 3 else 3) / 3.0
    if r.quick:
        row[5] = 1
        row[6] = (r.quick - s.turn.round + 1) / <float>r.quick
    row[7] = best / 10.0
    row[8] = present / 6.0


cdef int network_inputs(const StateC* s, const RulesC* r, int rim, int32_t* rows, float* dense,
                        float* skip_terms, int* teams) noexcept nogil:
    """The inputs of the position seen by the army to act: the sparse rows within its
    board's block (0 .. block_rows; their count is returned), the dense inputs
    (DENSE_INPUTS), the heuristic evaluation's terms of each seat's team
    (``skip_terms[t * NUM_SEATS + seat]``) and each seat's team (-1: not present), seats
    counted from the army to act. ``rim``: the board's (board_rim)."""
    cdef int32_t actions[MAX_ACTIONS]
    cdef int board[NUM_SEATS]
    cdef int held[NUM_SEATS]
    cdef float progress[NUM_SEATS]
    cdef float material[NUM_SEATS]
    cdef int p = s.turn.to_move, i, a, count, present = 0, best
    cdef float* row
    memset(dense, 0, DENSE_INPUTS * sizeof(float))
    for a in range(NUM_SEATS):
        progress[a] = 0
    count = sparse_inputs(s, r, rim, rows, dense, progress)
    team_material(s, r, board, held, material)
    best = best_capture(s, r, actions)
    for i in range(NUM_SEATS):
        a = (p + i) % NUM_SEATS
        row = dense + i * SEAT_INPUTS
        teams[i] = r.team[a] if (r.present >> a) & 1 else -1
        if teams[i] < 0:
            skip_terms[i] = skip_terms[NUM_SEATS + i] = skip_terms[2 * NUM_SEATS + i] = 0
            row[5] = row[6] = 0
            continue
        skip_terms[i] = material[r.team[a]]
        skip_terms[NUM_SEATS + i] = progress[r.team[a]]
        skip_terms[2 * NUM_SEATS + i] = best / 10.0 if r.team[a] == r.team[p] else 0
        present += 1
        row[0] = 1
        row[1] = s.army_state[a] == ARMY_ACTIVE
        row[2] = r.team[a] == r.team[p]
        row[3] = board[a] / 10.0
        row[4] = held[a] / 10.0
        row[7] = s.knight_caps[a] / 3.0
    global_inputs(s, r, best, present, dense + NUM_SEATS * SEAT_INPUTS)
    return count


cdef int network_block(const RulesC* r, const NetworkC* net) noexcept nogil:
    """The board's block, -1: the network has none for this board."""
    cdef int b
    for b in range(NETWORK_BOARDS):
        if net.block_cells[b] == r.t.ncells:
            return b
    return -1


cdef inline void add_row(float* out, const float* row, float x, int n) noexcept nogil:
    """``out += x * row`` over ``n`` floats (a layer's input times its weights' row)."""
    cdef int j
    for j in range(n):
        out[j] += x * row[j]


cdef void network_evaluate(const StateC* s, const RulesC* r, const NetworkC* net,
                           float* acc, float* h2, float* out) noexcept nogil:
    """Per seat in (-1, 1): the network's value of the position (the module's docstring);
    a finished game: its share_returns exactly. ``acc`` and ``h2``: room for the two layers
    (``hidden`` and ``hidden2`` floats). The board must have a block in ``net`` (checked
    when a search is given the network)."""
    cdef int32_t rows[MAX_SPARSE]
    cdef float dense[DENSE_INPUTS]
    cdef float skip_terms[SKIP_TERMS * NUM_SEATS]
    cdef int teams[NUM_SEATS]
    cdef double raw[NUM_SEATS]
    cdef double score[NUM_SEATS]
    cdef double value[NUM_SEATS]
    cdef bint present[NUM_SEATS]
    cdef int members[NUM_SEATS]
    cdef int H = net.hidden, H2 = net.hidden2, p = s.turn.to_move
    cdef int i, j, k, n, start
    cdef float x
    cdef double v
    if s.result != RESULT_NONE:
        share_returns(s, r, out)
        return
    cdef int b = network_block(r, net)
    if b < 0:                        # no block for the board (agents check it first: Network.check)
        memset(out, 0, NUM_SEATS * sizeof(float))
        return
    start = net.block_start[b]
    n = network_inputs(s, r, net.block_rim[b], rows, dense, skip_terms, teams)
    for j in range(H):
        acc[j] = net.b1[j]
    for k in range(n):
        add_row(acc, net.w1 + <Py_ssize_t>(start + rows[k]) * H, 1.0, H)
    for k in range(DENSE_INPUTS):
        if dense[k] != 0:
            add_row(acc, net.wd + k * H, dense[k], H)
    for j in range(H):
        acc[j] = 0 if acc[j] < 0 else 1 if acc[j] > 1 else acc[j]
    for j in range(H2):
        h2[j] = net.b2[j]
    for k in range(H):
        if acc[k] != 0:
            add_row(h2, net.w2 + k * H2, acc[k], H2)
    for i in range(NUM_SEATS):
        v = net.b3[i]
        for j in range(H2):
            x = h2[j]
            x = 0 if x < 0 else 1 if x > 1 else x
            v += x * net.w3[j * NUM_SEATS + i]
        for k in range(SKIP_TERMS):
            v += net.skip[k] * skip_terms[k * NUM_SEATS + i]
        raw[i] = v
    # R33: a team's score is its seats' mean; its value its share of the win (team_values)
    for i in range(NUM_SEATS):
        score[i] = 0
        members[i] = 0
    for i in range(NUM_SEATS):
        if teams[i] >= 0:
            score[teams[i]] += raw[i]
            members[teams[i]] += 1
    for i in range(NUM_SEATS):
        present[i] = members[i] > 0
        if members[i]:
            score[i] /= members[i]
    team_values(score, present, value)
    for i in range(NUM_SEATS):
        out[(p + i) % NUM_SEATS] = value[teams[i]] if teams[i] >= 0 else 0.0


cdef inline double row_dot(const float* row, const float* h1, int H) noexcept nogil:
    """``[h1, 1] . row`` (a policy row: ``H`` weights, then its bias)."""
    cdef double v = row[H]
    cdef int j
    for j in range(H):
        v += row[j] * h1[j]
    return v


cdef void network_priors(const StateC* s, const RulesC* r, const NetworkC* net,
                         const float* h1, const int32_t* actions, int n,
                         double* priors) noexcept nogil:
    """The policy head's priors (the module's docstring) over ``s``'s ``n`` legal
    ``actions`` (gen_actions order) into ``priors``, from ``h1``, the first layer of ``s``
    (network_evaluate's ``acc``). The network must have a policy head and a block for the
    board."""
    cdef int H = net.hidden, i, word, start = net.cell_start[network_block(r, net)]
    cdef const unsigned char* col = r.view[s.turn.to_move]
    cdef double top = -1e300, logit
    cdef double capture = net.policy_capture[0]
    capture_priors(s, actions, n, priors)
    for i in range(n):
        if actions[i] < WORD_STOP:
            logit = row_dot(net.policy_from + (start + col[code_origin(actions[i])]) * (H + 1), h1, H) \
                + row_dot(net.policy_to + (start + col[code_target(actions[i])]) * (H + 1), h1, H)
            if net.policy_pair != NULL:
                logit += net.policy_pair[(start + col[code_target(actions[i])]) * NUM_KINDS
                                         + info_kind(s.cells[code_origin(actions[i])].info)]
        else:
            word = (actions[i] - WORD_STOP) // (WORD_END - WORD_STOP)      # stop, end, pass
            logit = row_dot(net.policy_word + word * (H + 1), h1, H)
        priors[i] = logit + capture * log(priors[i])
        if priors[i] > top:
            top = priors[i]
    for i in range(n):
        priors[i] = exp(priors[i] - top)


cdef const float* float_pointer(array):
    """The first float of a C-ordered float32 array (kept alive by its holder)."""
    cdef const float[::1] flat = array.reshape(-1)
    return &flat[0]


cdef class NetworkCore:
    """A network's weights as C arrays (float32, C order; kept alive here, never written),
    for the searches: made by victorus.evaluation.network.Network from its arrays, which it
    has checked. ``block_cells``: the cells of each board it has rows for; ``block_rims``:
    each board's largest hex distance from the centre (the race's closeness, R28)."""

    def __init__(self, arrays, block_cells, block_rims):
        names = ("w1", "wd", "b1", "w2", "b2", "w3", "b3", "skip")
        if any(name in arrays for name in POLICY_NAMES + (POLICY_PAIR,)):
            names += POLICY_NAMES
        if POLICY_PAIR in arrays:
            names += (POLICY_PAIR,)
        # Copies over immutable bytes: read-only for good (no setflags(write=True) while
        # threads read them), alive as long as this object.
        held = {}
        for name in names:
            array = np.ascontiguousarray(arrays[name], dtype=np.float32)
            held[name] = np.frombuffer(array.tobytes(), dtype=np.float32).reshape(array.shape)
        H, H2 = held["b1"].shape[0], held["b2"].shape[0]
        starts, total = [], 0
        for cells in block_cells:
            starts.append(total)
            total += block_rows(cells)
        cells = sum(block_cells)
        expect = {"w1": (total, H), "wd": (DENSE_INPUTS, H), "b1": (H,), "w2": (H, H2),
                  "b2": (H2,), "w3": (H2, NUM_SEATS), "b3": (NUM_SEATS,), "skip": (SKIP_TERMS,),
                  "policy_from": (cells, H + 1), "policy_to": (cells, H + 1),
                  "policy_word": (NUM_ID_WORDS, H + 1), "policy_capture": (1,),
                  POLICY_PAIR: (cells, NUM_KINDS)}
        if len(block_cells) != NETWORK_BOARDS or len(set(block_cells)) != NETWORK_BOARDS \
                or not all(0 < c <= MAX_CELLS for c in block_cells) \
                or not 1 <= H <= MAX_HIDDEN or not 1 <= H2 <= MAX_HIDDEN:
            raise ValueError(f"a network has {NETWORK_BOARDS} board blocks of distinct sizes "
                             f"and 1-{MAX_HIDDEN} units a layer")
        for name in names:
            if held[name].shape != expect[name]:
                raise ValueError(f"network array {name!r} has shape {held[name].shape}, "
                                 f"expected {expect[name]}")
            if not np.isfinite(held[name]).all():
                raise ValueError(f"network array {name!r} holds a value that is not finite")
        self.arrays, self.block_cells = MappingProxyType(held), tuple(int(c) for c in block_cells)
        self.c.hidden, self.c.hidden2 = H, H2
        cells = 0
        for b in range(NETWORK_BOARDS):
            self.c.block_cells[b], self.c.block_start[b] = block_cells[b], starts[b]
            self.c.block_rim[b] = block_rims[b]
            self.c.cell_start[b] = cells
            cells += block_cells[b]
        self.c.w1 = float_pointer(held["w1"])
        self.c.wd = float_pointer(held["wd"])
        self.c.b1 = float_pointer(held["b1"])
        self.c.w2 = float_pointer(held["w2"])
        self.c.b2 = float_pointer(held["b2"])
        self.c.w3 = float_pointer(held["w3"])
        self.c.b3 = float_pointer(held["b3"])
        self.c.skip = float_pointer(held["skip"])
        self.c.policy_from = self.c.policy_to = self.c.policy_word = self.c.policy_capture = NULL
        self.c.policy_pair = NULL
        if "policy_from" in held:
            self.c.policy_from = float_pointer(held["policy_from"])
            self.c.policy_to = float_pointer(held["policy_to"])
            self.c.policy_word = float_pointer(held["policy_word"])
            self.c.policy_capture = float_pointer(held["policy_capture"])
        if POLICY_PAIR in held:
            self.c.policy_pair = float_pointer(held[POLICY_PAIR])

    @property
    def policy(self):
        """Whether the network has a policy head."""
        return self.c.policy_from != NULL

    def covers(self, Engine engine):
        """Whether the network has rows for ``engine``'s board."""
        return network_block(&engine.rules.c, &self.c) >= 0

    def evaluate(self, Engine engine):
        """Per seat (6 floats): the value of ``engine``'s position."""
        cdef float out[NUM_SEATS]
        cdef float acc[MAX_HIDDEN]
        cdef float h2[MAX_HIDDEN]
        if network_block(&engine.rules.c, &self.c) < 0:
            raise ValueError("the network has no rows for this board")
        network_evaluate(&engine.s, &engine.rules.c, &self.c, acc, h2, out)
        return tuple(out[a] for a in range(NUM_SEATS))

    def priors(self, Engine engine):
        """The policy head's priors over ``engine``'s legal actions (gen_actions order,
        normalised; empty when the game is over)."""
        cdef float out[NUM_SEATS]
        cdef float acc[MAX_HIDDEN]
        cdef float h2[MAX_HIDDEN]
        cdef int32_t actions[MAX_ACTIONS]
        cdef double priors[MAX_ACTIONS]
        cdef int n, i
        if self.c.policy_from == NULL:
            raise ValueError("the network has no policy head")
        if network_block(&engine.rules.c, &self.c) < 0:
            raise ValueError("the network has no rows for this board")
        if engine.s.result != RESULT_NONE:
            return ()
        n = gen_actions(&engine.s, &engine.rules.c, actions)
        network_evaluate(&engine.s, &engine.rules.c, &self.c, acc, h2, out)
        network_priors(&engine.s, &engine.rules.c, &self.c, acc, actions, n, priors)
        total = sum(priors[i] for i in range(n))
        return tuple(priors[i] / total for i in range(n))


def engine_inputs(Engine engine):
    """The inputs of ``engine``'s position (for training and tests): the sparse rows
    within the board's block (int32), the dense inputs (float32 [DENSE_INPUTS]), the
    heuristic's terms of each seat's team (float32 [SKIP_TERMS, NUM_SEATS]) and each
    seat's team (int8 [NUM_SEATS], -1: not present), seats counted from the army to act."""
    cdef int32_t rows[MAX_SPARSE]
    cdef float dense[DENSE_INPUTS]
    cdef float skip_terms[SKIP_TERMS * NUM_SEATS]
    cdef int teams[NUM_SEATS]
    cdef int n = network_inputs(&engine.s, &engine.rules.c, board_rim(&engine.rules.c), rows,
                                dense, skip_terms, teams), i
    return (np.array([rows[i] for i in range(n)], dtype=np.int32),
            np.array([dense[i] for i in range(DENSE_INPUTS)], dtype=np.float32),
            np.array([skip_terms[i] for i in range(SKIP_TERMS * NUM_SEATS)],
                     dtype=np.float32).reshape(SKIP_TERMS, NUM_SEATS),
            np.array([teams[i] for i in range(NUM_SEATS)], dtype=np.int8))


def engine_policy_inputs(Engine engine):
    """The policy head's inputs of ``engine``'s legal actions (gen_actions order; for
    training and tests): each action's origin column (-1: a word), its target column (a
    word: its number, stop 0, end 1, pass 2) and log(capture_priors), in the frame of the
    army to act."""
    cdef int32_t actions[MAX_ACTIONS]
    cdef double base[MAX_ACTIONS]
    cdef const unsigned char* col = engine.rules.c.view[engine.s.turn.to_move]
    cdef int n = 0, i
    if engine.s.result == RESULT_NONE:
        n = gen_actions(&engine.s, &engine.rules.c, actions)
    capture_priors(&engine.s, actions, n, base)
    origin = np.full(n, -1, dtype=np.int32)
    target = np.zeros(n, dtype=np.int32)
    for i in range(n):
        if actions[i] < WORD_STOP:
            origin[i] = col[code_origin(actions[i])]
            target[i] = col[code_target(actions[i])]
        else:
            target[i] = (actions[i] - WORD_STOP) // (WORD_END - WORD_STOP)
    return origin, target, np.array([log(base[i]) for i in range(n)], dtype=np.float32)


def block_size(int ncells):
    """The rows of a board's block in the first layer."""
    return block_rows(ncells)


def evaluate_many(list engines, NetworkCore network, int repeat):
    """Evaluate every engine's position ``repeat`` times without the GIL: by ``network``,
    or by the heuristic evaluation (its default weights) when it is None. Returns the
    evaluations made (``victorus bench`` times it: the cost of a leaf)."""
    cdef Py_ssize_t count = len(engines), i
    cdef int _repeat
    cdef float out[NUM_SEATS]
    cdef float acc[MAX_HIDDEN]
    cdef float h2[MAX_HIDDEN]
    cdef EvalWeights weights
    cdef const StateC** states = <const StateC**>malloc(count * sizeof(StateC*))
    cdef const RulesC** rules = <const RulesC**>malloc(count * sizeof(RulesC*))
    cdef const NetworkC* net = NULL if network is None else &network.c
    if states == NULL or rules == NULL:
        free(states)
        free(rules)
        raise MemoryError()
    default_weights(&weights)
    try:
        for i in range(count):
            states[i] = &(<Engine>engines[i]).s
            rules[i] = &(<Engine>engines[i]).rules.c
            if net != NULL and network_block(rules[i], net) < 0:
                raise ValueError("the network has no rows for this board")
        with nogil:
            for _repeat in range(repeat):
                for i in range(count):
                    if net != NULL:
                        network_evaluate(states[i], rules[i], net, acc, h2, out)
                    else:
                        evaluate(states[i], rules[i], &weights, out)
    finally:
        free(states)
        free(rules)
    return count * repeat


ctypedef struct NetworkWorkspace:
    float* acc                       # the first layer, hidden floats
    float* h2                        # the second, hidden2
    # The value computed with the last priors, for the value asked next of the same
    # position (a search asks for a leaf's priors, then its value): valid while ``state``
    # is byte for byte the position asked.
    bint cached
    const RulesC* rules
    float value[NUM_SEATS]
    StateC state


cdef void* network_workspace_new(const EvaluatorC* e) noexcept nogil:
    """A thread's room for the network's two layers."""
    cdef const NetworkC* net = <const NetworkC*>e.params
    cdef NetworkWorkspace* w = <NetworkWorkspace*>malloc(sizeof(NetworkWorkspace))
    if w == NULL:
        return NULL
    w.cached = False
    w.acc = <float*>malloc(net.hidden * sizeof(float))
    w.h2 = <float*>malloc(net.hidden2 * sizeof(float))
    if w.acc == NULL or w.h2 == NULL:
        network_workspace_free(e, w)
        return NULL
    return w


cdef void network_workspace_free(const EvaluatorC* e, void* workspace) noexcept nogil:
    cdef NetworkWorkspace* w = <NetworkWorkspace*>workspace
    free(w.acc)
    free(w.h2)
    free(w)


cdef void network_value(const EvaluatorC* e, void* workspace, const StateC* s,
                        const RulesC* r, uint64_t* rng, float* out) noexcept nogil:
    """The evaluator's ValueFn: network_evaluate in this thread's workspace (the value the
    priors of the same position computed, if they were the last asked)."""
    cdef NetworkWorkspace* w = <NetworkWorkspace*>workspace
    if w.cached and w.rules == r and memcmp(&w.state, s, sizeof(StateC)) == 0:
        memcpy(out, w.value, NUM_SEATS * sizeof(float))
    else:
        network_evaluate(s, r, <const NetworkC*>e.params, w.acc, w.h2, out)
    w.cached = False


cdef void network_priors_fn(const EvaluatorC* e, void* workspace, const StateC* s,
                            const RulesC* r, const int32_t* actions, int n, uint64_t* rng,
                            double* priors) noexcept nogil:
    """The evaluator's PriorsFn (a network with a policy head): network_priors from the
    first layer of a whole evaluation, whose value is kept for the next ValueFn call."""
    cdef NetworkWorkspace* w = <NetworkWorkspace*>workspace
    cdef const NetworkC* net = <const NetworkC*>e.params
    w.cached = False
    if n == 0 or s.result != RESULT_NONE or network_block(r, net) < 0:
        capture_priors(s, actions, n, priors)
        return
    network_evaluate(s, r, net, w.acc, w.h2, w.value)
    network_priors(s, r, net, w.acc, actions, n, priors)
    memcpy(&w.state, s, sizeof(StateC))
    w.rules = r
    w.cached = True


@cython.no_gc_clear
cdef class NetworkEvaluator(Evaluator):
    """``network(name)``: the learned evaluation of ``network`` (a
    victorus.evaluation.network.Network, whose ``core`` holds its C weights); its priors
    are its policy head's (a network without one: none of its own). ``name``: how the spec
    names it ("default", a file's path)."""

    def __init__(self, network, str name):
        made_once(self)
        core = network.core
        if not isinstance(core, NetworkCore):
            raise TypeError(f"network.core must be a NetworkCore, got {type(core).__name__}")
        self.network, self.inner = network, core
        self.args = (network, name)
        self.c.value = network_value
        if (<NetworkCore>core).c.policy_from != NULL:
            self.c.priors = network_priors_fn
        self.c.params = &(<NetworkCore>core).c
        self.c.workspace_new, self.c.workspace_free = network_workspace_new, network_workspace_free
        self.spec = f"network({name})"

    def covers(self, Engine engine):
        """Whether the network has rows for ``engine``'s board."""
        return network_block(&engine.rules.c, <const NetworkC*>self.c.params) >= 0
