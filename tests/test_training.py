"""Training the learned evaluation (victorus.training, ``victorus train``): a tiny run end
to end, its files, its reproducibility whatever the workers, resuming, and its refusals; the
numpy twin's gradients (victorus.evaluation.twin)."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

import victorus
from victorus import tensors
from victorus.checks import shown_path
from victorus.cli import main
from victorus.errors import ConfigError
from victorus.evaluation.network import Network
from victorus.evaluation.twin import Batch, inputs, loss_and_gradients, moves
from victorus.training import Settings, game_tasks, play_game, read_run, train
from victorus.training.dataset import read_dataset
from victorus.training.labels import LabelSet

#: An acceptance test that accepts every candidate not infinitely weaker: its hypotheses
#: 4,000 Elo below the best, both bounds 0.
ACCEPT_ALL = dict(elo0=-4000, elo1=-3999, alpha=0.5, beta=0.5)
TINY = dict(rounds=2, games=4, iterations=12, label_iterations=16, label_share=1.0,
            max_actions=40, epochs=2, batch=64, hidden=8, hidden2=4, window=2,
            holdout_games=2, gate_games=2, **ACCEPT_ALL, anchor_games=2, match_iterations=8,
            curve_games=2, mix=(("compact", 2, "standard", 1), ("standard", 3, "quick", 1)))


def run(tmp_path, name, **changes):
    out = tmp_path / name
    points = []
    network = train(str(out), Settings(**{**TINY, **changes}), progress=False,
                    report=points.append)
    return out, network, points


def test_a_tiny_run_writes_its_checkpoints_and_curve(tmp_path):
    out, network, points = run(tmp_path, "run")
    assert sorted(os.listdir(out)) == ["curve.json", "curve.svg", "network.vnet",
                                       "optimiser-2.npz", "positions-1.npz", "positions-2.npz",
                                       "positions-holdout.npz", "round-0.vnet", "round-1.vnet",
                                       "round-2.vnet", "window-2.npz"]
    curve = json.loads((out / "curve.json").read_text())
    for number in (1, 2):                                   # every round's games, kept whole
        data = read_dataset(str(out / f"positions-{number}.npz"))
        assert len(data.games) == 4 and len(data.samples) == curve["points"][number]["positions"] \
            - (curve["points"][1]["positions"] if number == 2 else 0)
    for point in curve["points"][1:]:                       # the label study, every round
        labels = point["labels"]
        assert labels["positions"] == len(LabelSet.read().positions)
        assert 0 < labels["floor"] < labels["student"] and labels["teacher"] > 0
    assert [p["round"] for p in curve["points"]] == [0, 1, 2] == [p.round for p in points]
    assert curve["points"][0]["games"] == 0 and curve["points"][0]["searched_by"] == -1
    for point in curve["points"][1:]:
        assert point["games"] == 4 and point["positions"] > 0
        assert all(np.isfinite(point["train_loss"])) and len(point["train_loss"]) == 2
        assert point["accepted"] and point["gate"]["verdict"] == "accept"
        assert point["vs_start"]["games"] == point["vs_heuristic"]["games"] == 2
        assert point["labelled_per_second"] > 0 and np.isfinite(point["policy_loss"])
    loaded = Network.load(out / "network.vnet")
    assert loaded.info["round"] == 2 and loaded.info["settings"]["seed"] == 0
    assert loaded.trained == {"boards": ["compact", "standard"], "players": [2, 3]}
    assert np.array_equal(loaded.arrays["w3"], network.arrays["w3"])
    assert np.abs(loaded.arrays["w3"]).sum() > 0          # it learned something
    assert np.abs(loaded.arrays["policy_to"]).sum() > 0   # its policy too
    start = Network.load(out / "round-0.vnet")             # a fresh start: the heuristic
    assert not np.abs(start.arrays["w3"]).sum() and not np.abs(start.arrays["w1"]).sum()


def test_the_same_seed_gives_the_same_network_whatever_the_workers(tmp_path):
    one, _, _ = run(tmp_path, "one", workers=1)
    two, _, _ = run(tmp_path, "two", workers=2)
    other, _, _ = run(tmp_path, "other", seed=1)
    one, two, other = (Network.load(out / "round-2.vnet") for out in (one, two, other))
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
    assert resumed.arrays["policy_from"].tobytes() == straight.arrays["policy_from"].tobytes()
    with pytest.raises(ConfigError, match="trained with seed 0, not 5"):
        train(str(out), Settings(**{**TINY, "seed": 5}), resume=True, progress=False)
    with pytest.raises(ConfigError, match="trained with hidden 8, not 16"):
        train(str(out), Settings(**{**TINY, "hidden": 16}), resume=True, progress=False)
    with pytest.raises(ConfigError, match="cannot resume"):
        train(str(tmp_path / "empty"), Settings(**TINY), resume=True, progress=False)
    # distil says how the rounds to come are searched: it may change on resume
    train(str(out), Settings(**{**TINY, "rounds": 3, "distil": False}), resume=True,
          progress=False)
    points = read_run(str(out))[1]
    assert [p.searched_by for p in points] == [-1, 0, 1, 0]


def test_the_loop_data_reads_back_through_read_run(tmp_path):
    out, _, points = run(tmp_path, "run", window=1)
    settings, saved, windows = read_run(str(out))
    # the ladder is refitted every round: a reported point's rating is the one of its round
    assert settings["games"] == 4 and saved[-1] == points[-1]
    assert [{**vars(p), "rating": None} for p in saved] == [{**vars(p), "rating": None} for p in points]
    assert len(windows) == 1 and len(windows[0]) == points[-1].positions
    board, rows, dense, terms, teams, target, origin, to, capture, policy = windows[0][0]
    assert board in ("compact", "standard") and len(origin) == len(to) == len(capture) \
        == len(policy) and policy.sum() == pytest.approx(1)


@pytest.mark.parametrize("window", [1, 2])
def test_each_position_is_read_in_window_rounds(tmp_path, monkeypatch, window):
    """The replay window: a round trains on its own positions and those of the window - 1
    rounds before it, each once an epoch, so a position is read window x epochs times in
    all, never more (the defaults: a window of 3 rounds, 1 epoch)."""
    from victorus.training import step
    seen = []
    real = step.loss_and_gradients

    def spy(arrays, batch, *args):
        seen.append(len(batch))
        return real(arrays, batch, *args)
    monkeypatch.setattr(step, "loss_and_gradients", spy)
    out, _, points = run(tmp_path, f"w{window}", window=window, epochs=1, batch=16, rounds=3)
    assert Settings().window == 3 and Settings().epochs == 1
    own = [0] + [len(read_dataset(str(out / f"positions-{n}.npz")).samples) for n in (1, 2, 3)]
    trained = [sum(own[max(1, n - window + 1):n + 1]) for n in (1, 2, 3)]
    assert [p.positions for p in points[1:]] == trained
    assert sum(seen) == sum(trained)
    assert max(seen) <= 16


def test_one_optimiser_goes_on_from_round_to_round(tmp_path, monkeypatch):
    """A run makes one Adam and keeps it (its moments and step counts), resumed from its
    file: a fresh one's first steps would move every touched weight by the learning rate."""
    from victorus import training
    made = []
    real = training.Adam.__init__

    def spy(self, *args, **kwargs):
        made.append(self)
        real(self, *args, **kwargs)
    monkeypatch.setattr(training.Adam, "__init__", spy)
    out, _, points = run(tmp_path, "adam", rounds=2)
    assert len(made) == 1
    steps = sum(2 * -(-p.positions // 64) for p in points[1:])
    assert made[0].t["b1"] == steps
    with np.load(out / "optimiser-2.npz") as saved:
        assert int(saved["t.b1"][0]) == steps and saved["m.w3"].any()


def test_the_gate_refuses_a_weaker_candidate(tmp_path, monkeypatch):
    """A candidate that values material backwards loses the gate: it is kept as its
    round's file, but the best network (network.vnet, and self-play's searcher) stays."""
    from victorus.training import run as loop

    def backwards(network, *args, **kwargs):
        arrays = dict(network.arrays)
        arrays["skip"] = -3 * arrays["skip"]
        return Network(arrays, network.trained, network.info), [0.0]
    monkeypatch.setattr(loop, "fit", backwards)
    out, best, points = run(tmp_path, "gated", gate_games=8, elo0=0, elo1=200, alpha=0.05,
                            beta=0.05, match_iterations=40, curve_games=0, rounds=1,
                            mix=(("compact", 2, "standard", 1),))
    assert points[1].gate["verdict"] in ("reject", "cap") and points[1].gate["score"] < 0.5
    assert not points[1].accepted and points[1].best == 0 and not points[1].anchors
    assert points[1].vs_start is None
    start = Network.load(out / "round-0.vnet")
    assert Network.load(out / "network.vnet").arrays["skip"].tobytes() == \
        start.arrays["skip"].tobytes() == best.arrays["skip"].tobytes()
    assert Network.load(out / "round-1.vnet").arrays["skip"][0] < 0


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


def test_policy_labels_are_the_deep_search_visit_counts(monkeypatch):
    """A kept position's policy target is the deep search's visits, normalised, over the
    legal actions in legal_actions() order (hand-computed here from made-up visits); its
    moves are the legal actions' origin and target columns."""
    from victorus.search.results import SearchResult
    from victorus.training import selfplay

    class Made:
        def __init__(self, deep):
            self.deep = deep

        def search(self, game):
            legal = game.legal_actions()
            visits = (2, 1, 1, 0, 0, 0, 0, 0)[:len(legal)] + (0,) * (len(legal) - 8)
            visits = visits if self.deep else (0,) * len(legal)
            return SearchResult(legal[0], tuple(legal), visits, (0.0,) * len(legal), 4, 4, (),
                                (0.25, -0.25, 0, 0, 0, 0))
    monkeypatch.setattr(selfplay, "_agents", lambda seed, evaluator, play: (Made(False), Made(True)))
    samples = play_game(("compact", 2, "standard", 3), None, 12, 0, 6, 1.0, label_share=0.5)
    assert 0 < len(samples) < 6
    for sample in samples:
        expected = {2: [2 / 3, 1 / 3], 3: [0.5, 0.25, 0.25]}.get(len(sample[9]),
                                                                [0.5, 0.25, 0.25, 0.0])
        assert list(sample[9][:4]) == pytest.approx(expected)
    game = victorus.Game("standard", players=3)
    for k in range(9):
        game.play(game.legal_actions()[k % len(game.legal_actions())])
    columns = tensors.observation_columns(game.board, game.to_move)
    origin, target, capture = moves(game)
    assert len(origin) == len(game.legal_actions()) > 1
    for action, o, t, c in zip(game.legal_actions(), origin, target, capture):
        if action.word is None:
            assert (o, t) == (columns[action.origin], columns[action.target])
        else:
            assert (o, t, c) == (-1, ("stop", "end", "pass").index(action.word), 0)


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


def test_the_policy_gradients_are_those_of_the_loss():
    """The policy head's cross-entropy against finite differences: its arrays (the pair
    term's too), and the first layer it shares with the value (a position without a target
    adds nothing)."""
    net = Network.fresh(5, 3, seed=4, policy=True)
    rng = np.random.default_rng(6)
    arrays = {k: np.array(v, dtype=np.float64) + rng.normal(0, 0.3, v.shape)
              for k, v in net.arrays.items()}
    positions, legal = [], []
    for board, players in (("compact", 2), ("standard", 4), ("compact", 3)):
        game = victorus.Game(board, players=players)
        for k in range(5):
            game.play(game.legal_actions()[(k * 7) % len(game.legal_actions())])
        positions.append(inputs(game))
        legal.append(moves(game))
    batch = Batch.of(positions, legal)
    policy = np.concatenate([rng.dirichlet(np.ones(len(m[0]))) for m in legal])
    policy[:len(legal[0][0])] = 0                       # the first position: no target
    targets = rng.uniform(-1, 1, (3, 6)) * batch.present
    loss, grads = loss_and_gradients(arrays, batch, targets, policy, 0.7)
    for name in ("policy_from", "policy_to", "policy_word", "policy_capture", "policy_pair", "wd", "b1"):
        flat, grad = arrays[name].reshape(-1), grads[name].reshape(-1)
        for i in np.argsort(-np.abs(grad))[:3]:
            keep = flat[i]
            flat[i] = keep + 1e-6
            up = loss_and_gradients(arrays, batch, targets, policy, 0.7)[0]
            flat[i] = keep - 1e-6
            down = loss_and_gradients(arrays, batch, targets, policy, 0.7)[0]
            flat[i] = keep
            assert grad[i] == pytest.approx((up - down) / 2e-6, abs=1e-5)
    assert np.abs(grads["policy_to"]).sum() > 0
    # the pair term's gradient is each leg's on (its target row, its piece's kind) alone
    legs = batch.origin >= 0
    touched = np.zeros(arrays["policy_pair"].shape, bool)
    touched[batch.target[legs], batch.kind[legs]] = True
    assert (grads["policy_pair"][~touched] == 0).all() and np.abs(grads["policy_pair"]).sum() > 0


def test_the_pair_term_is_decayed_as_the_policy_rows():
    """AdamW pulls policy_pair toward 0 (or the anchor) as it does policy_to; policy_capture,
    a single weight of the capture priors, is not decayed."""
    from victorus.training.step import Adam
    net = Network.fresh(4, 2, seed=1, policy=True)
    arrays = {k: np.ones_like(v) for k, v in net.arrays.items()}
    adam = Adam(arrays, rate=0.1, decay=2.0)
    grads = {k: np.zeros_like(v, np.float64) for k, v in arrays.items() if k != "w1"}
    grads["w1"] = (np.zeros(0, np.intp), np.zeros((0, 4)))
    adam.step(arrays, grads)
    assert arrays["policy_pair"] == pytest.approx(np.full_like(arrays["policy_pair"], 0.8))
    assert arrays["policy_to"] == pytest.approx(np.full_like(arrays["policy_to"], 0.8))
    assert arrays["policy_capture"] == pytest.approx(np.ones(1))


def test_settings_are_checked():
    for bad in ({"backend": "spark"}, {"games": 0}, {"blend": 1.5}, {"weight_decay": -1},
                {"mix": (("hexagon", 2, "standard", 1),)}, {"gate_games": -1},
                {"label_share": 1.5}, {"policy_weight": -1}, {"alpha": 0.6}, {"beta": 0},
                {"elo0": 20, "elo1": 20}, {"elo1": 5000}, {"anchor_games": -2},
                {"gate_mix": (("standard", 6, "standard", 1),)},
                {"gate_mix": (("compact", 2, "standard", 0),)},
                {"start": 5}, {"label_iterations": 0}, {"seed": -1}, {"seed": None},
                {"mix": (("compact", 2, "standard", 0),)}, {"mix": (("compact", 2, "standard", 1.5),)},
                {"mix": ()}, {"hidden": 0}, {"label_share": 0}, {"address": 5}):
        with pytest.raises(ConfigError):
            Settings(**{**TINY, **bad}).check()


def test_overwrite_removes_nothing_when_the_new_run_cannot_start(tmp_path):
    """A start network that cannot be read is refused before the run in the folder is
    removed (overwrite), so a typo loses nothing."""
    out, _, _ = run(tmp_path, "kept", rounds=0)
    before = sorted(os.listdir(out))
    with pytest.raises(ConfigError, match="nope.vnet"):
        train(str(out), Settings(**{**TINY, "start": str(tmp_path / "nope.vnet")}),
              overwrite=True, progress=False)
    assert sorted(os.listdir(out)) == before and "round-0.vnet" in before


def test_the_command_line_trains_and_refuses_bad_folders(tmp_path, capsys):
    out = tmp_path / "cli"
    small = ["--games", "2", "--iterations", "8", "--label-iterations", "8", "--epochs", "1",
             "--hidden", "4", "--hidden2", "2", "--holdout-games", "2", "--gate-games", "2",
             "--curve-games", "0", "--match-iterations", "8", "--no-progress"]
    assert main(["train", str(out), "--rounds", "1", *small]) == 0
    printed = capsys.readouterr().out
    assert "round 0:" in printed and "round 1:" in printed and "gate" in printed
    assert f"the best network is {shown_path(str(out / 'network.vnet'), quoted=False)}" in printed
    Network.load(out / "network.vnet")
    assert main(["train", str(out), "--rounds", "1", "--resume", *small]) == 0
    assert "has rounds 0-1 already (--rounds 1): nothing to train" in capsys.readouterr().out
    assert main(["train", str(out), "--rounds", "3", "--minutes", "0", "--resume", *small]) == 0
    assert "no new round starts; give more --minutes" in capsys.readouterr().out
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert main(["train", str(blocker / "sub"), "--rounds", "1", "--no-progress"]) == 2
    assert "victorus: error" in capsys.readouterr().err


@pytest.mark.parametrize("distil", [True, False])
def test_distil_searches_later_rounds_with_the_best_network(tmp_path, monkeypatch, distil):
    """Search and distil: the held-out games and round 1 searched with round 0's network,
    later rounds with the best so far; --no-distil keeps every round on round 0's."""
    from victorus.training import run as loop
    searched = []
    real = loop.self_play

    def spy(tasks, play, evaluator, *args):
        searched.append(evaluator.network.arrays["w3"].tobytes())
        return real(tasks, play, evaluator, *args)
    monkeypatch.setattr(loop, "self_play", spy)
    out, _, _ = run(tmp_path, f"distil-{distil}", distil=distil)
    start = Network.load(out / "round-0.vnet").arrays["w3"].tobytes()
    first = Network.load(out / "round-1.vnet").arrays["w3"].tobytes()
    assert searched[:2] == [start, start] and start != first
    assert searched[2] == (first if distil else start)
    with pytest.raises(ConfigError, match="distil must be True or False"):
        Settings(**{**TINY, "distil": "yes"}).check()
