"""Pictures of the board: SVG (no dependency), PNG and RGB arrays (cairosvg).

The board is drawn as the physical game looks: white and grey hexes, each
kingdom tinted in its seat color with thick walls between live kingdoms, the
centre with its six portal triangles, and pieces as shields in their army
color with their type letter, their edge color as the shield's rim (white,
black, or half and half for King and Queen) and a lion mark when royal. The view
can be turned to any seat (that seat at the bottom, R6).
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable
from functools import lru_cache
from types import ModuleType
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape

from .checks import check_seat, shown
from .constants import CENTRE, GREY, KING, PIECE_LETTERS, PIECE_NAMES, QUEEN
from .errors import ConfigError, MissingDependencyError, optional_imports
from .files import check_writable, write_atomic
from .geometry import SEAT_NAMES, Board, rotate

if TYPE_CHECKING:
    import numpy
    from numpy.typing import NDArray

    from .game import Game
    from .notation import Action
    from .pieces import Piece

SEAT_COLORS = ("#d62728", "#1f77b4", "#222222", "#2ca02c", "#9467bd", "#ff7f0e")
"""Each seat's colour in pictures: red, blue, black, green, purple, orange (R2)."""
CELL_FILL = {0: "#ffffff", GREY: "#b8b8b8", CENTRE: "#ffd700"}
"""A cell's fill by its colour: white, grey, and the centre's gold (R3)."""
HIGHLIGHT = "#00b7ff"
"""The outline of the cells a piece can reach (``moves_from``)."""
LAST_MOVE = "#ffbf00"
"""The outline of the last action's cells."""
ARMY_MARKS = ("M-0.9,0A0.9,0.9 0 1,0 0.9,0A0.9,0.9 0 1,0 -0.9,0Z",
              "M-0.8,-0.8H0.8V0.8H-0.8Z",
              "M0,-1L0.95,0.75H-0.95Z",
              "M0,-1L1,0L0,1L-1,0Z",
              "M-0.35,-1H0.35V-0.35H1V0.35H0.35V1H-0.35V0.35H-1V-0.35H-0.35Z",
              "M0,1L0.95,-0.75H-0.95Z")
"""Each army's mark, drawn on every shield beside its color so that armies are told apart without
color: an SVG path in a box from -1 to 1 (circle, square, triangle, diamond, cross, triangle down,
by seat)."""
ARMY_MARK_NAMES = ("circle", "square", "triangle", "diamond", "cross", "triangle down")
"""The names of the marks of `ARMY_MARKS`, by seat (for the legend and screen readers)."""


def show_in_notebooks(*classes: type[Any]) -> None:
    """Give ``classes`` (Board and Game: victorus/__init__.py) a ``_repr_svg_`` so that
    Jupyter draws them; the classes themselves do not import this module.

    Args:
        *classes: The classes to draw: each gets [`render_svg`][victorus.render.render_svg]
            as its ``_repr_svg_``.
    """
    for cls in classes:
        cls._repr_svg_ = render_svg


def _game_parts(obj: Game | Board) -> tuple[Board, list[Piece | None], list[bool], frozenset[int],
                                              Action | None]:
    """(board, cells, live seats, frozen cells, the last leg played or None) of a Game
    (through its public view), or of a Board (no pieces)."""
    if isinstance(obj, Board):
        empty: list[Piece | None] = [None] * len(obj)
        return obj, empty, [True] * 6, frozenset(), None
    if callable(getattr(obj, "view", None)) and isinstance(getattr(obj, "board", None), Board):
        view = obj.view()
        frozen = frozenset(i for i, f in enumerate(view.frozen) if f)
        cells = view.pieces()
        final = obj.history(last=1)
        if obj.is_over and final and final[0].is_leg and final[0].target == obj.board.centre:
            before = obj.copy()                  # R28: the King or Queen that conquered the
            before.undo()                        # centre ends the game there: draw it there
            cells[obj.board.centre] = before.view().pieces()[final[0].origin]
        return (obj.board, cells, [state != "eliminated" for state in view.states],
                frozen, _last_leg(obj))
    raise ConfigError(f"render needs a victorus.Game or victorus.Board, got {type(obj).__name__}")


