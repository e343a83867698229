"""Draw the pictures of docs/rules.md and the README with victorus itself:

    python tools/rules_pictures.py

``docs/img/board-standard.svg`` and ``board-compact.svg`` (the start positions) and, for
each kind of piece, ``docs/img/moves-<piece>.svg``: one red piece alone on the standard
board's battlefield, its legal first legs marked, with a few other pieces in the way.
A test checks the files are what this script writes.
"""

from __future__ import annotations

from pathlib import Path

from victorus import Game
from victorus.render import render_svg

IMG = Path(__file__).resolve().parent.parent / "docs" / "img"
EMPTY = "a,0,,-,-"

#: name -> (the piece's cell and code, other pieces "cell:<seat><code>", caption).
PIECES = {
    "templar": ("i6:0Tw", ["i10:1T", "k6:0U"], "Templar: vertical edges, horizontal spokes"),
    "teutonic": ("i6:0Uw", ["k8:1T"], "Teutonic: the four diagonal edges"),
    "byzantine": ("i6:0Bw", ["j9:1T"], "Byzantine: all six spokes"),
    "excalibur": ("i6:0Xw", ["i10:1T"], "Excalibur: six edges, two horizontal spokes"),
    "hospitaller": ("i6:0Hw", [], "Hospitaller: travel along a spoke, then a pivot"),
    "king": ("i6:0K", [], "King: leg 1 to the other colour (a second leg follows)"),
}


def vpn(piece: str, others: list[str]) -> str:
    """A position with the red piece and the others; red's knights have 3 captures (so a
    King is not gated, R19), every other army is active with no piece."""
    board = Game().board
    others = [o + ("w" if board.color(o.split(":")[0]) == "white" else "b") for o in others]
    cells = sorted([piece, *others], key=lambda item: board.labels.index(item.split(":")[0]))
    armies = []
    for seat in range(6):
        on_board = [c for c in cells if c.split(":")[1][0] == str(seat)]
        king = "0" if any(c.endswith(f":{seat}K") for c in on_board) else "-"
        armies.append(f"a,{3 if seat == 0 else 0},,{king},-")
    return f"standard {','.join(cells)} 0 {'/'.join(armies)} 1 standard"


def pictures() -> dict[str, str]:
    """File name -> SVG text."""
    out = {"board-standard.svg": render_svg(Game(), labels=True),
           "board-compact.svg": render_svg(Game("compact"), labels=True)}
    for name, (piece, others, _) in PIECES.items():
        game = Game.from_vpn(vpn(piece, others))
        out[f"moves-{name}.svg"] = render_svg(game, labels=True, moves_from=piece.split(":")[0])
    return out


def main() -> int:
    IMG.mkdir(exist_ok=True)
    for name, svg in pictures().items():
        (IMG / name).write_text(svg)
        print(f"wrote docs/img/{name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
