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
from types import ModuleType
from typing import TYPE_CHECKING, Any, Literal, overload

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

if TYPE_CHECKING:
    import numpy
    from numpy.typing import ArrayLike, NDArray

    from .game import Game
    from .notation import Action

PLANE_INDEX = {name: i for i, name in enumerate(PLANES)}
"""Each plane's row in an observation, by its name (`PLANES` order)."""
WORDS = ID_WORDS
"""The word actions after the N x N leg ids, in id order: stop, end, pass (R38)."""
ARMY_PIECES = max(len(army) for army in SETUP.values())
"""Pieces of one army at setup (R35; 12 on both boards): the most any army can hold is the other
five armies' (R20; pieces are never made, and team mates never capture)."""


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

    Args:
        max_actions: The game's cap on actions (R36); None for no cap (the growing
            counts are then unbounded: ``inf``).

    Returns:
        Each count plane's name (``"tally"``, ``"held3"``...) and its ``(low, high)``.
    """
    grown = math.inf if max_actions is None else float(max_actions)
    return {"tally": (0.0, 2 * grown), "laps": (-grown, grown), "round": (0.0, 1 + grown),
            "passes": (0.0, float(NUM_SEATS)), "pending": (0.0, 2 * grown),
            **{f"knight_captures{a}": (0.0, float(KNIGHT_CAPTURES_SEEN)) for a in range(NUM_SEATS)},
            **{f"held{a}": (0.0, float((NUM_SEATS - 1) * ARMY_PIECES)) for a in range(NUM_SEATS)}}


_np: ModuleType | None = None   # numpy, imported on first use (tensors need it; games do not)


def _numpy() -> ModuleType:
    global _np
    try:
        import numpy
    except ImportError:
        raise MissingDependencyError("victorus tensors need numpy, a dependency of victorus: "
                                     "pip install numpy") from None
    _np = numpy
    return numpy


@overload
def observation_bounds(cells: int, dtype: Literal["float32"] = "float32", max_actions: int | None = None
                       ) -> tuple[NDArray[numpy.float32], NDArray[numpy.float32]]: ...
@overload
def observation_bounds(cells: int, dtype: Literal["uint8"], max_actions: int | None = None
                       ) -> tuple[NDArray[numpy.uint8], NDArray[numpy.uint8]]: ...
@overload
def observation_bounds(cells: int, dtype: str = "float32", max_actions: int | None = None
                       ) -> tuple[NDArray[numpy.float32], NDArray[numpy.float32]] | \
        tuple[NDArray[numpy.uint8], NDArray[numpy.uint8]]: ...
def observation_bounds(cells: int, dtype: str = "float32", max_actions: int | None = None
                       ) -> tuple[NDArray[numpy.float32], NDArray[numpy.float32]] | \
        tuple[NDArray[numpy.uint8], NDArray[numpy.uint8]]:
    """(low, high), two ``[planes, cells]`` arrays of ``dtype``: the values each plane can
    hold in a game capped at ``max_actions`` actions (R36; None: no cap), for gymnasium's
    and PettingZoo's Box spaces. Marks hold 0 or 1, counts what `count_plane_bounds` gives
    divided by their scale (PLANE_SCALES), rounded as the engine rounds them; uint8 planes
    hold 0-255. Without a cap, the round, laps, tally and pending planes are unbounded.

    Args:
        cells: The board's number of cells (``len(board)``).
        dtype: The planes' dtype: ``"float32"`` or ``"uint8"``.
        max_actions: The game's cap on actions (R36); None for no cap.

    Returns:
        ``(low, high)``: two ``[planes, cells]`` arrays of ``dtype``.
    """
    np = _numpy()
    shape = (len(PLANES), cells)
    if dtype == "uint8":
        return np.zeros(shape, np.uint8), np.full(shape, 255, np.uint8)
    low: NDArray[numpy.float32] = np.zeros(shape, np.float32)
    high: NDArray[numpy.float32] = np.ones(shape, np.float32)
    for name, (lo, hi) in count_plane_bounds(max_actions).items():
        scale = PLANE_SCALES.get(name.rstrip("012345"), 1)
        low[PLANE_INDEX[name]], high[PLANE_INDEX[name]] = lo / scale, hi / scale
    return low, high


def num_actions(board: Board) -> int:
    """Size of the board's fixed action space.

    Args:
        board: The board.

    Returns:
        How many action ids there are: ``N * N + 3`` with ``N = len(board)``.
    """
    return num_action_ids(len(board))


def action_id(board: Board, action: Action | str) -> int:
    """The fixed id of an Action (or of its R38 string) on ``board``.

    Args:
        board: The board the ids are for.
        action: An Action, or its R38 notation (``"h3-h7"``, ``"stop"``...).

    Returns:
        The action's id (see the module documentation).

    Raises:
        NotationError: ``action`` is malformed notation, or names no cell of ``board``.
    """
    from .notation import Action, parse_action
    n = len(board)
    if not (isinstance(action, Action) and (action.word is not None or (
            0 <= min(action.origin, action.target) and max(action.origin, action.target) < n
            and action.text[:len(board.labels[action.origin])] == board.labels[action.origin]
            and action.text.endswith(board.labels[action.target])))):
        # a string, or another board's Action
        action = parse_action(board, str(action))
    if action.word is not None:
        return word_id(action.word, n)
    return leg_id(action.origin, action.target, n)


@lru_cache(maxsize=None)
def rotation(board_name: str, seat: int) -> tuple[int, ...]:
    """Column ``j`` of seat ``seat``'s view shows cell ``rotation(...)[j]``.

    Args:
        board_name: The board's name: ``"standard"`` or ``"compact"``.
        seat: The observer's seat, 0-5.

    Returns:
        The cell (R9 index) each column of the observation shows.
    """
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
    [`rotation`][victorus.tensors.rotation] (column ``j`` shows cell ``rotation(...)[j]``).

    Args:
        board: The board.
        seat: The observer's seat, 0-5.

    Returns:
        Each cell's column (by R9 index).

    Raises:
        ConfigError: ``seat`` is not a seat.
    """
    check_seat(seat)
    return _columns(board.name, seat)


