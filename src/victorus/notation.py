"""Action notation (R38) and position notation VPN (R39)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import NamedTuple, NoReturn

from .checks import check_int, parse_int, shown
from .constants import (
    EDGE_LETTERS,
    KING,
    MAX_CELLS,
    MAX_LAPS,
    NUM_SEATS,
    PIECE_LETTERS,
    QUEEN,
    WHITE,
    WORD_CODES,
    leg_key,
)
from .errors import NotationError, StateError
from .geometry import BOARD_NAMES, SEAT_NAMES, Board
from .pieces import Army, Held, Piece, piece_from_code
from .variants import Config

WORDS = tuple(WORD_CODES)


@dataclass(frozen=True, slots=True)
class Action:
    """One action (R15): a leg ``origin -> target`` or one of the words stop/end/pass.

    ``str(action)`` is its R38 notation. Cells are indices in R9 order.

    Args:
        word: ``"stop"``, ``"end"`` or ``"pass"``; None for a leg.
        origin: A leg's origin cell (index); -1 for a word.
        target: A leg's target cell (index); -1 for a word.
        capture: Whether the leg captures.
        text: The R38 notation (filled in for a word; a leg's is made by `leg_action`).
        key: The engine's notation key (filled in for a word).

    Raises:
        NotationError: a word that is none of stop/end/pass, or a leg's cell out of range.
    """

    word: str | None
    origin: int = -1
    target: int = -1
    capture: bool = False
    text: str = field(default="", compare=False)
    key: int = field(default=0, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.word is None:
            for name in ("origin", "target"):
                check_int(f"an Action's {name} (a cell index)", getattr(self, name), 0,
                          MAX_CELLS - 1, NotationError)
        elif type(self.word) is not str or self.word not in WORDS:
            raise NotationError(f"an Action's word is one of {', '.join(WORDS)} (or None for a "
                                f"leg), got {self.word!r:.40}")
        elif not self.text:                       # Action('stop'): its notation and key
            object.__setattr__(self, "text", self.word)
            object.__setattr__(self, "key", WORD_CODES[self.word])

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Action({self.text!r})"

    @property
    def is_leg(self) -> bool:
        """True for a leg, False for a word."""
        return self.word is None


def leg_action(board: Board, origin: int, target: int, capture: bool) -> Action:
    """The Action of a leg (its text and key made from the board's labels).

    Args:
        board: The board whose labels name the cells.
        origin: The origin cell's index.
        target: The target cell's index.
        capture: Whether the leg captures (``x`` in R38 notation).

    Returns:
        The Action, e.g. ``Action('h3-h5')``.
    """
    sep = "x" if capture else "-"
    return Action(None, origin, target, capture, f"{board.labels[origin]}{sep}{board.labels[target]}",
                  leg_key(origin, target, capture))


def word_action(word: str) -> Action:
    """The Action of a word.

    Args:
        word: ``"stop"``, ``"end"`` or ``"pass"``.

    Returns:
        The Action, e.g. ``Action('pass')``.
    """
    return Action(word, text=word, key=WORD_CODES[word])


_LEG_RE = re.compile(r"([a-z])(\d{1,2})([-x])([a-z])(\d{1,2})", re.ASCII)


def parse_action(board: Board, text: object) -> Action:
    """Parse R38 notation into an Action (legality is the game's business).

    Args:
        board: The board whose cell labels the text uses.
        text: R38 notation: ``"h3-h5"``, ``"h3xh5"``, ``"stop"``, ``"end"`` or ``"pass"``
            (anything but a string is refused).

    Returns:
        The Action.

    Raises:
        NotationError: ``text`` is no string, is malformed or names an unknown cell.
    """
    if not isinstance(text, str):
        raise NotationError(f"an action is an Action or an R38 string, got {type(text).__name__}")
    if type(text) is not str:
        text = str.__str__(text)            # a str subclass: its characters, nothing it overrides
    if text in WORDS:
        return word_action(text)
    m = _LEG_RE.fullmatch(text)
    if not m:
        raise NotationError(
            f"malformed action {shown(text, 60)}: accepted are '<from>-<to>' (quiet leg), "
            f"'<from>x<to>' (capture), 'stop', 'end' or 'pass', with cell labels like 'h3'")
    origin = board.cell(m.group(1) + m.group(2))
    target = board.cell(m.group(4) + m.group(5))
    return leg_action(board, origin, target, m.group(3) == "x")


def illegal_message(text: str, legal: list[str], seat: int, phase: str) -> str:
    """Why ``text`` is refused, and what is legal instead (from the same cell if any).

    Args:
        text: The refused action's R38 text.
        legal: The R38 texts of the legal actions.
        seat: The seat to act.
        phase: Its phase: 'start', 'move' or 'bonus'.

    Returns:
        The message of the IllegalActionError.
    """
    origin = text.replace("x", "-").split("-")[0]
    same_origin = [a for a in legal if a.replace("x", "-").split("-")[0] == origin]
    if same_origin and origin not in WORDS:
        hint = f"legal from {origin}: {', '.join(same_origin)}"
    else:
        hint = f"legal now: {', '.join(legal[:20])}{' ...' if len(legal) > 20 else ''}"
    return f"{shown(text, 60)} is not legal for {SEAT_NAMES[seat]} (seat {seat}, {phase} phase); {hint}"


# -- VPN (R39) -----------------------------------------------------------------

class VPNPosition(NamedTuple):
    """A turn-start position as VPN (R39) records it: what `parse_vpn` reads and
    `format_vpn` prints.

    Args:
        board: The board.
        cells: Per cell (R9 order): the Piece on it, or None.
        to_move: The seat to move (field 3).
        armies: Per seat (6): its Army record (field 4).
        round: The round, from 1 (field 5).
        passes: Consecutive pass turns before this one (R26, field 5).
        config: Players and variant (field 6).
    """

    board: Board
    cells: tuple[Piece | None, ...]
    to_move: int
    armies: tuple[Army, ...]
    round: int
    passes: int
    config: Config


FIELD_NAMES = ("board", "placement", "side to move", "armies", "round", "variant")
MAX_COUNT = 1_000_000_000
"""Ranges the engine stores exactly (C integers); anything beyond is rejected."""


_PLACEMENT_RE = re.compile(r"([a-z]\d{1,2}):([0-5])(K|Q|[TUBXH][wb](?:\+|1)?)", re.ASCII)
_HELD_RE = re.compile(r"([0-5])(K|Q|[TUBXH][wb]\+?)", re.ASCII)


def _fail(field_no: int, message: str) -> NoReturn:
    raise NotationError(f"VPN field {field_no} ({FIELD_NAMES[field_no - 1]}): {message}")


def _field_int(field_no: int, name: str, text: str, low: int, high: int) -> int:
    """An integer of VPN field ``field_no`` (checks.parse_int: no long digit strings)."""
    return parse_int(name, text, low, high,
                     lambda message: NotationError(
                         f"VPN field {field_no} ({FIELD_NAMES[field_no - 1]}): {message}"))


def parse_vpn(text: str) -> VPNPosition:
    """Parse and validate a VPN string (R39); raise NotationError naming the bad field.

    Args:
        text: The VPN: six space-separated fields.

    Returns:
        The position.

    Raises:
        NotationError: ``text`` is no string or is malformed (the bad field named).
    """
    if not isinstance(text, str):
        raise NotationError(f"a VPN is a string, got {type(text).__name__}")
    fields = text.split(" ")
    if len(fields) != 6:
        raise NotationError(
            f"a VPN has 6 space-separated fields ({', '.join(FIELD_NAMES)}), got {len(fields)}")
    board_name, placement, side, armies_text, round_text, variant_text = fields
    if board_name not in BOARD_NAMES:
        _fail(1, f"unknown board {shown(board_name, 60)}: accepted are {', '.join(BOARD_NAMES)}")
    board = Board(board_name)
    config = Config.from_variant(variant_text, error=_variant_error)
    records, laps = _parse_armies(armies_text, config)   # field 4 first: who may have pieces
    cells = _parse_placement(placement, board, records)
    _check_counts(cells, records)
    _place_laps(cells, laps)
    to_move = _parse_side(side, records)
    round_number, passes = _parse_round(round_text)
    return VPNPosition(board, tuple(cells), to_move, tuple(records), round_number, passes, config)


def _parse_armies(armies_text: str, config: Config) -> tuple[list[Army], list[tuple[int | None, ...]]]:
    """Field 4: each army's record, and its King's and Queen's laps (None: not on board)."""
    army_fields = armies_text.split("/")
    if len(army_fields) != 6:
        _fail(4, f"expected 6 '/'-separated army entries, got {len(army_fields)}")
    records: list[Army] = []
    laps: list[tuple[int | None, ...]] = []
    for seat, entry in enumerate(army_fields):
        parts = entry.split(",")
        if len(parts) != 5:
            _fail(4, f"army {seat} entry {shown(entry, 60)}: expected '<state>,<knight captures>,<held>,"
                     f"<K laps>,<Q laps>'")
        state, caps, held_text, k_laps, q_laps = parts
        if state not in ("a", "e", "x"):
            _fail(4, f"army {seat} state {shown(state, 60)}: accepted are 'a' (active), 'e' (eliminated), "
                     f"'x' (absent)")
        if (state == "x") != (seat not in config.present):
            want = "absent ('x')" if seat not in config.present else "present ('a' or 'e')"
            _fail(4, f"army {seat} must be {want} with {config.players} players")
        captures = _field_int(4, f"army {seat} knight captures", caps, 0, MAX_COUNT)
        army_laps = tuple(None if value == "-" else
                          _field_int(4, f"army {seat} {name} laps ('-': not on the board)", value,
                                     -MAX_LAPS, MAX_LAPS)
                          for name, value in (("K", k_laps), ("Q", q_laps)))
        records.append(Army(state, captures, _parse_held(seat, held_text)))
        laps.append(army_laps)
    return records, laps


def _parse_held(seat: int, held_text: str) -> tuple[Held, ...]:
    """An army's held pieces, in capture order (field 4)."""
    held = []
    if held_text:
        for code in held_text.split("."):
            m = _HELD_RE.fullmatch(code)
            if not m:
                _fail(4, f"army {seat} held piece {shown(code, 60)}: accepted are '<seat>K', '<seat>Q', "
                         f"'<seat><T|U|B|X|H><w|b>' with '+' if royal (not on H)")
            piece = piece_from_code(int(m.group(1)), m.group(2))
            if piece.kind == 4 and piece.royal:
                _fail(4, f"army {seat} held piece {shown(code, 60)}: a Hospitaller is never royal")
            held.append(Held(piece.army, piece.kind, piece.edge, piece.royal))
    return tuple(held)


def _parse_placement(placement: str, board: Board, records: list[Army]) -> list[Piece | None]:
    """Field 2: the pieces on the board, in cell-index order (R9, R10)."""
    cells: list[Piece | None] = [None] * len(board)
    if placement == "-":
        return cells
    last = -1
    for item in placement.split(","):
        m = _PLACEMENT_RE.fullmatch(item)
        if not m:
            _fail(2, f"bad entry {shown(item, 60)}: accepted is '<cell>:<seat><piece>' with piece "
                     f"K, Q or <T|U|B|X|H><w|b> then '+' (royal) or '1' (tally), e.g. 'h1:0K'")
        label, seat, code = m.group(1), int(m.group(2)), m.group(3)
        if label not in board.index_of_label:
            _fail(2, f"unknown cell {shown(label, 60)} on the {board.name} board")
        cell = board.index_of_label[label]
        if cell <= last:
            _fail(2, f"{shown(item, 60)} is not in cell-index order (R9: by row, then file)")
        last = cell
        if cell == board.centre:
            _fail(2, f"{shown(item, 60)}: the centre never holds a piece")
        if records[seat].state != "a":
            what = "absent" if records[seat].state == "x" else "eliminated"
            _fail(2, f"{shown(item, 60)}: army {seat} is {what} and has no pieces on the board")
        if code[0] == "H" and len(code) == 3:
            _fail(2, f"{shown(item, 60)}: a Hospitaller has neither royal status nor a tally")
        piece = piece_from_code(seat, code)
        if piece.edge is not None and board.colors[cell] != piece.edge:
            color = "white" if piece.edge == WHITE else "grey"
            edge = "white" if piece.edge == WHITE else "black"
            _fail(2, f"{shown(item, 60)}: a {edge}-edged knight stands only on {color} cells (R10)")
        cells[cell] = piece
    return cells


def _place_laps(cells: list[Piece | None], laps: list[tuple[int | None, ...]]) -> None:
    """Give each King and Queen on the board its laps from field 4 (R29)."""
    placed: dict[tuple[int, int], int] = {}
    for cell, found in enumerate(cells):
        if found is not None and found.kind in (KING, QUEEN):
            placed[(found.army, found.kind)] = cell
    for seat in range(NUM_SEATS):
        for kind, value in zip((KING, QUEEN), laps[seat]):
            name = PIECE_LETTERS[kind]
            at = placed.get((seat, kind))
            if at is None and value is not None:
                _fail(4, f"army {seat} {name} laps {value}: that royal is not on the board, use '-'")
            if at is not None:
                if value is None:
                    _fail(4, f"army {seat} {name} laps '-': that royal is on the board, give its laps")
                royal = cells[at]
                assert royal is not None
                cells[at] = royal._replace(laps=value)


def _parse_side(side: str, records: list[Army]) -> int:
    """Field 3: the seat to move, an active army."""
    if side not in ("0", "1", "2", "3", "4", "5"):
        _fail(3, f"side to move {shown(side, 20)}: a seat digit 0-5")
    to_move = int(side)
    if records[to_move].state != "a":
        _fail(3, f"army {to_move} is {'absent' if records[to_move].state == 'x' else 'eliminated'} "
                 f"and cannot be to move")
    return to_move


def _parse_round(round_text: str) -> tuple[int, int]:
    """Field 5: the round, then '/<passes>' when passes > 0 (R26)."""
    round_part, _, pass_part = round_text.partition("/")
    round_number = _field_int(5, "round (then optionally '/<passes>' with passes > 0)", round_part,
                              1, MAX_COUNT)
    passes = 0
    if "/" in round_text:
        passes = _field_int(5, "the pass count after '/'", pass_part, 1, MAX_COUNT)
    return round_number, passes


def _variant_error(message: str) -> NotationError:
    return NotationError(f"VPN field 6 (variant): {message}")


def _check_counts(cells: list[Piece | None], records: list[Army]) -> None:
    """No army has more pieces of a kind than its 12 (on the board and held by others)."""
    seen: dict[tuple[int, int, int | None], int] = {}
    for piece in cells:
        if piece is not None:
            key = (piece.army, piece.kind, piece.edge)
            seen[key] = seen.get(key, 0) + 1
    for record in records:
        for held in record.held:
            key = (held.army, held.kind, held.edge)
            seen[key] = seen.get(key, 0) + 1
    for (army, kind, edge), count in seen.items():
        if count > 1:
            name = PIECE_LETTERS[kind] + ("" if edge is None else EDGE_LETTERS[edge])
            _fail(2, f"army {army} has {count} pieces '{name}' on the board and held; an army "
                     f"has one of each (R10)")


def format_vpn(position: VPNPosition) -> str:
    """Print a turn-start position as VPN (R39); StateError when a counter has grown past
    what [`parse_vpn`][victorus.notation.parse_vpn] reads back (a VPN printed is always one that parses).

    Args:
        position: The position to print.

    Returns:
        The VPN string.

    Raises:
        StateError: the round, the pass count or a knight-capture count is beyond what a
            VPN records.
    """
    counters = [("round", position.round, 1), ("pass count", position.passes, 0)] + [
        (f"army {seat} knight captures", rec.knight_captures, 0)
        for seat, rec in enumerate(position.armies)]
    for name, value, low in counters:
        if not low <= value <= MAX_COUNT:
            raise StateError(f"this position's {name} ({value}) is beyond what a VPN records "
                             f"(from {low} to {MAX_COUNT}): it has no VPN")
    board = position.board
    placement = ",".join(f"{board.labels[i]}:{p.army}{p.code}"
                         for i, p in enumerate(position.cells) if p is not None) or "-"
    laps = {(p.army, p.kind): p.laps for p in position.cells
            if p is not None and p.kind in (KING, QUEEN)}
    armies = []
    for seat, rec in enumerate(position.armies):
        held = ".".join(h.code for h in rec.held)
        k = laps.get((seat, KING))
        q = laps.get((seat, QUEEN))
        armies.append(f"{rec.state},{rec.knight_captures},{held},"
                      f"{'-' if k is None else k},{'-' if q is None else q}")
    round_text = str(position.round) + (f"/{position.passes}" if position.passes else "")
    return " ".join([board.name, placement, str(position.to_move), "/".join(armies), round_text,
                     position.config.variant_string()])


__all__ = ["Action", "VPNPosition", "format_vpn", "illegal_message",
           "leg_action", "parse_action",
           "parse_vpn", "word_action"]
