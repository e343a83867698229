"""The learning paths as pytest-benchmark cases, on the workloads of
``victorus bench``: positions of fresh random games, standard board, 6 players, GC on."""

import numpy as np
import pytest

import victorus
from victorus.bench import pettingzoo_episode, position_corpus


@pytest.fixture(scope="module")
def positions():
    return position_corpus(10)


def _cycle(positions, step):
    pairs = [(g, g.legal_actions()[0]) for g in positions]

    def run():
        for game, action in pairs:
            step(game, action)
    return run


def test_play_undo(benchmark, positions):
    def step(game, action):
        game.play(action)
        game.undo()
    benchmark(_cycle(positions, step))


def test_play_id_undo(benchmark, positions):
    ids = {id(g): g.action_id(g.legal_actions()[0]) for g in positions}

    def step(game, action):
        game.play_id(ids[id(game)])
        game.undo()
    benchmark(_cycle(positions, step))


@pytest.mark.parametrize("what", ["observation", "observation_out", "mask", "mask_out", "ids"])
def test_play_undo_then(benchmark, positions, what):
    """play + undo, then the tensor (its own cost: subtract test_play_undo)."""
    out = np.empty((88, 181), np.float32)
    mask = np.empty(181 * 181 + 3, bool)
    extra = {"observation": lambda g: g.observation(g.to_move),
             "observation_out": lambda g: g.observation(g.to_move, out),
             "mask": lambda g: g.legal_action_mask(),
             "mask_out": lambda g: g.legal_action_mask(mask),
             "ids": lambda g: g.legal_action_ids()}[what]

    def step(game, action):
        game.play(action)
        game.undo()
        extra(game)
    benchmark(_cycle(positions, step))


@pytest.mark.parametrize("played", [10, 1000])
def test_copy_after(benchmark, played):
    game = victorus.Game()
    victorus.play_random(game, seed=3, max_actions=played)
    benchmark(game.copy)


def test_new_game(benchmark):
    benchmark(victorus.Game)


def test_pettingzoo_episode(benchmark):
    from victorus.env import aec_env
    env = aec_env()
    benchmark.extra_info["steps"] = benchmark.pedantic(pettingzoo_episode, (env, 2000), rounds=3)


@pytest.mark.parametrize("observations, threads", [(None, 1), ("float32", 1), ("float32", 2)])
def test_vector_step(benchmark, observations, threads):
    from victorus.vector import VectorGames
    games = VectorGames(64, observations=observations, threads=threads, seed=1)
    benchmark.extra_info["actions_per_round"] = 64
    benchmark(lambda: games.step(games.sample()))


def test_openspiel_rl_environment_steps(benchmark):
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python import rl_environment

    import victorus.openspiel  # noqa: F401
    env = rl_environment.Environment(pyspiel.load_game("victorus"))
    rng = np.random.default_rng(0)

    def steps():
        step = env.reset()
        for _ in range(100):
            if step.last():
                break
            player = step.observations["current_player"]
            step = env.step([int(rng.choice(step.observations["legal_actions"][player]))])
    benchmark.pedantic(steps, rounds=3)
