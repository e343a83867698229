"""Fixed action space, legal-action mask and observation planes."""

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import victorus
from helpers import SOME_CONFIGS, position
from victorus.geometry import Board
from victorus.tensors import PLANE_INDEX, PLANES, describe_id, rotation


def sample_games():
    rng = random.Random(3)
    for board in ("standard", "compact"):
        game = victorus.Game(board, players=rng.choice([2, 4, 6]))
        for _ in range(6):
            victorus.play_random(game, seed=rng.getrandbits(32), max_actions=rng.randrange(5, 80))
            if game.is_over:
                break
            yield game


def test_action_ids_round_trip():
    for game in sample_games():
        ids = game.legal_action_ids()
        assert len(set(ids)) == len(ids)
        for action, ident in zip(game.legal_actions(), ids):
            assert 0 <= ident < game.num_distinct_actions
            assert game.action_from_id(ident) == action
            assert game.action_id(str(action)) == ident
        mask = game.legal_action_mask()
        assert mask.dtype == bool and mask.shape == (game.num_distinct_actions,)
        assert mask.sum() == len(ids) and all(mask[ids])


def test_action_space_layout():
    std = victorus.Game()
    assert std.num_distinct_actions == 181 * 181 + 3
    assert victorus.Game("compact").num_distinct_actions == 127 * 127 + 3
    b = Board("standard")
    assert (b.cell("h3"), b.cell("h7")) == (11, 35)
    assert std.action_id("h3-h7") == 11 * 181 + 35 == 2026
    assert std.action_id("stop") == 181 * 181 and std.action_id("pass") == 181 * 181 + 2
    assert describe_id(b, std.action_id("h3-h7")) == "h3-h7"


def test_action_id_errors():
    game = victorus.Game()
    with pytest.raises(victorus.ConfigError, match="integer from 0 to 32763"):
        game.action_from_id(10**6)
    with pytest.raises(victorus.ConfigError):
        game.action_from_id("h3-h7")
    with pytest.raises(victorus.IllegalActionError, match="end"):
        game.action_from_id(game.action_id("end"))
    assert game.vpn() == victorus.Game().vpn()


def test_observation_shape_and_symmetry():
    game = victorus.Game()
    obs = [game.observation(s) for s in range(6)]
    assert obs[0].shape == (len(PLANES), 181) and obs[0].dtype == np.float32
    # The 6-player start looks the same from every seat (R6, R35), but for whose turn it is.
    turn = [PLANE_INDEX[f"to_move{a}"] for a in range(6)]
    for s in range(1, 6):
        assert np.array_equal(np.delete(obs[0], turn, axis=0), np.delete(obs[s], turn, axis=0))
        assert obs[s][PLANE_INDEX[f"to_move{(0 - s) % 6}"]].all()
    assert obs[0][PLANE_INDEX["army0_K"]].sum() == 1
    assert obs[0][PLANE_INDEX["to_move0"]].all()
    assert victorus.Game().observation(1)[PLANE_INDEX["to_move5"]].all()


def test_observation_rotates_to_the_observer():
    b = Board("standard")
    game = victorus.Game.from_vpn(position({"i6": "0Tw1", "c10": "1Hw"}))
    red = game.observation(0)
    assert red[PLANE_INDEX["army0_T"], b.cell("i6")] == 1
    assert red[PLANE_INDEX["tally"], b.cell("i6")] == 1
    green = game.observation(3)
    # Green sits opposite red: red's Templar is relative army 3, on the far side.
    column = rotation("standard", 3).index(b.cell("i6"))
    assert b.labels[column] == "i22"
    assert green[PLANE_INDEX["army3_T"], column] == 1
    assert green[:PLANE_INDEX["army5_Q"] + 1].sum() == 2
    with pytest.raises(victorus.ConfigError, match="seat"):
        game.observation(6)


def test_observation_marks_turn_state():
    game = victorus.Game.from_vpn(position({"i6": "0Tw+", "i10": "1Xw", "m10": "1Uw",
                                            "i20": "1Tb"}))
    game.play("i6xi10")
    obs = game.observation(0)
    assert obs[PLANE_INDEX["phase_move"]].all()
    assert obs[PLANE_INDEX["moving"], Board("standard").cell("i10")] == 1
    game.play("i10xm10")
    obs = game.observation(0)
    assert obs[PLANE_INDEX["phase_bonus"]].all()
    assert obs[PLANE_INDEX["self_eligible"], Board("standard").cell("m10")] == 1
    assert obs[PLANE_INDEX["held0"]].all() and np.isclose(obs[PLANE_INDEX["held0"], 0], 2 / 12)


