"""Every boundary holds (docs/robustness.md): agents in tournaments and matches cannot
change the game they are asked about, and one that fails is named with its game and
position while the finished games are kept; every environment takes exactly the
integers of its action space; numpy integers wherever an integer is taken; ratings
refuse impossible input; a vector opponent's seat is named once; checkpoints are checked
on load; and the leftovers (VectorGames(seed=None), timedelta ids, a vector env without
observations, agents on a finished game, a record's byte-order mark)."""

from __future__ import annotations

import datetime
import importlib.util
import json
import sys
from pathlib import Path

import numpy as np
import pytest

import victorus
from test_architecture import load_tool
from victorus import ConfigError, Game
from victorus.agents import GreedyAgent, RandomAgent, make_agent
from victorus.checks import as_int, check_action_id, check_int
from victorus.cli import main
from victorus.ratings import PairScore, bradley_terry, wilson
from victorus.tournament import play_agent, position, tournament
from victorus.vector import VectorGames

# ------------------------------------------------------------------ agents and games


class Leaky:
    """Chooses as ``inner`` does, then looks one action further on the game it was handed
    and forgets to undo it."""

    def __init__(self, inner):
        self.inner, self.name = inner, inner.name

    def choose(self, game):
        action = self.inner.choose(game)
        game.play(game.legal_actions()[-1])          # the forgotten undo
        return action


class Faulty:
    """Plays the first legal action, then fails as told on its ``after``-th call."""

    name = "faulty"

    def __init__(self, answer, after: int = 3):
        self.answer, self.after, self.calls = answer, after, 0

    def choose(self, game):
        self.calls += 1
        if self.calls < self.after:
            return game.legal_actions()[0]
        if self.answer == "raise":
            raise RuntimeError("the agent's own bug")
        return self.answer


def failing_from(build: int, answer):
    """A factory whose ``build``-th agent (1 is the tournament's check, 2 the first
    game's) fails; the others play as Faulty before its failure."""
    count = [0]

    def factory(seed):
        count[0] += 1
        return Faulty(answer, 3 if count[0] == build else 10**9)
    return factory


def test_an_agent_that_forgets_an_undo_cannot_change_the_tournament():
    clean = tournament([lambda seed: GreedyAgent(seed), "random"], games=4, seed=5)
    leaky = tournament([lambda seed: Leaky(GreedyAgent(seed)), "random"], games=4, seed=5)
    assert leaky.outcomes == clean.outcomes and clean.games == 4


def test_play_agent_hands_a_copy_and_plays_the_answer():
    game = Game("compact", players=2)
    before = game.copy()
    action = play_agent(Leaky(RandomAgent(1)), game)
    before.play(action)
    assert game == before and game.ply == 1


@pytest.mark.parametrize("answer, says", [
    ("raise", "raised RuntimeError: the agent's own bug"),
    (None, "answered None, which the game refused"),
    ("pass", "answered 'pass', which the game refused"),
    (12.5, "answered 12.5, which the game refused"),
])
def test_a_failing_agent_is_named_with_its_game_and_position_and_finished_games_kept(answer, says):
    good = tournament([lambda seed: Faulty("raise", 10**9), "random"], games=4, seed=2)
    with pytest.raises(victorus.AgentError) as caught:
        tournament([failing_from(4, answer), "random"], games=4, seed=2)
    message = str(caught.value)
    assert f"agent 'faulty' {says}" in message
    assert "(game 2 at VPN compact " in message and "2 of 4 games were finished" in message
    partial = caught.value.result
    assert partial.outcomes == good.outcomes[:2] and partial.stopped == message
    assert f"stopped after 2 games: agent 'faulty' {says}" in partial.table()
    as_json = partial.as_dict()
    assert as_json["stopped"] == message and as_json["games"] == 2
    assert len(as_json["outcomes"]) == 2 and json.loads(json.dumps(as_json)) == as_json


