"""victorus.vector: many games stepped in C, checked against victorus.Game step by step."""

import os
import sys
import time

import numpy as np
import pytest

import victorus
from helpers import SOME_CONFIGS, config_id
from victorus.vector import VectorGames

CONFIGS = SOME_CONFIGS


def expected_rewards(game):
    rewards = np.zeros(6, np.float32)
    if game.is_over and game.winners:
        for seat in game.config.present:
            rewards[seat] = 1.0 if seat in game.winners else -1.0
    return rewards


@pytest.mark.parametrize("board, players, variant", CONFIGS,
                         ids=[config_id(c) for c in CONFIGS])
def test_games_match_victorus_game_with_next_step_autoreset(board, players, variant):
    n, cap = 5, 150
    vec = VectorGames(n, board, players=players, variant=variant, max_actions=cap, seed=3)
    games = [victorus.Game(board, players=players, variant=variant) for _ in range(n)]
    restart = [False] * n
    rng = np.random.default_rng(0)
    for _ in range(400):
        for i, game in enumerate(games):
            assert vec.to_move[i] == game.to_move
            assert np.array_equal(vec.observations[i], game.observation(game.to_move))
            if restart[i]:
                continue
            assert np.array_equal(vec.masks[i], game.legal_action_mask()) or game.is_over
            assert vec.counts[i] == (0 if game.is_over else len(game.legal_actions()))
        actions = []
        for i in range(n):
            ids = np.flatnonzero(vec.masks[i])
            actions.append(int(rng.choice(ids)) if len(ids) and not restart[i] else 0)
        vec.step(actions)
        for i, game in enumerate(games):
            if restart[i]:                                  # the ignored action, a new game
                games[i] = game = victorus.Game(board, players=players, variant=variant)
                restart[i] = False
                assert not vec.terminated[i] and not vec.truncated[i]
                assert not vec.rewards[i].any()
                continue
            game.play_id(actions[i])
            assert vec.terminated[i] == game.is_over
            assert vec.truncated[i] == (not game.is_over and game.ply >= cap)
            assert np.array_equal(vec.rewards[i], expected_rewards(game))
            restart[i] = bool(vec.terminated[i] or vec.truncated[i])
            if not restart[i]:
                assert vec.game(i).vpn() == game.vpn() if game.phase == "start" else True


def test_results_do_not_depend_on_threads():
    runs = []
    for threads in (1, 2, 3):
        vec = VectorGames(7, "compact", players=3, variant="quick5", threads=threads, seed=11,
                          observations="uint8", legal="ids")
        trace = []
        for _ in range(300):
            vec.step(vec.sample())
            trace.append((vec.observations.copy(), vec.ids.copy(), vec.counts.copy(),
                          vec.rewards.copy(), vec.terminated.copy(), vec.to_move.copy()))
        runs.append(trace)
    for other in runs[1:]:
        for a, b in zip(runs[0], other):
            assert all(np.array_equal(x, y) for x, y in zip(a, b))


@pytest.mark.skipif(not sys.platform.startswith("linux") or len(os.sched_getaffinity(0)) < 2,
                    reason="pool threads are placed on Linux, with two CPUs or more")
def test_a_pool_thread_keeps_off_the_cpu_of_the_thread_that_steps():
    """With another process busy on a core, the kernel would often wake the pool's worker
    on the caller's core, where the two only take turns: a worker leaves the CPU the
    step's caller ran on out of its own CPUs, and the caller's are never changed."""
    mine = os.sched_getaffinity(0)
    before = set(os.listdir("/proc/self/task"))
    vec = VectorGames(64, "compact", players=2, threads=2, seed=1, observations=None,
                      legal=None)
    started = [int(tid) for tid in set(os.listdir("/proc/self/task")) - before]
    assert started                                   # the pool's worker, at least
    narrowed = []
    deadline = time.monotonic() + 60                 # a guard: the worker wakes every step
    while not narrowed and time.monotonic() < deadline:
        vec.step(vec.sample())
        narrowed = [cpus for cpus in map(os.sched_getaffinity, started) if cpus != mine]
    assert len(narrowed) == 1 and narrowed[0] < mine and len(narrowed[0]) == len(mine) - 1
    assert os.sched_getaffinity(0) == mine


