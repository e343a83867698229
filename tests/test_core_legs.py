"""One-leg generation in the Cython core (R8, R10-R14, R19, R20, R28), hand-built positions.

Every test here isolates one rule so that it fails if that rule is broken.
"""

import pytest

from helpers import build, dirmask, labels
from victorus._core import Position
from victorus.geometry import (
    DIRECTION_NAMES,
    DIRECTION_VECTORS,
    EDGE_DIRS,
    SPOKE_DIRS,
    Board,
    coords_of_label,
    label_of,
)

WHITE, GREY, BOTH = 1, 2, 3
STD = "standard"


def offset(label, dq, dr):
    q, r = coords_of_label(label)
    return label_of(q + dq, r + dr)


def leg(board, pos, label, army=0, dirs=0xFFF, colors=BOTH, **kw):
    quiet, caps = pos.leg(board.cell(label), army, dirs, colors, **kw)
    return labels(board, quiet), labels(board, caps)


# -- R12 slides ------------------------------------------------------------------

def test_slide_passes_both_colors_but_stops_only_on_allowed_r10_r12():
    b, pos = build(STD, {"i6": 0})
    up = dirmask("E90")
    assert leg(b, pos, "i6", dirs=up, colors=WHITE) == ({"i10"}, set())
    assert leg(b, pos, "i6", dirs=up, colors=GREY) == ({"i8", "i12"}, set())


def test_centre_is_impassable_r12():
    b, pos = build(STD, {"i10": 0})
    assert leg(b, pos, "i10", dirs=dirmask("E90")) == ({"i12"}, set())
    # A Teutonic-like diagonal through the centre stops before it.
    b, pos = build(STD, {"g12": 0})
    quiet, _ = leg(b, pos, "g12", dirs=dirmask("E30"))
    assert quiet == {"h13"}


def test_slide_ends_at_first_piece_no_jumping_r12():
    b, pos = build(STD, {"i6": 0, "i10": 0})
    assert leg(b, pos, "i6", dirs=dirmask("E90")) == ({"i8"}, set())
    b, pos = build(STD, {"i6": 0, "i10": 1})
    assert leg(b, pos, "i6", dirs=dirmask("E90")) == ({"i8"}, {"i10"})


def test_capture_needs_allowed_color_and_permission_r10_r20():
    b, pos = build(STD, {"i6": 0, "i10": 1})
    assert leg(b, pos, "i6", dirs=dirmask("E90"), colors=GREY) == ({"i8"}, set())
    assert leg(b, pos, "i6", dirs=dirmask("E90"), capture=False) == ({"i8"}, set())


def test_team_mates_are_never_captured_r20_r33():
    b, pos = build(STD, {"i6": 0, "i10": 2}, teams=(0, 1, 0, 1, 0, 1))
    assert leg(b, pos, "i6", dirs=dirmask("E90")) == ({"i8"}, set())
    b, pos = build(STD, {"i6": 0, "i10": 3}, teams=(0, 1, 0, 1, 0, 1))
    assert leg(b, pos, "i6", dirs=dirmask("E90")) == ({"i8"}, {"i10"})


# -- R12 spoke blocking ----------------------------------------------------------

def spoke_case(start, name):
    d = DIRECTION_NAMES.index(name)
    dq, dr = DIRECTION_VECTORS[d]
    b = Board(STD)
    f0, f1 = (b.labels[f] for f in b.flanks[b.cell(start)][d])
    return offset(start, dq, dr), f0, f1


def test_spoke_blocked_only_by_two_flank_pieces_r12():
    target, f0, f1 = spoke_case("e10", "V0")
    v0 = dirmask("V0")
    for blockers, blocked in (({}, False), ({f0: 1}, False), ({f1: 2}, False), ({f0: 1, f1: 2}, True)):
        b, pos = build(STD, {"e10": 0, **blockers})
        quiet, _ = leg(b, pos, "e10", dirs=v0, colors=BOTH, single=True)
        assert (target not in quiet) == blocked, blockers


def test_centre_is_a_blocking_flank_r12():
    # h15 -V300-> i12 runs between the centre and h13.
    target, f0, f1 = spoke_case("h15", "V300")
    assert target == "i12" and {f0, f1} == {"i14", "h13"}
    b, pos = build(STD, {"h15": 0})
    assert "i12" in leg(b, pos, "h15", dirs=dirmask("V300"), single=True)[0]
    b, pos = build(STD, {"h15": 0, "h13": 4})
    assert "i12" not in leg(b, pos, "h15", dirs=dirmask("V300"), single=True)[0]


