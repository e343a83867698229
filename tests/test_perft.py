"""R40 perft from every start position, against the counts of PERFT.md.

``tests/data/PERFT.md`` is a copy of ``shared/spec/PERFT.md`` (checked to be
identical when the shared spec is present), so the suite runs anywhere.
"""

from pathlib import Path

import pytest

import victorus
from helpers import SPEC_DIR

DATA = Path(__file__).parent / "data" / "PERFT.md"


def perft_table(path=DATA):
    rows = []
    for line in path.read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 7 or not cells[0] in ("standard", "compact"):
            continue
        board, players, variant = cells[0], int(cells[1]), cells[2]
        for depth, count in enumerate(cells[3:], start=1):
            if count:
                rows.append((board, players, variant, depth, int(count)))
    return rows


ROWS = perft_table()


def test_table_is_complete():
    assert len(ROWS) == 22 * 3 + 4
    assert {(b, p, v) for b, p, v, _, _ in ROWS} >= {("standard", 6, "standard"),
                                                     ("compact", 6, "allied")}


def test_copy_matches_shared_spec():
    shared = SPEC_DIR / "PERFT.md"
    if not shared.exists():
        pytest.skip(f"{shared} not present")
    assert shared.read_text() == DATA.read_text()


@pytest.mark.parametrize("board, players, variant, depth, expected",
                         ROWS, ids=[f"{b}-{p}p-{v}-d{d}" for b, p, v, d, _ in ROWS])
def test_perft(board, players, variant, depth, expected):
    game = victorus.Game(board, players=players, variant=variant)
    before = game.vpn()
    assert victorus.perft(game, depth) == expected
    assert game.vpn() == before                      # perft leaves the game as it was


def test_perft_from_vpn_and_depth_zero():
    game = victorus.Game.from_vpn(victorus.Game("compact").vpn())
    assert victorus.perft(game, 0) == 1
    assert victorus.perft(game, 2) == 165


def test_perft_counts_nothing_after_the_end():
    from helpers import position
    game = victorus.Game.from_vpn(position({"i8": "0K"}, armies={0: "a,3,"}, laps={"i8": 1}))
    game.play("i8-i14")
    assert game.is_over
    assert victorus.perft(game, 1) == 0 and victorus.perft(game, 3) == 0


@pytest.mark.parametrize("depth", [-1, 1.5, "2", True])
def test_perft_rejects_bad_depth(depth):
    with pytest.raises(victorus.ConfigError, match="depth"):
        victorus.perft(victorus.Game(), depth)
