"""The page's rules help: each kind of piece's moves drawn on a small patch of the board.

A red piece stands alone on the standard board (its army's knights have made three
captures, so a King or Queen is not held in its kingdom, R19); the engine's own move
generation (:meth:`victorus.Game.legal_actions`) says where its first leg can end and,
for the pieces that move twice (King and Queen R18, Hospitaller R14, royal knight R17),
where the move can end after the second leg. The patch is the cells within
:data:`PATCH_RADIUS` of the piece, drawn with the board's real geometry, colours,
kingdoms and centre (:func:`victorus.geometry.plane`), seen from red's side (R6);
the piece is :func:`victorus.render.render_layers`' own shield.
"""

from __future__ import annotations

from .constants import CENTRE
from .game import Game
from .geometry import Board, hex_distance, plane
from .render import CELL_FILL, SEAT_COLORS, render_layers

#: The piece's cell (grey, on the battlefield, the centre three steps away) and the
#: patch drawn around it (37 cells).
CELL, PATCH_RADIUS = "h9", 3
#: A hex's radius in the patch's SVG units (the page scales the picture).
SIZE = 14.0
FIRST, ENDS = "#00a844", "#0b3d91"

#: (name, the piece's VPN code on the grey cell, what it does in words): R11-R14, R17-R19.
PIECES = (
    ("King", "0K", "two legs, both required: the first ends on the other colour, the "
                   "second on that same colour, so the move ends on the colour opposite "
                   "to where it began. Until its army's knights have made three captures, "
                   "it stays in its own kingdom."),
    ("Queen", "0Q", "moves as the King: two legs ending on the other colour; held in its "
                    "kingdom until its army's knights have made three captures."),
    ("Templar", "0Tb", "slides up and down its file and straight sideways, or steps to a "
                       "neighbour of its colour."),
    ("Teutonic", "0Ub", "slides along the four diagonals, or steps to a neighbour of its "
                        "colour."),
    ("Byzantine", "0Bb", "slides along the six spokes (between two cells), or steps to a "
                         "neighbour of its colour."),
    ("Excalibur", "0Xb", "slides in the six edge directions and straight sideways."),
    ("Hospitaller", "0Hb", "travels along a spoke to an empty cell of its colour, then "
                           "must pivot one step to a neighbour of that colour, capturing "
                           "there if an enemy stands on it. Never promoted."),
    ("Royal knight", "0Tb+", "a promoted knight (a royal Templar here): two legs, both "
                             "ending on its colour, or stop after the first."),
)


def _lone(code: str) -> Game:
    """The red piece ``code`` alone on :data:`CELL`, red to act, three knight captures."""
    king = "0" if code == "0K" else "-"
    queen = "0" if code == "0Q" else "-"
    armies = [f"a,3,,{king},{queen}"] + ["a,0,,-,-"] * 5
    return Game.from_vpn(f"standard {CELL}:{code} 0 {'/'.join(armies)} 1 standard")


def reach(code: str) -> tuple[list[str], list[str]]:
    """The cells where the lone piece's first leg can end, and where its move can end
    after a second leg (none for a one-leg piece), by the engine's legal actions."""
    game = _lone(code)
    labels = game.board.labels
    first, ends = set(), set()
    for action in game.legal_actions():
        if not action.is_leg:
            continue
        first.add(labels[action.target])
        after = game.copy()
        after.play(action)
        if after.phase == "move":
            ends.update(labels[a.target] for a in after.legal_actions() if a.is_leg)
    order = game.board.index_of_label
    return sorted(first, key=order.get), sorted(ends, key=order.get)


def _patch(board: Board) -> list[int]:
    q0, r0 = board.coords[board.cell(CELL)]
    return [i for i, (q, r) in enumerate(board.coords)
            if hex_distance(q - q0, r - r0) <= PATCH_RADIUS]


def _centre(board: Board, i: int) -> tuple[float, float]:
    x, y = plane(*board.coords[i])               # R1, Y up; the picture's Y goes down
    return SIZE * x, -SIZE * y


def _hexagon(x: float, y: float, radius: float) -> str:
    corners = [(1, 0), (0.5, 0.866), (-0.5, 0.866), (-1, 0), (-0.5, -0.866), (0.5, -0.866)]
    return " ".join(f"{x + radius * a:.1f},{y + radius * b:.1f}" for a, b in corners)


def drawing(code: str, first, ends) -> str:
    """The SVG of the patch: cells in their colours (kingdoms tinted), the piece, a
    green dot where the first leg can end, a blue ring where the move can end."""
    board = Board("standard")
    cells = _patch(board)
    xs, ys = zip(*(_centre(board, i) for i in cells))
    pad = SIZE * 1.1
    box = f"{min(xs) - pad:.1f} {min(ys) - pad:.1f} {max(xs) - min(xs) + 2 * pad:.1f} " \
          f"{max(ys) - min(ys) + 2 * pad:.1f}"
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{box}" role="img">']
    for i in cells:
        x, y = _centre(board, i)
        label, owner = board.labels[i], board.kingdoms[i]
        kind = "centre" if board.colors[i] == CENTRE else board.color(label)
        classes = " ".join(["patch-cell"] + (["first"] if label in first else []) +
                           (["end"] if label in ends else []))
        out.append(f'<polygon class="{classes}" data-cell="{label}" data-color="{kind}" '
                   f'points="{_hexagon(x, y, SIZE)}" fill="{CELL_FILL[board.colors[i]]}" '
                   f'stroke="#666" stroke-width="0.6"/>')
        if owner is not None:
            out.append(f'<polygon points="{_hexagon(x, y, SIZE)}" fill="{SEAT_COLORS[owner]}" '
                       f'fill-opacity="0.22"/>')
    for i in cells:
        x, y = _centre(board, i)
        if board.labels[i] in ends:
            out.append(f'<polygon points="{_hexagon(x, y, SIZE * 0.78)}" fill="none" '
                       f'stroke="{ENDS}" stroke-width="2.2"/>')
        if board.labels[i] in first:
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{SIZE * 0.3:.1f}" '
                       f'fill="{FIRST}"/>')
    _, piece = render_layers(_lone(code), size=SIZE, last_move=False)
    out += [piece, "</svg>"]
    return "\n".join(out)


def panels() -> list[dict]:
    """One panel per kind of piece: ``name``, ``code``, ``cell``, ``words``, ``first``
    and ``ends`` (cell labels, in the patch or beyond it) and ``svg`` (the patch)."""
    out = []
    for name, code, words in PIECES:
        first, ends = reach(code)
        out.append({"name": name, "code": code, "cell": CELL, "words": words,
                    "first": first, "ends": ends, "svg": drawing(code, first, ends)})
    return out


__all__ = ["CELL", "PATCH_RADIUS", "PIECES", "drawing", "panels", "reach"]
