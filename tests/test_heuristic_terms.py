"""The heuristic evaluation (victorus.evaluation, C in victorus.evaluation._heuristic): each term on
hand-built positions where its value is known (R20, R28, R29, R33, R37), the C terms
against the slow Python reference on played positions, and the value's properties."""

import math

import pytest

import victorus
from helpers import position
from victorus.errors import ConfigError
from victorus.evaluation import (
    DEFAULT_WEIGHTS,
    TERMS,
    VALUE_BOUND,
    evaluate,
    reference_evaluate,
    reference_terms,
    terms,
)

UNGATED = "a,3,"          # an army whose knights made 3 captures (R19)


def both(vpn):
    """The terms of a VPN in C and in the Python reference, checked equal."""
    game = victorus.Game.from_vpn(vpn)
    fast, slow = terms(game), reference_terms(game)
    for name in TERMS:
        assert fast[name] == pytest.approx(slow[name], abs=1e-6), name
    return fast


def test_material_counts_board_and_held_points_per_team_r37_r33():
    # players2: teams {0, 2, 4} and {1, 3, 5}; seat 2 holds a royal Excalibur (8 points).
    vpn = position({"h1": "0K", "f3": "0Ub", "i20": "1Q", "l3": "2Tb"}, variant="players2",
                   armies={2: "a,0,1Xw+"})
    material = both(vpn)["material"]
    assert material[0] == pytest.approx((10 + 2 + 2 + 8) / 10)
    assert material[1] == pytest.approx(10 / 10)


def test_danger_counts_own_royals_an_opponent_capture_attacks_r20():
    # Red's Templar at i6 takes up the file (i6xi10): green's King at i10 is in danger,
    # whichever army is to act (every army is seen at the start of its turn).
    for to_move in (0, 3):
        danger = both(position({"i6": "0Tw", "i10": "3K", "i20": "3Q"}, to_move=to_move))["danger"]
        assert danger == (0, 0, 0, 1, 0, 0)
    # A team mate's piece never attacks (R20, R33): the same cells with seat 2 do not.
    danger = both(position({"i6": "0Tw", "i10": "2K"}, variant="players2"))["danger"]
    assert danger == (0,) * 6


def test_captures_is_the_best_piece_the_army_to_act_can_take_r37():
    vpn = position({"i6": "0Tw", "i10": "3K", "i20": "3Q"})
    assert both(vpn)["captures"] == (1.0, 0, 0, 0, 0, 0)
    assert both(position({"i6": "0Tw", "i10": "3Xw"}))["captures"] == pytest.approx((0.4, 0, 0, 0, 0, 0))
    # With green to act, red's capture is not open: nothing to take for green.
    assert both(position({"i6": "0Tw", "i10": "3K"}, to_move=3))["captures"] == (0,) * 6


def test_progress_is_the_winding_of_the_best_royal_and_its_closeness_r28_r29():
    # A red King on its portal (base 0) with one lap: a whole lap, next to the centre.
    progress = both(position({"i12": "0K", "i20": "1Tb"}, armies={0: UNGATED},
                             laps={"i12": 1}))["progress"]
    assert progress[0] == pytest.approx(1.0)
    # The same King without the lap has gone nowhere.
    assert both(position({"i12": "0K"}, laps={"i12": 0}))["progress"][0] == 0
    # On the opposite ray next to the centre (base +180): half a lap, closeness 1.
    assert both(position({"i16": "0K"}))["progress"][0] == pytest.approx(0.5)
    # The team's best royal counts: a Queen that has gone round beats the King.
    best = both(position({"i16": "0K", "i12": "0Q"}, laps={"i12": 1}))["progress"][0]
    assert best == pytest.approx(1.0)


def test_mobility_counts_every_live_army_actions_at_its_turn_start_r26():
    # Armies without pieces only pass (R26): one action each, 0.01 per army.
    mobility = both(position({"i6": "0Tw"}))["mobility"]
    assert mobility[1:] == pytest.approx((0.01,) * 5)
    game = victorus.Game.from_vpn(position({"i6": "0Tw"}))
    assert mobility[0] == pytest.approx(len(game.legal_actions()) / 100)


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_c_terms_and_value_equal_the_python_reference_on_played_positions(players):
    for seed in range(4):
        game = victorus.Game("compact", players=players)
        victorus.play_random(game, seed=seed, max_actions=40 + 25 * seed)
        while not game.is_over and game.phase != "start":
            victorus.play_random(game, seed=seed, max_actions=1)
        if game.is_over:
            continue
        fast, slow = terms(game), reference_terms(game)
        for name in TERMS:
            assert fast[name] == pytest.approx(slow[name], abs=1e-5), (players, seed, name)
        weights = {"mobility": 0.3, "danger": 0.2}
        assert evaluate(game, weights) == pytest.approx(reference_evaluate(game, weights), abs=1e-5)


def test_value_is_shared_by_a_team_and_zero_sum_between_two_teams_r33():
    game = victorus.Game("compact", players=2)
    assert evaluate(game) == (0.0,) * 6                   # the start is even
    victorus.play_random(game, seed=11, max_actions=120)
    value = evaluate(game)
    teams = game.config.teams
    assert all(value[s] == value[teams[s]] for s in range(6))
    assert value[0] == pytest.approx(-value[1])
    assert all(abs(v) < VALUE_BOUND for v in value)


def test_a_finished_game_is_worth_its_returns_exactly():
    game = victorus.Game.from_vpn(position({"i12": "0K", "i20": "1Tb"}, armies={0: UNGATED},
                                           laps={"i12": 1}))
    game.play("i12-i14")                                  # R28: red conquers the centre
    assert game.is_over
    assert evaluate(game) == tuple(game.returns()) == (1, -1, -1, -1, -1, -1)


def test_weights_change_the_value_and_bad_weights_are_refused():
    vpn = position({"h1": "0K", "f3": "0Ub", "i20": "1Q"})
    game = victorus.Game.from_vpn(vpn)
    only_material = evaluate(game, {name: 0 for name in TERMS} | {"material": 1.0})
    # six teams, two with material: team 0's share of the win is the softmax of the scores
    share = math.exp(1.2) / (math.exp(1.2) + math.exp(1.0) + 4 * math.exp(0.0))
    assert only_material[0] == pytest.approx(VALUE_BOUND * (2 * share - 1))
    assert only_material[2] == pytest.approx(VALUE_BOUND * (2 / (math.exp(1.2) + math.exp(1.0) + 4) - 1))
    assert evaluate(game, dict(DEFAULT_WEIGHTS)) == evaluate(game)
    for bad in ({"speed": 1}, {"material": "1"}, {"danger": float("nan")}, [1, 2]):
        with pytest.raises(ConfigError):
            evaluate(game, bad)
