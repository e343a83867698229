"""The share scale of every value (R27, R33): a finished game is worth each team's share of
the win, ``2 share - 1`` (a draw shared among the teams with an active army), and the
heuristic and learned evaluations give a team ``VALUE_BOUND (2 p - 1)``, ``p`` a softmax of
the team scores, so that with k teams a balanced position (each ``2/k - 1``) is one the
value head can give, as the self-play labels are. Two-team values are those of the centred
``tanh`` they replace."""

import math

import numpy as np
import pytest

import victorus
from helpers import position
from victorus._reference_game import ReferenceGame
from victorus.constants import PIECE_LETTERS, points
from victorus.evaluation import evaluate
from victorus.evaluation.heuristic import DEFAULT_WEIGHTS, TERMS, VALUE_BOUND, reference_terms, share_values
from victorus.evaluation.network import Network
from victorus.evaluation.twin import Batch, forward, inputs, loss_and_gradients

UNGATED = "a,3,"          # an army whose knights made 3 captures (R19)
PRESENT = {4: (0, 1, 3, 4), 5: (0, 1, 2, 3, 4)}          # R33: 4 players sit out 2 and 5


def drawn(players: int, eliminated: tuple[int, ...]) -> victorus.Game:
    """A standard-board game drawn by every live army passing (R26), ``eliminated`` armies
    out (R30); the pure-Python reference draws it with the same pass."""
    live = [a for a in PRESENT[players] if a not in eliminated]
    vpn = position({}, to_move=live[0], armies={a: "e,0," for a in eliminated},
                   variant=f"players{players}")
    game, reference = victorus.Game.from_vpn(vpn), ReferenceGame.from_vpn(vpn)
    for each in (game, reference):
        for _ in live:
            each.play("pass")
        assert each.is_over and each.winners == ()
    return game


def shared_by_hand(teams: tuple[int, ...], present: tuple[int, ...],
                   eliminated: tuple[int, ...]) -> list[float]:
    """Each seat's share-scale value of a drawn game: the k teams with an army not
    eliminated share the win (2/k - 1 each), the other present seats -1."""
    live = {teams[a] for a in present if a not in eliminated}
    return [(2 / len(live) - 1 if teams[a] in live else -1.0) if a in present else 0.0
            for a in range(6)]


@pytest.mark.parametrize("players, eliminated", [(4, ()), (5, ()), (4, (3,)), (5, (0, 4)),
                                                 (4, (1, 4))])
def test_a_draw_is_shared_among_the_teams_still_in_it_r26_r30_r33(players, eliminated):
    game = drawn(players, eliminated)
    assert game.returns() == (0.0,) * 6                 # the API's returns are unchanged
    config = game.config
    expected = shared_by_hand(config.teams, PRESENT[players], eliminated)
    assert game.share_returns() == pytest.approx(expected)
    assert evaluate(game) == pytest.approx(expected)    # a finished game: its share returns
    share = {config.teams[a]: (expected[a] + 1) / 2 for a in config.present}
    assert sum(share.values()) == pytest.approx(1.0)    # each team counted once


def test_a_won_game_is_worth_its_returns():
    game = victorus.Game.from_vpn(position({"i12": "0K", "i20": "1Tb"}, armies={0: UNGATED},
                                           laps={"i12": 1}))
    assert game.share_returns() == (0.0,) * 6           # not over
    game.play("i12-i14")                                  # R28: red conquers the centre
    assert game.is_over
    assert game.share_returns() == game.returns() == (1, -1, -1, -1, -1, -1)


@pytest.mark.parametrize("board, players, teams", [("compact", 3, 3), ("standard", 6, 6),
                                                   ("standard", 4, 4)])
