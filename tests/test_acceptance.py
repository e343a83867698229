"""The training loop's acceptance test (a sequential probability ratio test on the mix's
games), its anchors, the ladder of ratings and the curve's picture
(victorus.training.sprt, gating, ladder, plot; docs/training.md)."""

from __future__ import annotations

import json
import math
import random
import xml.etree.ElementTree as ElementTree

import pytest

from victorus.cli import main
from victorus.training import Settings, train
from victorus.training.gating import ANCHOR_FLOOR, acceptance, anchor, passes
from victorus.training.ladder import comparisons, ladder, ratings
from victorus.training.plot import curve_svg
from victorus.training.sprt import (
    ACCEPT,
    CAP,
    REJECT,
    Sprt,
    bounds,
    elo_score,
    game_score,
    llr,
    mean_interval,
    score_elo,
)

#: The gate's mix of the recipe: 2, 3 and 6 armies, the openings of each a look.
MIX = (("compact", 2, "standard", 2), ("compact", 3, "standard", 1), ("standard", 6, "standard", 1))


# -- a game's score and the LLR ---------------------------------------------------------------

@pytest.mark.parametrize("teams", [2, 3, 4, 5, 6])
def test_a_games_score_maps_the_fair_share_to_a_half(teams):
    """Winning one game in ``teams`` (as strong as the others) expects exactly a half; a win
    is 1, another team's win the pairwise score of one loss and ``teams - 2`` draws."""
    assert game_score(0, teams) == 1 and game_score(None, teams) == 0.5
    assert game_score(1, teams) == pytest.approx((teams - 2) / (2 * (teams - 1)))
    fair = 1 / teams
    assert fair * game_score(0, teams) + (1 - fair) * game_score(1, teams) == pytest.approx(0.5)
    assert game_score(1, 2) == 0 and game_score(1, 3) == 0.25 and game_score(1, 6) == 0.4


def test_the_llr_is_the_hand_worked_value():
    """Ten groups, four scoring 0 and six scoring 1; H0 0 Elo (s0 = 1/2), H1 400 log10(3)
    Elo (s1 = 3/4). On two values the distribution of mean s is (1 - s, s), so the LLR is
    10 (0.4 ln(0.25 / 0.5) + 0.6 ln(0.75 / 0.5)) = 10 (-0.2772589 + 0.2432790) = -0.339798."""
    elo1 = 400 * math.log10(3)
    assert elo_score(elo1) == pytest.approx(0.75) and score_elo(0.75) == pytest.approx(elo1)
    assert llr([0.0] * 4 + [1.0] * 6, 0, elo1) == pytest.approx(-0.339798, abs=1e-6)
    assert llr([], 0, 10) == 0


def test_the_llr_agrees_with_fishtests_normal_approximation_near_h0():
    """For a small Elo gap the GSPRT's LLR is N (s1 - s0) (2 mean - s0 - s1) / (2 var)
    (fishtest's approximation), here on pentanomial pairs (0, 1/2, 1)."""
    rng = random.Random(1)
    values = [(rng.random() < 0.505) / 2 + (rng.random() < 0.505) / 2 for _ in range(4000)]
    mean = sum(values) / len(values)
    var = sum((v - mean) ** 2 for v in values) / len(values)
    s0, s1 = elo_score(0), elo_score(5)
    approximate = len(values) * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)
    assert llr(values, 0, 5) == pytest.approx(approximate, rel=0.01)


def test_wald_bounds_and_the_verdicts():
    lower, upper = bounds(0.05, 0.05)
    assert lower == pytest.approx(math.log(0.05 / 0.95)) and upper == pytest.approx(math.log(19))
    test = Sprt(0, 10, 0.05, 0.05, cap=100)
    assert test.verdict(upper, 10) == ACCEPT and test.verdict(lower, 10) == REJECT
    assert test.verdict(0.0, 99) is None and test.verdict(0.0, 100) == CAP