def id_columns(board: Board, ids: ArrayLike, seat: int
               ) -> tuple[NDArray[numpy.int64], NDArray[numpy.int64]]:
    """Where the cells of action ids stand in ``seat``'s observation: two int arrays (the
    origin's and the target's column for each id; -1 for the words stop, end, pass).

    Observations are rotated to the observer, action ids use absolute cells (R9): a
    network reading an action's cells from the observation goes through these columns,
    e.g. ``obs[:, origin]`` with ``origin, target = id_columns(board, ids, seat)``.

    Args:
        board: The board the ids are for.
        ids: Action ids: an integer array or sequence.
        seat: The observer's seat, 0-5.

    Returns:
        ``(origin, target)``: int64 arrays of the ids' shape.

    Raises:
        ConfigError: ``seat`` is not a seat, or ``ids`` are not integers or out of range.
    """
    np = _np or _numpy()
    check_seat(seat)
    array = _id_array(ids)
    n = len(board)
    if array.size and (array.min() < 0 or array.max() >= num_action_ids(n)):
        raise ConfigError(f"action ids go from 0 to {num_action_ids(n) - 1} on the {board.name} "
                          f"board, got {int(array.min())}..{int(array.max())}")
    columns = np.asarray(_columns(board.name, seat), dtype=np.int64)
    legs = array < n * n
    origin: NDArray[numpy.int64] = np.where(legs, columns[np.where(legs, array // n, 0)], -1)
    target: NDArray[numpy.int64] = np.where(legs, columns[np.where(legs, array % n, 0)], -1)
    return origin, target


def _id_array(ids: object) -> NDArray[numpy.int64]:
    """``ids`` as an int64 array if they are integers (checks.as_int_array), else
    ConfigError."""
    array = as_int_array(ids)
    if array is None:
        raise ConfigError(f"action ids must be integers (an integer array or sequence), "
                          f"got {_describe(ids)}")
    return array.astype((_np or _numpy()).int64, copy=False)


def to_observer_ids(board: Board, ids: ArrayLike, seat: int) -> NDArray[numpy.int64]:
    """Action ids in ``seat``'s frame: a leg ``o -> t`` becomes ``column(o) * N +
    column(t)`` with the columns of ``seat``'s rotated observation; the words keep their
    ids. The ids of ``VectorGames(id_frame="observer")``; the inverse is
    [`to_absolute_ids`][victorus.tensors.to_absolute_ids].

    Args:
        board: The board the ids are for.
        ids: Action ids in the board's frame: an integer array or sequence.
        seat: The observer's seat, 0-5.

    Returns:
        The ids in ``seat``'s frame, an int64 array of the ids' shape.

    Raises:
        ConfigError: ``seat`` is not a seat, or ``ids`` are not integers or out of range.
    """
    np = _np or _numpy()
    array = _id_array(ids)
    origin, target = id_columns(board, array, seat)
    result: NDArray[numpy.int64] = np.where(origin >= 0, origin * len(board) + target, array)
    return result


def to_absolute_ids(board: Board, ids: ArrayLike, seat: int) -> NDArray[numpy.int64]:
    """The board's action ids (R9 cells) of ids in ``seat``'s frame (the inverse of
    [`to_observer_ids`][victorus.tensors.to_observer_ids]).

    Args:
        board: The board the ids are for.
        ids: Action ids in ``seat``'s frame: an integer array or sequence.
        seat: The observer's seat, 0-5.

    Returns:
        The ids in the board's frame, an int64 array of the ids' shape.

    Raises:
        ConfigError: ``seat`` is not a seat, or ``ids`` are not integers or out of range.
    """
    np = _np or _numpy()
    array = _id_array(ids)
    origin, target = id_columns(board, array, seat)          # validates the ids and seat
    n = len(board)
    cells = np.asarray(rotation(board.name, seat), dtype=np.int64)
    legs = origin >= 0
    result: NDArray[numpy.int64] = np.where(legs, cells[np.where(legs, array // n, 0)] * n
                                            + cells[np.where(legs, array % n, 0)], array)
    return result


@lru_cache(maxsize=None)
def _static_planes(board_name: str) -> NDArray[numpy.float32]:
    np = _numpy()
    board = Board(board_name)
    colors: NDArray[numpy.float32] = np.zeros((3, len(board)), dtype=np.float32)
    for i, c in enumerate(board.colors):
        colors[{WHITE: 0, GREY: 1, CENTRE: 2}[c], i] = 1.0
    return colors


def legal_action_ids(game: Game) -> NDArray[numpy.int32]:
    """int32 numpy array of the legal actions' ids, in legal_actions() order (from C).

    Args:
        game: The game.

    Returns:
        The legal ids, one per legal action.
    """
    ids: NDArray[numpy.int32] = game._engine.legal_ids((_np or _numpy()).empty)
    return ids


def legal_action_mask(game: Game, out: NDArray[numpy.bool_] | None = None) -> NDArray[numpy.bool_]:
    """numpy bool vector over the fixed action space: True where the action is legal.

    ``out``: a C-contiguous bool array of ``num_actions(board)`` entries to fill instead
    of a new one.

    Args:
        game: The game.
        out: A C-contiguous bool array of ``num_actions(board)`` entries to fill; None
            for a new one.

    Returns:
        The mask: ``out``, or a new array.

    Raises:
        ConfigError: ``out`` is not a writable C-contiguous bool array of that shape.
    """
    if out is None:
        out = (_np or _numpy()).empty(num_actions(game.board), dtype=bool)
    if not game._engine.mask_into(out):
        raise ConfigError(f"out must be a writable C-contiguous numpy bool array of shape "
                          f"({num_actions(game.board)},), got {_describe(out)}")
    return out


def action_from_id(game: Game, ident: int) -> Action:
    """The legal Action with this id; IllegalActionError if none is legal now.

    Args:
        game: The game.
        ident: An action id of the game's board.

    Returns:
        The legal action with this id.

    Raises:
        ConfigError: ``ident`` is not an integer of the action space.
        IllegalActionError: The action with this id is not legal now.
    """
    ident = _check_id(game.board, ident)
    key = game._engine.code_of_id(ident)
    if key < 0:
        raise IllegalActionError(f"action id {ident} ({describe_id(game.board, ident)}) is not "
                                 f"legal now; legal ids: {legal_action_ids(game)[:20].tolist()}")
    return game._make_action(key)


def _check_id(board: Board, ident: object) -> int:
    return check_action_id(ident, num_actions(board))


def _describe(value: object) -> str:
    dtype, shape = getattr(value, "dtype", None), getattr(value, "shape", None)
    return f"{type(value).__name__} {dtype} {shape}" if shape is not None else type(value).__name__


def describe_id(board: Board, ident: int) -> str:
    """An action id in words: the leg's cells (``"h3-h7"``) or the word (stop, end, pass).

    Args:
        board: The board the id is for.
        ident: An action id of ``board`` (not checked).

    Returns:
        The leg's origin and target labels joined by ``-``, or the word.
    """
    n = len(board)
    if not id_is_leg(ident, n):
        return WORDS[ident - n * n]
    return f"{board.labels[id_origin(ident, n)]}-{board.labels[id_target(ident, n)]}"


@overload
def observation(game: Game, seat: int, out: NDArray[numpy.float32] | None = None,
                dtype: Literal["float32"] = "float32") -> NDArray[numpy.float32]: ...
@overload
def observation(game: Game, seat: int, out: NDArray[numpy.uint8] | None = None, *,
                dtype: Literal["uint8"]) -> NDArray[numpy.uint8]: ...
@overload
def observation(game: Game, seat: int, out: NDArray[Any] | None = None, dtype: str = "float32"
                ) -> NDArray[numpy.float32] | NDArray[numpy.uint8]: ...
def observation(game: Game, seat: int, out: NDArray[Any] | None = None, dtype: str = "float32"
                ) -> NDArray[numpy.float32] | NDArray[numpy.uint8]:
    """Planes ``[len(PLANES), N]`` from ``seat``'s point of view (see module doc), written
    by the engine in C: float32 (counts divided by PLANE_SCALES) or, with
    ``dtype="uint8"``, the counts saturated at 255 (4x smaller; the vector games' uint8
    kind). ``out``: a C-contiguous array of that shape and dtype to fill instead.

    Args:
        game: The game.
        seat: The observer's seat, 0-5.
        out: A C-contiguous ``[len(PLANES), N]`` array of ``dtype`` to fill; None for a
            new one.
        dtype: ``"float32"`` or ``"uint8"``.

    Returns:
        The planes: ``out``, or a new array.

    Raises:
        ConfigError: ``seat`` is not a seat, ``dtype`` is neither kind, or ``out`` is not a
            writable C-contiguous array of that shape and dtype.
    """
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
    planes: NDArray[numpy.float32] | NDArray[numpy.uint8] = out
    return planes


# -- the slow, obviously-correct paths (tests compare the C ones against them) ----------

def legal_action_ids_reference(game: Game) -> list[int]:
    """Ids of the legal actions, in legal_actions() order, computed in Python.

    Args:
        game: The game.

    Returns:
        The legal ids, as [`legal_action_ids`][victorus.tensors.legal_action_ids] gives them.
    """
    n = len(game.board)
    return [leg_id(a.origin, a.target, n) if a.word is None else word_id(a.word, n)
            for a in game.legal_actions()]


def observation_reference(game: Game, seat: int) -> NDArray[numpy.float32]:
    """The observation computed in Python from the game's records (slow).

    Args:
        game: The game.
        seat: The observer's seat, 0-5.

    Returns:
        The float32 planes, as [`observation`][victorus.tensors.observation] gives them.

    Raises:
        ConfigError: ``seat`` is not a seat.
    """
    np = _numpy()
    check_seat(seat)
    board = game.board
    n = len(board)
    cells, armies, turn, _ = game._view()
    obs: NDArray[numpy.float32] = np.zeros((len(PLANES), n), dtype=np.float32)
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
    rotated: NDArray[numpy.float32] = obs[:, list(rotation(board.name, seat))]
    return rotated