def as_counts(obs):
    """The uint8 form of a float32 observation: saturated integer counts."""
    from victorus.tensors import PLANE_INDEX
    scale = np.ones((obs.shape[0], 1), np.float32)
    caps, held = PLANE_INDEX["knight_captures0"], PLANE_INDEX["held0"]
    scale[caps:caps + 6], scale[held:held + 6], scale[PLANE_INDEX["round"]] = 3, 12, 100
    return np.clip(np.rint(obs.astype(np.float64) * scale), 0, 255).astype(np.uint8)


def test_ids_and_uint8_observations():
    vec = VectorGames(3, "standard", observations="uint8", legal="ids", seed=2)
    game = victorus.Game()
    assert vec.observations.dtype == np.uint8 and vec.masks is None
    assert list(vec.ids[0, :vec.counts[0]]) == list(game.legal_action_ids())
    assert np.array_equal(vec.observations[0], as_counts(game.observation(0)))
    for _ in range(200):
        vec.step(vec.sample())
    for i in range(3):
        game = vec.game(i)
        assert np.array_equal(vec.observations[i], as_counts(game.observation(game.to_move)))


def test_an_illegal_action_moves_no_game():
    vec = VectorGames(4, "compact", players=2, seed=5)
    before = vec.observations.copy()
    actions = vec.sample().copy()
    actions[2] = vec.num_actions - 2                    # 'end' is not legal at the start
    with pytest.raises(victorus.IllegalActionError, match=r"game 2: action id \d+ \(end\) is not legal"):
        vec.step(actions)
    assert np.array_equal(vec.observations, before)
    for bad, message in (([0] * 3, "4 integer action ids"), ([0.5] * 4, "integer action ids"),
                         ):
        with pytest.raises(victorus.ConfigError, match=message):
            vec.step(bad)
    with pytest.raises(victorus.IllegalActionError, match="game 0: action id 1000000 .ids go"):
        vec.step([10**6] * 4)
    vec.step(vec.sample())                              # still usable


@pytest.mark.parametrize("kwargs, message", [
    ({"num_envs": 0}, "num_envs"), ({"threads": 0}, "threads"),
    ({"observations": "float16"}, "observations"), ({"legal": "list"}, "legal"),
    ({"max_actions": 0}, "max_actions"), ({"seed": -1}, "seed"),
    ({"board": "huge"}, "huge")])
def test_bad_arguments_are_refused(kwargs, message):
    args = {"num_envs": 2, **kwargs}
    with pytest.raises(victorus.ConfigError, match=message):
        VectorGames(**args)


def test_set_game_puts_a_position_into_a_slot():
    """set_game: the slot holds the game's position as a fresh episode, its outputs agree
    with the game, and it steps on from there exactly as the game does."""
    vg = VectorGames(3, board="compact", players=2, seed=1)
    game = victorus.Game("compact", players=2)
    victorus.play_random(game, seed=5, max_actions=25)
    vg.set_game(1, game)
    assert vg.game(1).key() == game.key() and vg.to_move[1] == game.to_move
    assert vg.masks[1].tolist() == game.legal_action_mask().tolist()
    assert (vg.observations[1] == game.observation(game.to_move)).all()
    assert not vg.rewards[1].any() and not vg.terminated[1]
    for _ in range(10):
        if game.is_over:
            break
        ids = vg.sample().copy()
        game.play_id(int(ids[1]))
        vg.step(ids)
        assert vg.game(1).key() == game.key()
    with pytest.raises(victorus.ConfigError, match="standard"):
        vg.set_game(0, victorus.Game())
    with pytest.raises(victorus.ConfigError, match="index"):
        vg.set_game(3, game)


def test_uint8_observations_of_a_game_are_the_vector_games():
    """Game.observation(seat, dtype="uint8") writes the planes VectorGames writes with
    observations="uint8" (saturated counts), for the same position."""
    vg = VectorGames(1, board="compact", players=3, observations="uint8", seed=2)
    game = victorus.Game("compact", players=3)
    for _ in range(40):
        assert (vg.observations[0] == game.observation(game.to_move, dtype="uint8")).all()
        ids = vg.sample().copy()
        if ids[0] < 0:
            break
        game.play_id(int(ids[0]))
        vg.step(ids)
    out = np.zeros((len(victorus.constants.PLANES), 127), np.uint8)
    assert game.observation(0, out, dtype="uint8") is out
    with pytest.raises(victorus.ConfigError, match="dtype"):
        game.observation(0, dtype="float64")
