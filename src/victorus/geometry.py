"""Board geometry of both VICTORUS boards (R1-R11, R27-R29 angles: docs/rules.md).

Everything here is derived from the axial coordinates of R1; nothing is typed
in by hand that can be computed. A [`Board`][victorus.geometry.Board] is immutable and cached per
name, and it builds the core's lookup tables once ([`Board.tables`][victorus.geometry.Board.tables]).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .checks import shown
from .constants import (
    BYZANTINE,
    CENTRE,
    COLOR_NAMES,
    EXCALIBUR,
    GREY,
    HOSPITALLER,
    KING,
    NUM_DIRS,
    NUM_EDGE_DIRS,
    NUM_SEATS,
    QUEEN,
    TEMPLAR,
    TEUTONIC,
    WHITE,
)
from .errors import ConfigError, NotationError

if TYPE_CHECKING:                     # compiled; imported when first needed (pure-Python rules)
    from ._core import BoardTables

BOARD_NAMES = ("standard", "compact")
"""The two boards' names (R3)."""

SEAT_NAMES = ("red", "blue", "black", "green", "purple", "orange")
"""Seat colors (R6), seat 0 first."""

EDGE_DIRECTIONS = (
    ("E90", (0, -1)), ("E30", (1, -1)), ("E-30", (1, 0)),
    ("E-90", (0, 1)), ("E-150", (-1, 1)), ("E150", (-1, 0)),
)
"""R4: six edge directions then six spoke directions, as (name, (dq, dr))."""
SPOKE_DIRECTIONS = (
    ("V0", (2, -1)), ("V60", (1, -2)), ("V120", (-1, -1)),
    ("V180", (-2, 1)), ("V240", (-1, 2)), ("V300", (1, 1)),
)
DIRECTIONS = EDGE_DIRECTIONS + SPOKE_DIRECTIONS
"""R4: the twelve directions, six edges then six spokes, as (name, (dq, dr)); a direction
index (0-11) is a place in this tuple."""
DIRECTION_NAMES = tuple(name for name, _ in DIRECTIONS)
DIRECTION_VECTORS = tuple(vec for _, vec in DIRECTIONS)
EDGE_DIRS = tuple(range(NUM_EDGE_DIRS))
SPOKE_DIRS = tuple(range(NUM_EDGE_DIRS, NUM_DIRS))
assert len(DIRECTIONS) == NUM_DIRS and len(EDGE_DIRECTIONS) == NUM_EDGE_DIRS


def _dirs(*names: str) -> tuple[int, ...]:
    return tuple(DIRECTION_NAMES.index(n) for n in names)


_VERTICAL = _dirs("E90", "E-90")
_HORIZONTAL = _dirs("V0", "V180")
_DIAGONAL = _dirs("E30", "E150", "E-30", "E-150")
_SIXTY = _dirs("V60", "V120", "V240", "V300")

SEAT0_DIRECTION_SETS = {
    TEMPLAR: _VERTICAL + _HORIZONTAL,
    TEUTONIC: _DIAGONAL,
    BYZANTINE: _HORIZONTAL + _SIXTY,
    EXCALIBUR: _VERTICAL + _HORIZONTAL + _DIAGONAL,
    HOSPITALLER: SPOKE_DIRS,
    KING: _VERTICAL + _HORIZONTAL + _DIAGONAL,
    QUEEN: _VERTICAL + _HORIZONTAL + _DIAGONAL,
}
"""R11 direction sets for seat 0, per piece type (Hospitaller: travel leg)."""

SETUP = {
    "standard": {"K": "h1", "Q": "l1", "Tw": "h3", "Tb": "l3", "Uw": "i2", "Ub": "f3",
                 "Bw": "j3", "Bb": "g2", "Xw": "f1", "Xb": "j1", "Hw": "m2", "Hb": "k2"},
    "compact": {"K": "h3", "Q": "j3", "Tw": "g4", "Tb": "g6", "Uw": "i6", "Ub": "h5",
                "Bw": "k4", "Bb": "j5", "Xw": "i2", "Xb": "i4", "Hw": "l5", "Hb": "k6"},
}
"""R35 setup of red (seat 0), per board: piece code -> cell label; other seats rotate it (R6)."""


def rotate_cw(q: int, r: int) -> tuple[int, int]:
    """Rotate a cell (or vector) clockwise by 60 degrees about the centre (R6).

    Args:
        q: The axial q coordinate.
        r: The axial r coordinate.

    Returns:
        The rotated ``(q, r)``.
    """
    return -r, q + r


