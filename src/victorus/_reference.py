"""Slow, obviously-correct leg generator, for differential tests and benchmarks only.

It follows the wording of the rulings (docs/rules.md) step by step on axial coordinates (R1, R4,
R8, R12-R14, R19, R20, R28) and shares nothing with the core's tables except
the set of cells and the kingdom owners of [`Board`][victorus.geometry.Board].
The R4 flank table is copied verbatim from the rules on purpose.

`ReferencePosition` has the interface of the core's ``Position`` (bit
masks in, sorted cell lists out), so the pure-Python game can run on either.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from .geometry import DIRECTION_VECTORS, Board, hex_distance, rotate

if TYPE_CHECKING:
    from ._core import BoardTables

#: A cell (or a step) in axial coordinates (q, r).
Coord = tuple[int, int]

#: R4, verbatim: spoke step -> its two flank offsets from the start cell.
FLANK_OFFSETS: dict[Coord, tuple[Coord, Coord]] = {
    (2, -1): ((1, -1), (1, 0)),
    (1, -2): ((0, -1), (1, -1)),
    (-1, -1): ((-1, 0), (0, -1)),
    (-2, 1): ((-1, 1), (-1, 0)),
    (-1, 2): ((0, 1), (-1, 1)),
    (1, 1): ((1, 0), (0, 1)),
}
EDGE_VECTORS = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
CENTRE = (0, 0)


COLOR_NAMES = ("white", "grey")


def _names(colors: int) -> tuple[str, ...]:
    return tuple(name for bit, name in enumerate(COLOR_NAMES) if (colors >> bit) & 1)


def _dirs(mask: int) -> list[int]:
    return [d for d in range(12) if (mask >> d) & 1]


class ReferencePosition:
    """Pieces as a dict ``{(q, r): army}``; legs computed from coordinates."""

    def __init__(self, board: Board | BoardTables, teams: Sequence[int] = (0, 1, 2, 3, 4, 5),
                 live: int = 0x3F) -> None:
        # Accepts a Board or, like the core, a board's tables (then board is looked up).
        self.board: Board = board if isinstance(board, Board) else _board_of(board)
        self.teams = tuple(teams)
        self.live = live
        self.pieces: dict[Coord, int] = {}

    def put(self, index: int, army: int) -> None:
        self.pieces[self.board.coords[index]] = army

    def remove(self, index: int) -> None:
        del self.pieces[self.board.coords[index]]

    def copy(self) -> ReferencePosition:
        other = ReferencePosition(self.board, self.teams, self.live)
        other.pieces = dict(self.pieces)
        return other

    def set_live(self, live: int) -> None:
        self.live = live

    def occupied(self, army: int | None = None) -> list[int]:
        return sorted(self.board.index_of_coords[c] for c, a in self.pieces.items()
                      if army is None or a == army)

    # -- facts from the rule text ----------------------------------------------
    def on_board(self, c: Coord) -> bool:
        return c in self.board.index_of_coords

    def color(self, c: Coord) -> str:
        if c == CENTRE:
            return "centre"
        return "white" if hex_distance(*c) % 2 == 0 else "grey"

    def live_kingdom(self, c: Coord) -> int | None:
        """The live kingdom a cell belongs to (R7, R8, R30), or None."""
        owner = self.board.kingdoms[self.board.index_of_coords[c]]
        if owner is None or not (self.live >> owner) & 1:
            return None
        return owner

    def walled(self, cells: Iterable[Coord]) -> bool:
        """R8: the cells of one step touch two different live kingdoms."""
        kingdoms = {self.live_kingdom(c) for c in cells if self.on_board(c)} - {None}
        return len(kingdoms) >= 2

    def blocking(self, c: Coord) -> bool:
        """R12: a flank blocks if it holds a piece or is the centre (off board: never)."""
        return self.on_board(c) and (c == CENTRE or c in self.pieces)

    def enemy(self, c: Coord, army: int) -> bool:
        return c in self.pieces and self.teams[self.pieces[c]] != self.teams[army]

    def may_capture(self, start: Coord, target: Coord, army: int, colors: Sequence[str],
                    nocap_kingdom: int | None) -> bool:
        """R20 (and R37(c) when ``nocap_kingdom`` is given)."""
        if not self.enemy(target, army) or self.color(target) not in colors:
            return False
        ks, kt = self.live_kingdom(start), self.live_kingdom(target)
        if ks is not None and kt is not None and ks != kt:
            return False
        return nocap_kingdom is None or kt != nocap_kingdom

    # -- legs (the core's interface: bit masks in, sorted cell lists out) ----------
    def leg(self, index: int, army: int, dirs: int, colors: int, capture: bool = True,
            single: bool = False, gate: int = -1, entry: bool = False,
            nocap_kingdom: int = -1) -> tuple[list[int], list[int]]:
        """Quiet and capture destinations of one leg, as sorted cell indices."""
        directions, names = _dirs(dirs), _names(colors)
        gate_kingdom = None if gate < 0 else gate
        nocap = None if nocap_kingdom < 0 else nocap_kingdom
        start = self.board.coords[index]
        quiet: set[Coord] = set()
        captures: set[Coord] = set()
        if gate_kingdom is not None and self.board.kingdoms[index] != gate_kingdom:
            return [], []
        portal = rotate(0, 1, army)
        up = rotate(0, -1, army)
        for d in directions:
            dq, dr = DIRECTION_VECTORS[d]
            cur = start
            while True:
                nxt = (cur[0] + dq, cur[1] + dr)
                if not self.on_board(nxt):
                    break
                flanks: list[Coord] = []
                if (dq, dr) in FLANK_OFFSETS:
                    flanks = [(cur[0] + a, cur[1] + b) for a, b in FLANK_OFFSETS[(dq, dr)]]
                if self.walled([cur, nxt] + flanks):
                    break
                if flanks and all(self.blocking(f) for f in flanks):
                    break
                if (gate_kingdom is not None
                        and self.board.kingdoms[self.board.index_of_coords[nxt]] != gate_kingdom):
                    break
                if nxt == CENTRE:
                    if entry and cur == portal and (dq, dr) == up:
                        quiet.add(nxt)
                    break
                if nxt in self.pieces:
                    if capture and self.may_capture(start, nxt, army, names, nocap):
                        captures.add(nxt)
                    break
                if self.color(nxt) in names:
                    quiet.add(nxt)
                if single:
                    break
                cur = nxt
        index_of = self.board.index_of_coords
        return sorted(index_of[c] for c in quiet), sorted(index_of[c] for c in captures)

    def strategic_step(self, index: int, army: int, colors: int, normal_dirs: int) -> list[int]:
        """R13: one edge step to an empty cell of the color, unless a normal leg."""
        start = self.board.coords[index]
        normal, _ = self.leg(index, army, normal_dirs, colors, capture=False)
        names = _names(colors)
        out = []
        for dq, dr in EDGE_VECTORS:
            nxt = (start[0] + dq, start[1] + dr)
            if (self.on_board(nxt) and nxt != CENTRE and nxt not in self.pieces
                    and self.color(nxt) in names and not self.walled([start, nxt])):
                out.append(self.board.index_of_coords[nxt])
        return sorted(set(out) - set(normal))

    def pivot(self, index: int, army: int, colors: int,
              nocap_kingdom: int = -1) -> tuple[list[int], list[int]]:
        """R14: a step to one of the pivot cell's same-colored neighbours.

        ``colors`` is the Hospitaller's edge color, the pivot cell's own color.
        """
        nocap = None if nocap_kingdom < 0 else nocap_kingdom
        start = self.board.coords[index]
        color = self.color(start)
        quiet: list[int] = []
        captures: list[int] = []
        for dq, dr in EDGE_VECTORS:
            nxt = (start[0] + dq, start[1] + dr)
            if not self.on_board(nxt) or self.color(nxt) != color or self.walled([start, nxt]):
                continue
            if nxt not in self.pieces:
                quiet.append(self.board.index_of_coords[nxt])
            elif self.may_capture(start, nxt, army, (color,), nocap):
                captures.append(self.board.index_of_coords[nxt])
        return sorted(quiet), sorted(captures)

    def travel(self, index: int, army: int, colors: int) -> list[int]:
        """R14: spoke slides to empty cells of the color with a pivot after them."""
        spokes = sum(1 << d for d, v in enumerate(DIRECTION_VECTORS) if v in FLANK_OFFSETS)
        ends, _ = self.leg(index, army, spokes, colors, capture=False)
        start = self.board.coords[index]
        mover = self.pieces.pop(start, None)      # the piece has left its start cell
        try:
            return [p for p in ends if any(self.pivot(p, army, colors))]
        finally:
            if mover is not None:
                self.pieces[start] = mover


def _board_of(tables: BoardTables) -> Board:
    for name in ("standard", "compact"):
        if Board(name).tables is tables:
            return Board(name)
    raise ValueError("unknown board tables")
