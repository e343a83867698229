"""examples/train_maskable_ppo.py: MaskablePPO (sb3-contrib) on the single-agent gymnasium
env, against the opponents played inside the env's step (R33: the learner's team's
reward), learned from and evaluated on both teams' seats.

Without sb3-contrib (``pip install "victorus[rl]"`` after PyTorch) the training tests are
skipped, unless ``VICTORUS_REQUIRE_SB3=1`` (as in CI) makes that a failure."""

import contextlib
import importlib.util
import io
import json
import os
import sys
import warnings
from collections import Counter
from pathlib import Path

import pytest

gymnasium = pytest.importorskip("gymnasium")

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "train_maskable_ppo.py"


@pytest.fixture(scope="module")
def example():
    spec = importlib.util.spec_from_file_location("train_maskable_ppo", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def sb3():
    try:
        import sb3_contrib
    except ImportError:
        if os.environ.get("VICTORUS_REQUIRE_SB3") == "1":
            pytest.fail("VICTORUS_REQUIRE_SB3=1 but sb3-contrib or PyTorch is missing "
                        "(pip install torch==2.13.0 sb3-contrib)")
        pytest.skip("no sb3-contrib (pip install torch, then victorus[rl])")
    return sb3_contrib


class LegalOnly(gymnasium.Wrapper):
    """Fails the test on any action that the env's mask forbids; counts actions by seat."""

    actions: Counter = Counter()

    def step(self, action):
        env = self.env.unwrapped
        assert env.action_masks()[int(action)], f"illegal action {action} at seat {env.seat}"
        LegalOnly.actions[env.seat] += 1
        obs, reward, terminated, truncated, info = self.env.step(action)
        assert "illegal_action" not in info
        return obs, reward, terminated, truncated, info


@pytest.fixture(scope="module")
def quick_run(example, sb3, tmp_path_factory):
    """``--quick`` with every env wrapped in LegalOnly: the result, its JSON file, the saved
    model, what it printed and the actions counted by seat."""
    folder = tmp_path_factory.mktemp("quick")
    out, saved, printed = folder / "run.json", folder / "ppo.zip", io.StringIO()
    LegalOnly.actions.clear()
    with contextlib.redirect_stdout(printed):
        result = example.main(["--quick", "--json", str(out), "--save", str(saved)], wrap=LegalOnly)
    return result, out, saved, printed.getvalue(), Counter(LegalOnly.actions)


def test_a_quick_run_trains_on_both_seats_with_legal_actions_only(quick_run):
    result, out, saved, printed, actions = quick_run
    assert json.loads(out.read_text()) == json.loads(json.dumps(result))
    assert result["command"].endswith(f"--quick --json {out} --save {saved}")
    assert result["seats"] == [0, 1] and result["loaded"] is None
    assert [(s["opponent"], s["steps"]) for s in result["stages"]] == [("random", 1024), ("greedy", 1024)]
    assert result["steps"] == 2048 and result["steps_per_second"] > 0
    assert all(s["episodes_seen"] > 0 for s in result["stages"])
    # training: 4 envs, seats 0 and 1 in turn, so each seat made half of the 2,048 steps;
    # evaluation: 4 games a seat against each of 2 opponents, before and after training
    assert actions[0] >= 1024 + 4 * 2 * 2 and actions[1] >= 1024 + 4 * 2 * 2
    for label in ("before", "after"):
        for opponent in ("random", "greedy"):
            rate = result["evaluation"][label][opponent]
            low, high = rate["wilson_95"]
            assert rate["games"] == 8 and rate["wins"] + rate["draws"] + rate["losses"] == 8
            assert 0 <= low <= rate["win_rate"] <= high <= 1
            assert rate["win_rate"] == rate["wins"] / 8
            assert set(rate["seats"]) == {0, 1}
            assert all(r["games"] == 4 for r in rate["seats"].values())
            assert sum(r["wins"] for r in rate["seats"].values()) == rate["wins"]
            assert rate["actions"] == sum(r["actions"] for r in rate["seats"].values()) >= 8
    assert "| untrained | " in printed and "| after 2,048 steps | " in printed
    assert "trained 1,024 steps against greedy" in printed


def test_a_saved_model_is_loaded_as_it_was_trained(example, quick_run):
    """--load starts from the saved weights: its evaluation before training replays the
    saved run's evaluation after training, game for game (same seeds, argmax actions: the
    same results and the same number of actions), which the untrained policy does not."""
    result, _, saved, _, _ = quick_run
    again = example.main(["--quick", "--load", str(saved), "--opponent", "greedy", "--steps", "256",
                          "--eval-opponents", "greedy"])
    assert again["loaded"] == str(saved)
    assert again["evaluation"]["before"]["greedy"] == result["evaluation"]["after"]["greedy"]
    assert result["evaluation"]["before"]["greedy"] != result["evaluation"]["after"]["greedy"]
    assert [(s["opponent"], s["steps"]) for s in again["stages"]] == [("greedy", 256)]


def test_evaluation_counts_every_game_of_both_seats(example, sb3):
    """A policy of random legal actions (the untrained model is near it) against the random
    agents: games of both seats counted, each once; the same seeds give the same games."""
    env = gymnasium.make("victorus/Compact2pQuick-v0")
    model = sb3.MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=16, seed=1)
    result = example.evaluate(model, "victorus/Compact2pQuick-v0", "random", 6, seed=3,
                              wrap=LegalOnly, deterministic=False)
    assert result["games"] == 12 and set(result["seats"]) == {0, 1}
    assert result["wins"] + result["draws"] + result["losses"] == 12
    assert result["wilson_95"][0] <= result["win_rate"] <= result["wilson_95"][1]
    first, again = (example.evaluate(model, "victorus/Compact2pQuick-v0", "random", 6, seed=3)
                    for _ in range(2))
    assert first == again                          # the seeds fix the games


