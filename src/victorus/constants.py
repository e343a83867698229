"""The facts the C engine and the Python code share, written once.

Piece kinds and their letters, what each kind may do, R37 points, the action-code
layout, phases, results, army states and the sizes of the C state. The Python modules
import them from here; the build runs this file as a script to write the Cython
include ``victorus_constants.pxi`` (enums and small inline functions) that the core and
the engine compile against, so the two sides cannot drift apart. This module imports
nothing from the package, so the build can run it before anything is compiled.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence

# -- sizes ------------------------------------------------------------------------------
NUM_SEATS = 6
MAX_CELLS = 192                      # three 64-bit words per bitboard
NUM_EDGE_DIRS = 6                    # R4: direction indices 0-5 are edges, 6-11 spokes
NUM_DIRS = 12
NO_KINGDOM = NUM_SEATS               # a cell's kingdom when it is battlefield or centre
MAX_HELD = 12 * NUM_SEATS            # every piece of every army
GATE_CAPTURES = 3                    # R19: knight captures that free King and Queen
MAX_LAPS = 1_000_000_000             # R29 laps are kept within +-this (VPN and the engine)

# -- cell colors (R5) -----------------------------------------------------------------------
WHITE, GREY, CENTRE = 0, 1, 2
COLOR_NAMES = ("white", "grey", "centre")

# -- pieces (R10) ---------------------------------------------------------------------------
TEMPLAR, TEUTONIC, BYZANTINE, EXCALIBUR, HOSPITALLER, KING, QUEEN = range(7)
NUM_KINDS = 7
PIECE_LETTERS = "TUBXHKQ"            # R39 codes, by kind
PIECE_NAMES = ("Templar", "Teutonic", "Byzantine", "Excalibur", "Hospitaller", "King", "Queen")
EDGE_LETTERS = "wb"                  # R39: white-edged (white cells), black-edged (grey cells)
NO_EDGE = 2                          # the edge of a King or Queen in the C state

ROYALS = frozenset({KING, QUEEN})                                  # R18: always two legs
KNIGHTS = frozenset(range(NUM_KINDS)) - ROYALS
PROMOTABLE = frozenset({TEMPLAR, TEUTONIC, BYZANTINE, EXCALIBUR})  # R25 (never H, K, Q)
STRATEGIC = frozenset({TEMPLAR, TEUTONIC, BYZANTINE})              # R13 strategic step

#: R37 points by kind: (regular, royal). Hospitallers, Kings and Queens are never
#: promoted, so their two values agree.
POINTS = {TEMPLAR: (2, 6), TEUTONIC: (2, 6), BYZANTINE: (2, 6), EXCALIBUR: (4, 8),
          HOSPITALLER: (5, 5), KING: (10, 10), QUEEN: (10, 10)}


def points(kind: int, royal: bool) -> int:
    """R37 points of a piece."""
    return POINTS[kind][bool(royal)]


def is_royal_mover(kind: int, royal: bool) -> bool:
    """King, Queen or royal knight: the pieces of R17, R21 and R23."""
    return kind in ROYALS or bool(royal)


def tally_value(kind: int, royal: bool) -> int:
    """R25: a capture adds 1 to a regular knight's tally, 2 for a royal knight, K or Q."""
    return 2 if is_royal_mover(kind, royal) else 1


# -- turns, results, armies --------------------------------------------------------------
PHASES = ("start", "move", "bonus")                   # R22: 'move' is inside a move
RESULTS = (None, "centre", "elimination", "round-limit", "draw")
ARMY_STATES = "aex"                                   # R39: active, eliminated, absent

