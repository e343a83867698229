"""The gymnasium VectorEnv over victorus.vector, and the training example."""

import importlib.util
from pathlib import Path

import numpy as np
import pytest

import victorus
from victorus.vector_env import VictorusVectorEnv

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "train_linear_policy.py"


def test_spaces_outputs_and_self_play_rewards():
    env = VictorusVectorEnv(6, board="compact", players=2, variant="quick3", max_actions=400)
    obs, info = env.reset(seed=4)
    assert obs in env.observation_space
    assert obs["action_mask"].dtype == np.int8 and list(info["to_move"]) == [0] * 6
    seen_end = False
    for _ in range(600):
        acting = info["to_move"].copy()
        actions = env.sample_legal()
        assert np.all(actions >= 0) or seen_end
        obs, rewards, terminated, truncated, info = env.step(actions)
        assert obs in env.observation_space
        assert np.array_equal(rewards, info["rewards"][np.arange(6), acting])
        if terminated.any():
            seen_end = True
            i = int(np.flatnonzero(terminated)[0])
            assert info["rewards"][i].any() or env.games.game(i).winners == ()
    assert seen_end


def test_observer_frame_and_opponents_reach_the_vector_env():
    """The mask in the observer's frame: every legal leg's origin holds the mover's own
    piece in its observation; with blue's team played inside (R33), only red acts."""
    from victorus.constants import PIECE_LETTERS, PLANES
    own = [PLANES.index(f"army0_{p}") for p in PIECE_LETTERS]
    env = VictorusVectorEnv(4, board="compact", players=2, id_frame="observer",
                            opponents={"team:1": "greedy"}, max_actions=300)
    obs, info = env.reset(seed=2)
    n = len(env.games.board)
    for _ in range(40):
        for i in range(4):
            assert info["to_move"][i] in (0, 2, 4) or env.games.terminated[i]
            legs = np.flatnonzero(obs["action_mask"][i])
            legs = legs[legs < n * n]
            assert (obs["observation"][i][own][:, legs // n].sum(axis=0) == 1).all()
        obs, rewards, terminated, truncated, info = env.step(env.sample_legal())


def test_copies_are_independent_unless_asked():
    env = VictorusVectorEnv(2, board="compact", players=2)
    obs, _ = env.reset(seed=1)
    env.step(env.sample_legal())
    assert not np.shares_memory(obs["observation"], env.games.observations)
    fast = VictorusVectorEnv(2, board="compact", players=2, copy=False)
    obs, _ = fast.reset(seed=1)
    assert np.shares_memory(obs["observation"], fast.games.observations)


def test_illegal_actions_are_refused():
    env = VictorusVectorEnv(2, board="compact", players=2)
    env.reset()
    with pytest.raises(victorus.IllegalActionError):
        env.step(np.array([0, 0]))


def test_the_training_example_runs_and_learns_something():
    spec = importlib.util.spec_from_file_location("train_linear_policy", EXAMPLE)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    weights, history = example.train(iterations=600, envs=16, report=300)
    assert weights.shape == (176,) and np.abs(weights).sum() > 0
    assert len(history) == 2 and all(0.0 <= rate <= 1.0 for rate in history)
    # seats swapped: the policy plays blue's team, red's is random inside the step; an
    # untrained policy wins about 43%, features read in the wrong frame much less
    assert example.evaluate(weights, games_wanted=60, envs=16) > 0.7


def test_the_example_reads_the_movers_own_piece_from_any_seat():
    """The observation is rotated to the army to act, ids name absolute cells: the
    example's features of a legal leg must show the mover's own piece at its origin (plane
    army0_<kind>) for every seat, seat 2 and 4 included, where absolute columns would not."""
    from victorus.constants import PIECE_LETTERS, PLANES
    spec = importlib.util.spec_from_file_location("train_linear_policy", EXAMPLE)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    own = [PLANES.index(f"army0_{p}") for p in PIECE_LETTERS]
    game = victorus.Game("compact", players=2)
    seen = set()
    while len(seen) < 3:                          # red's team: seats 0, 2 and 4 move in turn
        seat = game.to_move
        ids = game.legal_action_ids()
        f = example.features(game.observation(seat), ids, game.board, seat)
        for k, ident in enumerate(ids):
            if ident < len(game.board) ** 2:      # a leg: its origin holds the mover's piece
                assert f[k, own].sum() == 1, (seat, ident)
        seen.add(seat)
        game.play(game.legal_actions()[0])
        while game.to_move not in (0, 2, 4):
            game.play(game.legal_actions()[0])
    assert seen == {0, 2, 4}