def _last_leg(game: Game) -> Action | None:
    """The last leg in ``game``'s history, or None; a turn's last actions first (a long
    game's whole history is built only when they are all words: stop, end, pass)."""
    leg = next((a for a in reversed(game.history(last=12)) if a.is_leg), None)
    if leg is None and game.ply > 12:
        leg = next((a for a in reversed(game.history()) if a.is_leg), None)
    return leg


def render_svg(obj: Game | Board, size: float = 22.0, seat: int = 0, labels: bool = False,
               last_move: bool = True, moves_from: str | None = None,
               highlights: Iterable[str] = (), interactive: bool = False) -> str:
    """An SVG picture of a Game or Board.

    Args:
        obj: The Game (its position) or Board (no pieces) to draw.
        size: The hex radius in pixels, 4 to 200.
        seat: Whose side is at the bottom (R6), 0-5.
        labels: Write the cell labels.
        last_move: Mark the last leg played.
        moves_from: A cell label whose piece's legal destinations are marked (a Game only).
        highlights: More cell labels to outline.
        interactive: Add a transparent top layer of hexes,
            ``<polygon class="cell" data-cell="h3">``, for a page's clicks (``victorus serve``).

    Returns:
        The SVG document.

    Raises:
        ConfigError: ``obj`` is no Game or Board, ``size`` or ``seat`` is out of range, or
            ``moves_from`` is given with a Board.
        NotationError: A label of ``moves_from`` or ``highlights`` is no cell.
    """
    frame, position = render_layers(obj, size, seat, labels, last_move, moves_from,
                                    highlights, interactive)
    return frame.replace(POSITION_SLOT, f'<g class="position">{position}</g>', 1)


POSITION_SLOT = '<g class="position"></g>'
"""Where [`render_layers`][victorus.render.render_layers]' position goes in its frame."""


def render_layers(obj: Game | Board, size: float = 22.0, seat: int = 0, labels: bool = False,
                  last_move: bool = True, moves_from: str | None = None,
                  highlights: Iterable[str] = (), interactive: bool = False) -> tuple[str, str]:
    """The picture of [`render_svg`][victorus.render.render_svg] (same arguments) in two layers, for a page
    that redraws the board at every action (``victorus serve``): ``(frame, position)``.

    ``frame`` is an SVG of the board alone (cells, kingdoms and walls of the live
    armies, labels, the click layer) with an empty `POSITION_SLOT` below the
    labels; it changes only with the board, ``seat``, ``labels`` and the armies
    eliminated. ``position`` is what goes in the slot: the last move, the marks, the
    pieces (``<g class="piece" data-cell="h3" data-army="0">``) and the targets.

    Returns:
        ``(frame, position)``: two SVG texts.

    Raises:
        ConfigError: ``obj`` is no Game or Board, ``size`` or ``seat`` is out of range, or
            ``moves_from`` is given with a Board.
        NotationError: A label of ``moves_from`` or ``highlights`` is no cell.
    """
    check_seat(seat)
    if not isinstance(size, (int, float)) or isinstance(size, bool) or not 4 <= size <= 200:
        raise ConfigError(f"size must be a number from 4 to 200, got {shown(size, 60)}")
    board, cells, live, frozen, last_leg = _game_parts(obj)
    marked = {board.cell(label) for label in highlights}
    targets: set[int] = set()
    if moves_from is not None:
        if isinstance(obj, Board):
            raise ConfigError("moves_from marks a piece's legal destinations: it needs a Game, "
                              "not a Board")
        origin = board.cell(moves_from)
        targets = {a.target for a in obj.legal_actions() if a.is_leg and a.origin == origin}
        marked.add(origin)
    last = (last_leg.origin, last_leg.target) if last_move and last_leg is not None else None
    frame = _frame(board, float(size), seat, bool(labels), tuple(live), bool(interactive))
    centre_of = _centres(board, float(size), seat)
    out = []
    if last is not None:
        (x1, y1), (x2, y2) = centre_of[last[0]], centre_of[last[1]]
        for cx, cy in ((x1, y1), (x2, y2)):
            out.append(f'<polygon points="{_points(_corners(cx, cy, size * 0.9))}" '
                       f'fill="none" stroke="{LAST_MOVE}" stroke-width="{size / 8:.1f}"/>')
        out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                   f'stroke="{LAST_MOVE}" stroke-width="{size / 10:.1f}" opacity="0.8"/>')
    for i in sorted(marked):
        x, y = centre_of[i]
        out.append(f'<polygon points="{_points(_corners(x, y, size * 0.85))}" fill="none" '
                   f'stroke="{HIGHLIGHT}" stroke-width="{size / 8:.1f}"/>')
    for i, piece in enumerate(cells):
        if piece is not None:
            x, y = centre_of[i]
            out.append(_shield(piece, board.labels[i], x, y, size, frozen=i in frozen))
    for i in sorted(targets):
        x, y = centre_of[i]
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{size / 4:.1f}" fill="{HIGHLIGHT}" '
                   f'fill-opacity="0.8"/>')
    return frame, "\n".join(out)