def rotate(q: int, r: int, turns: int) -> tuple[int, int]:
    """Rotate clockwise ``turns`` times (negative: counter-clockwise).

    Args:
        q: The axial q coordinate.
        r: The axial r coordinate.
        turns: How many 60-degree turns, clockwise (negative: counter-clockwise).

    Returns:
        The rotated ``(q, r)``.
    """
    for _ in range(turns % 6):
        q, r = rotate_cw(q, r)
    return q, r


def hex_distance(q: int, r: int) -> int:
    """R2: hex distance from the centre.

    Args:
        q: The cell's axial q coordinate.
        r: The cell's axial r coordinate.

    Returns:
        The number of edge steps from the centre.
    """
    return max(abs(q), abs(r), abs(q + r))


def edge_normal_extent(q: int, r: int) -> int:
    """R2: the edge-normal extent ``m``.

    Args:
        q: The cell's axial q coordinate.
        r: The cell's axial r coordinate.

    Returns:
        ``m``, the largest of ``|2q + r|``, ``|q + 2r|`` and ``|q - r|``.
    """
    return max(abs(2 * q + r), abs(q + 2 * r), abs(q - r))


def plane(q: int, r: int) -> tuple[float, float]:
    """R1: centre of a cell in the plane (Y up).

    Args:
        q: The cell's axial q coordinate.
        r: The cell's axial r coordinate.

    Returns:
        ``(x, y)`` of the cell's centre, in R1's units.
    """
    return 1.5 * q, -math.sqrt(3.0) * (r + q / 2.0)


def label_of(q: int, r: int) -> str:
    """R9: file letter and row number of a cell.

    Args:
        q: The cell's axial q coordinate.
        r: The cell's axial r coordinate.

    Returns:
        The label, e.g. ``"h1"`` (no on-board check).
    """
    return f"{chr(ord('a') + q + 8)}{14 - (2 * r + q)}"


def coords_of_label(label: str) -> tuple[int, int]:
    """Inverse of `label_of` (no on-board check).

    Args:
        label: A cell label, e.g. ``"h1"``.

    Returns:
        The cell's ``(q, r)``.
    """
    q = ord(label[0]) - ord("a") - 8
    row = int(label[1:])
    return q, (14 - row - q) // 2


def _seat0_projection(q: int, r: int) -> int:
    """Projection on seat 0's direction (-90 degrees), in units of sqrt(3)/2."""
    return 2 * r + q


def kingdom_owner(q: int, r: int) -> int:
    """R7: the seat a kingdom cell belongs to; corner ties go to seat s+1.

    Args:
        q: The cell's axial q coordinate.
        r: The cell's axial r coordinate.

    Returns:
        The owning seat.
    """
    projections = [_seat0_projection(*rotate(q, r, -s)) for s in range(NUM_SEATS)]
    best = max(projections)
    winners = [s for s in range(NUM_SEATS) if projections[s] == best]
    if len(winners) == 1:
        return winners[0]
    a, b = winners
    # Ties are between neighbouring seats s and s+1 (mod 6): take s+1.
    return b if (a + 1) % 6 == b else a


def winding_base(q: int, r: int, seat: int, clockwise: bool) -> float:
    """R29: signed angle (degrees) from seat direction to the cell, in (-180, 180].

    Computed in seat 0's frame so that both the seat's own ray (0) and the
    opposite ray (+180) are exact.

    Args:
        q: The cell's axial q coordinate.
        r: The cell's axial r coordinate.
        seat: The seat whose direction the angle is measured from.
        clockwise: Measure clockwise (True) or counter-clockwise (False).

    Returns:
        The angle in degrees, in (-180, 180].
    """
    q0, r0 = rotate(q, r, -seat)
    x, y = plane(q0, r0)
    if q0 == 0:
        x = 0.0
    angle = math.degrees(math.atan2(y, x)) + 90.0  # counter-clockwise from -90
    if angle > 180.0:
        angle -= 360.0
    if clockwise:
        angle = -angle
    if angle <= -180.0:
        angle += 360.0
    return angle


def theta(q: int, r: int) -> float:
    """R29: angle (degrees) of a cell's centre seen from the board centre.

    Args:
        q: The cell's axial q coordinate.
        r: The cell's axial r coordinate.

    Returns:
        ``atan2(y, x)`` of the cell's centre, in degrees.
    """
    x, y = plane(q, r)
    return math.degrees(math.atan2(y, x))