# -- the C tensors against the Python references ----------------------------------------

CONFIGS = SOME_CONFIGS


def assert_tensors_match(game):
    from victorus.tensors import legal_action_ids_reference, observation_reference
    ids = game.legal_action_ids()
    assert ids.dtype == np.int32 and list(ids) == legal_action_ids_reference(game)
    assert np.all(np.diff(ids) > 0)          # increasing (victorus.vector searches them)
    mask = game.legal_action_mask()
    assert np.flatnonzero(mask).tolist() == sorted(ids.tolist())
    for seat in range(6):
        assert np.array_equal(game.observation(seat), observation_reference(game, seat)), seat


@settings(max_examples=60, deadline=None)
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 2**32 - 1),
       length=st.integers(0, 400))
def test_c_tensors_equal_the_python_reference(config, seed, length):
    """Every phase (start, move, bonus), frozen and self-eligible pieces, rescues,
    eliminations and game ends come up in random positions."""
    board, players, variant = config
    game = victorus.Game(board, players=players, variant=variant)
    victorus.play_random(game, seed=seed, max_actions=length)
    assert_tensors_match(game)


def test_c_tensors_equal_the_python_reference_over_whole_games():
    for n, (board, players, variant) in enumerate(CONFIGS):
        game = victorus.Game(board, players=players, variant=variant)
        rng = random.Random(n)
        while not game.is_over and game.ply < 300:
            assert_tensors_match(game)
            game.play_id(int(rng.choice(game.legal_action_ids())))


def test_out_buffers_are_filled_and_checked():
    game = victorus.Game("compact", players=2)
    obs = np.full((len(PLANES), 127), 7.0, dtype=np.float32)
    assert game.observation(1, out=obs) is obs
    assert np.array_equal(obs, game.observation(1))
    mask = np.ones(game.num_distinct_actions, dtype=bool)
    assert game.legal_action_mask(out=mask) is mask and mask.sum() == len(game.legal_actions())
    for bad in (np.zeros((len(PLANES), 127)), np.zeros((len(PLANES), 181), np.float32),
                np.zeros((127, len(PLANES)), np.float32).T, [[0.0]]):
        with pytest.raises(victorus.ConfigError, match="out must be"):
            game.observation(0, out=bad)
    with pytest.raises(victorus.ConfigError, match="out must be"):
        game.legal_action_mask(out=np.zeros(game.num_distinct_actions, np.uint8))


def test_weighted_rows_of_the_planes_in_one_call():
    """Engine.observation_rows_into (OpenSpiel's small observation) writes the planes,
    their weighted sums per cell and the last planes' values, as numpy computes them; bad
    shapes are refused before anything is written."""
    rng = np.random.default_rng(3)
    weights = rng.normal(size=(5, len(PLANES))).astype(np.float32)
    weights[rng.random(weights.shape) < 0.7] = 0
    for board, players, variant in CONFIGS:
        game = victorus.Game(board, players=players, variant=variant)
        victorus.play_random(game, seed=len(board) + players, max_actions=60)
        cells = len(game.board)
        planes = np.full((len(PLANES), cells), 9.0, np.float32)
        rows = np.full((5, cells), 9.0, np.float32)
        tail = np.full(7, 9.0, np.float32)
        for seat in game.config.present:
            game._engine.observation_rows_into(planes, weights, rows, tail, seat)
            assert np.array_equal(planes, game.observation(seat))
            assert np.allclose(rows, weights @ planes, rtol=1e-6, atol=1e-5)
            assert np.array_equal(tail, planes[-7:, 0])
    engine, good = game._engine, np.zeros((5, cells), np.float32)
    for bad in ((np.zeros((len(PLANES), cells + 1), np.float32), weights, good, tail, 0),
                (planes, weights[:, 1:].copy(), good, tail, 0),
                (planes, weights, np.zeros((4, cells), np.float32), tail, 0),
                (planes, weights, np.zeros((5, cells - 1), np.float32), tail, 0),
                (planes, weights, good, np.zeros(len(PLANES) + 1, np.float32), 0),
                (planes, weights, good, tail, 6)):
        before = [a.copy() for a in bad[:4]]
        with pytest.raises(ValueError, match="must be"):
            engine.observation_rows_into(*bad)
        assert all(np.array_equal(a, b) for a, b in zip(bad[:4], before))