def test_sb3s_env_checker_accepts_the_env(sb3):
    """sb3's own checker passes; its one remark is advice on the 2-D observation, which
    MlpPolicy flattens (FlattenExtractor)."""
    from stable_baselines3.common.env_checker import check_env
    for observations in ("float32", "uint8"):
        env = gymnasium.make("victorus/Compact2pQuick-v0", observations=observations, opponent="greedy")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            check_env(env)
        assert [str(w.message) for w in caught if "unconventional shape" not in str(w.message)] == []


def test_a_missing_sb3_contrib_says_how_to_install_it(example, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "sb3_contrib", None)
    with pytest.raises(SystemExit, match=r"needs sb3-contrib and PyTorch \(sb3_contrib is missing\): "
                                         r"pip install torch --index-url .*/whl/cpu && "
                                         r"pip install \"victorus\[rl\]\"$"):
        example.main(["--quick"])


@pytest.mark.parametrize("argv, message", [
    (["--envs", "3"], "multiple of the 2 teams"),
    (["--env", "victorus/Compact3p-v0", "--envs", "4"], "multiple of the 3 teams"),
    (["--opponent", "random,minimax"], "opponents are 'random', 'greedy', 'mcts[:BUDGET]'"),
    (["--steps", "0"], "--steps must be at least 1"),
    (["--eval-games", "0"], "--eval-games must be at least 1"),
    (["--load", "/nonexistent/ppo.zip"], "--load: no saved model at /nonexistent/ppo.zip"),
    (["--save", "/nonexistent/ppo.zip"], "--save: the folder /nonexistent does not exist"),
    (["--json", "/nonexistent/run.json"], "--json: the folder /nonexistent does not exist"),
])
def test_bad_settings_are_refused(example, argv, message, capsys):
    with pytest.raises(SystemExit):
        example.parse(argv)
    assert message in capsys.readouterr().err