def test_a_factory_that_fails_for_one_game_is_named_and_finished_games_kept():
    builds = [0]

    def factory(seed):
        builds[0] += 1
        if builds[0] == 4:                       # 1: the tournament's check, 2: game 0
            raise RuntimeError("no agent today")
        return Faulty("raise", 10**9)
    with pytest.raises(victorus.AgentError, match=r"agent 'faulty' could not be built: "
                       r"RuntimeError: no agent today \(game 2 at VPN") as caught:
        tournament([factory, "random"], games=4, seed=2)
    assert caught.value.result.games == 2


@pytest.mark.parametrize("error", [victorus.AgentError, victorus.WorkerLost])
def test_a_run_stopped_by_an_agent_or_a_worker_is_one_error_holding_the_finished_work(error):
    """AgentError and WorkerLost are the two ways a run stops early (errors.RunStopped):
    one except clause catches both and reads what was finished before, or None."""
    from victorus.errors import RunStopped
    with pytest.raises(RunStopped) as caught:
        raise error("it stopped", ["game 0"])
    assert type(caught.value) is error and str(caught.value) == "it stopped"
    assert caught.value.result == ["game 0"] and error("it stopped").result is None
    assert issubclass(error, victorus.VictorusError)


def test_the_position_inside_a_turn_is_its_start_and_the_actions_since():
    game = Game("compact", players=2)
    assert position(game) == f"VPN {game.vpn()}"
    since: list = []
    while game.phase == "start" or not since:     # into the first turn of two actions
        if game.phase == "start":
            start, since = game.vpn(), []
        since.append(game.legal_actions()[0])
        game.play(since[-1])
    assert position(game) == f"VPN {start} then {' '.join(map(str, since))}"
    back = Game.from_vpn(start)
    for action in since:
        back.play(str(action))
    assert back == game


def test_cli_tournament_writes_the_finished_games_and_says_which_agent_failed(
        monkeypatch, tmp_path, capsys):
    seen: list = []                               # one RandomAgent is built per game
    original = RandomAgent.choose

    def fails_in_the_third_game(self, game):
        if not any(agent is self for agent in seen):
            seen.append(self)
        if len(seen) == 3:
            raise RuntimeError("broken")
        return original(self, game)
    monkeypatch.setattr(RandomAgent, "choose", fails_in_the_third_game)
    out = tmp_path / "result.json"
    assert main(["tournament", "4", "random", "greedy", "--seed", "1", "--json", str(out)]) == 1
    captured = capsys.readouterr()
    written = json.loads(out.read_text())
    assert written["games"] == 2 and len(written["outcomes"]) == 2
    assert "agent 'random' raised RuntimeError: broken (game 2 at VPN" in written["stopped"]
    assert "victorus: error: agent 'random' raised RuntimeError" in captured.err
    assert "games: 2," in captured.out


def test_the_match_tool_keeps_the_games_finished_and_names_the_failing_agent(capsys):
    match = load_tool("match")
    clean = match.match(lambda s: GreedyAgent(s), lambda s: RandomAgent(s), 2, seed=3)
    leaky = match.match(lambda s: Leaky(GreedyAgent(s)), lambda s: RandomAgent(s), 2, seed=3)
    assert vars(leaky) == vars(clean) and clean.games == 4
    builds = [0]

    def second(seed):
        builds[0] += 1
        return Faulty("raise", 3 if builds[0] == 3 else 10**9)
    with pytest.raises(victorus.AgentError, match=r"agent 'faulty' raised .*\(game 2 at VPN") as caught:
        match.match(lambda s: RandomAgent(s), second, 2, seed=3)
    assert caught.value.result.games == 2


