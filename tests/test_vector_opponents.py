"""The search agents as opponents inside the vector games' step (victorus.vector): each is
the Python agent of the same spec, move for move, seeded from the game's agent random
state (victorus.search.SplitMix64); bad specs are refused; the threads change nothing."""

import os
import random
import subprocess
import sys

import numpy as np
import pytest

import victorus
from victorus.agents import make_agent
from victorus.errors import ConfigError
from victorus.search import SplitMix64
from victorus.vector import VectorGames

#: One small budget per search kind that plays inside the step.
SEARCHES = ("mcts:24", "alphabeta:150", "puct:24", "best:16")


def play_along(board, players, specs, seed, variant="quick6", factory=make_agent):
    """One vector game whose teams ``specs`` ({team: spec}) are played inside the step,
    against the Python agents of those specs drawing from one SplitMix64 of the game's
    agent random state; the caller's seats play random ids. The episode starts at
    set_game() (the opponents' opening from the state read before it). Checks every
    step's position and outputs; returns who made the last action ('opponent' or
    'learner') and the vector."""
    games = VectorGames(1, board, players=players, variant=variant, seed=seed,
                        opponents={f"team:{t}": spec for t, spec in specs.items()})
    start = games.agent_rng(0)           # (after reset()'s openings, if any, were played)
    games.set_game(0, victorus.Game(board, players=players, variant=variant))
    rng = SplitMix64(start)
    agents = {t: factory(spec) for t, spec in specs.items()}
    for agent in agents.values():
        agent.rng = rng                                 # one random state per game
    game = victorus.Game(board, players=players, variant=variant)
    teams = game.config.teams
    learner = random.Random(seed)
    last = "learner"
    while True:
        while not game.is_over and teams[game.to_move] in agents:
            game.play(agents[teams[game.to_move]].choose(game))
            last = "opponent"
        assert games.game(0).key() == game.key()
        assert rng.state == games.agent_rng(0)
        if game.is_over:
            break
        assert int(games.to_move[0]) == game.to_move
        assert np.array_equal(games.observations[0], game.observation(game.to_move))
        assert not games.rewards[0].any() and not games.terminated[0]
        ident = int(learner.choice(game.legal_action_ids()))
        games.step([ident])
        game.play_id(ident)
        last = "learner"
    assert games.terminated[0] and list(games.rewards[0]) == list(game.returns())
    assert rng.state != start                           # some decisions were searched
    return last, games


@pytest.mark.parametrize("spec", SEARCHES)
@pytest.mark.parametrize("seed", [3, 8])
def test_a_search_opponent_is_its_python_agent_move_by_move_two_players(spec, seed):
    """Blue's team (R33) searched inside the step: the same actions as the agent of the
    same spec run from Python, to the game's end, which the opponent's own move makes
    (its rewards reported at that step)."""
    last, games = play_along("compact", 2, {1: spec}, seed)
    assert last == "opponent"
    assert games.rewards[0][1] == 1


@pytest.mark.parametrize("spec", SEARCHES)
def test_the_page_the_tournament_and_the_vector_step_choose_alike(spec):
    """Each agent's choice is made in one place (the decisive shortcut, the search's
    driver and its pick in C): the page's agent of a spec (make_page_agent, its memory
    bounds and time cap), the agent a tournament plays (make_agent, choose) and the
    opponent inside the step make the same decisions from the same random state."""
    from victorus.search.registry import make_page_agent
    play_along("compact", 2, {1: spec}, seed=5, factory=make_page_agent)
    play_along("compact", 2, {1: spec}, seed=5, factory=make_agent)


@pytest.mark.parametrize("spec", SEARCHES)
def test_a_search_opponent_is_its_python_agent_move_by_move_four_armies(spec):
    """Four armies, two of them played by searches (paranoid alpha-beta, R33), both
    drawing from the game's one random state in turn."""
    play_along("compact", 4, {1: spec, 3: spec}, seed=2)


