"""R40 perft from every start position (PERFT.md) and from mid-game positions of every
configuration (PERFT-MIDGAME.md), against the counts two independent implementations agree on.

``tests/data/`` holds copies of the shared spec's files (checked to be identical when
the shared spec is present), so the suite runs anywhere.
"""

from pathlib import Path

import pytest

import victorus
from helpers import SPEC_DIR, position
from victorus._engine import PerftTable
from victorus._reference_game import ReferenceGame, reference_perft
from victorus.game import _perft

DATA = Path(__file__).parent / "data" / "PERFT.md"
MIDGAME = Path(__file__).parent / "data" / "PERFT-MIDGAME.md"


def perft_table(path=DATA):
    rows = []
    for line in path.read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 7 or cells[0] not in ("standard", "compact"):
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


def midgame_table(path=MIDGAME):
    """``(name, [d1, d2, d3], vpn)`` from the fenced block of PERFT-MIDGAME.md."""
    block = path.read_text().split("```")[1]
    rows = []
    for line in block.strip().splitlines():
        name, d1, d2, d3, vpn = (field.strip() for field in line.split("|"))
        rows.append((name, [int(d1), int(d2), int(d3)], vpn))
    return rows


MIDGAME_ROWS = midgame_table()


def test_copies_match_shared_spec():
    """tests/data holds copies of the shared spec's perft tables and board drawings, so the
    comparisons run in any clone; where the spec is beside the checkout (CI), the copies
    must be identical to it."""
    if not SPEC_DIR.is_dir():
        pytest.skip(f"{SPEC_DIR} not present: the comparisons ran against tests/data")
    for name in ("PERFT.md", "PERFT-MIDGAME.md", "board-standard.svg", "board-compact.svg"):
        assert (SPEC_DIR / name).read_text() == (DATA.parent / name).read_text(), name


def test_midgame_table_covers_every_configuration():
    assert len(MIDGAME_ROWS) == 27
    variants = {vpn.split()[-1] for _, _, vpn in MIDGAME_ROWS}
    boards = {vpn.split()[0] for _, _, vpn in MIDGAME_ROWS}
    assert {"allied", "standard", "players2", "players4", "players5", "quick10"} <= variants
    assert boards == {"standard", "compact"}


@pytest.mark.parametrize("name, counts, vpn", MIDGAME_ROWS, ids=[r[0] for r in MIDGAME_ROWS])
def test_midgame_perft(name, counts, vpn):
    game = victorus.Game.from_vpn(vpn)
    assert game.vpn() == vpn                         # R39 round trip
    assert [victorus.perft(game, depth) for depth in (1, 2, 3)] == counts
    assert game.vpn() == vpn


@pytest.mark.parametrize("name, counts, vpn", MIDGAME_ROWS, ids=[r[0] for r in MIDGAME_ROWS])
def test_midgame_perft_reference(name, counts, vpn):
    """The pure-Python rules agree too (depth 2 keeps it quick)."""
    game = ReferenceGame.from_vpn(vpn)
    assert [reference_perft(game, depth) for depth in (1, 2)] == counts[:2]


@pytest.mark.parametrize("board, players, variant, depth, expected",
                         ROWS, ids=[f"{b}-{p}p-{v}-d{d}" for b, p, v, d, _ in ROWS])
def test_perft(board, players, variant, depth, expected):
    """R40: the counts of PERFT.md from every start position (R15: every action counts)."""
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


@pytest.mark.parametrize("name, counts, vpn", MIDGAME_ROWS, ids=[r[0] for r in MIDGAME_ROWS])
def test_midgame_perft_hashed(name, counts, vpn):
    """A transposition table (a 1 MiB one, and one of a single entry that every subtree
    overwrites) changes no count."""
    game = victorus.Game.from_vpn(vpn)
    assert [victorus.perft(game, depth, hash_mb=1) for depth in (1, 2, 3)] == counts
    assert game._engine.perft_hashed(3, PerftTable(0)) == (counts[2], 0)


@pytest.mark.parametrize("name", ["std4-1", "std6-3", "cmp6-2", "quick-p3-2"])
def test_hashed_perft_finds_transpositions_and_agrees_on_threads(name):
    # A move in one leg or in two to the same cell, then the turn's end, is one position
    # (R16, R26): the table finds it and the counts stay exact on one thread and two.
    vpn = next(v for n, _, v in MIDGAME_ROWS if n == name)
    game = victorus.Game.from_vpn(vpn)
    plain = victorus.perft(game, 4)
    for threads in (1, 2):
        count, hits = _perft(game, 4, threads=threads, hash_mb=4)
        assert count == plain and hits > 0


@pytest.mark.parametrize("hash_mb", [-1, 1.5, "8", True, 65537])
def test_perft_rejects_bad_table_sizes(hash_mb):
    with pytest.raises(victorus.ConfigError, match="hash_mb"):
        victorus.perft(victorus.Game(), 2, hash_mb=hash_mb)


def test_hashed_perft_keys_counts_by_remaining_depth_r40():
    """R40: two lone Templars shuffling on the compact board reach the same position
    with 4 and with 2 actions left (a->b, x->y, b->c ... against a->c, x->y): a table
    that handed back a count stored for another depth would be wrong from depth 6."""
    vpn = position({"g4": "0Tw", "k20": "1Tw"}, board="compact",
                   armies={seat: "e,0," for seat in range(2, 6)})
    game = victorus.Game.from_vpn(vpn)
    plain = [victorus.perft(game, depth) for depth in (5, 6, 7)]
    assert plain == [71300, 652808, 6067560]
    assert [victorus.perft(game, depth, hash_mb=1) for depth in (5, 6, 7)] == plain
    count, hits = _perft(game, 6, threads=1, hash_mb=1)
    assert count == plain[1] and hits > 0