def test_off_board_flank_never_blocks_r12():
    b = Board(STD)
    found = 0
    for i in range(len(b)):
        for d in SPOKE_DIRS:
            flanks = b.flanks[i][d]
            target = b.steps[i][d]
            if target is None or None not in flanks:
                continue
            on = next(f for f in flanks if f is not None)
            if len({b.kingdoms[c] for c in (i, target, on)}) != 1:   # keep walls out of it
                continue
            pos = Position(b.tables)
            pos.put(i, 0)
            pos.put(on, 1)
            quiet, _ = pos.leg(i, 0, 1 << d, BOTH, single=True)
            assert quiet == [target]
            found += 1
    # Rim cells (all in kingdoms) have spokes with one flank off the board.
    assert found > 0


# -- R8 walls --------------------------------------------------------------------

def _wall_steps(b, spoke):
    """Steps whose start, end and on-board flanks touch two kingdoms (R8)."""
    out = []
    for i in range(len(b)):
        for d in (SPOKE_DIRS if spoke else EDGE_DIRS):
            t = b.steps[i][d]
            if t is None:
                continue
            cells = [i, t] if not spoke else [i, t] + [f for f in b.flanks[i][d] if f is not None]
            ks = {b.kingdoms[c] for c in cells} - {None}
            if len(ks) == 2:
                out.append((i, d, t, ks))
    return out


@pytest.mark.parametrize("spoke", [False, True])
def test_walls_between_live_kingdoms_r8(board, spoke):
    steps = _wall_steps(board, spoke)
    assert steps
    for i, d, t, ks in steps:
        pos = Position(board.tables)
        pos.put(i, 0)
        assert t not in pos.leg(i, 0, 1 << d, BOTH, single=True)[0]
        # Eliminating either kingdom (R30) takes the wall away.
        dead = next(iter(ks))
        pos.set_live(0x3F & ~(1 << dead))
        assert t in pos.leg(i, 0, 1 << d, BOTH, single=True)[0]


def test_walls_hold_for_absent_seats_r8():
    """An absent seat's empty kingdom is still live: the caller keeps its bit set."""
    b = Board(STD)
    i, d, t, ks = _wall_steps(b, False)[0]
    pos = Position(b.tables, live=0x3F)
    pos.put(i, 0)
    assert pos.leg(i, 0, 1 << d, BOTH, single=True) == ([], [])


# -- R19 gating --------------------------------------------------------------------

def test_royal_gating_keeps_legs_inside_own_kingdom_r19():
    b, pos = build(STD, {"h1": 0})
    quiet, _ = leg(b, pos, "h1", dirs=dirmask("E90", "E-90", "V0", "V180", "E30", "E150", "E-30", "E-150"),
                   gate=0)
    assert quiet and all(b.kingdom(c) == 0 for c in quiet)
    ungated, _ = leg(b, pos, "h1", dirs=dirmask("E90", "E-90", "V0", "V180", "E30", "E150", "E-30", "E-150"))
    assert any(b.kingdom(c) is None for c in ungated)
    # A slide may not pass out of the kingdom and back in: h1 up leaves at once.
    assert leg(b, pos, "h1", dirs=dirmask("E90"), gate=0)[0] == {c for c in {"h3", "h5"} if b.kingdom(c) == 0}


def test_gated_royal_outside_its_kingdom_cannot_move_r19():
    b, pos = build(STD, {"i8": 0})
    assert leg(b, pos, "i8", gate=0) == (set(), set())


def test_gated_capture_inside_kingdom_r19():
    b, pos = build(STD, {"h1": 0, "h3": 1})
    assert leg(b, pos, "h1", dirs=dirmask("E90"), gate=0) == (set(), {"h3"})


# -- R20 kingdom-to-kingdom --------------------------------------------------------

def _neighbouring_kingdom_pair(b):
    """A red kingdom cell and a blue kingdom cell on one slide line, with the step between unwalled."""
    for i in range(len(b)):
        if b.kingdoms[i] != 0:
            continue
        for d in range(12):
            cur, path = i, []
            while True:
                cur = b.steps[cur][d]
                if cur is None or cur == b.centre:
                    break
                path.append(cur)
                if b.kingdoms[cur] == 1:
                    return i, d, path
    raise AssertionError("no line from red's kingdom into blue's")


def test_kingdom_to_kingdom_capture_forbidden_r20():
    b = Board(STD)
    i, d, path = _neighbouring_kingdom_pair(b)
    target = path[-1]
    colors = 1 << b.colors[target]
    pos = Position(b.tables)
    pos.put(i, 0)
    pos.put(target, 1)
    # Red's kingdom to blue's kingdom: the capture is refused...
    assert target not in pos.leg(i, 0, 1 << d, colors)[1]
    # ...but allowed once blue's kingdom is no longer live (R30) ...
    pos.set_live(0x3F & ~(1 << 1))
    assert target in pos.leg(i, 0, 1 << d, colors)[1]
    # ...or once red's is not.
    pos.set_live(0x3F & ~(1 << 0))
    assert target in pos.leg(i, 0, 1 << d, colors)[1]