def rotate_direction(d: int, seat: int) -> int:
    """The direction index that ``d`` becomes for ``seat`` (R6, R11).

    Args:
        d: A direction index (0-11, R4) in seat 0's frame.
        seat: The seat whose frame it is turned to.

    Returns:
        The direction index for ``seat``.
    """
    vec = rotate(*DIRECTION_VECTORS[d], seat)
    return DIRECTION_VECTORS.index(vec)


def direction_set(seat: int, piece: int) -> tuple[int, ...]:
    """R11 direction indices of ``piece`` for ``seat``.

    Args:
        seat: The seat of the piece's army.
        piece: The piece's kind (``constants`` kind numbers).

    Returns:
        The direction indices, sorted.
    """
    return tuple(sorted(rotate_direction(d, seat) for d in SEAT0_DIRECTION_SETS[piece]))


_DIRECTION_MASKS: dict[tuple[int, int], int] = {}


def direction_mask(seat: int, piece: int) -> int:
    """R11 direction set of ``piece`` for ``seat`` as a bit mask (cached).

    Args:
        seat: The seat of the piece's army.
        piece: The piece's kind (``constants`` kind numbers).

    Returns:
        The mask: bit ``d`` set for each direction index ``d`` of the set.
    """
    mask = _DIRECTION_MASKS.get((seat, piece))
    if mask is None:
        mask = _DIRECTION_MASKS[(seat, piece)] = sum(1 << d for d in direction_set(seat, piece))
    return mask


def _on_board(name: str, q: int, r: int) -> bool:
    if name == "standard":
        return edge_normal_extent(q, r) <= 13
    return hex_distance(q, r) <= 6


def _is_kingdom_cell(name: str, q: int, r: int) -> bool:
    if (q, r) == (0, 0):
        return False
    if name == "standard":
        return edge_normal_extent(q, r) >= 11
    return edge_normal_extent(q, r) >= 8