def test_play_id_plays_that_action_and_refuses_others():
    game = victorus.Game()
    ident = game.action_id("h3-h7")
    game.play_id(ident)
    assert [str(a) for a in game.history()] == ["h3-h7"]
    before = game.vpn() if game.phase == "start" else (game.phase, game.ply)
    with pytest.raises(victorus.IllegalActionError, match="not legal now"):
        game.play_id(game.action_id("end"))
    for bad in (-1, 10**6, 2.0, True, "h3-h7"):
        with pytest.raises(victorus.ConfigError, match="action id"):
            game.play_id(bad)
    assert (game.vpn() if game.phase == "start" else (game.phase, game.ply)) == before
    game.play_id(np.int64(game.legal_action_ids()[0]))          # numpy integers too
    assert game.ply == 2


def test_the_plane_table_in_the_docs_is_planes():
    """docs/adapters.md's plane table lists constants.PLANES exactly, in order, with each
    family's index range, and the scales it states are PLANE_SCALES'."""
    import re
    from pathlib import Path

    from victorus.constants import KNIGHT_CAPTURES_SEEN, NUM_SEATS, PIECE_LETTERS, PLANE_SCALES, PLANES
    doc = (Path(__file__).resolve().parents[1] / "docs" / "adapters.md").read_text()
    rows = re.findall(r"^\| (\d+)(?:-(\d+))? `([^`]+)` \| (.*) \|$", doc, re.M)
    names = []
    for first, last, pattern, _ in rows:
        expanded = [pattern.replace("{a}", str(a)).replace("{P}", p)
                    for a in range(NUM_SEATS) for p in PIECE_LETTERS] if "{P}" in pattern else \
            [pattern.replace("{a}", str(a)) for a in range(NUM_SEATS)] if "{a}" in pattern else [pattern]
        assert (int(first), int(last or first)) == (len(names), len(names) + len(expanded) - 1), pattern
        names += expanded
    assert names == list(PLANES)
    meaning = {pattern: text for _, _, pattern, text in rows}
    assert f"/ {PLANE_SCALES['knight_captures']} " in meaning["knight_captures{a}"]
    assert f"capped at {KNIGHT_CAPTURES_SEEN // PLANE_SCALES['knight_captures']}" in \
        meaning["knight_captures{a}"]
    assert f"/ {PLANE_SCALES['held']}" in meaning["held{a}"]
    assert f"/ {PLANE_SCALES['round']}" in meaning["round"]


def test_every_adapter_reports_the_observation_version():
    from victorus.constants import OBSERVATION_VERSION
    from victorus.vector import VectorGames
    assert VectorGames(1, board="compact", players=2).observation_version == OBSERVATION_VERSION
    pytest.importorskip("pettingzoo")
    from victorus.env import VictorusEnv
    from victorus.vector_env import VictorusVectorEnv
    assert VictorusEnv.metadata["observation_version"] == OBSERVATION_VERSION
    assert VictorusVectorEnv.metadata["observation_version"] == OBSERVATION_VERSION
    pyspiel = pytest.importorskip("pyspiel")
    import victorus.openspiel  # noqa: F401  (registers the game)
    game = pyspiel.load_game("victorus", {"board": "compact", "players": 2})
    assert game.get_parameters()["observation_version"] == OBSERVATION_VERSION
    # The game's own constructor (pyspiel.load_game passes the same error through C++,
    # which the sanitizer build cannot unwind: tools/sanitize-tests.sh).
    with pytest.raises(ValueError, match="observation_version"):
        victorus.openspiel.VictorusSpielGame({"board": "compact", "players": 2,
                                              "observation_version": OBSERVATION_VERSION + 1})


def test_observations_stay_within_the_bounds_their_spaces_declare():
    """observation_bounds: every value of random games' planes lies within its plane's
    (low, high), the marks are 0 or 1, and the adapters' Box spaces are these bounds."""
    import numpy as np

    from victorus.tensors import PLANE_INDEX, count_plane_bounds, observation_bounds
    from victorus.vector import VectorGames
    for kind in ("float32", "uint8"):
        games = VectorGames(16, "compact", players=3, observations=kind, seed=7)
        low, high = observation_bounds(len(games.board), kind)
        assert low.dtype == high.dtype == np.dtype(kind)
        seen_counts = False
        for _ in range(300):
            games.step(games.sample())
            planes = games.observations
            assert (planes >= low).all() and (planes <= high).all()
            seen_counts |= bool(planes[:, PLANE_INDEX["held0"]].any())
        assert seen_counts                     # the counts were exercised, not only zeros
    marks = [i for name, i in PLANE_INDEX.items() if name not in count_plane_bounds()]
    low, high = observation_bounds(127)
    assert (low[marks] == 0).all() and (high[marks] == 1).all()
    assert np.isinf(high[PLANE_INDEX["round"]]).all() and high[PLANE_INDEX["knight_captures0"]][0] == 10
    assert high[PLANE_INDEX["held5"]][0] == 5 and high[PLANE_INDEX["passes"]][0] == 6


