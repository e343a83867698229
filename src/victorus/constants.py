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


def leg_key(origin: int, target: int, capture: bool) -> int:
    """The notation key of a leg."""
    return origin | target << TARGET_SHIFT | (CAPTURE_FLAG if capture else 0)


#: Slots of a board's table of Action objects: one per leg key, then one per word code
#: (``code >> 24``: 1-4). The engine indexes it the same way (``Engine.legal_actions``).
ACTION_SLOTS = KEY_MASK + 1 + (WORD_FORFEIT >> 24) + 1


def action_slot(key: int) -> int:
    """Where a notation key's Action is kept in its board's table."""
    return key if key <= KEY_MASK else KEY_MASK + (key >> 24)


# -- the Cython include ------------------------------------------------------------------
def _mask(kinds) -> int:
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
        "NUM_PLANES": len(PLANES),
        **{f"PLANE_{name.upper()}": i for i, name in enumerate(PLANES)},
    }
    lines = ["# Generated from src/victorus/constants.py by the build: do not edit.", "",
             "cdef enum:"]
    lines += [f"    {name} = {value}" for name, value in enums.items()]
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