class Board:
    """One of the two boards (R3): cells, labels, colors, kingdoms and steps.

    ``Board("standard")`` and ``Board("compact")`` are immutable and shared.
    Cells are addressed by index (R9 order) internally and by label publicly.

    Args:
        name: ``"standard"`` or ``"compact"``.

    Raises:
        ConfigError: ``name`` is not a board's name.
    """

    _cache: dict[str, "Board"] = {}

    def __new__(cls, name: str = "standard") -> "Board":
        if not isinstance(name, str) or name not in BOARD_NAMES:
            raise ConfigError(
                f"unknown board {shown(name, 60)}: accepted are {', '.join(map(repr, BOARD_NAMES))}")
        board = cls._cache.get(name)
        if board is None:
            board = super().__new__(cls)
            board._build(name)
            cls._cache[name] = board
        return board

    def __init__(self, name: str = "standard") -> None:
        # Nothing to do: __new__ hands out the board of ``name``, built once. Declared so
        # that the signature, Board(name), is seen where __new__'s is not (the API site).
        pass

    def _build(self, name: str) -> None:
        self.name = name
        span = range(-14, 15)
        cells = [(q, r) for q in span for r in span if _on_board(name, q, r)]
        cells.sort(key=lambda c: (14 - (2 * c[1] + c[0]), c[0]))  # (row, file), R9
        self.coords: tuple[tuple[int, int], ...] = tuple(cells)
        self.index_of_coords = {c: i for i, c in enumerate(cells)}
        self.labels: tuple[str, ...] = tuple(label_of(q, r) for q, r in cells)
        self.index_of_label = {lab: i for i, lab in enumerate(self.labels)}
        self.centre = self.index_of_coords[(0, 0)]
        self.colors = tuple(
            CENTRE if (q, r) == (0, 0) else (WHITE if hex_distance(q, r) % 2 == 0 else GREY)
            for q, r in cells)
        self.kingdoms = tuple(
            kingdom_owner(q, r) if _is_kingdom_cell(name, q, r) else None for q, r in cells)
        self.steps, self.flanks = self._build_steps()
        up = DIRECTION_NAMES.index("E90")
        self.up_dirs = tuple(rotate_direction(up, s) for s in range(NUM_SEATS))
        self.portals = tuple(self.index_of_coords[rotate(0, 1, s)] for s in range(NUM_SEATS))
        self.home_cells = tuple(
            {piece: self.index_of_coords[rotate(*coords_of_label(lab), s)]
             for piece, lab in SETUP[name].items()}
            for s in range(NUM_SEATS))
        self._tables: BoardTables | None = None

    def _build_steps(self) -> tuple[tuple[tuple[int | None, ...], ...],
                                    tuple[tuple[tuple[int | None, ...] | None, ...], ...]]:
        steps: list[tuple[int | None, ...]] = []
        flanks: list[tuple[tuple[int | None, ...] | None, ...]] = []
        index = self.index_of_coords
        for q, r in self.coords:
            row_steps: list[int | None] = []
            row_flanks: list[tuple[int | None, ...] | None] = []
            for dq, dr in DIRECTION_VECTORS:
                target = index.get((q + dq, r + dr))
                row_steps.append(target)
                if abs(dq) + abs(dr) + abs(dq + dr) == 2:  # an edge step has no flanks
                    row_flanks.append(None)
                    continue
                # Flanks: the common edge neighbours of start and end (R4).
                common = [(q + a, r + b) for a, b in DIRECTION_VECTORS[:6]
                          if hex_distance(dq - a, dr - b) == 1]
                row_flanks.append(tuple(index.get(c) for c in common))
            steps.append(tuple(row_steps))
            flanks.append(tuple(row_flanks))
        return tuple(steps), tuple(flanks)

    # -- public API ----------------------------------------------------------
    def __len__(self) -> int:
        return len(self.coords)

    def __repr__(self) -> str:
        return f"Board({self.name!r})"

    def __reduce__(self) -> tuple[type[Board], tuple[str]]:
        return (Board, (self.name,))

    def cell(self, label: str) -> int:
        """Index (R9) of a cell label; raises NotationError for an unknown label.

        Args:
            label: A cell label, e.g. ``"h1"``.

        Returns:
            The cell's index.

        Raises:
            NotationError: ``label`` is no cell of this board.
        """
        try:
            return self.index_of_label[label]
        except (KeyError, TypeError):
            raise NotationError(
                f"unknown cell {shown(label, 60)} on the {self.name} board: a cell is a file letter "
                f"and a row number, e.g. {self.labels[0]!r}..{self.labels[-1]!r}") from None

    def color(self, label: str) -> str:
        """R5 color of a cell, named as for [`cell`][victorus.geometry.Board.cell] (same
        arguments, the same NotationError for an unknown label): "white", "grey" or "centre".

        Returns:
            The color's name.
        """
        return COLOR_NAMES[self.colors[self.cell(label)]]

    def kingdom(self, label: str) -> int | None:
        """R7 owning seat of a kingdom cell, named as for [`cell`][victorus.geometry.Board.cell]
        (same arguments, the same NotationError for an unknown label); None for battlefield
        and centre.

        Returns:
            The owning seat, or None.
        """
        return self.kingdoms[self.cell(label)]

    def neighbours(self, index: int) -> tuple[int, ...]:
        """Edge-adjacent on-board cells of a cell index.

        Args:
            index: The cell's index (R9 order).

        Returns:
            The neighbours' indices.
        """
        return tuple(t for t in self.steps[index][:6] if t is not None)

    @property
    def tables(self) -> BoardTables:
        """The core's lookup tables for this board (built once)."""
        if self._tables is None:
            from ._core import BoardTables
            n = len(self)
            kmask = []
            for i in range(n):
                for d in range(12):
                    cells = [i, self.steps[i][d]]
                    flank = self.flanks[i][d]
                    if flank is not None:
                        cells.extend(flank)
                    mask = 0
                    for c in cells:
                        owner = None if c is None else self.kingdoms[c]
                        if owner is not None:
                            mask |= 1 << owner
                    kmask.append(mask)
            self._tables = BoardTables(
                n, self.centre,
                [-1 if t is None else t for row in self.steps for t in row],
                [-1 if f is None else f
                 for row in self.flanks for fl in row for f in (fl or (None, None))],
                kmask, list(self.colors),
                [6 if k is None else k for k in self.kingdoms],
                list(self.portals), list(self.up_dirs))
        return self._tables


__all__ = ["BOARD_NAMES", "DIRECTIONS", "SEAT_NAMES", "SETUP", "Board", "coords_of_label",
           "direction_mask", "direction_set", "edge_normal_extent", "hex_distance",
           "kingdom_owner", "label_of", "plane", "rotate", "rotate_cw", "rotate_direction",
           "theta", "winding_base"]