def test_battlefield_kingdom_captures_allowed_r20():
    # Battlefield to kingdom: i6 (battlefield) captures down on i2 (red kingdom)...
    b, pos = build(STD, {"i6": 1, "i2": 0})
    assert leg(b, pos, "i6", army=1, dirs=dirmask("E-90"), colors=WHITE)[1] == {"i2"}
    # ...and kingdom to battlefield: i2 captures up on i6.
    assert leg(b, pos, "i2", army=0, dirs=dirmask("E90"), colors=WHITE)[1] == {"i6"}
    # Within the same kingdom: fine too.
    b, pos = build(STD, {"h1": 1, "h3": 0})
    assert leg(b, pos, "h1", army=1, dirs=dirmask("E90"))[1] == {"h3"}


def test_no_capture_kingdom_r37c():
    b, pos = build(STD, {"i6": 1, "i2": 0})
    assert leg(b, pos, "i6", army=1, dirs=dirmask("E-90"), colors=WHITE, nocap_kingdom=0)[1] == set()
    assert leg(b, pos, "i6", army=1, dirs=dirmask("E-90"), colors=WHITE, nocap_kingdom=2)[1] == {"i2"}


# -- R28 centre entry --------------------------------------------------------------

def test_centre_entry_only_from_portal_going_up_r28():
    b, pos = build(STD, {"i8": 0})
    assert "i14" in leg(b, pos, "i8", dirs=dirmask("E90"), entry=True)[0]
    assert "i14" not in leg(b, pos, "i8", dirs=dirmask("E90"), entry=False)[0]
    # Blue (seat 1) has a different portal: red's ray gives blue nothing.
    b, pos = build(STD, {"i8": 1})
    assert "i14" not in leg(b, pos, "i8", army=1, dirs=dirmask("E90"), entry=True)[0]
    # Blue enters from h13 moving E30 (its up).
    b, pos = build(STD, {"g12": 1})
    assert "i14" in leg(b, pos, "g12", army=1, dirs=dirmask("E30"), entry=True)[0]
    # A piece in the way stops the slide before the portal.
    b, pos = build(STD, {"i8": 0, "i12": 3})
    assert "i14" not in leg(b, pos, "i8", dirs=dirmask("E90"), entry=True)[0]
    # Gated royals never leave their kingdom, so never enter (R19).
    b, pos = build(STD, {"i12": 0})
    assert leg(b, pos, "i12", dirs=dirmask("E90"), entry=True, gate=0) == (set(), set())


# -- R13 strategic step --------------------------------------------------------------

def test_strategic_step_r13():
    b, pos = build(STD, {"i6": 0})
    white = WHITE
    templar = dirmask("E90", "E-90", "V0", "V180")
    steps = labels(b, pos.strategic_step(b.cell("i6"), 0, white, templar))
    # i6 (ring 4, white): its same-colored neighbours are the ring neighbours.
    ring = {b.labels[n] for n in b.neighbours(b.cell("i6")) if b.colors[n] == 0}
    assert steps == ring and len(ring) == 2
    # Occupied neighbours are not captured by a strategic step.
    enemy = sorted(ring)[0]
    pos.put(b.cell(enemy), 1)
    assert labels(b, pos.strategic_step(b.cell("i6"), 0, white, templar)) == ring - {enemy}


def test_strategic_step_excludes_normal_one_step_legs_r13():
    # A grey Teutonic at i8 (ring 3): diagonal one-steps to ring 3 are normal legs.
    b, pos = build(STD, {"i8": 0})
    teutonic = dirmask("E30", "E150", "E-30", "E-150")
    normal, _ = leg(b, pos, "i8", dirs=teutonic, colors=GREY)
    steps = labels(b, pos.strategic_step(b.cell("i8"), 0, GREY, teutonic))
    assert steps.isdisjoint(normal)
    ring = {b.labels[n] for n in b.neighbours(b.cell("i8")) if b.colors[n] == 1}
    assert steps == ring - normal
    assert normal & ring      # the rule actually removed something here


def test_strategic_step_respects_walls_and_centre_r13():
    b = Board(STD)
    i, d, t, _ = next(s for s in _wall_steps(b, False) if b.colors[s[0]] == b.colors[s[2]])
    pos = Position(b.tables)
    pos.put(i, 0)
    assert t not in pos.strategic_step(i, 0, 1 << b.colors[t], 0)
    b, pos = build(STD, {"i12": 0})
    assert "i14" not in labels(b, pos.strategic_step(b.cell("i12"), 0, BOTH, 0))


# -- R14 Hospitaller ------------------------------------------------------------------

