"""Training the learned evaluation (victorus.training, ``victorus train``): a tiny run end
to end, its files, its reproducibility whatever the workers, resuming, and its refusals."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

import victorus
from victorus.cli import main
from victorus.errors import ConfigError
from victorus.evaluation.network import Batch, Network, inputs, loss_and_gradients
from victorus.training import Settings, game_tasks, play_game, train

TINY = dict(rounds=2, games=4, iterations=12, max_actions=40, epochs=2, batch=64,
            hidden=8, hidden2=4, window=2, mix=(("compact", 2, "standard", 1),
                                               ("standard", 3, "quick", 1)))


def run(tmp_path, name, **changes):
    out = tmp_path / name
    points = []
    network = train(str(out), Settings(**{**TINY, **changes}), progress=False,
                    report=points.append)
    return out, network, points


def test_a_tiny_run_writes_its_checkpoints_and_curve(tmp_path):
    out, network, points = run(tmp_path, "run")
    assert sorted(os.listdir(out)) == ["curve.json", "network.vnet", "round-0.vnet",
                                       "round-1.vnet", "window-1.npz"]
    curve = json.loads((out / "curve.json").read_text())
    assert [p["round"] for p in curve["points"]] == [0, 1] == [p.round for p in points]
    for point in curve["points"]:
        assert point["games"] == 4 and point["positions"] > 0
        assert all(np.isfinite(point["train_loss"])) and len(point["train_loss"]) == 2
    loaded = Network.load(out / "network.vnet")
    assert loaded.info["rounds"] == 2 and loaded.info["settings"]["seed"] == 0
    assert loaded.trained == {"boards": ["compact", "standard"], "players": [2, 3]}
    assert np.array_equal(loaded.arrays["w3"], network.arrays["w3"])
    assert np.abs(loaded.arrays["w3"]).sum() > 0          # it learned something


def test_the_same_seed_gives_the_same_network_whatever_the_workers(tmp_path):
    _, one, _ = run(tmp_path, "one", workers=1)
    _, two, _ = run(tmp_path, "two", workers=2)
    _, other, _ = run(tmp_path, "other", seed=1)
    for name in one.arrays:                   # the header differs: workers, minutes
        assert one.arrays[name].tobytes() == two.arrays[name].tobytes()
    assert one.arrays["w3"].tobytes() != other.arrays["w3"].tobytes()


@pytest.mark.ray
def test_the_ray_backend_trains_the_same_network(tmp_path):
    _, local, _ = run(tmp_path, "local", rounds=1)
    _, on_ray, _ = run(tmp_path, "ray", rounds=1, backend="ray", workers=2)
    for name in local.arrays:
        assert local.arrays[name].tobytes() == on_ray.arrays[name].tobytes()


def test_resuming_goes_on_as_one_run_would(tmp_path):
    _, straight, _ = run(tmp_path, "straight")
    out, _, _ = run(tmp_path, "resumed", rounds=1)
    resumed = train(str(out), Settings(**TINY), resume=True, progress=False)
    assert resumed.arrays["w1"].tobytes() == straight.arrays["w1"].tobytes()
    with pytest.raises(ConfigError, match="trained with seed 0, not 5"):
        train(str(out), Settings(**{**TINY, "seed": 5}), resume=True, progress=False)
    with pytest.raises(ConfigError, match="trained with hidden 8, not 16"):
        train(str(out), Settings(**{**TINY, "hidden": 16}), resume=True, progress=False)
    with pytest.raises(ConfigError, match="cannot resume"):
        train(str(tmp_path / "empty"), Settings(**TINY), resume=True, progress=False)


def test_labels_blend_the_search_and_the_result():
    """R33: a finished game's label is blend x the search's root value + (1 - blend) x
    the result, per seat counted from the army to act; with blend 1 the search's alone."""
    task = ("compact", 2, "standard", 7)
    pure = play_game(task, None, 12, 0, 400, 1.0)
    mixed = play_game(task, None, 12, 0, 400, 0.0)
    assert len(pure) == len(mixed) > 0
    results = {tuple(np.round(s[5], 6)) for s in mixed}
    assert results <= {(1, -1) * 3, (-1, 1) * 3, (0,) * 6}     # the game's returns
    assert any(np.abs(s[5]).max() < 0.999 for s in pure)        # search values