def test_a_mean_and_its_interval():
    assert mean_interval([]) == (0.5, 0.0, 1.0) and mean_interval([0.75]) == (0.75, 0.0, 1.0)
    mean, low, high = mean_interval([0.0, 1.0] * 50)
    half = 1.959963984540054 * math.sqrt(0.25 * 100 / 99 / 100)
    assert mean == 0.5 and low == pytest.approx(0.5 - half) and high == pytest.approx(0.5 + half)


# -- the acceptance test on scripted games ----------------------------------------------------------

def planted(elo, draws=0.1):
    """A game source for `acceptance`: each group of a configuration of ``T`` teams, the
    candidate's team winning each of its ``T`` games with the probability that makes its
    expected pairwise score ``elo_score(elo)`` (a draw one game in ten, scoring a half)."""
    def source(board, players, variant, openings, seed):
        rng = random.Random(seed)
        teams = players                                 # the standard variant
        loss = game_score(1, teams)
        # p + draws / 2 + (1 - p - draws) loss = L(elo)
        p = (elo_score(elo) - draws / 2 - (1 - draws) * loss) / (1 - loss)
        assert 0 <= p <= 1 - draws
        groups = []
        for _ in range(openings):
            scores = []
            for _ in range(teams):
                u = rng.random()
                scores.append(game_score(0 if u < p else None if u < p + draws else 1, teams))
            groups.append(sum(scores) / teams)
        return groups, openings * teams
    return source


def test_the_planted_source_has_the_elo_it_was_given():
    groups, games = planted(150)("compact", 3, "standard", 20_000, 5)
    assert games == 60_000 and sum(groups) / len(groups) == pytest.approx(elo_score(150), abs=0.005)


ELO1, RUNS = 150, 300


@pytest.mark.parametrize("true_elo, wrong, bound", [(0, ACCEPT, 0.05), (ELO1, ACCEPT, 0.05)])
def test_the_error_rates_hold_over_many_score_streams(true_elo, wrong, bound):
    """Over 300 seeded streams of the gate's mix (2, 3 and 6 armies), a candidate as strong
    as the best (H0) is accepted at most alpha of the time, and one ELO1 stronger (H1)
    refused at most beta of the time (each up to three standard errors of the count)."""
    test = Sprt(0, ELO1, 0.05, 0.05, cap=10**6)
    verdicts = [acceptance(planted(true_elo), test, MIX, seed)["verdict"] for seed in range(RUNS)]
    errors = (sum(v == ACCEPT for v in verdicts) if true_elo == 0
              else sum(v != ACCEPT for v in verdicts))
    assert CAP not in verdicts
    assert errors / RUNS <= bound + 3 * math.sqrt(bound * (1 - bound) / RUNS), verdicts


def test_the_test_refuses_an_equal_candidate_and_accepts_a_planted_stronger_one():
    """At the recipe's hypotheses (0 and 20 Elo, 5% each): an equal candidate is refused,
    one 60 Elo stronger accepted, each a seeded stream of the mix; the curve's fields."""
    test = Sprt(0, 20, 0.05, 0.05, cap=100_000)
    equal = acceptance(planted(0), test, MIX, 7)
    stronger = acceptance(planted(60), test, MIX, 7)
    assert equal["verdict"] == REJECT and equal["llr"] <= equal["lower"]
    assert stronger["verdict"] == ACCEPT and stronger["llr"] >= stronger["upper"]
    assert stronger["low"] <= stronger["score"] <= stronger["high"] and stronger["score"] > 0.5
    for gate in (equal, stronger):
        assert set(gate) == {"verdict", "llr", "lower", "upper", "games", "groups", "score",
                             "low", "high"}
        looks = gate["groups"] // 4                     # 2 + 1 + 1 openings a look
        assert gate["groups"] == 4 * looks and gate["games"] == looks * (2 * 2 + 3 + 6)


def test_the_cap_refuses_a_test_that_has_not_decided():
    """No look starts once the games reach the cap; undecided there, the candidate is refused."""
    gate = acceptance(planted(10), Sprt(0, 20, 0.05, 0.05, cap=20), MIX, 3)
    assert gate["verdict"] == CAP and gate["games"] == 26 and gate["lower"] < gate["llr"] < gate["upper"]
    assert not passes(gate, [])