#: The turn in progress, field by field, with each field's value at a turn's start (the
#: phase as its index in PHASES). The one list of them: the C state's ``TurnC`` and its
#: reset at every turn's end (victorus_constants.pxi), the engine's load and export, the
#: position key and equality, and `victorus.pieces.Turn` (checked by a test) come
#: from it. Every field is part of the position, except the round outside the quick game
#: (only R37's round limit reads it). The frozen cells (R24) are kept beside them.
TURN_FIELDS = (
    ("to_move", 0),                  # the army to act (set when a game starts)
    ("round", 1),
    ("passes", 0),                   # consecutive pass turns before this one (R26)
    ("phase", 0),                    # PHASES: start, inside a move, bonus (R22)
    ("mover", -1),                   # the cell of the piece in the middle of a move
    ("move_start", -1),              # where that move started (R17)
    ("legs", 0),                     # legs made in the current move
    ("captures", 0),                 # captures made in the current move
    ("last_capture", -1),            # the cell of the move's last capture
    ("self_cell", -1),               # the self-eligible piece (R23, R37b)
    ("self_color", -1),              # the colour of its last capture cell (R23)
    ("nocap", -1),                   # R37(c): the kingdom its self-bonus may not capture in
    ("pending", 0),                  # pending bonuses (R22, R37b)
)
#: The fields that start afresh with every turn: from the phase on (the move in progress).
NEW_TURN_FIELDS = TURN_FIELDS[[name for name, _ in TURN_FIELDS].index("phase"):]

# -- observation planes (victorus.tensors, docs/adapters.md) ----------------------------------
#: Rows of an observation, seen from one seat: "army<r>" is the army r seats after it
#: (r = 0: itself), and so on for every per-army family.
PLANES = tuple(
    [f"army{a}_{p}" for a in range(NUM_SEATS) for p in PIECE_LETTERS]   # 42: pieces
    + ["black_edged", "royal", "tally", "laps"]                         # piece details
    + ["cell_white", "cell_grey", "cell_centre"]                        # R5
    + [f"kingdom{a}" for a in range(NUM_SEATS)]                         # live kingdoms (walls)
    + ["frozen", "self_eligible", "moving"]                             # R22-R24
    + [f"phase_{p}" for p in PHASES]
    + [f"to_move{a}" for a in range(NUM_SEATS)]
    + [f"knight_captures{a}" for a in range(NUM_SEATS)]                 # R19, / 3
    + [f"held{a}" for a in range(NUM_SEATS)]                            # pieces held, / 12
    + [f"active{a}" for a in range(NUM_SEATS)]
    + ["round", "passes", "pending"])                                   # round / 100
#: float32 planes hold a count divided by its scale; uint8 planes the count, saturated at
#: 255. Knight captures are clipped at KNIGHT_CAPTURES_SEEN first (R19 needs 3).
PLANE_SCALES = {"knight_captures": 3, "held": 12, "round": 100}
KNIGHT_CAPTURES_SEEN = 30
#: Bumped with any change of PLANES, PLANE_SCALES or what a plane means: the vector env,
#: the PettingZoo env and the OpenSpiel game report it, so a network trained on one
#: version can check it is fed the same planes.
OBSERVATION_VERSION = 1
#: The observation kinds a vector of games writes: none, float32 (the counts divided by
#: their scales) or uint8 (the counts, saturated). Their indices are the C engine's OBS_*.
OBSERVATION_KINDS = (None, "float32", "uint8")

# -- actions (R15, R38) --------------------------------------------------------------------
# A leg's code is origin | target << 8 | capture << 16 | leg type << 17; ``code & KEY_MASK``
# is its notation key (what R38 shows). The words are single codes.
LEG_TYPES = ("normal", "strategic", "travel", "pivot", "self")
LEG_NORMAL, LEG_STRATEGIC, LEG_TRAVEL, LEG_PIVOT, LEG_SELF = range(5)
TARGET_SHIFT = 8
CAPTURE_FLAG = 1 << 16
LEG_TYPE_SHIFT = 17
KEY_MASK = (1 << LEG_TYPE_SHIFT) - 1
WORD_CODES = {"stop": 0x1000000, "end": 0x2000000, "pass": 0x3000000}
WORD_FORFEIT = 0x4000000             # a turn forfeited on time, written "pass"


CELL_MASK = 0xFF                     # a leg's origin and target cells: 8 bits each


def leg_key(origin: int, target: int, capture: bool) -> int:
    """The notation key of a leg."""
    return origin | target << TARGET_SHIFT | (CAPTURE_FLAG if capture else 0)


def code_origin(code: int) -> int:
    """The origin cell of a leg's code or key."""
    return code & CELL_MASK


