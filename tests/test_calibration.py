"""The review's win chances (victorus.page.calibration): a logistic fit that recovers a known
curve, the reliability table by deciles, the shipped file (read once, the one source of
docs/serve.md's table), and a malformed file refused in one line."""

import json
import math
import random
import re
from pathlib import Path

import pytest

from victorus.errors import ConfigError
from victorus.page import analysis, calibration
from victorus.page.calibration import (
    CALIBRATION,
    Calibration,
    Curve,
    Decile,
    calibration_error,
    dump,
    fit,
    linear_chance,
    load,
    markdown,
    reliability,
)

DOCS = Path(__file__).resolve().parents[1] / "docs" / "serve.md"


def _samples(slope, intercept, count, seed=3):
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        value = rng.uniform(-1, 1)
        won = rng.random() < 1 / (1 + math.exp(-(slope * value + intercept)))
        out.append((value, float(won)))
    return out


def test_the_fit_recovers_the_curve_the_samples_were_drawn_from():
    slope, intercept = fit(_samples(4.0, -0.3, 20_000))
    assert slope == pytest.approx(4.0, abs=0.2) and intercept == pytest.approx(-0.3, abs=0.1)
    separated = [(-0.5, 0.0), (-0.2, 0.0), (0.3, 1.0), (0.6, 1.0)]
    slope, _ = fit(separated)                      # finite, however clean the data
    assert math.isfinite(slope) and slope > 0
    with pytest.raises(ConfigError, match="at least 2 samples"):
        fit([(0.1, 1.0)])


def test_the_reliability_table_cuts_the_positions_into_deciles_by_prediction():
    predicted = [i / 100 for i in range(100)]
    outcomes = [1.0 if i % 2 else 0.0 for i in range(100)]
    table = reliability(predicted, outcomes)
    assert len(table) == 10 and all(d.positions == 10 for d in table)
    assert table[0] == Decile(0.045, 0.5, 10) and table[9] == Decile(0.945, 0.5, 10)
    assert calibration_error(table) == pytest.approx(sum(abs(d.predicted - 0.5) for d in table) / 10,
                                                     abs=1e-4)
    assert calibration_error([]) == 0.0


def test_a_value_is_read_by_its_number_of_teams_curve_else_by_the_fair_share_line():
    curve = Curve(2, 4.0, 0.0, "standard", 1, 2, ())
    chances = Calibration("best", 10, "0123456789ab", {2: curve})
    assert chances.chance(0.0, 2) == 0.5 and chances.chance(0.5, 2) == pytest.approx(1 / (1 + math.exp(-2)))
    assert chances.chance(9.0, 2) == chances.chance(1.0, 2)                # clipped
    assert chances.chance(2 / 3 - 1, 3) == pytest.approx(1 / 3) == linear_chance(2 / 3 - 1)
    assert linear_chance(1.0) == 1.0 and linear_chance(-1.0) == 0.0 and linear_chance(-3) == 0.0
    assert analysis.chance(0.5, 2, chances) == round(chances.chance(0.5, 2), 3)


def test_the_shipped_curves_are_the_review_s_and_round_trip(tmp_path):
    assert CALIBRATION.agent == analysis.REVIEW_AGENT
    assert CALIBRATION.iterations == analysis.REVIEW_ITERATIONS
    assert CALIBRATION.network == analysis.review_network()     # a new default network: refit
    for teams, curve in CALIBRATION.curves.items():
        assert curve.teams == teams and curve.slope > 0 and curve.deciles
        assert sum(d.positions for d in curve.deciles) == curve.positions
        assert json.loads(calibration.DATA.read_text())["curves"][
            sorted(CALIBRATION.curves).index(teams)]["error"] == curve.error
    path = tmp_path / "c.json"
    path.write_text(dump(CALIBRATION))
    assert load(path) == CALIBRATION
    assert dump(load(path)) == calibration.DATA.read_text()


def test_the_docs_reliability_table_is_the_data_file_s():
    text = DOCS.read_text()
    begin, end = "<!-- calibration: tools/calibrate.py writes this table -->", "<!-- end of calibration -->"
    table = text.split(begin, 1)[1].split(end, 1)[0]
    assert table.strip() == markdown(CALIBRATION).strip()


@pytest.mark.parametrize("content,message", [
    ("not json", "cannot read the calibration"),
    ('{"agent": "best", "iterations": 1}', "must be an object with 'agent', 'network' and a list"),
    ('{"agent": "best", "iterations": 1, "curves": []}', "must be an object with 'agent', 'network'"),
    ('{"agent": "best", "iterations": 1, "network": "n", "curves": [7]}', "curve 1 must be an object"),
    ('{"agent": "best", "iterations": 1, "network": "n", "curves": [{"teams": 2, "slope": "x"}]}',
     "'deciles' must be a list"),
    ('{"agent": "best", "iterations": 1, "network": "n", "curves": [{"teams": 2, "slope": "x", "deciles": [],'
     ' "board": "standard"}]}', "'slope' must be a finite number"),
    ('{"agent": "best", "iterations": 1, "network": "n", "curves": [{"deciles": [3]}]}',
     "a decile must be an object"),
    ('{"agent": "best", "iterations": 1, "network": "n", "curves": [{"deciles": [], "board": 5}]}',
     "'board' must be a board's name"),
])
def test_a_malformed_calibration_file_is_refused_in_one_line(tmp_path, content, message):
    path = tmp_path / "c.json"
    path.write_text(content)
    with pytest.raises(ConfigError, match=re.escape(message)) as error:
        load(path)
    assert "\n" not in str(error.value)
    with pytest.raises(ConfigError, match="cannot read the calibration"):
        load(tmp_path / "missing.json")


def test_markdown_gives_each_curve_its_formula_and_deciles():
    curve = Curve(2, 3.5, -0.25, "standard", 4, 20, (Decile(0.2, 0.25, 10), Decile(0.8, 0.7, 10)))
    text = markdown(Calibration("best", 10, "0123456789ab", {2: curve}))
    assert "2 teams (standard board, 4 games, 20 positions)" in text
    assert "1 / (1 + exp(-(3.500 * value - 0.250)))" in text and "calibration error 0.075" in text
    assert "| 1 | 0.200 | 0.250 | 10 |" in text and "| 2 | 0.800 | 0.700 | 10 |" in text