def test_the_value_head_represents_a_balanced_position(board, players, teams):
    """With every raw output equal (a network whose last layer and skip are zero), each
    team's value is its fair share ``VALUE_BOUND (2/k - 1)``, in C and in the numpy twin;
    the centred head gave 0, which no k > 2 team label of a balanced game is."""
    game = victorus.Game(board, players=players)
    net = Network.fresh(8, 4, seed=1)
    arrays = dict(net.arrays)
    arrays["skip"] = np.zeros_like(arrays["skip"])
    flat = Network(arrays, trained=net.trained)
    fair = VALUE_BOUND * (2 / teams - 1)
    present = game.config.present
    expected = [fair if seat in present else 0.0 for seat in range(6)]
    assert flat.evaluate(game) == pytest.approx(expected, abs=1e-6)
    batch = Batch.of([inputs(game)])
    assert forward(arrays, batch)[0] == pytest.approx([fair if p else 0.0 for p in batch.present[0]],
                                                      abs=1e-6)
    # the label of a drawn (or balanced) game, 2/k - 1 a seat, is all but reached
    targets = np.where(batch.present, 2 / teams - 1, 0.0)
    loss, _ = loss_and_gradients(arrays, batch, targets)
    assert loss == pytest.approx((1 - VALUE_BOUND) ** 2 * (2 / teams - 1) ** 2, abs=1e-9)


def test_two_team_values_are_the_centred_tanh():
    """Two teams: the softmax's ``2 p - 1`` is ``tanh`` of the score less the teams' mean,
    the value before the share scale (so two-player strength and play are unchanged)."""
    game = victorus.Game("compact", players=2)
    for k in range(12):
        game.play(game.legal_actions()[(7 * k) % len(game.legal_actions())])
    raw = reference_terms(game)
    teams = game.config.teams
    score = {t: 0.0 for t in {teams[s] for s in game.config.present}}
    for name in TERMS:
        sign = -1 if name == "danger" else 1
        mean = sum(raw[name][t] for t in score) / 2
        for t in score:
            score[t] += sign * DEFAULT_WEIGHTS[name] * (raw[name][t] - mean)
    value = evaluate(game)
    for seat in game.config.present:
        assert value[seat] == pytest.approx(VALUE_BOUND * math.tanh(score[teams[seat]]), abs=1e-5)


def test_share_values_by_hand():
    values = share_values({0: 1.0, 1: 0.0, 2: 0.0})
    p = math.e / (math.e + 2)
    assert values[0] == pytest.approx(VALUE_BOUND * (2 * p - 1))
    assert values[1] == values[2] == pytest.approx(VALUE_BOUND * (2 * (1 - p) / 2 - 1))
    assert sum((v / VALUE_BOUND + 1) / 2 for v in values.values()) == pytest.approx(1.0)
    big = share_values({0: 800.0, 1: 0.0})              # no overflow
    assert big[0] == pytest.approx(VALUE_BOUND) and big[1] == pytest.approx(-VALUE_BOUND)


def test_a_round_limit_tie_is_shared_by_the_leaders_alone_r37():
    """R37(a): a quick game that ends at its round limit with the top scores equal is drawn
    between the live teams tied at the top: each of them 0 at three teams (2/2 - 1), the
    team behind on points -1."""
    game = victorus.Game("compact", players=3, variant="quick8")
    victorus.play_random(game, 32)
    assert game.result_reason == "round-limit" and game.winners == ()
    states, teams = game.view().states, game.config.teams
    held = dict.fromkeys({teams[s] for s in game.config.present}, 0)
    live = set()
    for seat in game.config.present:
        for code in game.held(seat):
            held[teams[seat]] += points(PIECE_LETTERS.index(code[1]), code.endswith("+"))
        if states[seat] == "active":
            live.add(teams[seat])
    top = max(held[t] for t in live)
    leaders = {t for t in live if held[t] == top}
    assert 1 < len(leaders) < len(held)                  # the case: a tie, and a team behind
    expected = [(2 / len(leaders) - 1 if teams[s] in leaders else -1.0)
                if s in game.config.present else 0.0 for s in range(6)]
    assert game.share_returns() == pytest.approx(expected)
    assert game.returns() == (0.0,) * 6


def test_the_uniform_and_material_values_are_centred_on_the_fair_share():
    """An unfinished position's value for the evaluators with no opinion (``uniform``) and
    for the UCT's material scoring sits at each live team's fair share, the value of a draw
    between them, so that neither prefers a draw nor flees it."""
    game = victorus.Game("standard", players=6)
    fair = 2 / 6 - 1
    assert game._engine.live_shares() == pytest.approx((fair,) * 6)
    from victorus.search.puct import PUCTAgent
    values = PUCTAgent(1, seed=0, evaluator="uniform").search(game).seat_values
    assert values == pytest.approx((fair,) * 6, abs=1e-6)
    two = victorus.Game("compact", players=2)
    assert two._engine.live_shares() == (0.0,) * 6