@pytest.mark.parametrize("spec", SEARCHES)
def test_a_search_opponent_opens_the_game(spec):
    """Red's team (R34: it moves first) played by a search: its opening runs inside
    set_game(), as inside reset()."""
    play_along("compact", 2, {0: spec}, seed=1)


def test_different_searches_share_the_games_random_state():
    play_along("compact", 3, {1: SEARCHES[0], 2: SEARCHES[1]}, seed=4)


@pytest.mark.parametrize("spec", SEARCHES)
def test_search_opponents_do_not_depend_on_threads(spec):
    """The same games on 1 and 2 threads: each thread searches on buffers of its own."""
    kwargs = dict(board="compact", players=2, variant="quick6", seed=6, max_actions=60,
                  opponents={"team:1": spec})
    one, two = VectorGames(6, **kwargs), VectorGames(6, threads=2, **kwargs)
    for _ in range(25):
        one.step(one.sample())
        two.step(two.sample())
        assert np.array_equal(one.observations, two.observations)
        assert np.array_equal(one.rewards, two.rewards)
        assert np.array_equal(one.terminated, two.terminated)


@pytest.mark.parametrize("spec", ["mcts:0.001s", "alphabeta:0.001s", "puct:0.001s"])
def test_a_time_budget_opponent_plays_legal_games_on_two_threads(spec):
    """``<kind>:<seconds>s``: which actions depends on the machine, not whose turn the
    outputs show."""
    games = VectorGames(4, "compact", players=2, variant="quick6", seed=2, threads=2,
                        max_actions=40, opponents={"team:1": spec})
    for _ in range(8):
        live = ~(games.terminated | games.truncated)
        assert set(games.to_move[live]) <= {0, 2, 4}
        games.step(games.sample())


def test_a_search_opponent_plays_up_to_the_learners_turn_in_set_game():
    games = VectorGames(2, "compact", players=2, opponents={"team:1": "alphabeta:50"})
    game = victorus.Game("compact", players=2)
    while game.to_move in (0, 2, 4):
        game.play(game.legal_actions()[0])
    agent = make_agent("alphabeta:50")
    agent.rng = SplitMix64(games.agent_rng(1))
    games.set_game(1, game)
    while game.to_move not in (0, 2, 4):
        game.play(agent.choose(game))
    assert games.game(1).key() == game.key()
    assert agent.rng.state == games.agent_rng(1)


@pytest.mark.parametrize("spec, message", [
    ("mcts:abc", r"bad search budget in 'mcts:abc': 'mcts:<iterations>' or 'mcts:<seconds>s'"),
    ("mcts:0", "iterations"),
    ("mcts:20@2", "on one thread.*drop '@2'"),
    ("alphabeta:1.5", "bad search budget in 'alphabeta:1.5'"),
    ("puct:20@2", "bad search budget in 'puct:20@2'"),
    ("mcts-py:20", "unknown agent 'mcts-py:20'.*'random', 'greedy', 'mcts\\[:BUDGET\\]', "
                   "'puct\\[:BUDGET\\]', 'alphabeta\\[:BUDGET\\]', 'alphabeta-net\\[:BUDGET\\]', "
                   "'best\\[:BUDGET\\]', 'best-net\\[:BUDGET\\]', 'best-heuristic\\[:BUDGET\\]'"),
    ("greedy:3", "unknown agent 'greedy:3'"),
    (7, "unknown agent 7"),
])
def test_bad_search_opponent_specs_say_what_is_accepted(spec, message):
    with pytest.raises(ConfigError, match=message):
        VectorGames(1, "compact", players=2, opponents={"team:1": spec})


def test_splitmix64_draws_as_the_c_agents_do():
    """GreedyAgent's C draw and SplitMix64's step the same 64-bit state."""
    rng, greedy = SplitMix64(12345), make_agent("greedy")
    greedy.rng_state = 12345
    greedy.choose(victorus.Game("compact", players=2))
    rng.getrandbits(64)
    assert rng.state == greedy.rng_state
    with pytest.raises(ConfigError, match="64 bits"):
        rng.getrandbits(32)
    with pytest.raises(ConfigError, match="state"):
        SplitMix64(-1)


