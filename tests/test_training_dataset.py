"""Self-play's dataset (victorus.training.dataset): a file round-trips every sample and what
stands beside it, each position is rebuilt from its game's record (its inputs are the
sample's), the label is the blend of the search value and the result kept apart, and a file
that is not a dataset is refused in one line."""

import numpy as np
import pytest

from victorus.errors import ConfigError
from victorus.evaluation.twin import inputs, moves
from victorus.training.dataset import FORMAT, dataset_bytes, read_dataset, write_dataset
from victorus.training.selfplay import Play, self_play

BLEND = 0.5


@pytest.fixture(scope="module")
def played():
    play = Play(iterations=6, opening=4, max_actions=60, blend=BLEND, label_iterations=12,
                label_share=0.5, noise=0.25)
    tasks = [("compact", 2, "standard", 3), ("compact", 3, "standard", 4)]
    return self_play(tasks, play, None, progress=False).played


def test_a_dataset_round_trips(played, tmp_path):
    path = str(tmp_path / "round-001.npz")
    write_dataset(path, played)
    data = read_dataset(path)
    samples = [s for game in played for s in game.samples]
    assert len(data.samples) == len(samples) > 0
    for got, want in zip(data.samples, samples):
        assert got[0] == want[0]
        for a, b in zip(got[1:], want[1:]):
            np.testing.assert_array_equal(a, b)
    assert list(data.ply) == [p for game in played for p in game.plies]
    assert list(data.game) == [g for g, game in enumerate(played) for _ in game.samples]
    np.testing.assert_array_equal(data.search_value, [v for game in played for v in game.values])
    np.testing.assert_array_equal(data.result, [r for game in played for r in game.result])
    for got, want in zip(data.visits, [v for game in played for v in game.visits]):
        np.testing.assert_array_equal(got, want)
    assert [g[:4] for g in data.games] == [game.task for game in played]
    assert dataset_bytes(played) == dataset_bytes(played)           # reproducible


def test_every_position_is_rebuilt_from_its_record(played, tmp_path):
    path = str(tmp_path / "d.npz")
    write_dataset(path, played)
    data = read_dataset(path)
    for k, sample in enumerate(data.samples):
        game = data.position(k)
        board, rows, dense, terms, teams = inputs(game)
        assert board == sample[0]
        np.testing.assert_array_equal(rows, sample[1])
        np.testing.assert_array_equal(dense, sample[2])
        np.testing.assert_array_equal(teams, sample[4])
        origin, target, _ = moves(game)
        np.testing.assert_array_equal(origin, sample[6])
        assert int(data.visits[k].sum()) > 0 and len(data.visits[k]) == len(game.legal_actions())
        assert sample[9] == pytest.approx(data.visits[k] / data.visits[k].sum())


def test_the_label_is_the_blend_of_the_parts_kept(played, tmp_path):
    path = str(tmp_path / "d.npz")
    write_dataset(path, played)
    data = read_dataset(path)
    for k, sample in enumerate(data.samples):
        present = sample[4] >= 0
        if np.isnan(data.result[k]).any():
            expected = data.search_value[k]                             # stopped at its cap
        else:
            expected = BLEND * data.search_value[k] + (1 - BLEND) * data.result[k]
        assert sample[5][present] == pytest.approx(expected[present], abs=1e-6)


def test_a_file_that_is_not_a_dataset_is_refused(played, tmp_path):
    path = tmp_path / "d.npz"
    for content, why in ((b"not a zip", "is not a dataset"),):
        path.write_bytes(content)
        with pytest.raises(ConfigError, match=why) as info:
            read_dataset(str(path))
        assert "\n" not in str(info.value)
    np.savez(path, format=np.array("other"))
    with pytest.raises(ConfigError, match="no boards"):
        read_dataset(str(path))
    write_dataset(str(path), played)
    with np.load(path) as data:
        arrays = dict(data)
    arrays["format"] = np.array("victorus-positions-0")
    np.savez(path, **arrays)
    with pytest.raises(ConfigError, match=f"this victorus reads {FORMAT}"):
        read_dataset(str(path))
    arrays["format"] = np.array(FORMAT)
    for name, broken, why in (("ply", arrays["ply"][:-1], "ply has"),
                              ("ply", arrays["ply"] + 10_000, "not within its game's record"),
                              ("search_value", arrays["search_value"][:, 0], "shape"),
                              ("game_players", np.array(2, np.int8), "single value")):
        np.savez(path, **{**arrays, name: broken})
        with pytest.raises(ConfigError, match=why):
            read_dataset(str(path))
    damaged = [a.replace("-", "~", 1) for a in arrays["game_actions"]]
    np.savez(path, **{**arrays, "game_actions": np.array(damaged)})
    with pytest.raises(ConfigError, match="does not replay"):
        read_dataset(str(path)).position(len(arrays["ply"]) - 1)
