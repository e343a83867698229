"""Board geometry: R1-R9 and R11, R27 facts for both boards."""

import re
from collections import Counter
from pathlib import Path

import pytest

import victorus
from victorus.geometry import (
    BYZANTINE,
    CENTRE,
    DIRECTION_NAMES,
    DIRECTION_VECTORS,
    EXCALIBUR,
    GREY,
    HOSPITALLER,
    KING,
    QUEEN,
    SEAT0_DIRECTION_SETS,
    SEAT_NAMES,
    TEMPLAR,
    TEUTONIC,
    WHITE,
    Board,
    coords_of_label,
    direction_set,
    hex_distance,
    label_of,
    rotate,
    rotate_cw,
    winding_base,
)


def test_distances_r2():
    """R2: d = max(|q|, |r|, |q + r|); m = max(|2q + r|, |q + 2r|, |q - r|)."""
    from victorus.geometry import coords_of_label, edge_normal_extent, hex_distance
    assert coords_of_label("h1") == (-1, 7) and coords_of_label("i14") == (0, 0)
    assert (hex_distance(-1, 7), edge_normal_extent(-1, 7)) == (7, 13)     # a standard rim cell
    assert (hex_distance(0, 0), edge_normal_extent(0, 0)) == (0, 0)
    assert (hex_distance(3, -5), edge_normal_extent(3, -5)) == (5, 8)   # |1|, |-7|, |8|


def test_cell_counts_r3():
    std, cmp_ = Board("standard"), Board("compact")
    assert len(std) == 181 and len(cmp_) == 127
    assert len(victorus.Board("standard")) == 181


@pytest.mark.parametrize("name, white, grey", [("standard", 54, 54), ("compact", 30, 24)])
def test_battlefield_colors_r3_r5(name, white, grey):
    b = Board(name)
    field = Counter(b.colors[i] for i in range(len(b)) if b.kingdoms[i] is None)
    assert field == {WHITE: white, GREY: grey, CENTRE: 1}


@pytest.mark.parametrize("name, white, grey", [("standard", 6, 6), ("compact", 7, 5)])
def test_kingdoms_r5_r7(name, white, grey):
    b = Board(name)
    for seat in range(6):
        cells = [i for i in range(len(b)) if b.kingdoms[i] == seat]
        assert len(cells) == 12
        assert Counter(b.colors[i] for i in cells) == {WHITE: white, GREY: grey}
    assert sum(k is not None for k in b.kingdoms) == 72


def test_color_rule_r5(board):
    for i, (q, r) in enumerate(board.coords):
        if (q, r) == (0, 0):
            assert board.colors[i] == CENTRE
        else:
            assert board.colors[i] == (WHITE if hex_distance(q, r) % 2 == 0 else GREY)


def test_same_colored_neighbours_r5(board):
    full = 0
    for i in range(len(board)):
        if i == board.centre:
            continue
        neighbours = [n for n in board.neighbours(i) if n != board.centre]
        same = [n for n in neighbours if board.colors[n] == board.colors[i]]
        if len(board.neighbours(i)) == 6:
            full += 1
            assert len(same) == 2, board.labels[i]
            assert len(neighbours) - len(same) == 4 or board.centre in board.neighbours(i)
        else:
            assert 1 <= len(same) <= 2, board.labels[i]
    assert full > 0


def test_kingdom_corner_rule_r7():
    """The six tied corner cells go to seat s+1 (the owner's right-hand side)."""
    b = Board("standard")
    # Red's right-hand corner seen from red's seat (bottom) is at the bottom left.
    tied = []
    for i, (q, r) in enumerate(b.coords):
        if b.kingdoms[i] is None:
            continue
        proj = [2 * rr + qq for qq, rr in (rotate(q, r, -s) for s in range(6))]
        top = max(proj)
        seats = [s for s in range(6) if proj[s] == top]
        if len(seats) == 2:
            tied.append((seats, b.kingdoms[i]))
    assert len(tied) == 6
    for seats, owner in tied:
        s, t = seats
        assert owner == (t if (s + 1) % 6 == t else s)


def test_kingdoms_rotate_r6(board):
    for i, (q, r) in enumerate(board.coords):
        j = board.index_of_coords[rotate_cw(q, r)]
        k = board.kingdoms[i]
        assert board.kingdoms[j] == (None if k is None else (k + 1) % 6)


def test_labels_and_index_order_r9():
    b = Board("standard")
    assert b.labels[b.centre] == "i14"
    assert b.labels[0] == "f1" and b.labels[-1] == "l27"
    keys = [(int(lab[1:]), lab[0]) for lab in b.labels]
    assert keys == sorted(keys)
    assert len(set(b.labels)) == 181
    # R9 examples in red's view.
    assert coords_of_label("f3") == tuple(
        x + y for x, y in zip(coords_of_label("f1"), DIRECTION_VECTORS[DIRECTION_NAMES.index("E90")]))
    assert coords_of_label("h1") == tuple(
        x + y for x, y in zip(coords_of_label("f1"), DIRECTION_VECTORS[DIRECTION_NAMES.index("V0")]))
    assert coords_of_label("g2") == tuple(
        x + y for x, y in zip(coords_of_label("f1"), DIRECTION_VECTORS[DIRECTION_NAMES.index("E30")]))
    for q, r in b.coords:
        assert coords_of_label(label_of(q, r)) == (q, r)
    c = Board("compact")
    rows = {int(lab[1:]) for lab in c.labels}
    files = {lab[0] for lab in c.labels}
    assert (min(rows), max(rows)) == (2, 26) and (min(files), max(files)) == ("c", "o")
    assert c.labels[c.centre] == "i14"


