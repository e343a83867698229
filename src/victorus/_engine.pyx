# cython: language_level=3, cdivision=True
"""The game engine in C: turn flow, bonus moves, captures, rescue, elimination, victory.

The same rules as the pure-Python :mod:`victorus._reference_game` (R13-R37),
on a fixed-size C state of 1,152 bytes. Search in C copies it to make a move
(copy-make); perft makes and unmakes quiet actions on one copy and counts its last ply
without writing it; the undo history keeps, per action, only the words of the state the
action changed (about 120 bytes), shared between copies. All legal actions of a
state come out of one call as integer codes; perft runs entirely here.
:class:`victorus.Game` is the Python face of :class:`Engine`; inputs are validated
there, so these loops run without bounds checks.

The engine is one compilation unit (every hot call inlines) written in parts, one
concern each, included below in dependency order from ``src/victorus/engine/``:
``state`` (the C state and rules records), ``apply`` (the only writer of a state),
``generate`` (legal actions), ``keys`` (position keys, equality), ``perft`` (all of
perft: make and unmake, turn starts from their parent, the hashed table, the threaded
split), ``observe`` (action ids, observation planes), ``history`` (undo
records), and ``boundary`` (StopToken, Rules, Engine, GameCore). ``_engine.pxd`` is what the
modules built on the engine see: :mod:`victorus._vector` (batched games on a thread
pool) and :mod:`victorus.search._mcts` (UCT). docs/architecture.md draws the map.
"""

# The included parts use these names (cython-lint reads this file alone).
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t  # no-cython-lint
from libc.string cimport memcmp, memcpy, memset
from libc.stdlib cimport calloc, malloc, realloc, free
from libc.math cimport fmod, lround
from cpython.exc cimport PyErr_CheckSignals
from victorus._portable cimport (MAX_THREADS, placement_t, current_cpu, placement_init,
                                 placement_avoid, placement_restore)
from cpython.list cimport PyList_New, PyList_GET_ITEM, PyList_SET_ITEM
from cpython.ref cimport Py_INCREF
from cpython.buffer cimport (PyObject_GetBuffer, PyBuffer_Release, PyBUF_WRITABLE,
                             PyBUF_C_CONTIGUOUS, PyBUF_FORMAT)

from victorus._core cimport (
    BB, LegSpec, Reads, BoardTables, gen_leg, bb_has, bb_add, bb_del, bb_clear, bb_or, popcount64, bb_count,
    bb_empty, lowest_bit, make_spec, team_friends, strategic_steps, pivot_leg, travel_leg, SPOKE_MASK,
    kind_points, MAX_LAPS, MAX_CELLS, NUM_SEATS, NUM_KINDS, NUM_DIRS, NO_KINGDOM, MAX_HELD, GATE_CAPTURES,
    KING, QUEEN, HOSPITALLER, NO_EDGE, COLOR_GREY, NUM_PLANES, PLANE_ARMY0_T, PLANE_BLACK_EDGED,
    PLANE_ROYAL, PLANE_TALLY, PLANE_LAPS, PLANE_CELL_WHITE, PLANE_KINGDOM0, PLANE_FROZEN,
    PLANE_SELF_ELIGIBLE, PLANE_MOVING, PLANE_PHASE_START, PLANE_TO_MOVE0,
    PLANE_KNIGHT_CAPTURES0, PLANE_HELD0, PLANE_ACTIVE0, PLANE_ROUND, PLANE_PASSES,
    PLANE_PENDING, ROYAL_KINDS, PROMOTABLE_KINDS, STRATEGIC_KINDS,
    PHASE_START, PHASE_MOVE, PHASE_BONUS, LEG_NORMAL, LEG_STRATEGIC, LEG_TRAVEL, LEG_PIVOT,
    LEG_SELF, ARMY_ACTIVE, ARMY_ELIMINATED, RESULT_NONE, RESULT_CENTRE, RESULT_ELIMINATION,
    RESULT_ROUND_LIMIT, RESULT_DRAW, TARGET_SHIFT, CAPTURE_FLAG, LEG_TYPE_SHIFT, KEY_MASK,
    WORD_STOP, WORD_END, WORD_PASS, WORD_FORFEIT, TurnC, TURN_FIELD_COUNT, TURN_ROUND, turn_new_move,
    code_origin, code_target, num_action_ids, action_id, KNIGHT_CAPTURES_SEEN,
    SCALE_KNIGHT_CAPTURES, SCALE_HELD, SCALE_ROUND)

from types import MappingProxyType

from victorus.constants import ARMY_STATES, PHASES, RESULTS, TURN_FIELDS

TURN_FIELD_NAMES = tuple(name for name, _ in TURN_FIELDS)
from victorus.errors import StateError

include "engine/state.pxi"
include "engine/apply.pxi"
include "engine/generate.pxi"
include "engine/keys.pxi"
include "engine/perft.pxi"
include "engine/observe.pxi"
include "engine/history.pxi"
include "engine/boundary.pxi"
