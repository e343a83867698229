"""Pieces, armies and turn records; R39 codes, R37 points, the R35 setup."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from . import constants
from .constants import EDGE_LETTERS, PIECE_LETTERS, ROYALS

if TYPE_CHECKING:
    from .geometry import Board
    from .variants import Config


class Piece(NamedTuple):
    """One piece on the board. Immutable: a change makes a new Piece."""

    army: int
    kind: int                 # TEMPLAR .. QUEEN (constants)
    edge: int | None          # WHITE or GREY stop color for knights, None for K/Q (R10)
    royal: bool = False       # royal knight (R17, R25)
    tally: int = 0            # R25 capture tally of a regular T/U/B/X
    laps: int = 0             # R29 laps k of a King or Queen

    @property
    def is_royal_mover(self) -> bool:
        """King, Queen or royal knight: the pieces R21 and R23 speak of."""
        return constants.is_royal_mover(self.kind, self.royal)

    @property
    def points(self) -> int:
        """R37 points."""
        return constants.points(self.kind, self.royal)

    @property
    def code(self) -> str:
        """R39 piece code without the seat: 'K', 'Q', 'Tw', 'Xb+', 'Ub1'."""
        if self.kind in ROYALS:
            return PIECE_LETTERS[self.kind]
        assert self.edge is not None                 # a knight has an edge (R10)
        code = PIECE_LETTERS[self.kind] + EDGE_LETTERS[self.edge]
        if self.royal:
            return code + "+"
        return code + ("1" if self.tally == 1 else "")


class Held(NamedTuple):
    """A captured piece as an army holds it (R20, R39 field 4)."""

    army: int
    kind: int
    edge: int | None
    royal: bool

    @property
    def code(self) -> str:
        if self.kind in ROYALS or self.edge is None:
            return f"{self.army}{PIECE_LETTERS[self.kind]}"
        return f"{self.army}{PIECE_LETTERS[self.kind]}{EDGE_LETTERS[self.edge]}{'+' if self.royal else ''}"

    @property
    def points(self) -> int:
        """R37 points."""
        return constants.points(self.kind, self.royal)


def piece_from_code(seat: int, code: str) -> Piece:
    """The Piece of an R39 piece code (without the seat), e.g. "Tw", "Xb+", "Ub1", "K"."""
    kind = PIECE_LETTERS.index(code[0])
    if kind in ROYALS:
        return Piece(seat, kind, None)
    edge = EDGE_LETTERS.index(code[1])
    return Piece(seat, kind, edge, royal=code.endswith("+"), tally=1 if code.endswith("1") else 0)


def setup_cells(board: Board, config: Config) -> list[Piece | None]:
    """R35: the start position's cells (Piece or None) for the present seats."""
    cells: list[Piece | None] = [None] * len(board)
    for seat in config.present:
        for code, cell in board.home_cells[seat].items():
            cells[cell] = piece_from_code(seat, code)
    return cells


class Army(NamedTuple):
    """An army's record (R39 field 4)."""

    state: str                           # 'a' active, 'e' eliminated, 'x' absent
    knight_captures: int = 0             # R19
    held: tuple[Held, ...] = ()          # Held pieces in capture order


class Turn(NamedTuple):
    """Everything about the turn in progress (immutable; replaced on change)."""

    to_move: int
    round: int = 1
    passes: int = 0                      # consecutive pass turns before this one (R26)
    phase: str = "start"                 # 'start', 'move' (inside a move) or 'bonus' (R22)
    mover: int = -1                      # cell of the piece in the middle of a move
    move_start: int = -1                 # where that move started (R17)
    legs: int = 0                        # legs made in the current move
    captures: int = 0                    # captures made in the current move
    last_capture: int = -1               # cell of the current move's last capture
    frozen: frozenset[int] = frozenset()  # cells of frozen pieces (R24)
    self_cell: int = -1                  # the self-eligible piece (R23, R37b)
    self_color: int = -1                # color of its last capture cell (R23)
    nocap: int = -1                      # R37(c): kingdom its self-bonus may not capture in
    pending: int = 0                     # pending bonuses (R22, R37b)