def _centres(board: Board, size: float, seat: int) -> list[tuple[float, float]]:
    """Each cell's centre in the picture, ``seat`` at the bottom."""
    def centre(coords: tuple[int, int]) -> tuple[float, float]:
        q, r = rotate(coords[0], coords[1], -seat)
        return size * 1.5 * q, size * math.sqrt(3) * (r + q / 2)
    return [centre(coords) for coords in board.coords]


def _corners(x: float, y: float, radius: float) -> list[tuple[float, float]]:
    return [(x + radius * math.cos(math.radians(60 * k)),
             y + radius * math.sin(math.radians(60 * k))) for k in range(6)]


def _points(pts: Iterable[tuple[float, float]]) -> str:
    return " ".join(f"{px:.1f},{py:.1f}" for px, py in pts)


@lru_cache(maxsize=64)
def _frame(board: Board, size: float, seat: int, labels: bool, live: tuple[bool, ...],
           interactive: bool) -> str:
    """The board without its pieces (see [`render_layers`][victorus.render.render_layers]): a page redraws it
    only when an army is eliminated or the view changes, so it is made once per key."""
    centre_of = _centres(board, size, seat)
    xs, ys = zip(*centre_of)
    pad = size * 1.6
    left, top = min(xs) - pad, min(ys) - pad
    width, height = max(xs) - min(xs) + 2 * pad, max(ys) - min(ys) + 2 * pad
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{left:.1f} {top:.1f} {width:.1f} '
           f'{height:.1f}" width="{width:.0f}" height="{height:.0f}" font-family="sans-serif">',
           f'<rect x="{left:.1f}" y="{top:.1f}" width="{width:.1f}" height="{height:.1f}" '
           f'fill="#f4efe4"/>']
    for i in range(len(board)):
        x, y = centre_of[i]
        hexagon = _points(_corners(x, y, size))
        if i == board.centre:
            for s in range(6):                 # six portal triangles, one per seat (R28)
                px, py = centre_of[board.portals[s]]
                angle = math.degrees(math.atan2(py - y, px - x))
                tri = [(x, y)] + [(x + size * math.cos(math.radians(angle + d)),
                                   y + size * math.sin(math.radians(angle + d))) for d in (-30, 30)]
                out.append(f'<polygon points="{_points(tri)}" fill="{SEAT_COLORS[s]}"/>')
            out.append(f'<polygon points="{hexagon}" fill="none" stroke="#666"/>')
            continue
        out.append(f'<polygon points="{hexagon}" fill="{CELL_FILL[board.colors[i]]}" '
                   f'stroke="#666" stroke-width="0.8"/>')
        owner = board.kingdoms[i]
        if owner is not None and live[owner]:
            out.append(f'<polygon points="{hexagon}" fill="{SEAT_COLORS[owner]}" '
                       f'fill-opacity="0.22"/>')
    # Walls between live kingdoms (R8): thick edges between cells of two kingdoms.
    for i in range(len(board)):
        for d in range(6):
            j = board.steps[i][d]
            ki = board.kingdoms[i]
            kj = None if j is None else board.kingdoms[j]
            if j is None or j < i or ki is None or kj is None or ki == kj or not (live[ki] and live[kj]):
                continue
            (x1, y1), (x2, y2) = centre_of[i], centre_of[j]
            mx, my = (x1 + x2) / 2, (y1 + y2) / 2
            dx, dy = (y2 - y1) / math.sqrt(3), -(x2 - x1) / math.sqrt(3)   # half the shared edge
            out.append(f'<line x1="{mx - dx / 2:.1f}" y1="{my - dy / 2:.1f}" '
                       f'x2="{mx + dx / 2:.1f}" y2="{my + dy / 2:.1f}" stroke="#111" '
                       f'stroke-width="{size / 5:.1f}" stroke-linecap="round"/>')
    out.append(POSITION_SLOT)
    if labels:
        for i in range(len(board)):
            x, y = centre_of[i]
            out.append(f'<text class="label" x="{x:.1f}" y="{y - size * 0.55:.1f}" '
                       f'font-size="{size / 3:.1f}" text-anchor="middle" fill="#555">'
                       f'{board.labels[i]}</text>')
    if interactive:
        for i in range(len(board)):
            out.append(f'<polygon class="cell" data-cell="{board.labels[i]}" '
                       f'points="{_points(_corners(*centre_of[i], size))}" fill="#000" '
                       f'fill-opacity="0"/>')
    out.append("</svg>")
    return "\n".join(out)