def test_the_ladder_writes_nothing_when_an_agent_fails(monkeypatch, tmp_path, capsys):
    def broken(self, game):
        raise RuntimeError("broken")
    monkeypatch.setattr(RandomAgent, "choose", broken)
    doc = tmp_path / "agents.md"
    doc.write_text("<!-- ladder: begin -->\nold\n<!-- ladder: end -->\n")
    ladder = load_tool("ladder")
    assert ladder.main(["--budgets", "5", "--games", "2", "--openings", "0",
                        "--write", str(doc)]) == 1
    assert "old" in doc.read_text()
    assert "ladder.py: error: agent 'random' raised RuntimeError: broken (game" in \
        capsys.readouterr().err


def test_victorus_play_asks_its_agents_on_a_copy_and_names_one_that_fails(monkeypatch):
    import io

    from victorus.play import session
    original = GreedyAgent.choose

    def leaky(self, game):
        action = original(self, game)
        game.play(game.legal_actions()[-1])          # the forgotten undo
        return action
    outputs = []
    for choose in (original, leaky):
        monkeypatch.setattr(GreedyAgent, "choose", choose)
        played = session(stdin=io.StringIO(""), stdout=io.StringIO(), board="compact",
                         players=2, humans=(), agent="greedy", seed=1)
        assert played.run() == 0
        outputs.append(played.game.history())
    assert outputs[0] == outputs[1]

    def broken(self, game):
        raise RuntimeError("broken")
    monkeypatch.setattr(GreedyAgent, "choose", broken)
    played = session(stdin=io.StringIO(""), stdout=io.StringIO(), board="compact", players=2,
                     humans=(), agent="greedy", seed=1)
    with pytest.raises(victorus.AgentError, match=r"agent 'greedy' raised RuntimeError: broken \(at VPN"):
        played.run()
    assert played.game.ply == 0


# ------------------------------------------------------------------ one integer contract

NOT_INTEGERS = [1040.9, 1040.0, "1040", b"1040", np.float32(1040), np.float64(1040), None,
                float("nan"), True, np.bool_(True), np.timedelta64(1040),
                datetime.timedelta(1040), [1040], np.array([1040]), np.array(1040.0),
                complex(1040)]
INTEGERS = [1040, np.int64(1040), np.int32(1040), np.uint16(1040), np.array(1040),
            np.array(1040, dtype=np.uint64)]


@pytest.mark.parametrize("value", NOT_INTEGERS, ids=repr)
def test_check_int_refuses_whatever_is_not_an_integer(value):
    assert as_int(value) is None
    with pytest.raises(ConfigError, match=r"^an action id must be an integer from 0 to 16131, got"):
        check_action_id(value, 16132)


@pytest.mark.parametrize("value", INTEGERS, ids=repr)
def test_check_int_takes_python_and_numpy_integers(value):
    assert type(check_int("x", value, 0, 2000)) is int and check_action_id(value, 16132) == 1040
    with pytest.raises(ConfigError, match="x must be an integer from 0 to 99"):
        check_int("x", value, 0, 99)


def _learner():
    from victorus.gym_env import LearnerEnv
    env = LearnerEnv(opponent="random")
    env.reset(seed=0)
    return env, lambda: env.games.game(0)


def _pettingzoo():
    from victorus.env import VictorusEnv
    env = VictorusEnv(board="compact", players=2)
    env.reset()
    return env, lambda: env.game.copy()


def _openspiel():
    import pyspiel

    import victorus.openspiel  # noqa: F401
    state = pyspiel.load_game("victorus", {"board": "compact", "players": 2}).new_initial_state()
    return state, lambda: state.game.copy()


ADAPTERS = {"gymnasium": (_learner, lambda env, a: env.step(a)),
            "pettingzoo": (_pettingzoo, lambda env, a: env.step(a)),
            "openspiel": (_openspiel, lambda state, a: state.apply_action(a)),
            "openspiel-cpp": (_openspiel, lambda state, a: state._apply_action(a))}


@pytest.mark.parametrize("adapter", ADAPTERS)
@pytest.mark.parametrize("value", NOT_INTEGERS + [-1, 16132, 2**70], ids=repr)
def test_every_environment_refuses_what_is_not_an_action_id_and_changes_nothing(adapter, value):
    make, step = ADAPTERS[adapter]
    env, game = make()
    before = game()
    with pytest.raises(ConfigError, match=r"an action id must be an integer from 0 to 16131, got"):
        step(env, value)
    assert game() == before


