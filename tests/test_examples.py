"""examples/train_evaluator.py: the AlphaZero-style loop on PUCT (a quick run, the
network's gradients, the action frame it shares with the search, checkpoints)."""

import importlib.util
import json
import math
import sys
from pathlib import Path

import numpy as np
import pytest

import victorus
from victorus.errors import ConfigError, MissingDependencyError
from victorus.search.puct import PUCTAgent

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "train_evaluator.py"


@pytest.fixture(scope="module")
def example():
    spec = importlib.util.spec_from_file_location("train_evaluator", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    sys.modules["train_evaluator"] = module        # dataclasses and actors look it up
    spec.loader.exec_module(module)
    yield module
    del sys.modules["train_evaluator"]


class SlowClock:
    """A loaded machine's clock, as the example reads it: 5 minutes pass between reads."""

    def __init__(self):
        self.now = 0.0

    def perf_counter(self):
        self.now += 300.0
        return self.now


def test_a_quick_run_writes_its_curve_and_lowers_its_losses(example, tmp_path, capsys,
                                                             monkeypatch):
    """--quick is bounded by its iterations, not by the clock: the same three points
    however loaded the machine is."""
    monkeypatch.setattr(example, "time", SlowClock())
    curve, checkpoint = tmp_path / "curve.json", tmp_path / "net.npz"
    returned = example.main(["--quick", "--curve", str(curve), "--save", str(checkpoint)])
    run = json.loads(curve.read_text())
    assert run == json.loads(json.dumps(returned))
    assert run["command"].endswith(f"--quick --curve {curve} --save {checkpoint}")
    points = run["points"]
    assert [p["iteration"] for p in points] == [0, 1, 2]
    assert [p["games"] for p in points] == [0, 4, 8]
    assert all(a["minutes"] <= b["minutes"] for a, b in zip(points, points[1:]))
    for point in points:
        assert set(point["evaluation"]) == {"greedy", "mcts:0.005s"}
        for rate in point["evaluation"].values():
            low, high = rate["wilson_95"]
            assert rate["games"] == 2 and rate["wins"] + rate["draws"] <= 2
            assert 0 <= low <= rate["win_rate"] <= high <= 1
    for point in points[1:]:
        loss = point["loss"]
        assert point["samples"] > 0 and loss["steps"] == 12
        assert all(math.isfinite(v) for v in loss.values())
        before = loss["policy_before"] + loss["value_before"]
        assert loss["policy_after"] + loss["value_after"] < before
    printed = capsys.readouterr().out
    assert printed.count("iteration ") == 3
    assert "| training min | wall min | self-play games | vs greedy" in printed
    net = example.Network.load(str(checkpoint))
    assert net.hidden == 16 and net.steps == 24


def test_the_gradients_match_finite_differences(example):
    """The written-out backward pass against central differences, in float64."""
    rng = np.random.default_rng(0)
    net = example.Network(2 * 5, 20, hidden=6, seed=1)
    net.params = {k: v.astype(np.float64) + 0.3 * rng.standard_normal(v.shape)
                  for k, v in net.params.items()}
    obs = rng.integers(0, 3, (4, 2, 5)).astype(np.uint8)
    ids = np.array([[1, 5, 7, -1], [0, 2, -1, -1], [3, 4, 19, 12], [5, 1, -1, -1]], np.int32)
    policy = np.where(ids >= 0, rng.random(ids.shape), 0.0)
    policy /= policy.sum(1, keepdims=True)
    value = np.array([1.0, -1.0, 0.0, 1.0])
    grads = net.loss(obs, ids, policy, value, grads=True)[2]
    for name, param in net.params.items():
        numeric = np.zeros_like(param)
        for index in np.ndindex(param.shape):
            old = param[index]
            param[index] = old + 1e-6
            up = sum(net.loss(obs, ids, policy, value)[:2])
            param[index] = old - 1e-6
            down = sum(net.loss(obs, ids, policy, value)[:2])
            param[index] = old
            numeric[index] = (up - down) / 2e-6
        assert np.allclose(grads[name], numeric, atol=1e-5), name


def test_training_targets_use_the_searchs_observer_frame(example):
    """The ids stored with a self-play position are those PUCT gives its evaluator with
    id_frame="observer", for every seat (seats 2 and 4 rotate the board, R9)."""
    checked = set()

    def recording(batch):
        for i in range(batch.size):
            game = batch.game(i)
            n = int(batch.num_legal[i])
            assert list(example.observer_ids(game)) == list(batch.legal_ids[i, :n])
            checked.add(int(batch.seats[i]))
        return None, [0.0] * batch.size

    agent = PUCTAgent(24, evaluator=recording, batch_size=4, id_frame="observer", seed=3)
    game = victorus.Game("compact", players=2, variant="quick6")
    while len(checked) < 6 and not game.is_over:
        game.play(agent.search(game).action)
    assert checked == set(range(6))


def test_the_evaluator_gives_priors_over_the_legal_ids(example):
    game = victorus.Game("compact", players=2)
    obs = game.observation(0, dtype="uint8")
    net = example.Network(obs.size, victorus.tensors.num_actions(game.board), hidden=8)
    ids = np.full((2, 40), -1, np.int32)
    ids[0, :3], ids[1, :5] = [4, 9, 16131], [0, 1, 2, 3, 4]
    priors, values = net.predict(np.stack([obs, obs]), ids)
    assert np.allclose(priors.sum(1), 1) and (priors[ids < 0] == 0).all()
    assert values.shape == (2,) and (np.abs(values) < 1).all()


def test_a_checkpoint_round_trips_and_a_wrong_file_is_refused(example, tmp_path):
    net = example.Network(30, 50, hidden=4, seed=2)
    obs = np.ones((3, 5, 6), np.uint8)
    ids = np.tile(np.arange(4, dtype=np.int32), (3, 1))
    policy = np.full((3, 4), 0.25, np.float32)
    net.train_step(obs, ids, policy, np.array([1.0, -1.0, 0.0], np.float32))
    net.save(str(tmp_path / "net.npz"))
    again = example.Network.load(str(tmp_path / "net.npz"))
    assert again.steps == 1 and sorted(tmp_path.iterdir()) == [tmp_path / "net.npz"]
    for name in example.Network.NAMES:
        assert np.array_equal(again.params[name], net.params[name])
        assert np.array_equal(again.moments[name][1], net.moments[name][1])
    np.savez(tmp_path / "other.npz", w1=np.zeros(3))
    with pytest.raises(ConfigError, match="not a network checkpoint"):
        example.Network.load(str(tmp_path / "other.npz"))


def test_ray_is_asked_for_by_name_when_absent(example, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(MissingDependencyError, match="pip install ray"):
        example.Actors("ray", 1)


def test_the_evaluation_can_also_be_at_equal_iterations(example):
    """--eval-iterations adds PUCT against mcts at that many iterations each (equal
    iterations), beside equal time; the search settings come from flags."""
    args = example.parse(["--quick", "--iterations", "0", "--eval-iterations", "20",
                          "--c-puct", "0.5", "--leaf-batch", "4"])
    assert (args.setup.eval_iterations, args.setup.c_puct, args.setup.batch_size) == (20, 0.5, 4)
    assert example.opponents(args.setup) == ("greedy", "mcts", "mcts-iterations")
    assert example.opponent_name("mcts-iterations", args.setup) == "mcts:20"
    assert example.selfplay_agent(args.setup, "uniform", 1).c_puct == 0.5
    game = args.setup.new_game()
    net = example.Network(game.observation(0, dtype="uint8").size,
                          example.num_actions(game.board), args.hidden, seed=0)
    outcomes = example.play_evaluation(net.state(), args.setup, "mcts-iterations", [0, 1], 3)
    assert len(outcomes) == 2 and set(outcomes) <= {"win", "loss", "draw"}


@pytest.mark.parametrize("argv", [["--games", "0"], ["--backend", "dask"],
                                  ["--variant", "quick0"], ["--save", "/nonexistent/net.npz"],
                                  ["--load", "/nonexistent/net.npz"], ["--iterations", "-1"],
                                  ["--eval-iterations", "-3"], ["--leaf-batch", "0"]])
def test_bad_settings_are_refused(example, argv):
    with pytest.raises((SystemExit, ConfigError)):
        example.parse(argv)