@lru_cache(maxsize=512)
def _shield_shape(army: int, kind: int, rim: str, royal: bool, frozen: bool, size: float) -> str:
    """A shield at (0, 0) in the army color, its rim in the edge color (half white, half
    black for King and Queen), type letter, lion mark when royal, cyan dot when frozen."""
    w, h = size * 0.95, size * 1.1
    top, mid, bottom = -h / 2, h * 0.12, h / 2
    path = (f"M{-w / 2:.1f},{top:.1f} H{w / 2:.1f} V{mid:.1f} "
            f"Q{w / 2:.1f},{bottom - h * 0.1:.1f} 0,{bottom:.1f} "
            f"Q{-w / 2:.1f},{bottom - h * 0.1:.1f} {-w / 2:.1f},{mid:.1f} Z")
    fill = SEAT_COLORS[army]
    parts = []
    if kind in (KING, QUEEN):
        parts.append(f'<path d="{path}" fill="{fill}" stroke="#ffffff" stroke-width="{size / 7:.1f}"/>')
        parts.append(f'<path d="{path}" fill="none" stroke="#000000" stroke-width="{size / 7:.1f}" '
                     f'stroke-dasharray="{size / 3:.1f} {size / 3:.1f}"/>')
    else:
        parts.append(f'<path d="{path}" fill="{fill}" stroke="{rim}" stroke-width="{size / 7:.1f}"/>')
    badge = size * 0.24                    # the army's mark, black on white (no color needed)
    parts.append(f'<g class="army-mark" data-mark="{ARMY_MARK_NAMES[army]}" '
                 f'transform="translate({w * 0.42:.1f},{h * 0.36:.1f})">'
                 f'<circle r="{badge:.1f}" fill="#ffffff" stroke="#000000" '
                 f'stroke-width="{size / 22:.2f}"/><path d="{ARMY_MARKS[army]}" fill="#000000" '
                 f'transform="scale({badge * 0.62:.2f})"/></g>')
    # The person's own army (and allies) are marked by the page: a bar under the shield.
    parts.append(f'<rect class="own-mark" display="none" x="{-w * 0.4:.1f}" '
                 f'y="{bottom + size * 0.04:.1f}" width="{w * 0.8:.1f}" height="{size * 0.14:.1f}" '
                 f'fill="#000000" stroke="#ffffff" stroke-width="{size / 30:.2f}"/>')
    text = "#ffffff" if army in (0, 1, 2, 4) else "#000000"
    parts.append(f'<text y="{size * 0.18:.1f}" font-size="{size * 0.6:.1f}" '
                 f'font-weight="bold" text-anchor="middle" fill="{text}">'
                 f'{escape(PIECE_LETTERS[kind])}</text>')
    if royal:
        parts.append(f'<text class="royal-mark" x="{w * 0.4:.1f}" y="{top + size * 0.32:.1f}" '
                     f'font-size="{size * 0.75:.1f}" text-anchor="middle" fill="#ffd700" '
                     f'stroke="#000" stroke-width="{size / 30:.2f}">&#9804;</text>')  # Leo
    if frozen:
        parts.append(f'<circle class="frozen-mark" cx="{-w * 0.4:.1f}" cy="{top + size * 0.12:.1f}" '
                     f'r="{size * 0.2:.1f}" fill="#00e5ff" stroke="#000" '
                     f'stroke-width="{size / 22:.2f}"/>')
    return f"<title>{escape(piece_words(army, kind, rim, royal, frozen))}</title>" + "".join(parts)