@pytest.mark.parametrize("adapter", ADAPTERS)
@pytest.mark.parametrize("value", INTEGERS, ids=repr)
def test_every_environment_takes_numpy_integers_as_their_ids(adapter, value):
    make, step = ADAPTERS[adapter]
    (env, game), (plain, plain_game) = make(), make()
    step(plain, 1040)                             # legal at the start of compact 2 players
    step(env, value)
    assert game() == plain_game() and game() != make()[1]()


@pytest.mark.parametrize("value", [0, -1, 1.5, "3", True, None, 2**31, np.float64(5)], ids=repr)
def test_openspiel_checks_max_actions_as_game_does(value):
    from victorus.openspiel import VictorusSpielGame
    with pytest.raises(ConfigError, match=r"max_actions must be an integer from 1 to 2147483647"):
        VictorusSpielGame({"max_actions": value})
    assert VictorusSpielGame({"max_actions": np.int64(7)}).max_game_length() == 7


@pytest.mark.parametrize("value", [2.0, "2", True])
def test_openspiel_checks_players(value):
    from victorus.openspiel import VictorusSpielGame
    with pytest.raises(ConfigError, match="players must be an integer from 2 to 6"):
        VictorusSpielGame({"players": value})


def test_numpy_integers_are_taken_wherever_an_integer_is():
    game = Game("compact", players=np.int64(2))
    assert game.config.players == 2
    assert np.array_equal(game.observation(np.int64(1)), game.observation(1))
    assert game.held(np.int8(0)) == game.held(0)
    assert victorus.perft(game, np.int64(2)) == victorus.perft(game, 2)
    a, b = Game("compact", players=2), Game("compact", players=2)
    assert victorus.play_random(a, np.uint32(7), np.int16(20)) == victorus.play_random(b, 7, 20)
    assert a == b
    games = VectorGames(np.int64(2), "compact", 2, seed=np.uint64(3), threads=np.int32(1),
                        max_actions=np.int64(100))
    same = VectorGames(2, "compact", 2, seed=3, max_actions=100)
    assert games.game(np.int64(1)) == same.game(1)
    assert games.agent_rng(np.int8(1)) == same.agent_rng(1)
    games.reset(np.int64(9))
    same.reset(9)
    assert np.array_equal(games.sample(), same.sample())
    games.set_game(np.int64(0), a)
    assert games.game(0) == a
    with_opponent = VectorGames(1, "compact", 2, opponents={np.int64(1): "greedy"})
    assert 1 not in with_opponent.learner_seats and 0 in with_opponent.learner_seats


@pytest.mark.parametrize("spec", ["random", "greedy", "mcts:10", "mcts-py:10", "puct:10",
                                  "alphabeta:50", "best:10"])
def test_agents_take_numpy_seeds_and_refuse_what_is_no_seed(spec):
    game = Game("compact", players=2)
    assert make_agent(spec, seed=np.int64(4)).choose(game) == make_agent(spec, seed=4).choose(game)
    for seed in (1.5, "4", np.float64(4)):
        with pytest.raises(ConfigError, match="seed must be an integer or None"):
            make_agent(spec, seed=seed)


