"""Test helpers: build core positions from cell labels (R9)."""

from __future__ import annotations

import os
from pathlib import Path

from victorus._core import Position
from victorus._reference import ReferencePosition
from victorus.geometry import DIRECTION_NAMES, Board

#: The shared rules contract (RULES.md, PERFT.md, board SVGs) beside the checkout.
SPEC_DIR = Path(os.environ.get("VICTORUS_SPEC_DIR",
                               Path(__file__).resolve().parents[2] / "shared" / "spec"))


def dirmask(*names: str) -> int:
    """Bit mask of direction names (R4), e.g. dirmask("E90", "V0")."""
    mask = 0
    for name in names:
        mask |= 1 << DIRECTION_NAMES.index(name)
    return mask


def build(board_name: str, pieces: dict[str, int], teams=(0, 1, 2, 3, 4, 5), live=0x3F):
    """A core Position with ``{label: army}`` pieces."""
    board = Board(board_name)
    pos = Position(board.tables, teams, live)
    for label, army in pieces.items():
        pos.put(board.cell(label), army)
    return board, pos


def labels(board: Board, cells) -> set[str]:
    return {board.labels[c] for c in cells}


__all__ = ["ReferencePosition", "SPEC_DIR", "build", "dirmask", "labels"]
