"""Two networks compared (victorus.evaluation.compare, victorus.match.compare_networks,
``victorus network compare``): identical weights whatever the header's info, the largest
difference per array and overall, arrays of one network alone or of other shapes said so
(the union of both networks' arrays, whatever their names), and a match between them."""

from __future__ import annotations

import json

import numpy as np
import pytest

from victorus.cli import main
from victorus.errors import ConfigError
from victorus.evaluation.compare import compare_weights
from victorus.evaluation.network import Network
from victorus.match import compare_networks


@pytest.fixture(autouse=True)
def _quiet(monkeypatch):
    monkeypatch.delenv("VICTORUS_PROGRESS", raising=False)


@pytest.fixture(scope="module")
def base():
    return Network.fresh(4, 4, seed=7)


def saved(tmp_path, name: str, network: Network) -> str:
    path = tmp_path / name
    network.save(path)
    return str(path)


def test_the_same_weights_with_another_info_are_identical(tmp_path, base):
    a = saved(tmp_path, "a.vnet", Network(base.arrays, base.trained, {"minutes": 1.5}))
    b = saved(tmp_path, "b.vnet", Network(base.arrays, base.trained, {"minutes": 99.0}))
    assert open(a, "rb").read() != open(b, "rb").read()
    same = compare_weights(a, b)
    assert same.identical and same.max_abs == 0.0 and (same.a, same.b) == (a, b)
    assert [array.name for array in same.arrays] == list(base.arrays)
    assert {array.status for array in same.arrays} == {"identical"}
    assert same.lines()[2] == "identical weights (the header's info left out)"


def test_each_array_reports_its_largest_difference(base):
    arrays = dict(base.arrays)
    arrays["b3"] = arrays["b3"] + np.float32(0.5)
    arrays["w2"] = arrays["w2"].copy()
    arrays["w2"][1, 2] -= np.float32(0.25)
    result = compare_weights(base, Network(arrays, base.trained))
    by_name = {array.name: array for array in result.arrays}
    assert not result.identical and result.max_abs == pytest.approx(0.5)
    assert by_name["b3"].status == "differs" and by_name["b3"].max_abs == pytest.approx(0.5)
    assert by_name["w2"].max_abs == pytest.approx(0.25, abs=1e-6)
    assert by_name["w1"].status == "identical" and by_name["w1"].max_abs == 0.0
    assert "largest absolute difference 0.5" in result.lines()[2]


def test_arrays_of_other_shapes_or_in_one_network_alone_are_said_so(base):
    wider = Network.fresh(8, 4, seed=7)
    result = compare_weights(base, wider)
    status = {array.name: array.status for array in result.arrays}
    assert status["w1"] == status["b1"] == status["w2"] == "shapes differ"
    assert status["b2"] == status["w3"] == status["b3"] == status["skip"] == "identical"
    assert not result.identical and result.max_abs == 0.0      # over the comparable ones
    extra = Network(base.arrays, base.trained)
    extra.arrays = {**extra.arrays, "policy_w": np.ones((3, 2), np.float32)}   # a head of its own
    one_sided = compare_weights(base, extra)
    last = one_sided.arrays[-1]
    assert (last.name, last.status, last.shape_a, last.shape_b, last.max_abs) == \
        ("policy_w", "only in B", None, (3, 2), None)
    assert not one_sided.identical
    assert compare_weights(extra, base).arrays[-1].status == "only in A"
    data = json.loads(json.dumps(one_sided.as_dict()))           # all of it JSON
    assert data["arrays"][-1] == {"name": "policy_w", "status": "only in B", "shape_a": None,
                                  "shape_b": [3, 2], "max_abs_difference": None}
    assert any("shapes differ: (4, 4) in A, (8, 4) in B" in line for line in result.lines())


def test_another_trained_for_is_not_the_same_network(base):
    result = compare_weights(base, Network(base.arrays, {"boards": ["compact"], "players": [2]}))
    assert not result.identical and result.max_abs == 0.0
    assert result.lines()[-1].startswith("trained for: ")


def test_the_networks_play_each_other_at_equal_iterations(tmp_path, base):
    a = saved(tmp_path, "a.vnet", base)
    weights_only = compare_networks(a, "default", games=0)
    assert weights_only.match is None and weights_only.stopped is None
    assert weights_only.as_dict()["match"] is None
    played = compare_networks(a, "default", games=2, iterations=5, opening=2, seed=1, progress=False)
    assert played.weights.a == a and not played.weights.identical
    assert (played.match.a, played.match.b) == (f"best-net({a}):5", "best-net(default):5")
    assert played.match.games == 2 and played.iterations == 5
    again = compare_networks(a, "default", games=2, iterations=5, opening=2, seed=1, workers=2,
                             progress=False)
    assert again.match.tournament.outcomes == played.match.tournament.outcomes


def test_a_network_not_trained_for_the_game_is_refused_before_playing(tmp_path, base):
    narrow = saved(tmp_path, "narrow.vnet", Network(base.arrays, {"boards": ["standard"], "players": [6]}))
    with pytest.raises(ConfigError, match=r"narrow.vnet: trained for boards \['standard'\]"):
        compare_networks(narrow, "default", games=2, iterations=5)
    assert compare_networks(narrow, "default", games=0).match is None     # the weights alone


def test_the_command_compares_and_plays(tmp_path, base, capsys):
    a = saved(tmp_path, "a.vnet", base)
    assert main(["network", "compare", a, a, "--games", "0", "--json", "-"]) == 0
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert data["weights"]["identical"] is True and data["match"] is None
    assert "identical weights" in captured.err and "board" not in captured.err
    assert main(["network", "compare", a, "default", "--games", "2", "--iterations", "5",
                 "--opening", "2", "--json", "-"]) == 0
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert data["weights"]["identical"] is False and data["iterations"] == 5
    assert data["match"]["games"] == 2 and data["match"]["a"] == f"best-net({a}):5"
    assert data["game"] == {"board": "compact", "players": 2, "variant": "standard"}
    assert "A's score" in captured.err


@pytest.mark.parametrize("argv, message", [
    (["network", "compare", "/nonexistent/a.vnet", "default"], "/nonexistent/a.vnet: no such network file"),
    (["network", "compare", "default", "default", "--games", "3"], "games must be a multiple of 2"),
])
def test_the_command_refuses_bad_input_in_one_line(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("victorus: error: ") and message in err
