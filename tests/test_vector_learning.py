"""victorus.vector for learners: ids in the observer's frame, opponents played in C inside
the step (the same agents as victorus.agents), and asynchronous send()/recv()."""

import math
import random
import threading

import numpy as np
import pytest

import victorus
from helpers import SOME_CONFIGS, config_id
from victorus.agents import GreedyAgent
from victorus.errors import ConfigError, IllegalActionError
from victorus.notation import piece_from_code
from victorus.tensors import id_columns, to_absolute_ids, to_observer_ids
from victorus.vector import VectorGames

BLUE = (1, 3, 5)          # the second team of the 2-player games (R33)


# -- frames ------------------------------------------------------------------------------

@pytest.mark.parametrize("board", ["compact", "standard"])
def test_ids_round_trip_between_frames_for_every_seat(board):
    """R9 cells <-> the observer's columns: every id of the board, every seat."""
    b = victorus.Game(board).board
    ids = np.arange(len(b) ** 2 + 3)
    for seat in range(6):
        observer = to_observer_ids(b, ids, seat)
        assert sorted(observer) == list(ids)                    # a permutation
        assert np.array_equal(to_absolute_ids(b, observer, seat), ids)
        origin, target = id_columns(b, ids, seat)
        legs = ids < len(b) ** 2
        assert np.array_equal(observer[legs], origin[legs] * len(b) + target[legs])
        assert np.array_equal(observer[~legs], ids[~legs])      # stop, end, pass
    assert np.array_equal(to_observer_ids(b, ids, 0), ids)      # seat 0's view is the board