def piece_words(army: int, kind: int, rim: str, royal: bool, frozen: bool) -> str:
    """A piece for a screen reader or a tooltip: army (and its mark), kind, edge (R10),
    royal (R16, R25), frozen (R24): "red Templar (circle), white edge, royal, frozen".

    Args:
        army: The piece's army (seat), 0-5.
        kind: The piece's kind (PIECE_LETTERS order).
        rim: The shield's rim colour: ``"#ffffff"`` for a white edge, else black (R10).
        royal: Whether the piece is royal.
        frozen: Whether the piece is frozen.

    Returns:
        The words.
    """
    words = [f"{SEAT_NAMES[army]} {PIECE_NAMES[kind]} ({ARMY_MARK_NAMES[army]})"]
    if kind not in (KING, QUEEN):
        words.append(f"{'white' if rim == '#ffffff' else 'black'} edge")
    if royal:
        words.append("royal")
    if frozen:
        words.append("frozen")
    return ", ".join(words)


def _shield(piece: Piece, label: str, x: float, y: float, size: float, frozen: bool = False) -> str:
    """The piece on cell ``label``, its shield drawn at (x, y)."""
    rim = "#ffffff" if piece.edge != GREY else "#000000"
    shape = _shield_shape(piece.army, piece.kind, rim, bool(piece.royal), frozen, size)
    return (f'<g class="piece" data-cell="{label}" data-army="{piece.army}" '
            f'transform="translate({x:.1f},{y:.1f})">{shape}</g>')


ANSI_COLORS = ("\033[1;31m", "\033[1;34m", "\033[1;90m", "\033[1;32m", "\033[1;35m",
                "\033[1;33m")
"""Each seat's colour on a terminal (bold ANSI codes), for the text board's pieces."""
ANSI_RESET = "\033[0m"
"""The ANSI code that ends a colour."""