def test_tasks_follow_the_mix_and_the_seed():
    settings = Settings(**{**TINY, "games": 6})
    tasks = game_tasks(settings, 0)
    assert [t[:3] for t in tasks] == [("compact", 2, "standard"), ("standard", 3, "quick")] * 3
    assert tasks == game_tasks(settings, 0) and tasks != game_tasks(settings, 1)


def test_the_gradients_are_those_of_the_loss():
    """loss_and_gradients against finite differences (the numpy twin's backward)."""
    net = Network.fresh(6, 4, seed=2)
    rng = np.random.default_rng(3)
    arrays = {k: np.array(v, dtype=np.float64) + rng.normal(0, 0.2, v.shape)
              for k, v in net.arrays.items()}
    game = victorus.Game("compact", players=3)
    samples = []
    for k in range(6):
        for _ in range(7):
            game.play(game.legal_actions()[(k * 5) % len(game.legal_actions())])
        samples.append(inputs(game))
    batch = Batch.of(samples)
    targets = rng.uniform(-1, 1, (len(samples), 6)) * batch.present
    _, grads = loss_and_gradients(arrays, batch, targets)
    rows, row_grads = grads.pop("w1")
    grads["w1"] = np.zeros_like(arrays["w1"])
    grads["w1"][rows] = row_grads
    for name in ("w1", "wd", "b1", "w2", "b2", "w3", "b3", "skip"):
        flat = arrays[name].reshape(-1)
        picks = rows[:3] * arrays["w1"].shape[1] if name == "w1" else range(min(4, flat.size))
        for i in picks:
            keep = flat[i]
            flat[i] = keep + 1e-6
            up = loss_and_gradients(arrays, batch, targets)[0]
            flat[i] = keep - 1e-6
            down = loss_and_gradients(arrays, batch, targets)[0]
            flat[i] = keep
            assert grads[name].reshape(-1)[i] == pytest.approx((up - down) / 2e-6, abs=1e-5)


def test_settings_are_checked():
    for bad in ({"backend": "spark"}, {"games": 0}, {"blend": 1.5}, {"weight_decay": -1},
                {"mix": (("hexagon", 2, "standard", 1),)}):
        with pytest.raises(ConfigError):
            Settings(**{**TINY, **bad}).check()


def test_the_command_line_trains_and_refuses_bad_folders(tmp_path, capsys):
    out = tmp_path / "cli"
    assert main(["train", str(out), "--rounds", "1", "--games", "2", "--iterations", "8",
                 "--epochs", "1", "--hidden", "4", "--hidden2", "2", "--no-progress"]) == 0
    printed = capsys.readouterr().out
    assert "round 0:" in printed and str(out / "network.vnet") in printed
    Network.load(out / "network.vnet")
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert main(["train", str(blocker / "sub"), "--rounds", "1", "--no-progress"]) == 2
    assert "victorus: error" in capsys.readouterr().err


@pytest.mark.parametrize("distil", [True, False])
def test_distil_searches_later_rounds_with_the_new_network(tmp_path, monkeypatch, distil):
    """Search and distil: round 0 on the heuristic, later rounds with the network so far;
    --no-distil keeps every round on the heuristic."""
    from victorus import training
    searched = []
    real = training.self_play

    def spy(settings, number, network, progress=None):
        searched.append(network)
        return real(settings, number, network, progress)
    monkeypatch.setattr(training, "self_play", spy)
    run(tmp_path, f"distil-{distil}", distil=distil)
    assert searched[0] is None
    assert (searched[1] is not None) == distil
    with pytest.raises(ConfigError, match="distil must be True or False"):
        Settings(**{**TINY, "distil": "yes"}).check()