def test_observer_ids_read_the_movers_own_piece():
    """In the observer's frame, a leg's origin column shows the mover's piece (plane
    army0_*) for every seat: the point of the frame."""
    from victorus.constants import PIECE_LETTERS, PLANES
    own = [PLANES.index(f"army0_{p}") for p in PIECE_LETTERS]
    games = VectorGames(6, "compact", players=6, legal="ids", id_frame="observer", seed=2)
    n = len(games.board)
    for _ in range(12):
        for i in range(games.num_envs):
            for ident in games.ids[i, :games.counts[i]]:
                if ident < n * n:
                    assert games.observations[i, own, ident // n].sum() == 1
        games.step(games.sample())


@pytest.mark.parametrize("board, players, variant", SOME_CONFIGS,
                         ids=[config_id(c) for c in SOME_CONFIGS])
def test_observer_frame_masks_ids_and_steps_match_the_absolute_frame(board, players, variant):
    kwargs = dict(board=board, players=players, variant=variant, max_actions=120, seed=4)
    absolute = VectorGames(4, **kwargs)
    observer = VectorGames(4, id_frame="observer", **kwargs)
    ids = VectorGames(4, legal="ids", id_frame="observer", **kwargs)
    b = absolute.board
    for _ in range(200):
        actions = absolute.sample().copy()
        sampled = observer.sample().copy()
        assert np.array_equal(sampled, ids.sample())
        for i in range(4):
            seat = int(absolute.to_move[i])
            legal = np.flatnonzero(absolute.masks[i])
            assert np.array_equal(np.sort(to_observer_ids(b, legal, seat)),
                                  np.flatnonzero(observer.masks[i]))
            assert np.array_equal(to_observer_ids(b, legal, seat), ids.ids[i, :ids.counts[i]])
            if actions[i] >= 0:
                assert to_observer_ids(b, [actions[i]], seat)[0] == sampled[i]
        framed = np.array([to_observer_ids(b, [a], int(s))[0] if a >= 0 else 0
                           for a, s in zip(actions, absolute.to_move)], np.int32)
        for games, step in ((absolute, actions), (observer, framed), (ids, framed)):
            games.step(step)
        assert np.array_equal(absolute.observations, observer.observations)
        assert np.array_equal(absolute.rewards, ids.rewards)
        assert np.array_equal(absolute.terminated | absolute.truncated,
                              observer.terminated | observer.truncated)


def test_an_absolute_id_is_refused_in_the_observer_frame_when_it_is_not_legal_there():
    games = VectorGames(1, "compact", players=2, id_frame="observer")
    for _ in range(2):
        games.step(games.sample())              # seat 2 to act: its frame is rotated
    seat = int(games.to_move[0])
    legal = set(np.flatnonzero(games.masks[0]))
    absolute = int(next(a for a in to_absolute_ids(games.board, sorted(legal), seat)
                        if a not in legal))
    with pytest.raises(IllegalActionError, match=f"observer frame of seat {seat}"):
        games.step([absolute])


# -- opponents in C ------------------------------------------------------------------------

def reference_greedy_best(game):
    """The greedy scoring in Python over the public API: the actions of the best score
    (R37 points captured, +100 for a win, minus the most valuable piece the next army of
    another team could then capture)."""
    def value(code):
        return 0 if code is None else piece_from_code(int(code[0]), code[1:]).points
    me, team = game.to_move, game.config.teams[game.to_move]
    best, best_score = [], -math.inf
    for action in game.legal_actions():
        trial = game.copy(history=False)
        gained = value(trial.piece_at(game.board.labels[action.target])) if action.capture else 0
        trial.play(action)
        score = gained + (100 if trial.is_over and me in (trial.winners or ()) else 0)
        if not trial.is_over and game.config.teams[trial.to_move] != team:
            score -= max((value(trial.piece_at(trial.board.labels[a.target]))
                          for a in trial.legal_actions() if a.capture), default=0)
        if score > best_score:
            best, best_score = [action], score
        elif score == best_score:
            best.append(action)
    return best


@pytest.mark.parametrize("board, players", [("compact", 2), ("standard", 3)])
def test_greedy_in_c_chooses_among_the_python_scorings_best(board, players):
    game = victorus.Game(board, players=players, variant="quick6")
    agent = GreedyAgent(seed=1)
    rng = random.Random(2)
    for ply in range(120):
        if game.is_over:
            break
        if ply % 3 == 0:
            assert agent.choose(game) in reference_greedy_best(game)
        game.play(rng.choice(game.legal_actions()))


@pytest.mark.parametrize("seed", [5, 11])
def test_the_vector_greedy_opponent_is_greedy_agent_move_by_move(seed):
    """Blue's team played by greedy inside the step, against the same GreedyAgent run
    from Python with the game's agent random state: the same actions, position for
    position, until the game ends (with its rewards)."""
    games = VectorGames(1, "compact", players=2, variant="quick6", seed=seed,
                        opponents={"team:1": "greedy"})
    assert games.learner_seats == (0, 2, 4)
    agent = GreedyAgent()
    agent.rng_state = games.agent_rng(0)
    game = victorus.Game("compact", players=2, variant="quick6")
    rng = random.Random(seed)
    while True:
        ident = int(rng.choice(game.legal_action_ids()))
        games.step([ident])
        game.play_id(ident)
        while not game.is_over and game.to_move in BLUE:
            game.play(agent.choose(game))
        assert games.game(0).key() == game.key()
        if game.is_over:
            break
        assert int(games.to_move[0]) == game.to_move and game.to_move not in BLUE
        assert np.array_equal(games.observations[0], game.observation(game.to_move))
        assert not games.rewards[0].any() and not games.terminated[0]
    assert games.terminated[0]
    assert list(games.rewards[0]) == list(game.returns())
    assert agent.rng_state == games.agent_rng(0)


def test_opponents_play_only_their_seats_and_count_towards_the_cap():
    cap = 40
    games = VectorGames(8, "standard", players=6, seed=3, max_actions=cap, legal="ids",
                        opponents={1: "random", 3: "greedy", 4: "random", 5: "random"})
    assert games.learner_seats == (0, 2)
    moves = np.zeros(8, int)
    for _ in range(60):
        assert set(games.to_move[~(games.terminated | games.truncated)]) <= {0, 2}
        moves += 1
        games.step(games.sample())
        ended = games.terminated | games.truncated
        for i in np.flatnonzero(ended):
            assert games.truncated[i] or games.terminated[i]
            moves[i] = 0
    assert moves.max() < cap                     # the agents' actions reached the cap first


def test_opponents_open_the_game_and_end_it_and_autoreset_plays_their_opening_again():
    """The learner is blue's team: red's opening runs inside reset() and inside the
    autoreset; a game greedy ends on its own move reports the loss at that step (R33)."""
    games = VectorGames(8, "compact", players=2, variant="quick6", seed=1,
                        opponents={"team:0": "greedy"})
    assert set(games.to_move) <= set(BLUE)
    ended = 0
    restarting = np.zeros(8, bool)
    for _ in range(300):
        games.step(games.sample())
        live = ~(games.terminated | games.truncated)
        assert set(games.to_move[live]) <= set(BLUE)
        assert set(games.to_move[restarting]) <= set(BLUE) and not games.rewards[restarting].any()
        for i in np.flatnonzero(games.terminated):
            game = games.game(int(i))
            assert list(games.rewards[i]) == list(game.returns())
            ended += 1
        restarting = games.terminated | games.truncated
    assert ended >= 8


def test_opponents_do_not_depend_on_threads():
    kwargs = dict(board="compact", players=3, seed=7, max_actions=300,
                  opponents={"team:1": "greedy", "team:2": "random"})
    one, two = VectorGames(16, **kwargs), VectorGames(16, threads=2, **kwargs)
    for _ in range(150):
        one.step(one.sample())
        two.step(two.sample())
        assert np.array_equal(one.observations, two.observations)
        assert np.array_equal(one.rewards, two.rewards)


def test_set_game_lets_the_opponents_play_up_to_the_learners_turn():
    games = VectorGames(2, "compact", players=2, opponents={"team:1": "random"})
    game = victorus.Game("compact", players=2)
    while game.to_move not in BLUE:
        game.play(game.legal_actions()[0])
    games.set_game(1, game)
    assert int(games.to_move[1]) not in BLUE
    assert games.game(1).key() != game.key()


@pytest.mark.parametrize("opponents, message", [
    ({1: "mcts-py:10"}, "unknown agent 'mcts-py:10'"),
    ({7: "random"}, "opponents key 7"),
    ({"team:3": "random"}, "team:0, team:1"),
    ({"team:0": "random", "team:1": "random"}, "leave at least one seat"),
    ([1], "must be a dict"),
])
def test_bad_opponents_are_refused(opponents, message):
    with pytest.raises(ConfigError, match=message):
        VectorGames(1, "compact", players=2, opponents=opponents)


# -- send() / recv() -------------------------------------------------------------------------

def test_send_and_recv_give_the_outputs_of_step():
    kwargs = dict(board="compact", players=2, seed=9, max_actions=200, threads=2,
                  opponents={"team:1": "greedy"}, id_frame="observer")
    sync, overlapped = VectorGames(8, **kwargs), VectorGames(8, **kwargs)
    for _ in range(120):
        actions = sync.sample().copy()
        sync.step(actions)
        overlapped.send(actions)
        actions[:] = -7                          # the ids were copied by send()
        overlapped.recv()
        for name in ("observations", "masks", "rewards", "terminated", "truncated", "to_move"):
            assert np.array_equal(getattr(sync, name), getattr(overlapped, name)), name


def test_send_holds_the_lock_until_recv():
    games = VectorGames(2, "compact", players=2)
    games.send(games.sample().copy())
    with pytest.raises(ConfigError, match="call recv"):
        games.step(games._sampled)
    done = []
    other = threading.Thread(target=lambda: done.append(games.sample().copy()))
    other.start()
    other.join(0.2)
    assert not done                              # waits for the lock
    games.recv()
    other.join()
    assert len(done) == 1
    with pytest.raises(ConfigError, match="without a send"):
        games.recv()


def test_an_illegal_sent_id_starts_nothing():
    games = VectorGames(2, "compact", players=2)
    before = games.observations.copy()
    with pytest.raises(IllegalActionError):
        games.send([0, 0])
    assert np.array_equal(games.observations, before)
    games.step(games.sample())                    # the lock was released