@pytest.mark.parametrize("spec", ["mcts:3600s", "alphabeta:3600s", "puct:3600s"])
def test_ctrl_c_stops_the_searches_of_a_step_and_of_a_sent_step(spec, ctrl_c):
    """Ctrl-C during a step whose opponents search for an hour a decision: their searches
    stop (each decision taken from what was searched), the step ends with every game at a
    learner's turn, KeyboardInterrupt is raised, and the games can be used again; the
    same for a step sent with send(), interrupted in recv()."""
    import _thread
    import threading

    games = VectorGames(3, "compact", players=2, variant="quick6", seed=4, threads=2,
                        max_actions=100, opponents={"team:1": spec})
    timer = threading.Timer(0.3, _thread.interrupt_main)
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        games.step(games.sample())
    timer.join()
    assert set(games.to_move) <= {0, 2, 4}
    assert [games.game(i).to_move for i in range(3)] == list(games.to_move)
    games.send(games.sample())
    timer = threading.Timer(0.3, _thread.interrupt_main)
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        games.recv()
    timer.join()
    assert [games.game(i).to_move for i in range(3)] == list(games.to_move)


OUT_OF_MEMORY_ONCE = """
import resource, time
import victorus
from victorus.vector import VectorGames

def vm_bytes():
    for line in open("/proc/self/status"):
        if line.startswith("VmSize:"):
            return int(line.split()[1]) * 1024

games = VectorGames(1, "compact", players=2, variant="quick6", seed=1,
                    opponents={"team:1": "mcts:0.5s"})
ids = games.sample().copy()
soft, hard = resource.getrlimit(resource.RLIMIT_AS)
resource.setrlimit(resource.RLIMIT_AS, (vm_bytes() + (256 << 10), hard))
try:
    start = time.process_time()      # CPU seconds: what the search spent, whatever the load
    games.step(ids)                  # the opponent's tree outgrows the memory left
    first = time.process_time() - start
finally:
    resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
games.set_game(0, victorus.Game("compact", players=2, variant="quick6"))
start = time.perf_counter()
games.step(games.sample())
print(first, time.perf_counter() - start)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS and /proc: Linux")
@pytest.mark.skipif("libasan" in os.environ.get("LD_PRELOAD", ""),
                    reason="the sanitizer run (tools/sanitize-tests.sh): ASan's reserved "
                           "address space is not bounded by RLIMIT_AS")
def test_an_mcts_opponent_searches_again_after_running_out_of_memory():
    """A search that ran out of memory stops there (its decision from what it searched):
    it spends a small part of its 0.5 s budget in CPU time (measured as CPU time, so a
    loaded machine cannot make it look long); the next decision on that worker searches
    for its whole time budget again, at least 0.5 s of wall time (the stop was once kept
    for good: every later decision took the first action unsearched)."""
    out = subprocess.run([sys.executable, "-c", OUT_OF_MEMORY_ONCE], capture_output=True,
                         text=True, timeout=120, check=True).stdout
    first, second = map(float, out.split())
    assert first < 0.25 and second >= 0.5


def test_ctrl_c_stops_the_searches_of_set_game(ctrl_c):
    """set_game() at a position where a searching opponent is to act: Ctrl-C stops its
    searches as in a step, the game is left at a learner's turn."""
    import _thread
    import threading

    games = VectorGames(1, "compact", players=2, variant="quick6", seed=4,
                        opponents={"team:1": "alphabeta:3600s"})
    game = victorus.Game("compact", players=2, variant="quick6")
    while game.to_move in (0, 2, 4):
        game.play(game.legal_actions()[0])
    timer = threading.Timer(0.3, _thread.interrupt_main)
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        games.set_game(0, game)
    timer.join()
    assert games.game(0).to_move == games.to_move[0] in (0, 2, 4)
