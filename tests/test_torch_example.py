"""examples/train_torch.py: the network written in PyTorch has the numpy twin's loss and
gradients (value and policy, its pair term included, 2 and 3 teams), trains from a run's dataset, and writes a
``.vnet`` the searches play. Skipped without PyTorch (CI installs it)."""

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

import victorus
from victorus.agents import make_agent
from victorus.evaluation.network import Network
from victorus.evaluation.twin import Batch, inputs, loss_and_gradients, moves
from victorus.training.dataset import write_dataset
from victorus.training.selfplay import Play, self_play

torch = pytest.importorskip("torch")

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "train_torch.py"


@pytest.fixture(scope="module")
def example():
    spec = importlib.util.spec_from_file_location("train_torch", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    sys.modules["train_torch"] = module
    spec.loader.exec_module(module)
    yield module
    del sys.modules["train_torch"]


def positions(players, count, seed):
    game = victorus.Game("compact", players=players)
    rng = np.random.default_rng(seed)
    out, legal = [], []
    while len(out) < count:
        for _ in range(5):
            game.play(game.legal_actions()[rng.integers(len(game.legal_actions()))])
        if game.phase == "start" and not game.is_over:
            out.append(inputs(game))
            legal.append(moves(game))
    return out, legal


@pytest.mark.parametrize("players", [2, 3])
def test_the_torch_gradients_are_the_twins(example, players):
    net = Network.fresh(6, 4, seed=2).with_policy()
    rng = np.random.default_rng(3)
    arrays = {k: np.array(v, dtype=np.float64) + rng.normal(0, 0.2, v.shape)
              for k, v in net.arrays.items()}
    samples, legal = positions(players, 5, 7)
    batch = Batch.of(samples, legal)
    targets = rng.uniform(-1, 1, (len(samples), 6)) * batch.present
    policy = rng.uniform(0, 1, len(batch.owner))
    policy /= np.bincount(batch.owner, policy)[batch.owner]
    loss, grads = loss_and_gradients(arrays, batch, targets, policy, 0.7)
    assert np.abs(grads["policy_pair"]).sum() > 0
    model = example.TorchNet(arrays)
    torch_loss = model.loss(batch, targets, policy, 0.7)
    torch_loss.backward()
    assert float(torch_loss.detach()) == pytest.approx(loss, rel=1e-9)
    rows, row_grads = grads.pop("w1")
    w1 = model.w1.grad.numpy()
    np.testing.assert_allclose(w1[rows], row_grads, atol=1e-9)
    untouched = np.setdiff1d(np.arange(len(w1)), rows)
    assert not w1[untouched].any()
    for name, grad in grads.items():
        np.testing.assert_allclose(getattr(model, name).grad.numpy(), grad, atol=1e-9,
                                   err_msg=name)


def test_it_trains_from_a_dataset_and_the_searches_play_its_network(example, tmp_path):
    play = Play(iterations=6, opening=4, max_actions=40, blend=0.5, label_iterations=10,
                label_share=0.5, noise=0.25)
    played = self_play([("compact", 2, "standard", 1), ("compact", 2, "standard", 2)], play,
                       None, progress=False).played
    data, out = str(tmp_path / "round-001.npz"), str(tmp_path / "torch.vnet")
    write_dataset(data, played)
    assert example.main([data, "--out", out, "--epochs", "2", "--batch", "16"]) == 0
    network = Network.load(out)
    assert network.policy and network.pair
    game = victorus.Game("compact", players=2)
    action = make_agent("best-net:8", seed=1, network=out).choose(game)
    assert action in game.legal_actions()
