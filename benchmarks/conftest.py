"""Benchmark corpus: seeded random placements on both boards (shared by the benchmarks)."""

import random

import pytest

from victorus._core import Position
from victorus._reference import ReferencePosition
from victorus.geometry import KING, QUEEN, Board, direction_set


def leg_corpus(board_name: str, positions: int = 50, seed: int = 1):
    """(core, reference, [(cell, army, dirs, dirmask, colours), ...]) per random position."""
    rng = random.Random(seed)
    board = Board(board_name)
    corpus = []
    for _ in range(positions):
        core, ref = Position(board.tables), ReferencePosition(board)
        cells = [i for i in range(len(board)) if i != board.centre]
        rng.shuffle(cells)
        movers = []
        for cell in cells[:rng.randint(20, 72)]:
            army = rng.randrange(6)
            core.put(cell, army)
            ref.put(cell, army)
            piece = rng.randrange(7)
            colours = 3 if piece in (KING, QUEEN) else 1 << board.colors[cell]
            dirs = direction_set(army, piece)
            movers.append((cell, army, dirs, sum(1 << d for d in dirs), colours))
        corpus.append((core, ref, movers))
    return corpus


@pytest.fixture(scope="session", params=["standard", "compact"])
def corpus(request):
    return request.param, leg_corpus(request.param)