def code_target(code: int) -> int:
    """The target cell of a leg's code or key."""
    return (code >> TARGET_SHIFT) & CELL_MASK


# -- action ids (victorus.tensors; the engine's masks and ids) ---------------------------
# A board of N cells has N * N + 3 fixed ids: a leg from cell o to cell t is o * N + t
# (the capture flag is not part of it: at most one legal leg joins two cells, R38), then
# the words in ID_WORDS order. The engine's action_id (generated below) is the same map.
ID_WORDS = tuple(WORD_CODES)         # stop, end, pass: N * N, N * N + 1, N * N + 2


def num_action_ids(n: int) -> int:
    """The size of the fixed action space of a board of ``n`` cells."""
    return n * n + len(ID_WORDS)


def leg_id(origin: int, target: int, n: int) -> int:
    return origin * n + target


def word_id(word: str, n: int) -> int:
    return n * n + ID_WORDS.index(word)


# The decoders of an id, each with its C twin generated into the Cython include below.
def id_is_leg(ident: int, n: int) -> bool:
    """Whether ``ident`` is a leg's id (not a word's) on a board of ``n`` cells."""
    return 0 <= ident < n * n


def id_origin(ident: int, n: int) -> int:
    """The origin cell of a leg's id."""
    return ident // n


def id_target(ident: int, n: int) -> int:
    """The target cell of a leg's id."""
    return ident % n


def id_in_frame(ident: int, n: int, columns: Sequence[int]) -> int:
    """A leg's id with both cells mapped through ``columns`` (a seat's view: the
    observer's frame, R9; the inverse map: back to the board's cells); any other id
    unchanged."""
    if not id_is_leg(ident, n):
        return ident
    return leg_id(columns[id_origin(ident, n)], columns[id_target(ident, n)], n)


#: Slots of a board's table of Action objects: one per leg key, then one per word code
#: (``code >> 24``: 1-4). The engine indexes it the same way (``Engine.legal_actions``).
ACTION_SLOTS = KEY_MASK + 1 + (WORD_FORFEIT >> 24) + 1


def action_slot(key: int) -> int:
    """Where a notation key's Action is kept in its board's table."""
    return key if key <= KEY_MASK else KEY_MASK + (key >> 24)


# -- the Cython include ------------------------------------------------------------------
def _mask(kinds: Iterable[int]) -> int:
    return sum(1 << k for k in kinds)