def test_a_game_capped_at_k_actions_stays_within_the_bounds_for_k():
    """count_plane_bounds(k) (R36): after k actions of random games (both boards, 2 to 6
    players, quick games' pending bonuses and self-bonus chains included, R22-R25, R29,
    R37) every seat's planes lie within observation_bounds(max_actions=k), and a cap makes
    every plane finite. The bounds rest on what one action can add, checked action by
    action: at most 1 to the round, 2 to a knight's tally, 2 to the pending bonuses and 1
    to a royal's laps either way, and each of these steps is seen, so none is loose."""
    from victorus import Game
    from victorus.tensors import PLANE_INDEX, count_plane_bounds, observation_bounds
    rng = random.Random(3)
    step = {"round": 1, "tally": 2, "pending": 2, "laps": 1}
    largest = dict.fromkeys(step, 0)

    def grown(planes) -> dict:
        return {"round": round(float(planes[PLANE_INDEX["round"], 0]) * 100),
                "tally": int(planes[PLANE_INDEX["tally"]].max()),
                "pending": int(planes[PLANE_INDEX["pending"], 0]),
                "laps": int(np.abs(planes[PLANE_INDEX["laps"]]).max())}
    for board, players, variant, games in (("compact", 2, "quick", 8), ("standard", 6, "quick", 8),
                                           ("compact", 3, "standard", 4), ("standard", 4, "standard", 2)):
        for _ in range(games):
            game = Game(board, players=players, variant=variant)
            before = grown(game.observation(0))
            while not game.is_over and game.ply < 600:
                game.play(rng.choice(game.legal_actions()))
                low, high = observation_bounds(len(game.board), max_actions=game.ply)
                assert np.isfinite(low).all() and np.isfinite(high).all()
                for seat in game.config.present:
                    planes = game.observation(seat)
                    outside = np.argwhere((planes < low) | (planes > high))
                    assert not len(outside), (board, variant, game.ply, outside[:3])
                after = grown(planes)
                for name, most in step.items():
                    assert after[name] - before[name] <= most, (name, game.ply, game.vpn())
                    largest[name] = max(largest[name], after[name] - before[name])
                before = after
    assert largest == step
    one = count_plane_bounds(1)                         # the bounds use those very steps
    assert {name: one[name][1] - (name == "round") for name in step} == step


def test_the_adapters_spaces_use_the_observation_bounds():
    pytest.importorskip("gymnasium")
    pytest.importorskip("pettingzoo")
    from victorus.env import aec_env
    from victorus.game import DEFAULT_MAX_ACTIONS
    from victorus.gym_env import LearnerEnv
    from victorus.tensors import observation_bounds
    from victorus.vector_env import VictorusVectorEnv
    low, high = observation_bounds(127, max_actions=DEFAULT_MAX_ACTIONS)
    for space in (LearnerEnv("compact", 2).observation_space,
                  aec_env(board="compact", players=2).observation_space("seat_0")["observation"],
                  VictorusVectorEnv(2, "compact", 2).single_observation_space["observation"]):
        assert np.array_equal(space.low, low) and np.array_equal(space.high, high)
    low, high = observation_bounds(127, max_actions=50)         # each adapter's own cap
    for space in (LearnerEnv("compact", 2, max_actions=50).observation_space,
                  aec_env(board="compact", players=2, max_actions=50).observation_space(
                      "seat_0")["observation"],
                  VictorusVectorEnv(2, "compact", 2, max_actions=50).single_observation_space[
                      "observation"]):
        assert np.array_equal(space.low, low) and np.array_equal(space.high, high)
    space = VictorusVectorEnv(2, "compact", 2, observations="uint8").observation_space
    assert (space["observation"].high == 255).all() and space["observation"].shape[0] == 2