def test_runs_take_numpy_integers_and_their_results_stay_json():
    i = np.int64
    result = tournament(["random", "greedy"], i(2), seed=i(1), max_actions=i(40), openings=i(2))
    assert json.loads(json.dumps(result.as_dict()))["openings"] == 2
    assert result == tournament(["random", "greedy"], 2, seed=1, max_actions=40, openings=2)
    assert victorus.simulate(i(2), seed=i(3), board="compact", players=i(2), workers=i(1)) == \
        victorus.simulate(2, seed=3, board="compact", players=2, workers=1)
    assert wilson(i(3), i(5), np.float32(2)) == wilson(3, 5, 2.0)
    assert bradley_terry(["a", "b"], [PairScore("a", "b", i(3), i(1), i(0))], prior=i(1)) == \
        bradley_terry(["a", "b"], [PairScore("a", "b", 3, 1, 0)], prior=1)
    from victorus.gym_env import LearnerEnv
    numpy_seeded, seeded = LearnerEnv(), LearnerEnv()
    assert np.array_equal(numpy_seeded.reset(seed=i(5))[0], seeded.reset(seed=5)[0])
    assert numpy_seeded.games.agent_rng(0) == seeded.games.agent_rng(0)


@pytest.mark.parametrize("call", [
    lambda g: g.game(True), lambda g: g.game(1.0), lambda g: g.reset(2.0),
    lambda g: g.set_game(np.float32(0), Game("compact", players=2))], ids=range(4))
def test_vector_games_refuse_what_is_not_an_integer(call):
    with pytest.raises(ConfigError, match="must be an integer"):
        call(VectorGames(2, "compact", 2))


# ------------------------------------------------------------------ ratings


@pytest.mark.parametrize("scores, kwargs, message", [
    (lambda: [PairScore("a", "b", -3, 2, 0)], {}, "wins_a of 'a' vs 'b' must be an integer from 0"),
    (lambda: [PairScore("a", "b", 3, 2, -1)], {}, "draws of 'a' vs 'b' must be an integer from 0"),
    (lambda: [PairScore("a", "b", 3, 2, 0)], {"z": 0},
     r"z \(standard errors either side\) must be a finite number > 0"),
    (lambda: [PairScore("a", "b", 3, 2, 0)], {"z": -1.96}, "z .* must be a finite number > 0"),
    (lambda: [PairScore("a", "b", 3, 2, 0)], {"z": float("nan")}, "z .* must be a finite number > 0"),
    (lambda: [PairScore("a", "b", 3, 0, 0)], {"prior": 0},
     r"no maximum-likelihood rating exists: \['b'\] never scored a point against \['a'\]"),
    (lambda: [PairScore("a", "b", 3, 1, 0), PairScore("b", "c", 2, 0, 0)], {"prior": 0},
     r"no maximum-likelihood rating exists: \['c'\] never scored"),
    (lambda: [("a", "b", 3, 1, 0)], {}, "scores must be PairScore objects"),
], ids=range(8))
def test_ratings_refuse_what_cannot_be(scores, kwargs, message):
    with pytest.raises(ConfigError, match=message):
        bradley_terry(["a", "b", "c"] if "'c'" in message else ["a", "b"], scores(), **kwargs)


def test_pair_scores_refuse_fractions_and_the_ratings_of_a_sweep_with_a_prior_are_finite():
    with pytest.raises(ConfigError, match="wins_b of 'a' vs 'b' must be an integer"):
        PairScore("a", "b", 1, 1.5, 0)
    (a, b) = bradley_terry(["a", "b"], [PairScore("a", "b", 3, 0, 0)], prior=1)
    assert a.low == a.rating == a.high == 0 and b.low < b.rating < b.high and b.rating < 0


@pytest.mark.parametrize("args, message", [
    ((-1, 3), "successes must be a number from 0 to trials"),
    ((5, 3), "successes must be a number from 0 to trials"),
    ((1, -3), "trials must be an integer"),
    ((1, 2.5), "trials must be an integer"),
    ((1, 3, 0), "z .* must be a finite number > 0"),
    ((1, 3, -1), "z .* must be a finite number > 0"),
], ids=range(6))
def test_wilson_refuses_what_cannot_be(args, message):
    with pytest.raises(ConfigError, match=message):
        wilson(*args)


# ------------------------------------------------------------------ a seat named twice


@pytest.mark.parametrize("opponents", [
    {1: "greedy", "team:1": "random"}, {"team:1": "random", 1: "greedy"},
    {3: "greedy", "team:1": "greedy"}, {np.int64(1): "greedy", "team:1": "random"}],
    ids=range(4))
