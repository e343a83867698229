"""A fixed action space and observation tensors for learning (numpy).

Action ids (stable for a board): a leg from cell ``o`` to cell ``t`` (R9
indices) is ``o * N + t`` with ``N = len(board)``; then ``stop = N*N``,
``end = N*N + 1``, ``pass = N*N + 2``. The capture flag is not part of the id:
in any state at most one legal leg joins two given cells (R38).

An observation is a float32 array ``[len(PLANES), N]`` seen by one seat: the
board is rotated so that this seat sits at the bottom (column ``j`` shows the
cell that stands where seat 0's cell ``j`` stands), and armies are numbered
relative to it (``(army - seat) % 6``: 0 is the observer, 1 the next seat
clockwise). Scalar features are broadcast over all cells. See
docs/adapters.md for the plane list.
"""

from __future__ import annotations

import math
from functools import lru_cache

from .checks import as_int_array, check_action_id, check_seat, shown
from .constants import (
    CENTRE,
    GREY,
    ID_WORDS,
    KING,
    KNIGHT_CAPTURES_SEEN,
    NUM_SEATS,
    PLANE_SCALES,
    PLANES,
    QUEEN,
    WHITE,
    id_is_leg,
    id_origin,
    id_target,
    leg_id,
    num_action_ids,
    word_id,
)
from .errors import ConfigError, IllegalActionError, MissingDependencyError
from .geometry import SETUP, Board, rotate

PLANE_INDEX = {name: i for i, name in enumerate(PLANES)}
WORDS = ID_WORDS
#: Pieces of one army at setup (R35; 12 on both boards): the most any army can hold is the
#: other five armies' (R20; pieces are never made, and team mates never capture).
ARMY_PIECES = max(len(army) for army in SETUP.values())


def count_plane_bounds(max_actions: int | None = None) -> dict[str, tuple[float, float]]:
    """The float32 planes that are not 0/1 marks, with the (low, high) of the counts they
    show (before PLANE_SCALES divides them).

    The rules bound some whatever the game's length: knight captures are clipped at
    KNIGHT_CAPTURES_SEEN (R19), consecutive passes end the game when they reach the live
    armies (R26), and an army holds at most the other five armies' pieces. The others grow
    with the game: an action adds at most 1 to the round, 2 to a knight's tally (R25: one
    capture a leg), 2 to the pending bonuses (R22, R37: a move's captures), and moves a
    King's or Queen's laps by at most 1 either way (R29: a leg sweeps less than 180
    degrees; placing a royal sets 0). So a game capped at ``max_actions`` (R36) bounds
    them all; without a cap they have no bound. The bounds are those of games played from
    the start position, as every environment's reset plays them: a position loaded with
    `VectorGames.set_game` brings its own round, laps and passes (R39 accepts any), and
    its observations stay within them only if it could have been reached so.
    """
    grown = math.inf if max_actions is None else float(max_actions)
    return {"tally": (0.0, 2 * grown), "laps": (-grown, grown), "round": (0.0, 1 + grown),
            "passes": (0.0, float(NUM_SEATS)), "pending": (0.0, 2 * grown),
            **{f"knight_captures{a}": (0.0, float(KNIGHT_CAPTURES_SEEN)) for a in range(NUM_SEATS)},
            **{f"held{a}": (0.0, float((NUM_SEATS - 1) * ARMY_PIECES)) for a in range(NUM_SEATS)}}


_np = None                      # numpy, imported on first use (tensors need it; games do not)


def _numpy():
    global _np
    try:
        import numpy
    except ImportError:
        raise MissingDependencyError("victorus tensors need numpy, a dependency of victorus: "
                                     "pip install numpy") from None
    _np = numpy
    return numpy


def observation_bounds(cells: int, dtype: str = "float32",
                       max_actions: int | None = None) -> tuple:
    """(low, high), two ``[planes, cells]`` arrays of ``dtype``: the values each plane can
    hold in a game capped at ``max_actions`` actions (R36; None: no cap), for gymnasium's
    and PettingZoo's Box spaces. Marks hold 0 or 1, counts what `count_plane_bounds` gives
    divided by their scale (PLANE_SCALES), rounded as the engine rounds them; uint8 planes
    hold 0-255. Without a cap, the round, laps, tally and pending planes are unbounded."""
    np = _numpy()
    shape = (len(PLANES), cells)
    if dtype == "uint8":
        return np.zeros(shape, np.uint8), np.full(shape, 255, np.uint8)
    low, high = np.zeros(shape, np.float32), np.ones(shape, np.float32)
    for name, (lo, hi) in count_plane_bounds(max_actions).items():
        scale = PLANE_SCALES.get(name.rstrip("012345"), 1)
        low[PLANE_INDEX[name]], high[PLANE_INDEX[name]] = lo / scale, hi / scale
    return low, high


def num_actions(board: Board) -> int:
    """Size of the board's fixed action space."""
    return num_action_ids(len(board))


