"""Differential test: the Cython core against the slow reference generator.

Random placements on both boards, for every piece type, edge color and seat,
with random teams (R33 layouts) and live kingdoms (R8, R30). Royal knights
use the same legs as regular ones (R11, R17); royal status matters to the core
only for King and Queen, through the stop colors (R18) and gating (R19),
both drawn at random here.
"""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from victorus._core import Position
from victorus._reference import ReferencePosition
from victorus.geometry import (
    BYZANTINE,
    HOSPITALLER,
    KING,
    QUEEN,
    TEMPLAR,
    TEUTONIC,
    Board,
    direction_set,
    rotate,
)

TEAM_LAYOUTS = [(0, 1, 2, 3, 4, 5), (0, 1, 2, 0, 1, 2), (0, 1, 0, 1, 0, 1), (0, 1, 1, 0, 1, 0)]
def mask(dirs):
    return sum(1 << d for d in dirs)


@st.composite
def scenarios(draw):
    board = Board(draw(st.sampled_from(["standard", "compact"])))
    seat = draw(st.integers(0, 5))
    piece = draw(st.integers(0, 6))
    edge = draw(st.integers(0, 1))          # 0 white-edged, 1 black-edged (grey cells)
    seed = draw(st.integers(0, 2**32 - 1))
    density = draw(st.sampled_from([0.05, 0.2, 0.4, 0.7]))
    teams = draw(st.sampled_from(TEAM_LAYOUTS))
    live = draw(st.sampled_from([0x3F, 0x3F, 0x3F, 0x3E, 0x2D, 0x15, 0x00]))
    on_portal_ray = draw(st.booleans()) and piece in (KING, QUEEN)
    return board, seat, piece, edge, seed, density, teams, live, on_portal_ray


def place(board, seat, piece, edge, seed, density, teams, live, on_portal_ray):
    rng = random.Random(seed)
    if on_portal_ray:
        ray = [board.index_of_coords[rotate(0, k, seat)] for k in range(1, 14)
               if rotate(0, k, seat) in board.index_of_coords]
        start = rng.choice(ray)
    else:
        cells = [i for i in range(len(board)) if i != board.centre
                 and (piece in (KING, QUEEN) or board.colors[i] == edge)]
        start = rng.choice(cells)
    core = Position(board.tables, teams, live)
    ref = ReferencePosition(board, teams, live)
    for p in (core, ref):
        p.put(start, seat)
    for i in range(len(board)):
        if i not in (start, board.centre) and rng.random() < density:
            army = rng.randrange(6)
            core.put(i, army)
            ref.put(i, army)
    return rng, start, core, ref


@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios())
def test_core_matches_reference(scenario):
    board, seat, piece, edge, seed, density, teams, live, on_portal_ray = scenario
    rng, start, core, ref = place(board, seat, piece, edge, seed, density, teams, live, on_portal_ray)
    colors = 1 << edge
    if piece in (KING, QUEEN):
        colors = rng.choice([1, 2, 3])
    dirs = direction_set(seat, piece)
    gate = rng.choice([None, seat]) if piece in (KING, QUEEN) else None
    entry = piece in (KING, QUEEN) and rng.random() < 0.7
    nocap = rng.choice([None, None, rng.randrange(6)])
    capture = piece != HOSPITALLER and rng.random() < 0.9

    got = core.leg(start, seat, mask(dirs), colors, capture=capture, single=False,
                   gate=-1 if gate is None else gate, entry=entry,
                   nocap_kingdom=-1 if nocap is None else nocap)
    want = ref.leg(start, seat, mask(dirs), colors, capture=capture,
                   gate=-1 if gate is None else gate, entry=entry,
                   nocap_kingdom=-1 if nocap is None else nocap)
    assert (got[0], got[1]) == (want[0], want[1])

    if piece in (TEMPLAR, TEUTONIC, BYZANTINE):
        assert core.strategic_step(start, seat, colors, mask(dirs)) == \
            ref.strategic_step(start, seat, colors, mask(dirs))
    if piece == HOSPITALLER:
        nocap = -1 if nocap is None else nocap
        assert core.travel(start, seat, colors) == ref.travel(start, seat, colors)
        assert list(core.pivot(start, seat, colors, nocap)) == \
            list(ref.pivot(start, seat, colors, nocap))