def text_board(game: Game, color: bool = False) -> str:
    """A text picture: one line per row (R9, red at the bottom), pieces as
    ``<seat><letter>`` (``+`` when royal), ``.`` empty, ``@`` the centre;
    ``color`` paints each army in its color (ANSI).

    Args:
        game: The game to draw.
        color: Paint each army in its color (ANSI escape codes).

    Returns:
        The picture, its last line the game's status.
    """
    board = game.board
    cells = game.view().pieces()
    rows: dict[int, dict[str, int]] = {}
    for i, label in enumerate(board.labels):
        rows.setdefault(int(label[1:]), {})[label[0]] = i
    files = sorted({label[0] for label in board.labels})
    lines = []
    for row in sorted(rows, reverse=True):
        text = []
        for f in files:
            found = rows[row].get(f)
            if found is None:
                text.append("   ")
            elif found == board.centre:
                text.append(" @ ")
            elif (p := cells[found]) is None:
                text.append(" . ")
            else:
                code = f"{p.army}{PIECE_LETTERS[p.kind]}{'+' if p.royal else ' '}"
                text.append(f"{ANSI_COLORS[p.army]}{code}{ANSI_RESET}" if color else code)
        lines.append(f"{row:>2} " + "".join(text).rstrip())
    lines.append("   " + "".join(f" {f} " for f in files))
    status = (f"over: {game.result_reason}, winners {game.winners}" if game.is_over
              else f"seat {game.to_move} ({SEAT_NAMES[game.to_move]}) to act, {game.phase} "
                   f"phase, round {game.round}")
    lines.append(status)
    return "\n".join(lines)


def _cairosvg() -> ModuleType:
    """The cairosvg module, or a MissingDependencyError saying what to install."""
    try:
        with optional_imports("a PNG picture", otherwise="or write .svg, which needs nothing"):
            import cairosvg
    except OSError as exc:                  # cairocffi found no libcairo
        raise MissingDependencyError(
            f"PNG pictures need the Cairo library, which cairosvg could not load ({exc}); "
            "install it (Debian/Ubuntu: apt install libcairo2, macOS: brew install cairo) "
            "or write .svg, which needs nothing") from None
    module: ModuleType = cairosvg
    return module


def render_png(obj: Game | Board, path: str | os.PathLike[str] | None = None, scale: float = 1.0,
               **options: Any) -> bytes | None:
    """A PNG picture (needs cairosvg): its bytes, or, when ``path`` is given, written
    there (None returned, so a REPL does not echo the bytes).

    Args:
        obj: The Game or Board to draw.
        path: The file to write; None to return the bytes.
        scale: The picture's scale over [`render_svg`][victorus.render.render_svg]'s size.
        **options: [`render_svg`][victorus.render.render_svg]'s keyword arguments (``size``,
            ``seat``, ``labels``...).

    Returns:
        The PNG's bytes, or None when written to ``path``.

    Raises:
        MissingDependencyError: cairosvg, or the Cairo library, is not installed.
        ConfigError: ``path`` cannot be written, or an option is refused.
    """
    cairosvg = _cairosvg()
    if path is not None:
        check_writable(path)                # render_png(game, 3): 3 is not a file name
    png: bytes = cairosvg.svg2png(bytestring=render_svg(obj, **options).encode(), scale=scale)
    if path is None:
        return png
    write_atomic(path, png)
    return None


def render_rgb(obj: Game | Board, **options: Any) -> NDArray[numpy.uint8]:
    """An RGB numpy array ``[height, width, 3]`` of uint8 (needs the render extra:
    cairosvg and pillow).

    Args:
        obj: The Game or Board to draw.
        **options: [`render_png`][victorus.render.render_png]'s keyword arguments (``scale``)
            and [`render_svg`][victorus.render.render_svg]'s (``size``, ``seat``...).

    Returns:
        The picture's pixels.

    Raises:
        MissingDependencyError: cairosvg or pillow, or the Cairo library, is not installed.
        ConfigError: An option is refused.
    """
    import io

    import numpy as np
    with optional_imports("an RGB picture"):
        from PIL import Image
    png = render_png(obj, **options)
    assert png is not None
    image = Image.open(io.BytesIO(png)).convert("RGB")
    return np.asarray(image, dtype=np.uint8)