def cython_include() -> str:
    """The text of ``victorus_constants.pxi``."""
    enums = {
        "NUM_SEATS": NUM_SEATS, "MAX_CELLS": MAX_CELLS, "NUM_DIRS": NUM_DIRS,
        "NO_KINGDOM": NO_KINGDOM, "MAX_HELD": MAX_HELD, "GATE_CAPTURES": GATE_CAPTURES,
        "MAX_LAPS": MAX_LAPS,
        "EDGE_MASK": (1 << NUM_EDGE_DIRS) - 1,
        "SPOKE_MASK": ((1 << NUM_DIRS) - 1) & ~((1 << NUM_EDGE_DIRS) - 1),
        "COLOR_WHITE": WHITE, "COLOR_GREY": GREY, "COLOR_CENTRE": CENTRE,
        **{name.upper(): kind for kind, name in enumerate(
            ("templar", "teutonic", "byzantine", "excalibur", "hospitaller", "king", "queen"))},
        "NUM_KINDS": NUM_KINDS, "NO_EDGE": NO_EDGE,
        "ROYAL_KINDS": _mask(ROYALS), "PROMOTABLE_KINDS": _mask(PROMOTABLE),
        "STRATEGIC_KINDS": _mask(STRATEGIC),
        **{f"PHASE_{name.upper()}": i for i, name in enumerate(PHASES)},
        **{f"RESULT_{(name or 'none').upper().replace('-', '_')}": i
           for i, name in enumerate(RESULTS)},
        **{f"ARMY_{name}": i for i, name in enumerate(("ACTIVE", "ELIMINATED", "ABSENT"))},
        **{f"LEG_{name.upper()}": i for i, name in enumerate(LEG_TYPES)},
        "TARGET_SHIFT": TARGET_SHIFT, "CAPTURE_FLAG": CAPTURE_FLAG,
        "LEG_TYPE_SHIFT": LEG_TYPE_SHIFT, "KEY_MASK": KEY_MASK,
        **{f"WORD_{word.upper()}": code for word, code in WORD_CODES.items()},
        "WORD_FORFEIT": WORD_FORFEIT,
        "CELL_MASK": CELL_MASK, "NUM_ID_WORDS": len(ID_WORDS),
        **{f"OBS_{str(kind).upper()}": i for i, kind in enumerate(OBSERVATION_KINDS)},
        "KNIGHT_CAPTURES_SEEN": KNIGHT_CAPTURES_SEEN,
        **{f"SCALE_{name.upper()}": scale for name, scale in PLANE_SCALES.items()},
        "NUM_PLANES": len(PLANES),
        **{f"PLANE_{name.upper()}": i for i, name in enumerate(PLANES)},
    }
    lines = ["# Generated from src/victorus/constants.py by the build: do not edit.", "",
             "cdef enum:"]
    lines += [f"    {name} = {value}" for name, value in enums.items()]
    names = [name for name, _ in TURN_FIELDS]
    lines += ["    TURN_FIELD_COUNT = %d" % len(TURN_FIELDS),
              "    TURN_ROUND = %d                # the round's index among the turn fields"
              % names.index("round"),
              "", "", "# The turn in progress (constants.TURN_FIELDS): int32 fields only, so that",
              "# loops may read it as an array of TURN_FIELD_COUNT words.",
              "ctypedef struct TurnC:"]
    lines += [f"    int32_t {name}" for name in names]
    lines += ["", "", "cdef inline void turn_new_move(TurnC* t) noexcept nogil:",
              '    """The fields that start afresh with every turn, at their start values."""']
    lines += [f"    t.{name} = {value}" for name, value in NEW_TURN_FIELDS]
    words = list(WORD_CODES.values())
    assert words == sorted(words) and list(ID_WORDS) == list(WORD_CODES)   # ids follow codes
    lines += ["", "", "cdef inline int code_origin(int code) noexcept nogil:",
              "    return code & CELL_MASK", "", "",
              "cdef inline int code_target(int code) noexcept nogil:",
              "    return (code >> TARGET_SHIFT) & CELL_MASK", "", "",
              "cdef inline int num_action_ids(int n) noexcept nogil:",
              "    return n * n + NUM_ID_WORDS", "", "",
              "cdef inline int action_id(int code, int n) noexcept nogil:",
              '    """The fixed id of an action code (constants: leg_id, word_id)."""',
              "    if code >= WORD_STOP:",
              "        return n * n + (code - WORD_STOP) // (WORD_END - WORD_STOP)",
              "    return code_origin(code) * n + code_target(code)", "", "",
              "cdef inline bint id_is_leg(int ident, int n) noexcept nogil:",
              "    return 0 <= ident < n * n", "", "",
              "cdef inline int id_origin(int ident, int n) noexcept nogil:",
              "    return ident // n", "", "",
              "cdef inline int id_target(int ident, int n) noexcept nogil:",
              "    return ident % n", "", "",
              "cdef inline int id_in_frame(int ident, int n, const uint8_t* columns) noexcept nogil:",
              '    """A leg\'s id with both cells mapped through ``columns`` (constants.id_in_frame)."""',
              "    if not id_is_leg(ident, n):",
              "        return ident",
              "    return columns[id_origin(ident, n)] * n + columns[id_target(ident, n)]"]
    lines += ["", "", "cdef inline int kind_points(int kind, bint royal) noexcept nogil:",
              '    """R37 points of a piece."""']
    for kind in range(NUM_KINDS):
        regular, royal = POINTS[kind]
        lines.append(f"    if kind == {kind}:")
        lines.append(f"        return {royal} if royal else {regular}")
    lines += ["    return 0", ""]
    return "\n".join(lines)


if __name__ == "__main__":          # the build: python constants.py OUT.pxi
    with open(sys.argv[1], "w") as out:
        out.write(cython_include())
