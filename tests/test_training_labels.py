"""The label study's instruments (victorus.training.labels): outcomes estimated from
continuations, the fixed set's file, and the student's and teacher's squared errors against
it, each checked on a hand-worked case."""

import json

import pytest

import victorus
from helpers import position
from victorus.errors import ConfigError
from victorus.training.labels import FORMAT, Labelled, LabelSet, errors, estimate, label_errors

UNGATED = "a,3,"          # an army whose knights made 3 captures (R19)
WON_IN_ONE = position({"i12": "0K", "i20": "1Tb"}, armies={0: UNGATED}, laps={"i12": 1})
"""Red to move, its King one step from the centre with a lap done (R28): i12-i14 wins."""


def two_positions() -> LabelSet:
    start = victorus.Game("compact", players=2).vpn()
    three = victorus.Game("compact", players=3).vpn()
    return LabelSet((Labelled(start, (0.5, -0.5, 0.5, -0.5, 0.5, -0.5), 0.01, 10),
                     Labelled(three, (0.2, -0.6, -0.6, 0.2, -0.6, -0.6), 0.03, 10)), "best:8", 3)


def test_errors_by_hand():
    labels = two_positions()
    zero = errors(lambda game: (0.0,) * 6, labels)
    # 2-player: 6 seats of 0.25 each; 3-player: 2 x 0.04 + 4 x 0.36; over 12 seats
    assert zero == pytest.approx((6 * 0.25 + 2 * 0.04 + 4 * 0.36) / 12)
    assert errors(lambda game: (0.5, -0.5) * 3 if game.config.players == 2
                  else (0.2, -0.6, -0.6) * 2, labels) == pytest.approx(0.0)


def test_label_errors_by_hand():
    labels = two_positions()
    found = label_errors(lambda game: (0.0,) * 6, lambda game: (0.25, -0.25) * 3
                         if game.config.players == 2 else (0.2, -0.6, -0.6) * 2, labels)
    student = (6 * 0.25 + 2 * 0.04 + 4 * 0.36) / 12
    teacher = 6 * 0.0625 / 12
    floor = (0.01 + 0.03) / 2
    assert found["student"] == pytest.approx(student, abs=1e-5)
    assert found["teacher"] == pytest.approx(teacher, abs=1e-5)
    assert found["floor"] == pytest.approx(floor)
    assert found["ahead"] == pytest.approx(1 - (teacher - floor) / (student - floor), abs=1e-4)
    assert found["positions"] == 2


def test_the_set_round_trips_and_a_bad_file_is_refused(tmp_path):
    labels = two_positions()
    path = tmp_path / "set.json"
    path.write_text(labels.as_json())
    assert LabelSet.read(str(path)) == labels
    data = json.loads(labels.as_json())
    for broken, why in ((dict(data, format="other"), "format"),
                        (dict(data, positions=[{"vpn": "x"}]), "outcome"),
                        ({**data, "positions": [dict(data["positions"][0], outcome=[2] * 6)]},
                         "from -1 to 1")):
        path.write_text(json.dumps(broken))
        with pytest.raises(ConfigError, match=FORMAT) as info:
            LabelSet.read(str(path))
        assert why in str(info.value) and "\n" not in str(info.value)


def test_the_shipped_set_reads_and_its_outcomes_are_shares():
    labels = LabelSet.read()
    assert len(labels.positions) >= 100
    for p in labels.positions:
        game = victorus.Game.from_vpn(p.vpn)
        teams = {game.config.teams[s] for s in game.config.present}
        shares = {game.config.teams[s]: (p.outcome[s] + 1) / 2 for s in game.config.present}
        assert len(shares) == len(teams)
        assert sum(shares.values()) == pytest.approx(1.0, abs=1e-3)   # the win is shared out
        assert p.continuations >= 2 and p.variance >= 0


def test_a_won_position_is_estimated_as_won():
    [found] = estimate([WON_IN_ONE], 2, "best:8", seed=5, progress=False)
    expected = victorus.Game.from_vpn(WON_IN_ONE)
    expected.play("i12-i14")
    assert found.outcome == pytest.approx(expected.share_returns())
    assert found.variance == 0 and found.continuations == 2
