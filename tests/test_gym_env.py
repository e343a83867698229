"""victorus.gym_env: the single-agent gymnasium env over the vector games with opponents in C
(R33 teams: the learner's reward is its team's)."""

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

import victorus  # noqa: E402
from victorus.errors import ConfigError, IllegalActionError  # noqa: E402
from victorus.gym_env import ENV_IDS, LearnerEnv  # noqa: E402
from victorus.tensors import to_absolute_ids  # noqa: E402


@pytest.mark.parametrize("env_id", ["victorus/Compact2p-v0", "victorus/Compact3p-v0",
                                    "victorus/Standard6p-v0"])
def test_registered_ids_pass_gymnasiums_env_checker(env_id):
    from gymnasium.utils.env_checker import check_env
    assert env_id in ENV_IDS
    import warnings
    for observations in ("float32", "uint8"):                  # capped (R36): every bound finite
        env = gymnasium.make(env_id, opponent="greedy", max_actions=300, observations=observations)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            check_env(env.unwrapped)
        assert [str(w.message) for w in caught] == []     # no infinity, nothing outside
    uncapped = gymnasium.make(env_id, max_actions=None)     # round, laps...: no bound then
    with pytest.warns(UserWarning, match="infinity"):
        check_env(uncapped.unwrapped)


def test_import_victorus_registers_the_ids_only_after_gymnasium():
    """``import victorus`` leaves gymnasium alone (it costs several times victorus's own
    import); after ``import gymnasium`` it registers the ids; gymnasium's ``module:id``
    form registers them from any state."""
    import subprocess
    import sys
    checks = ["import sys, victorus; assert 'gymnasium' not in sys.modules",
              "import gymnasium, victorus; gymnasium.make('victorus/Compact2p-v0').reset(seed=0)",
              "import gymnasium; gymnasium.make('victorus.gym_env:victorus/Compact2p-v0')"]
    for code in checks:
        subprocess.run([sys.executable, "-c", code], check=True)


def play(env, seed, steps=400):
    """Random legal actions from the mask; the trajectory of (to_move, reward, done)."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    trajectory = []
    for _ in range(steps):
        assert np.array_equal(info["action_mask"], env.unwrapped.action_masks())
        assert env.observation_space.contains(obs)
        obs, reward, terminated, truncated, info = env.step(
            int(rng.choice(np.flatnonzero(info["action_mask"]))))
        trajectory.append((info["to_move"], reward, terminated, truncated))
        if terminated or truncated:
            obs, info = env.reset()
    return trajectory


def test_the_learner_acts_on_its_own_turns_and_is_rewarded_for_its_team():
    env = gymnasium.make("victorus/Compact2pQuick-v0", seat=2, opponent="greedy")
    trajectory = play(env, seed=3)
    ended = [t for t in trajectory if t[2] or t[3]]
    assert ended and all(t[0] in (0, 2, 4) for t in trajectory if not (t[2] or t[3]))
    assert all(t[1] == 0 for t in trajectory if not t[2])
    assert {t[1] for t in ended if t[2]} <= {-1.0, 0.0, 1.0}
    assert any(t[1] == -1.0 for t in ended)           # random play loses to greedy


def test_a_seed_fixes_the_episode_and_unseeded_resets_go_on():
    make = lambda: gymnasium.make("victorus/Compact2pQuick-v0", opponent="random")  # noqa: E731
    assert play(make(), seed=5) == play(make(), seed=5)
    env = make()
    env.reset(seed=1)
    first = [env.step(int(np.flatnonzero(env.unwrapped.action_masks())[0]))[0] for _ in range(6)]
    env.reset()
    again = [env.step(int(np.flatnonzero(env.unwrapped.action_masks())[0]))[0] for _ in range(6)]
    assert any(not np.array_equal(a, b) for a, b in zip(first, again))   # opponents drew on


def test_a_search_opponent_plays_inside_the_step():
    """A search spec of the vector step (mcts with an iteration budget: seeded, so
    reproducible) plays the other team; the learner still acts on its own team's turns
    only (R33)."""
    make = lambda: LearnerEnv("compact", 2, "quick6", opponent="mcts:30", seat=1)  # noqa: E731
    trajectory = play(make(), seed=4, steps=60)
    assert trajectory == play(make(), seed=4, steps=60)
    assert any(t[2] or t[3] for t in trajectory)
    assert all(t[0] in (1, 3, 5) for t in trajectory if not (t[2] or t[3]))


def test_ids_are_in_the_observers_frame_by_default():
    env = LearnerEnv("compact", 3, seat=1)
    obs, info = env.reset(seed=0)
    seat = info["to_move"]
    observer = np.flatnonzero(info["action_mask"])
    game = env.games.game(0)
    assert np.array_equal(np.sort(to_absolute_ids(game.board, observer, seat)),
                          np.flatnonzero(game.legal_action_mask()))


def test_an_illegal_action_loses_or_raises():
    env = LearnerEnv()
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    with pytest.raises(ConfigError, match="call reset"):
        env.step(0)
    strict = LearnerEnv(illegal_actions="raise")
    strict.reset(seed=0)
    with pytest.raises(IllegalActionError, match="not legal"):
        strict.step(illegal)


@pytest.mark.parametrize("kwargs, message", [
    (dict(opponent="minimax"), "opponent must be one of 'random', 'greedy', 'mcts"),
    (dict(opponent="mcts:lots"), "opponent 'team:1'"),
    (dict(seat=2, players=4), "seat 2 is not in a 4-player game"),
    (dict(seat=6), "seat"),
    (dict(render_mode="human"), "render_mode"),
    (dict(illegal_actions="ignore"), "illegal_actions"),
    (dict(observations="float64"), "observations"),
])
def test_bad_arguments_are_refused(kwargs, message):
    with pytest.raises(ConfigError, match=message):
        LearnerEnv(**kwargs)


def test_render_ansi_draws_the_board():
    env = LearnerEnv(render_mode="ansi")
    env.reset(seed=0)
    assert env.render() == victorus.render.text_board(env.games.game(0))


def test_maskable_ppo_learns_a_few_steps():
    """A short MaskablePPO run (sb3-contrib): the env's action_masks() is what it reads."""
    sb3_contrib = pytest.importorskip("sb3_contrib")
    env = gymnasium.make("victorus/Compact2pQuick-v0", observations="float32")
    model = sb3_contrib.MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, n_epochs=1,
                                    seed=0, verbose=0)
    model.learn(128)
    obs, info = env.reset(seed=0)
    action, _ = model.predict(obs, action_masks=info["action_mask"])
    assert info["action_mask"][int(action)]