def action_id(board: Board, action) -> int:
    """The fixed id of an Action (or of its R38 string) on ``board``."""
    from .notation import Action, parse_action
    n = len(board)
    own = isinstance(action, Action) and (action.word is not None or (
        0 <= min(action.origin, action.target) and max(action.origin, action.target) < n
        and action.text[:len(board.labels[action.origin])] == board.labels[action.origin]
        and action.text.endswith(board.labels[action.target])))
    if not own:                                         # a string, or another board's Action
        action = parse_action(board, str(action))
    if action.word is not None:
        return word_id(action.word, n)
    return leg_id(action.origin, action.target, n)


@lru_cache(maxsize=None)
def rotation(board_name: str, seat: int):
    """Column ``j`` of seat ``seat``'s view shows cell ``rotation(...)[j]``."""
    board = Board(board_name)
    return tuple(board.index_of_coords[rotate(q, r, seat)] for q, r in board.coords)


@lru_cache(maxsize=None)
def _columns(board_name: str, seat: int) -> tuple[int, ...]:
    columns = [0] * len(Board(board_name))
    for j, cell in enumerate(rotation(board_name, seat)):
        columns[cell] = j
    return tuple(columns)


def observation_columns(board: Board, seat: int) -> tuple[int, ...]:
    """The column of each cell in ``seat``'s observation: the inverse of
    [`rotation`][victorus.tensors.rotation] (column ``j`` shows cell ``rotation(...)[j]``)."""
    check_seat(seat)
    return _columns(board.name, seat)