def test_a_vector_opponent_named_twice_is_refused_whatever_the_order(opponents):
    with pytest.raises(ConfigError, match="opponents name seat [13] twice"):
        VectorGames(1, "compact", 2, opponents=opponents)


@pytest.mark.parametrize("raw", [b'{"action": "j5-i8", "action": "pass"}',
                                 b'{"seats": ["person"], "board": "compact", "board": "standard"}'])
def test_a_web_request_naming_a_field_twice_is_refused(raw):
    from helpers import serving
    from test_server import call, state
    from victorus.page.table import Table
    from victorus.session import PERSON
    with serving(Table("compact", 2, seats=[PERSON] * 6, agent_delay=0), worker=False) as server:
        before = state(server)
        path = "/api/play" if b"action" in raw else "/api/new"
        status, data = call(server, path, raw=raw)
        assert status == 400 and "more than once; give each field once" in data["error"], data
        assert state(server) == before


# ------------------------------------------------------------------ checkpoints


EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "train_evaluator.py"


@pytest.fixture(scope="module")
def example():
    spec = importlib.util.spec_from_file_location("train_evaluator", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    sys.modules["train_evaluator"] = module
    spec.loader.exec_module(module)
    yield module
    del sys.modules["train_evaluator"]


def _checkpoint(example, tmp_path, board="compact", hidden=4):
    game = Game(board, players=2)
    net = example.Network(game.observation(0).size, victorus.tensors.num_actions(game.board),
                          hidden=hidden, seed=1)
    net.board = board
    path = tmp_path / f"{board}-{hidden}.npz"
    net.save(str(path))
    return path


def _refused(example, capsys, argv, message):
    with pytest.raises(SystemExit) as exited:
        example.parse(argv)
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert exited.value.code == 2 and message in err, err
    return err


def test_a_truncated_checkpoint_is_one_line_naming_the_file(example, tmp_path, capsys):
    path = _checkpoint(example, tmp_path)
    data = path.read_bytes()
    for size in (0, 30, len(data) // 2, len(data) - 10):
        cut = tmp_path / f"cut{size}.npz"
        cut.write_bytes(data[:size])
        err = _refused(example, capsys, ["--load", str(cut)], f"--load {cut}: not a readable checkpoint")
        assert "Traceback" not in err
        with pytest.raises(ConfigError, match="not a readable checkpoint"):
            example.Network.load(str(cut))


def test_a_checkpoint_for_another_board_or_hidden_size_is_refused(example, tmp_path, capsys):
    standard = _checkpoint(example, tmp_path, "standard")
    _refused(example, capsys, ["--load", str(standard), "--board", "compact"],
             "made for the standard board (")
    compact = _checkpoint(example, tmp_path, "compact", hidden=4)
    _refused(example, capsys, ["--load", str(compact), "--hidden", "8"],
             "has 4 hidden units, --hidden 8 contradicts it")
    assert example.parse(["--load", str(compact)]).hidden == 4
    assert example.parse(["--load", str(compact), "--quick"]).hidden == 4
    assert example.parse(["--load", str(compact), "--hidden", "4"]).hidden == 4
    assert example.parse([]).hidden == 64 and example.parse(["--quick"]).hidden == 16


@pytest.mark.parametrize("change, message", [
    ({"version": np.array(2)}, "checkpoint version 2; this script reads version 1"),
    ({"format": np.array("something else")}, "not a network checkpoint of examples/train_evaluator.py"),
    ({"observation_version": np.array(0)}, "trained on observation version 0"),
    ({"b1": np.zeros(5, np.float32)}, "b1 is float32 (5,), expected float (4,)"),
    ({"bv": np.zeros(1, np.int64)}, "bv is int64 (1,), expected float (1,)"),
    ({"m_w2": np.zeros((2, 2), np.float32), "v_w2": np.zeros((2, 2), np.float32)},
     "m_w2 has shape (2, 2), expected (4, 4)"),
    ({"steps": np.array(-1)}, "steps must be an integer >= 0"),
    ({"w1": np.zeros(3, np.float32)}, "w1 and wp must be matrices"),
], ids=range(8))
def test_a_checkpoint_is_checked_field_by_field(example, tmp_path, change, message):
    path = _checkpoint(example, tmp_path)
    with np.load(path) as data:
        arrays = {k: data[k] for k in data.files}
    arrays.update(change)
    np.savez(path, **arrays)
    with pytest.raises(ConfigError) as caught:
        example.Network.load(str(path))
    assert str(caught.value).startswith(f"{path}: ") and message in str(caught.value)


def test_a_saved_checkpoint_round_trips_with_its_board(example, tmp_path):
    path = _checkpoint(example, tmp_path)
    net = example.Network.load(str(path), board="compact", hidden=4,
                               inputs=Game("compact", players=2).observation(0).size,
                               actions=16132)
    assert net.board == "compact" and net.hidden == 4


# ------------------------------------------------------------------ leftovers


@pytest.mark.parametrize("convert", ["id_columns", "to_observer_ids", "to_absolute_ids"])
@pytest.mark.parametrize("ids", [np.array([1040.7]), np.array(["1040"]), np.array([True]),
                                 np.array([1040], dtype="m8[s]"), [None], [1040, 0.5],
                                 [[1040], 1]], ids=repr)
def test_id_conversions_take_only_integer_ids(convert, ids):
    board = Game("compact", players=2).board
    with pytest.raises(ConfigError, match="action ids must be integers"):
        getattr(victorus.tensors, convert)(board, ids, 1)
    exact = getattr(victorus.tensors, convert)(board, [1040, 5], 1)
    assert np.array_equal(getattr(victorus.tensors, convert)(board, np.array([1040, 5], np.uint16), 1),
                          exact)


def test_vector_games_without_a_seed_draw_one_and_keep_it():
    games = VectorGames(2, "compact", 2, seed=None)
    first = games.sample().copy()
    games.reset()
    assert np.array_equal(games.sample(), first)


@pytest.mark.parametrize("ids", [np.array([1040, 1040], dtype="m8[s]"),
                                 np.array([1040, 1040], dtype="M8[s]"),
                                 np.array([True, False]), np.array([1040.0, 1040.0]),
                                 np.array(["1040", "1040"]), [None, 1040], [[1040], 1040],
                                 [1040.5, 1040]], ids=repr)
def test_vector_games_take_only_integer_id_arrays(ids):
    games = VectorGames(2, "compact", 2)
    before = games.game(0)
    with pytest.raises(ConfigError, match="actions must be 2 integer action ids"):
        games.step(ids)
    assert games.game(0) == before


def test_the_vector_env_needs_observations():
    from victorus.vector_env import VictorusVectorEnv
    with pytest.raises(ConfigError, match="observations must be 'float32' or 'uint8', got None"):
        VictorusVectorEnv(2, "compact", 2, observations=None)


@pytest.mark.parametrize("spec", ["random", "greedy", "mcts:10", "mcts-py:10", "puct:10",
                                  "alphabeta:10", "best:10"])
def test_every_agent_refuses_a_finished_game_alike(spec):
    game = Game("compact", players=2)
    victorus.play_random(game, 1)
    assert game.is_over
    with pytest.raises(ConfigError, match="game is over"):
        make_agent(spec, seed=1).choose(game)


def test_a_record_may_begin_with_a_byte_order_mark(tmp_path):
    game = Game("compact", players=2)
    victorus.play_random(game, 3, 40)
    text = victorus.record.dumps(game)
    assert victorus.record.loads("\ufeff" + text) == game
    path = tmp_path / "game.vrec"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())
    assert victorus.record.load(path) == game
    with pytest.raises(victorus.RecordError, match="record line 1"):
        victorus.record.loads("\ufeff\ufeff" + text)
