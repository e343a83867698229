"""The all-pass draw (R26) in games where not every seat plays: 4 and 5 players on the
standard board, where seats are absent from the start (R33), and games where armies are
eliminated (R30), both at once too. Every test runs on the C engine and on the pure-Python
reference: the draw comes with the pass that makes the count of consecutive passes reach
the number of armies still playing, not one pass before it nor one after."""

import pytest

import victorus
from helpers import position
from victorus._reference_game import ReferenceGame, reference_perft

IMPLEMENTATIONS = {"engine": victorus.Game, "reference": ReferenceGame}
PRESENT = {4: (0, 1, 3, 4), 5: (0, 1, 2, 3, 4)}          # R33: 4 players sit out 2 and 5

# (players, eliminated armies): the armies still playing are the present ones less these
CASES = [(4, ()), (5, ()), (4, (3,)), (5, (1,)), (5, (0, 4)), (4, (1, 4))]
IDS = [f"{p}p-" + ("out" + "".join(map(str, e)) if e else "all-in") for p, e in CASES]


def live_of(players: int, eliminated=()) -> list[int]:
    """The armies still playing, in turn order."""
    return [a for a in PRESENT[players] if a not in eliminated]


def empty_board(players: int, eliminated=(), passes: int = 0, pieces=None) -> tuple[str, list[int]]:
    """A standard-board VPN where no army has a piece (every army's only action is pass,
    R26) but those of ``pieces``, ``passes`` consecutive passes before it; and the armies
    still playing, in turn order."""
    live = live_of(players, eliminated)
    vpn = position(pieces or {}, to_move=live[0], armies={a: "e,0," for a in eliminated},
                   round_text=f"1/{passes}" if passes else "1", variant=f"players{players}")
    return vpn, live


@pytest.fixture(params=sorted(IMPLEMENTATIONS))
def impl(request):
    return IMPLEMENTATIONS[request.param]


@pytest.mark.parametrize("players, eliminated", CASES, ids=IDS)
def test_the_draw_comes_with_the_pass_of_the_last_army_still_playing_r26_r30_r33(
        impl, players, eliminated):
    """R26: with n armies still playing (R33: present; R30: not eliminated) the n-th
    consecutive pass draws; after each of the n - 1 before it the game goes on, with the
    next army still playing to act (absent and eliminated seats skipped) and the count in
    the VPN."""
    vpn, live = empty_board(players, eliminated)
    game = impl.from_vpn(vpn)
    for n in range(1, len(live)):
        assert [str(a) for a in game.legal_actions()] == ["pass"]
        game.play("pass")
        assert not game.is_over, f"drawn after {n} passes of {len(live)} armies playing"
        assert game.to_move == live[n]
        assert game.vpn().split()[4] == f"1/{n}"
    game.play("pass")
    assert game.is_over, f"no draw after {len(live)} passes of {len(live)} armies playing"
    assert game.winners == () and game.result_reason == "draw"


@pytest.mark.parametrize("players, eliminated", CASES, ids=IDS)
def test_a_pass_count_read_from_a_position_draws_at_the_same_pass_r26_r39(
        impl, players, eliminated):
    """A VPN's pass count (R39 field 5) is the one R26 reads: one short of the armies
    still playing, the next pass draws; two short, it does not."""
    live = live_of(players, eliminated)
    vpn, _ = empty_board(players, eliminated, passes=len(live) - 1)
    game = impl.from_vpn(vpn)
    game.play("pass")
    assert game.is_over and game.result_reason == "draw"
    if len(live) > 2:
        vpn, _ = empty_board(players, eliminated, passes=len(live) - 2)
        game = impl.from_vpn(vpn)
        game.play("pass")
        assert not game.is_over and game.vpn().split()[4] == f"1/{len(live) - 1}"


@pytest.mark.parametrize("players", [4, 5])
def test_a_move_resets_the_count_so_absent_seats_never_fill_it_r26_r33(impl, players):
    """Red can move, every other army only pass: the count climbs to players - 1 and
    red's move resets it, round after round; no draw, whatever the absent seats (R33)."""
    vpn, live = empty_board(players, pieces={"i6": "0Tw"})
    game = impl.from_vpn(vpn)
    for round_no in (1, 2, 3):
        assert "pass" not in [str(a) for a in game.legal_actions()]
        game.play("i6-i2" if round_no % 2 else "i2-i6")
        for _ in range(1, len(live)):
            game.play("pass")
            assert not game.is_over
        assert game.vpn().split()[4] == f"{round_no + 1}/{len(live) - 1}"


@pytest.mark.parametrize("players, eliminated", CASES, ids=IDS)
def test_engine_and_reference_count_the_same_tree_around_the_draw_r26_r40(players, eliminated):
    """R40 perft one and two passes before the draw: the engine's count (the draw ends
    the tree) is the reference's."""
    for short in (1, 2):
        vpn, _ = empty_board(players, eliminated, passes=len(live_of(players, eliminated)) - short)
        for depth in (1, 2, 3):
            assert victorus.perft(victorus.Game.from_vpn(vpn), depth) == \
                reference_perft(ReferenceGame.from_vpn(vpn), depth), (short, depth)