def test_the_anchors_refuse_a_candidate_that_loses_to_one():
    """Anchors play looks until their games; a candidate whose interval against an anchor
    lies wholly below a half is refused, one level with it is not."""
    lost = anchor(planted(-60, draws=0), 300, MIX, 1, 0)
    level = anchor(planted(0), 300, MIX, 1, 3)
    assert lost["round"] == 0 and level["round"] == 3 and lost["games"] == 13 * 24
    assert lost["high"] < ANCHOR_FLOOR <= level["high"]
    accepted = {"verdict": ACCEPT}
    assert passes(accepted, [level]) and not passes(accepted, [level, lost])
    assert passes(None, []) and not passes({"verdict": REJECT}, [])


def test_the_gate_mix_defaults_to_the_mixs_2_3_and_6_armies():
    assert Settings().gate_configurations() == (("compact", 2, "standard", 4),
                                                ("compact", 3, "standard", 1),
                                                ("standard", 6, "standard", 2))
    two = Settings(mix=(("compact", 2, "quick", 1), ("compact", 2, "standard", 1)))
    assert two.gate_configurations() == (("compact", 2, "standard", 1),)
    chosen = Settings(gate_mix=(("compact", 3, "standard", 2),)).check()
    assert chosen.gate_configurations() == (("compact", 3, "standard", 2),)


# -- the ladder -----------------------------------------------------------------------------------

def test_the_ladder_is_the_hand_worked_bradley_terry_rating():
    """Round 1 scored 7.5 of 10 groups against round 0; with one virtual draw, 8 of 11: its
    rating 400 log10(8 / 3), its standard error sqrt(1 / (11 (8/11) (3/11))) natural units;
    round 2, which met no one, is not rated."""
    rated = ratings(3, [(1, 0, 10, 7.5)])
    elo = 400 * math.log10(8 / 3)
    half = 1.959963984540054 * math.sqrt(11 / 24) * 400 / math.log(10)
    assert rated[0] == (0.0, 0.0, 0.0) and rated[2] is None
    assert rated[1] == pytest.approx((elo, elo - half, elo + half), abs=0.06)


def point(number, best, gate=None, anchors=(), vs_start=None, accepted=True):
    """A curve point with the fields the ladder and the picture read."""
    return {"round": number, "best": best, "accepted": accepted, "gate": gate,
            "anchors": list(anchors), "vs_start": vs_start,
            "train_loss": [2.5 - number / 10] * 2 if number else [],
            "validation_loss": 0.25 - number / 100, "heuristic_loss": 0.34,
            "policy_loss": 2.5 - number / 20,
            "holdout_by_config": [{"board": "compact", "teams": 2, "positions": 10,
                                   "value_loss": 0.2 + number / 100, "policy_loss": 2.4},
                                  {"board": "standard", "teams": 6, "positions": 5,
                                   "value_loss": 0.1, "policy_loss": 2.9 - number / 10}]}


def test_the_ladder_reads_every_match_the_curve_keeps():
    """The gate (against the best before), the anchors and the match against round 0 (its
    pairs of games) are the ladder's comparisons."""
    gate = {"verdict": ACCEPT, "llr": 3.0, "lower": -2.9, "upper": 2.9, "games": 26,
            "groups": 4, "score": 0.75, "low": 0.5, "high": 1.0}
    points = [point(0, 0), point(1, 1, gate, vs_start={"score": 0.5, "games": 4}),
              point(2, 2, gate, [{"round": 0, "groups": 2, "score": 0.25}])]
    assert comparisons(points) == [(1, 0, 4, 3.0), (1, 0, 2.0, 1.0), (2, 1, 4, 3.0), (2, 0, 2, 0.5)]
    rated = ladder(points)
    assert rated[0] == {"elo": 0.0, "low": 0.0, "high": 0.0}
    assert all(r is not None and r["low"] < r["elo"] < r["high"] for r in rated[1:])


# -- the picture ----------------------------------------------------------------------------------

