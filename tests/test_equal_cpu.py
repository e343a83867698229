"""Tournaments at equal CPU (victorus.tournament.calibrate, ``--equal-cpu``): each time
budget becomes the count its agent searches in that time on this machine."""

from __future__ import annotations

import json
import re

import pytest

from victorus.cli import main
from victorus.errors import ConfigError
from victorus.tournament import calibrate


def test_time_budgets_become_counts_of_the_same_kind():
    specs = ["best-net:0.003s", "alphabeta:0.003s", "mcts:0.002s", "mcts:0.002s@2", "greedy",
             "mcts-py:0.002s", "puct:40"]
    calibration = calibrate(specs, positions=3, seed=4)
    assert list(calibration.budgets) == ["best-net:0.003s", "alphabeta:0.003s", "mcts:0.002s",
                                         "mcts:0.002s@2", "greedy", "mcts-py:0.002s", "puct:40"]
    for spec in ("best-net:0.003s", "alphabeta:0.003s", "mcts:0.002s"):
        kind, _, count = calibration.budgets[spec].partition(":")
        assert kind == spec.partition(":")[0] and int(count) >= 1
        assert len(calibration.counts[spec]) == 3
        assert int(count) == sorted(calibration.counts[spec])[1]          # the median
    for kept in ("mcts:0.002s@2", "greedy", "mcts-py:0.002s", "puct:40"):
        assert calibration.budgets[kept] == kept
    assert "best-net:0.003s = best-net:" in calibration.line()
    with pytest.raises(ConfigError):
        calibrate(["nonsense:1s"], positions=1)


def test_the_tournament_command_plays_the_calibrated_budgets(tmp_path, capsys):
    out = tmp_path / "result.json"
    assert main(["tournament", "2", "mcts:0.002s", "greedy", "--equal-cpu", "--max-actions",
                 "60", "--json", str(out), "--no-progress"]) == 0
    printed = capsys.readouterr().out
    assert re.search(r"equal CPU on this machine \(12 positions\): mcts:0.002s = mcts:\d+", printed)
    data = json.loads(out.read_text())
    assert re.fullmatch(r"mcts:\d+", data["equal_cpu"]["mcts:0.002s"])
    assert data["equal_cpu"]["greedy"] == "greedy"
