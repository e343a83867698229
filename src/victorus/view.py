"""A public, read-only view of a position for evaluation and display.

``game.view()`` is a snapshot: per-cell arrays (``array.array``, no numpy needed;
``numpy.frombuffer(view.kind, numpy.int8)`` wraps one without a copy), the pieces each
army holds, R37 points, army states and the turn. Changing it changes nothing in the
game. For the hottest evaluations, ``game.material()`` and ``game.returns()`` answer
in C without building a view.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .constants import NUM_SEATS
from .pieces import Held, Piece

if TYPE_CHECKING:                      # array[int] is subscriptable at run time from 3.12 only:
    IntArray = array[int]              # typing.get_type_hints() must work on 3.10 and 3.11
else:
    IntArray = array

if TYPE_CHECKING:
    from .game import Game

ARMY_STATE_NAMES = {"a": "active", "e": "eliminated", "x": "absent"}


@dataclass(frozen=True)
class PositionView:
    """One position, cell by cell in R9 order (``game.board.labels``).

    Per cell (``array('b')`` unless said): ``army`` (seat, -1 empty), ``kind``
    (``constants`` kind numbers, -1 empty), ``edge`` (0 white, 1 grey, -1 none: empty,
    King, Queen), ``royal`` (0/1, R23), ``tally`` (R25), ``laps`` (``array('i')``, R29),
    ``frozen`` (0/1, R21). Per army (6 seats): ``held`` (R39 codes of the pieces it
    holds, in capture order), ``held_points`` and ``board_points`` (R37 points held, and
    of its own pieces on the board), ``states`` ('active', 'eliminated', 'absent') and
    ``knight_captures`` (R19). The turn: ``to_move``, ``phase``, ``round``.

    Made by ``game.view()``; the fields are its arguments, in this order.

    Args:
        army: Per cell: the seat of the piece on it, -1 if empty.
        kind: Per cell: the piece's kind (``constants`` kind numbers), -1 if empty.
        edge: Per cell: 0 white, 1 grey, -1 none (empty, King, Queen).
        royal: Per cell: 1 for a royal knight (R23), else 0.
        tally: Per cell: the piece's R25 capture tally.
        laps: Per cell: a King's or Queen's R29 laps (``array('i')``).
        frozen: Per cell: 1 for a frozen piece (R21), else 0.
        held: Per seat: R39 codes of the pieces it holds, in capture order.
        held_points: Per seat: R37 points of the pieces it holds.
        board_points: Per seat: R37 points of its own pieces on the board.
        states: Per seat: 'active', 'eliminated' or 'absent'.
        knight_captures: Per seat: its knight captures (R19).
        to_move: The seat to act.
        phase: 'start', 'move' or 'bonus' (R22).
        round: The round, counted from 1.
    """

    army: IntArray
    kind: IntArray
    edge: IntArray
    royal: IntArray
    tally: IntArray
    laps: IntArray
    frozen: IntArray
    held: tuple[tuple[str, ...], ...]
    held_points: tuple[int, ...]
    board_points: tuple[int, ...]
    states: tuple[str, ...]
    knight_captures: tuple[int, ...]
    to_move: int
    phase: str
    round: int

    def piece_code(self, cell: int) -> str | None:
        """R39 code ``<seat><piece>`` of the piece on ``cell`` (an index), or None.

        Args:
            cell: The cell's index (R9 order).

        Returns:
            The code, e.g. ``"0K"`` or ``"3Xb+"``; None for an empty cell.
        """
        army, edge = self.army[cell], self.edge[cell]
        if army < 0:
            return None
        piece = Piece(army, self.kind[cell], None if edge < 0 else edge, bool(self.royal[cell]),
                      self.tally[cell], self.laps[cell])
        return f"{army}{piece.code}"

    def pieces(self) -> list[Piece | None]:
        """Per cell: the `Piece` on it, or None."""
        return [None if army < 0 else
                Piece(army, kind, None if edge < 0 else edge, bool(royal), tally, laps)
                for army, kind, edge, royal, tally, laps
                in zip(self.army, self.kind, self.edge, self.royal, self.tally, self.laps)]

    def material(self) -> tuple[int, ...]:
        """Per seat: R37 points on the board plus points held."""
        return tuple(b + h for b, h in zip(self.board_points, self.held_points))


def cell_arrays(game: Game) -> tuple[IntArray, ...]:
    """Per cell of ``game``'s board: army, kind, edge, royal, tally, laps and frozen, read
    from the engine in one call.

    Args:
        game: The game whose position is read.

    Returns:
        Seven arrays, ``array('b')`` but laps ``array('i')``, as
        [`PositionView`][victorus.view.PositionView]'s fields of those names.
    """
    n = len(game.board)
    army, kind, edge, royal, tally, frozen = (array("b", bytes(n)) for _ in range(6))
    laps = array("i", bytes(4 * n))
    game._engine.cells_into(army, kind, edge, royal, tally, laps, frozen)
    return army, kind, edge, royal, tally, laps, frozen


def position_view(game: Game) -> PositionView:
    """The view of ``game`` (``Game.view()``).

    Args:
        game: The game whose position is read.

    Returns:
        A snapshot: changing it changes nothing in the game.
    """
    engine = game._engine
    army, kind, edge, royal, tally, laps, frozen = cell_arrays(game)
    held: list[list[str]] = [[] for _ in range(NUM_SEATS)]
    for entry in engine.held():
        held[entry[0]].append(Held(*entry[1:]).code)
    board_points, held_points = engine.material()
    states, captures = zip(*engine.armies())
    return PositionView(army, kind, edge, royal, tally, laps, frozen,
                        tuple(tuple(h) for h in held), held_points, board_points,
                        tuple(ARMY_STATE_NAMES[s] for s in states), captures,
                        engine.to_move, engine.phase, engine.round)


__all__ = ["PositionView", "position_view"]