def test_spoke_flanks_match_r4_table():
    expected = {"V0": ((1, -1), (1, 0)), "V60": ((0, -1), (1, -1)), "V120": ((-1, 0), (0, -1)),
                "V180": ((-1, 1), (-1, 0)), "V240": ((0, 1), (-1, 1)), "V300": ((1, 0), (0, 1))}
    b = Board("standard")
    i = b.centre
    for d, name in enumerate(DIRECTION_NAMES):
        if name in expected:
            got = {b.coords[f] for f in b.flanks[i][d]}
            assert got == set(expected[name]), name
        else:
            assert b.flanks[i][d] is None


def test_direction_sets_r11():
    def names(seat, piece):
        return {DIRECTION_NAMES[d] for d in direction_set(seat, piece)}
    assert names(0, TEMPLAR) == {"E90", "E-90", "V0", "V180"}
    assert names(0, TEUTONIC) == {"E30", "E150", "E-30", "E-150"}
    assert names(0, BYZANTINE) == {"V0", "V60", "V120", "V180", "V240", "V300"}
    for piece in (EXCALIBUR, KING, QUEEN):
        assert names(0, piece) == {"E90", "E-90", "V0", "V180", "E30", "E150", "E-30", "E-150"}
    assert names(0, HOSPITALLER) == {"V0", "V60", "V120", "V180", "V240", "V300"}
    # Seat 1 (blue, lower left): its up is E30, its horizontal is V120/V300.
    assert names(1, TEMPLAR) == {"E30", "E-150", "V120", "V300"}
    for seat in range(6):
        for piece in SEAT0_DIRECTION_SETS:
            assert len(direction_set(seat, piece)) == len(SEAT0_DIRECTION_SETS[piece])


def test_portals_and_up_r28():
    b = Board("standard")
    assert [b.labels[p] for p in b.portals][0] == "i12"
    assert DIRECTION_NAMES[b.up_dirs[0]] == "E90"
    for seat in range(6):
        assert b.steps[b.portals[seat]][b.up_dirs[seat]] == b.centre


def test_winding_base_exact_on_axis_r29():
    for seat in range(6):
        own = rotate(0, 5, seat)
        opposite = rotate(0, -5, seat)
        for clockwise in (True, False):
            assert winding_base(*own, seat, clockwise) == 0.0
            assert winding_base(*opposite, seat, clockwise) == 180.0
    # A cell to red's right (east, seen from above) is +90-ish counter-clockwise.
    assert 0 < winding_base(*coords_of_label("q14"), 0, clockwise=False) <= 90
    assert -90 <= winding_base(*coords_of_label("q14"), 0, clockwise=True) < 0


def test_board_api_and_errors():
    b = Board("standard")
    assert b.color("i14") == "centre" and b.color("i10") == "white" and b.color("i12") == "grey"
    assert b.kingdom("h1") == 0 and b.kingdom("i14") is None and b.kingdom("i12") is None
    assert Board("standard") is b
    with pytest.raises(victorus.ConfigError, match="accepted are 'standard', 'compact'"):
        Board("huge")
    with pytest.raises(victorus.NotationError, match="unknown cell 'z99'"):
        b.color("z99")
    with pytest.raises(victorus.NotationError):
        Board("compact").kingdom("f1")   # a standard-only cell
    with pytest.raises(ValueError):
        b.kingdom(None)


DATA = Path(__file__).parent / "data"


def _svg_cells(name):
    text = (DATA / f"board-{name}.svg").read_text()      # the shared drawing, copied
    cells = {}
    pattern = re.compile(
        r'<polygon points="[^"]*" fill="(#[0-9a-f]+)" stroke="(#[0-9a-f]+)"[^>]*/>\s*'
        r'<text x="([-\d.]+)" y="([-\d.]+)" font-size="7"[^>]*>(\w+)</text>'
        r'(?:\s*<text [^>]*font-size="11"[^>]*fill="(#[0-9a-f]+)">(\w+)</text>)?')
    for fill, stroke, x, y, label, piece_color, piece in pattern.findall(text):
        cells[label] = (fill, stroke, float(x), float(y), piece_color, piece)
    return cells


SVG_SEAT_COLORS = ("#d62728", "#1f77b4", "#222222", "#2ca02c", "#9467bd", "#ff7f0e")


@pytest.mark.parametrize("name", ["standard", "compact"])
def test_board_matches_shared_svg(name):
    """Labels, positions, colors, kingdoms and setup (R1, R5, R7, R9, R35) vs the drawings."""
    b = Board(name)
    cells = _svg_cells(name)
    assert set(cells) == set(b.labels)
    home = {b.home_cells[s][p]: (s, p) for s in range(6) for p in b.home_cells[s]}
    for i, lab in enumerate(b.labels):
        fill, stroke, x, y, piece_color, piece = cells[lab]
        q, r = b.coords[i]
        # The drawing's unit is 22 px and its y axis points down; labels sit 9 px up.
        assert (x, y + 9) == pytest.approx((22 * 1.5 * q, 22 * 3 ** 0.5 * (r + q / 2)), abs=0.11)
        assert fill == {WHITE: "#ffffff", GREY: "#b8b8b8", CENTRE: "#ffd700"}[b.colors[i]], lab
        owner = b.kingdoms[i]
        assert stroke == ("#666" if owner is None else SVG_SEAT_COLORS[owner]), lab
        if piece:
            seat, code = home[i]
            assert (piece_color, piece) == (SVG_SEAT_COLORS[seat], code), lab
        else:
            assert i not in home, lab
    assert SEAT_NAMES[0] == "red"