def test_the_picture_is_well_formed_and_carries_its_points():
    gate = {"verdict": ACCEPT, "llr": 3.0, "lower": -2.9, "upper": 2.9, "games": 26,
            "groups": 4, "score": 0.75, "low": 0.5, "high": 1.0}
    refused = {**gate, "verdict": REJECT, "llr": -3.1, "score": 0.4}
    capped = {**gate, "verdict": CAP, "llr": 0.3, "score": 0.52}
    points = [point(0, 0), point(1, 1, gate), point(2, 1, refused, accepted=False),
              point(3, 1, capped, accepted=False),
              point(4, 1, gate, [{"round": 0, "groups": 8, "score": 0.2}], accepted=False)]
    for p, rating in zip(points, ladder(points)):
        p["rating"] = rating
    svg = curve_svg({"elo0": 0, "elo1": 20, "alpha": 0.05, "beta": 0.05, "gate_games": 1000}, points)
    root = ElementTree.fromstring(svg.encode())
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    titles = [t.text for t in root.iter("{http://www.w3.org/2000/svg}title")]
    for p in points:
        r = p["rating"]
        verdict = "accepted" if p["accepted"] else "refused"
        assert f"round {p['round']}: Elo {r['elo']:+.1f} [{r['low']:+.1f}, {r['high']:+.1f}], {verdict}" \
            in titles
        assert f"network, round {p['round']}: {p['validation_loss']:.5g}" in titles
        assert f"standard, 6 teams, round {p['round']}: {p['holdout_by_config'][1]['policy_loss']:.5g}" \
            in titles
    for p, told in zip(points[1:], ("accept, LLR 3.00", "reject, LLR -3.10", "cap, LLR 0.30",
                                    "accept, LLR 3.00")):
        assert f"round {p['round']}: {told} after 26 games" in titles
    letters = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")
               if t.text in ("A", "R", "C", "X")]
    assert letters == ["A", "R", "C", "X"]
    epochs = [t for t in titles if t.startswith("training loss, round ")]
    assert len(epochs) == 8 and "training loss, round 0.5: 2.4" in epochs


# -- a run's curve, and the curve command ----------------------------------------------------------

def test_a_run_keeps_its_ladder_and_losses_per_configuration_and_the_command_draws_it(
        tmp_path, capsys):
    out = tmp_path / "run"
    train(str(out), Settings(rounds=2, games=2, iterations=8, label_iterations=8, label_share=1.0,
                             max_actions=30, epochs=1, hidden=8, hidden2=4, holdout_games=2,
                             gate_games=2, elo0=-4000, elo1=-3999, alpha=0.5, beta=0.5,
                             anchor_games=2, match_iterations=8, curve_games=0,
                             mix=(("compact", 2, "standard", 1), ("compact", 3, "standard", 1))),
          progress=False)
    curve = json.loads((out / "curve.json").read_text())
    points = curve["points"]
    assert curve["format"] == 2 and [p["accepted"] for p in points] == [True] * 3
    assert points[2]["anchors"][0]["round"] == 0 and not points[1]["anchors"]
    assert [p["rating"] for p in points] == ladder(points)
    for p in points:
        assert {(c["board"], c["teams"]) for c in p["holdout_by_config"]} <= \
            {("compact", 2), ("compact", 3)}
        assert sum(c["positions"] for c in p["holdout_by_config"]) > 0
    assert ElementTree.parse(out / "curve.svg").getroot().tag.endswith("svg")
    picture = tmp_path / "picture.svg"
    capsys.readouterr()
    assert main(["curve", str(out), "--plot", str(picture)]) == 0
    printed = capsys.readouterr().out
    assert "round 2:" in printed and "gate accept at LLR" in printed and "Elo " in printed
    assert picture.read_text() == (out / "curve.svg").read_text()
    assert main(["curve", str(out), "--plot", str(tmp_path / "picture.png")]) == 2
    assert "--plot must end in .svg" in capsys.readouterr().err
    assert main(["curve", str(tmp_path / "nothing")]) == 2
    err = capsys.readouterr().err
    assert "curve.json is missing" in err and err.count("\n") == 1