def test_pivot_to_same_colored_neighbours_r14():
    b, pos = build(STD, {"i8": 0})
    ring = {b.labels[n] for n in b.neighbours(b.cell("i8")) if b.colors[n] == 1}
    quiet, caps = pos.pivot(b.cell("i8"), 0, GREY)
    assert labels(b, quiet) == ring and caps == []
    a, c = sorted(ring)
    pos.put(b.cell(a), 1)
    pos.put(b.cell(c), 0)
    quiet, caps = pos.pivot(b.cell("i8"), 0, GREY)
    assert quiet == [] and labels(b, caps) == {a}


def test_travel_needs_a_pivot_afterwards_r14():
    b, pos = build(STD, {"e10": 0})
    spokes = sum(1 << d for d in SPOKE_DIRS)
    color = 1 << b.colors[b.cell("e10")]
    ends, _ = pos.leg(b.cell("e10"), 0, spokes, color, capture=False)
    assert labels(b, pos.travel(b.cell("e10"), 0, color)) == labels(b, ends)
    # Smother one destination's two same-colored neighbours with friends: no pivot.
    p = ends[0]
    for n in b.neighbours(p):
        if b.colors[n] == b.colors[p] and pos.army_at(n) is None:
            pos.put(n, 0)
    travel = pos.travel(b.cell("e10"), 0, color)
    assert p not in travel
    # With an enemy instead of a friend, capture is a legal pivot.
    n = next(n for n in b.neighbours(p) if b.colors[n] == b.colors[p])
    pos.remove(n)
    pos.put(n, 1)
    assert p in pos.travel(b.cell("e10"), 0, color)


# -- the Python boundary of the core ----------------------------------------------------

def test_core_boundary_validation():
    b, pos = build(STD, {"i6": 0})
    with pytest.raises(ValueError, match="cell index"):
        pos.leg(181, 0, 1, BOTH)
    with pytest.raises(ValueError, match="army"):
        pos.leg(0, 6, 1, BOTH)
    with pytest.raises(ValueError, match="direction mask"):
        pos.leg(0, 0, 1 << 12, BOTH)
    with pytest.raises(ValueError, match="color mask"):
        pos.leg(0, 0, 1, 4)
    with pytest.raises(ValueError, match="occupied"):
        pos.put(b.cell("i6"), 1)
    with pytest.raises(ValueError, match="centre"):
        pos.put(b.centre, 1)
    with pytest.raises(ValueError, match="empty"):
        pos.remove(b.cell("i8"))
    with pytest.raises(ValueError):
        pos.set_live(64)
    with pytest.raises(ValueError):
        pos.set_teams((0, 1))
    assert pos.occupied() == [b.cell("i6")] and pos.occupied(0) == [b.cell("i6")]
    assert pos.army_at(b.cell("i6")) == 0 and pos.army_at(b.cell("i8")) is None


def test_high_cells_use_the_third_word():
    """Cells 128..180 live in the third 64-bit word of the 192-bit boards."""
    b, pos = build(STD, {"l27": 0, "j27": 1})
    assert b.cell("l27") >= 128
    assert pos.occupied() == sorted([b.cell("l27"), b.cell("j27")])
    quiet, caps = leg(b, pos, "l27", dirs=dirmask("V180"))
    assert (quiet, caps) == (set(), {"j27"})            # a spoke step along row 27, in the
    assert b.kingdom("l27") == b.kingdom("j27") == 3     # same kingdom: the capture stands


def test_board_tables_refuse_lines_that_cross_or_loop():
    """perft takes a piece's legs again direction by direction: it needs the lines from a
    cell to share no cell (and to end), which BoardTables checks on every board."""
    from victorus._core import BoardTables

    def tables(steps):                             # 4 cells, the centre is cell 3
        return BoardTables(4, 3, steps, [-1] * 96, [0] * 48, [0, 1, 0, 2], [6] * 4, [0] * 6,
                           [0] * 6)

    straight = [-1] * 48
    straight[0 * 12 + 0] = 1                       # 0 -> 1 -> 2 -> off the board
    straight[1 * 12 + 0] = 2
    assert tables(straight).ncells == 4
    back = list(straight)
    back[1 * 12 + 0] = 0                           # 0 -> 1 -> 0
    with pytest.raises(ValueError, match="lines from cell 0 cross or loop at cell 0"):
        tables(back)
    loop = list(straight)
    loop[2 * 12 + 0] = 1                           # 0 -> 1 -> 2 -> 1 -> ...
    with pytest.raises(ValueError, match="lines from cell 0 cross or loop at cell 1"):
        tables(loop)
    crossing = list(straight)
    crossing[0 * 12 + 1] = 2                       # directions 0 and 1 both reach cell 2
    with pytest.raises(ValueError, match="lines from cell 0 cross or loop at cell 2"):
        tables(crossing)
