"""The learning paths as pytest-benchmark cases, on the workloads of
``victorus bench``: positions of fresh random games, standard board, 6 players, GC on."""

import numpy as np
import pytest

import victorus
from victorus.bench import learner_episode, pettingzoo_episode, position_corpus


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


@pytest.mark.parametrize("legal_ids", [False, True], ids=["sample_mask", "legal_ids"])
def test_pettingzoo_episode(benchmark, legal_ids):
    """Actions drawn with action_space.sample(mask), or from the observation's legal ids."""
    from victorus.env import aec_env
    env = aec_env()
    benchmark.extra_info["steps"] = benchmark.pedantic(pettingzoo_episode, (env, 2000, legal_ids),
                                                       rounds=3)


@pytest.mark.parametrize("board, players, opponent", [("standard", 6, "random"),
                                                      ("compact", 2, "random"),
                                                      ("compact", 2, "greedy")])
def test_single_agent_env_episode(benchmark, board, players, opponent):
    """victorus.gym_env.LearnerEnv: one game of random legal learner actions (the
    opponents' actions run in C inside each step); extra_info: the learner's steps."""
    from victorus.gym_env import LearnerEnv
    env = LearnerEnv(board, players, opponent=opponent)
    seeds = iter(range(10**6))
    steps = []
    benchmark.pedantic(lambda: steps.append(learner_episode(env, next(seeds))), rounds=5)
    benchmark.extra_info["steps_per_episode"] = sum(steps) / len(steps)


@pytest.mark.parametrize("overlapped", [False, True], ids=["step", "send_recv"])
def test_vector_step_beside_inference(benchmark, overlapped):
    """Two batches of 32 games, each inferred (a stand-in for a network's forward pass:
    a numpy matmul, which releases the GIL) and stepped: send()/recv() steps one batch
    while the other is inferred (EnvPool's model), step() runs them in turn."""
    from victorus.vector import VectorGames
    halves = [VectorGames(32, observations="float32", seed=seed) for seed in (1, 2)]
    weights = np.ones((88 * 181, 16), np.float32)

    def infer(games):
        return (games.observations.reshape(32, -1) @ weights).argmax(1)

    def serial():
        for games in halves:
            infer(games)
            games.step(games.sample())

    def overlapping():
        for games, other in (halves, halves[::-1]):
            games.send(games.sample().copy())
            infer(other)
            games.recv()
    benchmark(overlapping if overlapped else serial)


@pytest.mark.parametrize("params", [{}, {"board": "compact", "players": 2},
                                    {"board": "compact", "players": 2, "observation": "small"}],
                         ids=["standard-6p", "compact-2p", "compact-2p-small"])
def test_openspiel_rl_environment_steps(benchmark, params):
    """100 steps of OpenSpiel's rl_environment from a fresh game (rates: 100 / mean)."""
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python import rl_environment

    import victorus.openspiel  # noqa: F401
    env = rl_environment.Environment(pyspiel.load_game("victorus", params))
    rng = np.random.default_rng(0)

    def steps():
        step = env.reset()
        for _ in range(100):
            if step.last():
                break
            player = step.observations["current_player"]
            step = env.step([int(rng.choice(step.observations["legal_actions"][player]))])
    benchmark.pedantic(steps, rounds=3)