def id_columns(board: Board, ids, seat: int):
    """Where the cells of action ids stand in ``seat``'s observation: two int arrays (the
    origin's and the target's column for each id; -1 for the words stop, end, pass).

    Observations are rotated to the observer, action ids use absolute cells (R9): a
    network reading an action's cells from the observation goes through these columns,
    e.g. ``obs[:, origin]`` with ``origin, target = id_columns(board, ids, seat)``."""
    np = _np or _numpy()
    check_seat(seat)
    ids = _id_array(ids)
    n = len(board)
    if ids.size and (ids.min() < 0 or ids.max() >= num_action_ids(n)):
        raise ConfigError(f"action ids go from 0 to {num_action_ids(n) - 1} on the {board.name} "
                          f"board, got {int(ids.min())}..{int(ids.max())}")
    columns = np.asarray(_columns(board.name, seat), dtype=np.int64)
    legs = ids < n * n
    origin = np.where(legs, columns[np.where(legs, ids // n, 0)], -1)
    target = np.where(legs, columns[np.where(legs, ids % n, 0)], -1)
    return origin, target


def _id_array(ids):
    """``ids`` as an int64 array if they are integers (checks.as_int_array), else
    ConfigError."""
    array = as_int_array(ids)
    if array is None:
        raise ConfigError(f"action ids must be integers (an integer array or sequence), "
                          f"got {_describe(ids)}")
    return array.astype((_np or _numpy()).int64, copy=False)


def to_observer_ids(board: Board, ids, seat: int):
    """Action ids in ``seat``'s frame: a leg ``o -> t`` becomes ``column(o) * N +
    column(t)`` with the columns of ``seat``'s rotated observation; the words keep their
    ids. The ids of ``VectorGames(id_frame="observer")``; the inverse is
    [`to_absolute_ids`][victorus.tensors.to_absolute_ids]."""
    np = _np or _numpy()
    ids = _id_array(ids)
    origin, target = id_columns(board, ids, seat)
    return np.where(origin >= 0, origin * len(board) + target, ids)


def to_absolute_ids(board: Board, ids, seat: int):
    """The board's action ids (R9 cells) of ids in ``seat``'s frame (the inverse of
    [`to_observer_ids`][victorus.tensors.to_observer_ids])."""
    np = _np or _numpy()
    ids = _id_array(ids)
    origin, target = id_columns(board, ids, seat)          # validates the ids and seat
    n = len(board)
    cells = np.asarray(rotation(board.name, seat), dtype=np.int64)
    legs = origin >= 0
    return np.where(legs, cells[np.where(legs, ids // n, 0)] * n
                    + cells[np.where(legs, ids % n, 0)], ids)


@lru_cache(maxsize=None)
def _static_planes(board_name: str):
    np = _numpy()
    board = Board(board_name)
    colors = np.zeros((3, len(board)), dtype=np.float32)
    for i, c in enumerate(board.colors):
        colors[{WHITE: 0, GREY: 1, CENTRE: 2}[c], i] = 1.0
    return colors


def legal_action_ids(game):
    """int32 numpy array of the legal actions' ids, in legal_actions() order (from C)."""
    return game._engine.legal_ids((_np or _numpy()).empty)


def legal_action_mask(game, out=None):
    """numpy bool vector over the fixed action space: True where the action is legal.

    ``out``: a C-contiguous bool array of ``num_actions(board)`` entries to fill instead
    of a new one.
    """
    if out is None:
        out = (_np or _numpy()).empty(num_actions(game.board), dtype=bool)
    if not game._engine.mask_into(out):
        raise ConfigError(f"out must be a writable C-contiguous numpy bool array of shape "
                          f"({num_actions(game.board)},), got {_describe(out)}")
    return out


def action_from_id(game, ident: int):
    """The legal Action with this id; IllegalActionError if none is legal now."""
    ident = _check_id(game.board, ident)
    key = game._engine.code_of_id(ident)
    if key < 0:
        raise IllegalActionError(f"action id {ident} ({describe_id(game.board, ident)}) is not "
                                 f"legal now; legal ids: {list(legal_action_ids(game)[:20])}")
    return game._make_action(key)


def _check_id(board: Board, ident) -> int:
    return check_action_id(ident, num_actions(board))


def _describe(value) -> str:
    dtype, shape = getattr(value, "dtype", None), getattr(value, "shape", None)
    return f"{type(value).__name__} {dtype} {shape}" if shape is not None else type(value).__name__


def describe_id(board: Board, ident: int) -> str:
    n = len(board)
    if not id_is_leg(ident, n):
        return WORDS[ident - n * n]
    return f"{board.labels[id_origin(ident, n)]}-{board.labels[id_target(ident, n)]}"


def observation(game, seat: int, out=None, dtype: str = "float32"):
    """Planes ``[len(PLANES), N]`` from ``seat``'s point of view (see module doc), written
    by the engine in C: float32 (counts divided by PLANE_SCALES) or, with
    ``dtype="uint8"``, the counts saturated at 255 (4x smaller; the vector games' uint8
    kind). ``out``: a C-contiguous array of that shape and dtype to fill instead."""
    if type(seat) is not int or not 0 <= seat < NUM_SEATS:
        check_seat(seat)
    if dtype not in ("float32", "uint8"):
        raise ConfigError(f"dtype must be 'float32' or 'uint8', got {shown(dtype, 60)}")
    if out is None:
        out = (_np or _numpy()).empty((len(PLANES), len(game.board)), dtype=dtype)
    write = game._engine.observation_into if dtype == "float32" else \
        game._engine.observation_into_uint8
    try:
        write(out, seat)
    except (ValueError, TypeError, BufferError):
        raise ConfigError(f"out must be a writable C-contiguous numpy {dtype} array of shape "
                          f"{(len(PLANES), len(game.board))}, got {_describe(out)}") from None
    return out


# -- the slow, obviously-correct paths (tests compare the C ones against them) ----------

def legal_action_ids_reference(game) -> list[int]:
    """Ids of the legal actions, in legal_actions() order, computed in Python."""
    n = len(game.board)
    return [leg_id(a.origin, a.target, n) if a.word is None else word_id(a.word, n)
            for a in game.legal_actions()]


def observation_reference(game, seat: int):
    """The observation computed in Python from the game's records (slow)."""
    np = _numpy()
    check_seat(seat)
    board = game.board
    n = len(board)
    cells, armies, turn, _ = game._view()
    obs = np.zeros((len(PLANES), n), dtype=np.float32)
    obs[PLANE_INDEX["cell_white"]:PLANE_INDEX["cell_centre"] + 1] = _static_planes(board.name)
    black, royal, tally, laps = (PLANE_INDEX[k] for k in ("black_edged", "royal", "tally", "laps"))
    for cell, piece in enumerate(cells):
        if piece is None:
            continue
        rel = (piece.army - seat) % NUM_SEATS
        obs[rel * 7 + piece.kind, cell] = 1.0
        if piece.kind in (KING, QUEEN):
            obs[laps, cell] = piece.laps
        else:
            obs[black, cell] = float(piece.edge == GREY)
            obs[royal, cell] = float(piece.royal)
            obs[tally, cell] = piece.tally
    for cell, owner in enumerate(board.kingdoms):
        if owner is not None and armies[owner].state != "e":
            obs[PLANE_INDEX[f"kingdom{(owner - seat) % NUM_SEATS}"], cell] = 1.0
    for cell in turn.frozen:
        obs[PLANE_INDEX["frozen"], cell] = 1.0
    if turn.self_cell >= 0:
        obs[PLANE_INDEX["self_eligible"], turn.self_cell] = 1.0
    if turn.mover >= 0:
        obs[PLANE_INDEX["moving"], turn.mover] = 1.0
    obs[PLANE_INDEX[f"phase_{turn.phase}"]] = 1.0
    obs[PLANE_INDEX[f"to_move{(turn.to_move - seat) % NUM_SEATS}"]] = 1.0
    for army in range(NUM_SEATS):
        rel = (army - seat) % NUM_SEATS
        obs[PLANE_INDEX[f"knight_captures{rel}"]] = (min(armies[army].knight_captures,
                                                          KNIGHT_CAPTURES_SEEN)
                                                      / PLANE_SCALES["knight_captures"])
        obs[PLANE_INDEX[f"held{rel}"]] = len(armies[army].held) / PLANE_SCALES["held"]
        obs[PLANE_INDEX[f"active{rel}"]] = float(armies[army].state == "a")
    obs[PLANE_INDEX["round"]] = turn.round / PLANE_SCALES["round"]
    obs[PLANE_INDEX["passes"]] = turn.passes
    obs[PLANE_INDEX["pending"]] = turn.pending
    return obs[:, list(rotation(board.name, seat))]
