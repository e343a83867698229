"""PettingZoo and OpenSpiel adapters, pictures, pickling (issues 5 and 6)."""

import pickle
import random

import numpy as np
import pytest

import victorus
from victorus.render import render_png, render_rgb, render_svg

# -- PettingZoo ------------------------------------------------------------------------

def test_pettingzoo_api_test():
    from pettingzoo.test import api_test

    from victorus.env import aec_env
    api_test(aec_env(board="compact", players=3, max_actions=200), num_cycles=200,
             verbose_progress=False)


def test_pettingzoo_entry_points():
    """PettingZoo's env() (order-enforcing wrapper) and raw_env() (the environment)."""
    from pettingzoo.test import api_test
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    from victorus.env import VictorusEnv, env, raw_env
    assert type(raw_env(board="compact", players=2)) is VictorusEnv
    wrapped = env(board="compact", players=2, max_actions=100)
    assert isinstance(wrapped, OrderEnforcingWrapper)
    assert isinstance(wrapped.unwrapped, VictorusEnv)
    with pytest.raises(AssertionError, match="reset"):
        wrapped.step(0)
    api_test(wrapped, num_cycles=100, verbose_progress=False)


def play_env(env, seed):
    rng = random.Random(seed)
    env.reset()
    for _agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        if termination or truncation:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(rng.choice(legal)))
    return env


def test_pettingzoo_rewards_at_the_end_teams_share():
    from victorus.env import aec_env
    env = aec_env(board="compact", players=2)
    totals = {agent: 0 for agent in env.possible_agents}
    env.reset()
    rng = random.Random(4)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        totals[agent] += reward
        if termination or truncation:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    game = env.game
    assert game.is_over
    for agent, total in totals.items():
        seat = int(agent.split("_")[1])
        expected = 0 if not game.winners else (1 if seat in game.winners else -1)
        assert total == expected, (agent, game.winners)
    assert len(game.winners) in (0, 3)            # teams {0,2,4} and {1,3,5} win together


def test_pettingzoo_truncation_and_observation():
    from victorus.env import aec_env
    env = aec_env(board="standard", max_actions=7)
    env.reset()
    first = env.observe(env.agent_selection)
    assert first["observation"].shape == (88, 181) and first["action_mask"].sum() == 31
    assert env.observe("seat_3")["action_mask"].sum() == 0        # not its turn
    play_env(env, 1)
    assert all(env.truncations.values()) and env.game._engine.history_length == 7


def test_pettingzoo_legal_ids_beside_the_mask():
    """The first legal_count entries of legal_ids are the mask's ids in legal_actions()
    order, -1 after them; an agent not to act has none."""
    from victorus.env import aec_env
    env = aec_env(board="compact", players=3, max_actions=60)
    env.reset()
    rng = np.random.default_rng(1)
    for agent in env.agent_iter():
        obs, _, done, truncated, _ = env.last()
        count = int(obs["legal_count"])
        assert env.observation_space(agent).contains(obs)
        assert np.array_equal(obs["legal_ids"][:count], env.game.legal_action_ids()) or done
        assert np.array_equal(np.sort(obs["legal_ids"][:count]),
                              np.flatnonzero(obs["action_mask"]))
        assert (obs["legal_ids"][count:] == -1).all()
        other = env.observe(next(a for a in env.possible_agents if a != agent))
        assert int(other["legal_count"]) == 0 and (other["legal_ids"] == -1).all()
        env.step(None if done or truncated else int(rng.choice(obs["legal_ids"][:count])))


def test_pettingzoo_render_modes_and_errors():
    from victorus.env import aec_env
    env = aec_env(board="compact", render_mode="rgb_array")
    env.reset()
    image = env.render()
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3
    env = aec_env(board="compact", render_mode="ansi")
    env.reset()
    text = env.render()
    assert "@" in text and "0K" in text and "seat 0 (red) to act" in text
    with pytest.raises(victorus.ConfigError, match="render_mode"):
        aec_env(render_mode="console")
    with pytest.raises(victorus.ConfigError, match="max_actions"):
        aec_env(max_actions=0)


def test_pettingzoo_ansi_returns_and_human_prints(capsys):
    """The ecosystem's conventions: ``ansi`` render() returns a string and prints nothing,
    even while stepping; ``human`` prints the board and render() returns None."""
    from victorus.env import aec_env
    env = aec_env(board="compact", players=2, render_mode="ansi", max_actions=30)
    play_env(env, 0)
    assert isinstance(env.render(), str)
    assert capsys.readouterr().out == ""
    env = aec_env(board="compact", players=2, render_mode="human", max_actions=3)
    env.reset()
    assert env.render() is None
    assert "seat 0 (red) to act" in capsys.readouterr().out


def test_pettingzoo_render_test_and_seed_test():
    """PettingZoo's own render_test (it opens ``human`` first) and seed_test."""
    from pettingzoo.test import render_test, seed_test

    from victorus.env import aec_env
    render_test(lambda render_mode=None: aec_env(board="compact", players=2,
                                                 render_mode=render_mode))
    seed_test(lambda: aec_env(board="compact", players=2, max_actions=200), num_cycles=50)


# -- OpenSpiel --------------------------------------------------------------------------

@pytest.mark.parametrize("params", [
    {"board": "compact", "players": 2, "max_actions": 200},
    {"board": "standard", "players": 6, "max_actions": 120},
    {"board": "compact", "players": 3, "variant": "quick8"},
    {"board": "compact", "players": 6, "variant": "allied", "max_actions": 150},
    {"board": "compact", "players": 2, "max_actions": 200, "observation": "small"},
])
def test_openspiel_random_simulation(params):
    import pyspiel

    import victorus.openspiel  # noqa: F401  (registers the game)
    game = pyspiel.load_game("victorus", params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)
    state = game.new_initial_state()
    assert state.legal_actions() == sorted(state.legal_actions())
    assert game.num_distinct_actions() == victorus.Game(params["board"]).num_distinct_actions


def test_openspiel_mcts_bot_plays_a_whole_game():
    import pyspiel
    from open_spiel.python.algorithms import mcts

    import victorus.openspiel  # noqa: F401
    # The quick game's round limit (R37) ends a real game within a few rounds.
    game = pyspiel.load_game("victorus", {"board": "compact", "players": 2, "variant": "quick3"})
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    bot = mcts.MCTSBot(game, uct_c=2, max_simulations=6, evaluator=evaluator,
                       random_state=np.random.RandomState(2))
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bot.step(state))
    assert state.game.is_over and state.game.result_reason == "round-limit"
    assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])
    assert len(state.observation_tensor(0)) == 88 * 127


def test_openspiel_teams_and_returns():
    import pyspiel

    import victorus.openspiel  # noqa: F401
    game = pyspiel.load_game("victorus", {"board": "compact", "players": 3})
    assert game.num_players() == 3
    state = game.new_initial_state()
    assert state.current_player() == 0
    state.apply_action(state.legal_actions()[0])
    assert state.current_player() == 1                  # seat 1 is player 1 (team {1, 4})
    rng = random.Random(2)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    returns = state.returns()
    if state.game.winners:
        winner = state.game.winners[0] % 3
        assert returns[winner] == 1 and sorted(returns) == [-1, -1, 1]


# -- pictures ---------------------------------------------------------------------------

def test_svg_pictures():
    game = victorus.Game()
    svg = render_svg(game, labels=True)
    assert svg.startswith("<svg") and svg.count("<title>") == 72          # 72 shields
    assert svg.count("f1</text>") == 1 and "#d62728" in svg
    assert game._repr_svg_() == render_svg(game)
    assert "<title>" not in victorus.Board("compact")._repr_svg_()
    victorus.play_random(game, seed=3, max_actions=50)
    origin = str(game.legal_actions()[0]).replace("x", "-").split("-")[0]
    marked = render_svg(game, moves_from=origin, seat=2, highlights=["i14"])
    assert "<circle" in marked                                            # legal destinations
    with pytest.raises(victorus.NotationError):
        render_svg(game, moves_from="z99")
    with pytest.raises(victorus.ConfigError, match="seat"):
        render_svg(game, seat=7)
    with pytest.raises(victorus.ConfigError):
        render_svg("board")


def test_svg_layers_make_the_picture_and_the_frame_holds_no_piece():
    # render_layers (victorus serve sends the frame once): frame + position == render_svg.
    from victorus.render import POSITION_SLOT, render_layers
    game = victorus.Game("standard")
    before, _ = render_layers(game, seat=2, labels=True, interactive=True)
    victorus.play_random(game, seed=4, max_actions=30)
    for options in ({}, {"seat": 2, "labels": True, "interactive": True},
                    {"moves_from": game.board.labels[game.legal_actions()[0].origin]
                     if game.legal_actions()[0].is_leg else None, "highlights": ["i14"]}):
        frame, position = render_layers(game, **options)
        assert frame.count(POSITION_SLOT) == 1 and "<title>" not in frame
        assert frame.replace(POSITION_SLOT, f'<g class="position">{position}</g>') == \
            render_svg(game, **options)
    assert render_layers(game, seat=2, labels=True, interactive=True)[0] == before
    position = render_layers(game)[1]                     # every piece, named by its cell
    pieces = {game.board.labels[i]: piece for i, piece in enumerate(game.view().pieces())
              if piece is not None}
    assert position.count('class="piece"') == len(pieces)
    assert all(f'data-cell="{label}" data-army="{piece.army}"' in position
               for label, piece in pieces.items())


def test_history_last():
    game = victorus.Game()
    victorus.play_random(game, seed=2, max_actions=40)
    whole = game.history()
    assert game.history(last=5) == whole[-5:] and game.history(last=0) == []
    assert game.history(last=1000) == whole and game.history(last=None) == whole
    for bad in (-1, 1.5, True, "3"):
        with pytest.raises(victorus.ConfigError, match="last .a number of actions. must be an integer >= 0"):
            game.history(last=bad)


def test_the_king_that_conquers_the_centre_is_drawn_there():
    # R28: the King's leg into the centre ends the game; the engine keeps no piece on the
    # centre cell, but the picture shows the winner there (and the game is unchanged).
    from helpers import position
    game = victorus.Game.from_vpn(position({"i8": "0K", "i20": "1Tb"}, armies={0: "a,3,"},
                                           laps={"i8": 1}))
    assert 'data-cell="i14" data-army' not in render_svg(game, interactive=True)
    game.play("i8-i14")
    assert game.is_over and game.piece_at("i14") is None
    svg = render_svg(game, interactive=True)
    assert 'data-cell="i14" data-army="0"' in svg and svg.count("<title>") == 2
    assert "<title>red King (circle)</title>" in svg
    assert len(game.history()) == 1


def test_png_and_rgb(tmp_path):
    path = tmp_path / "board.png"
    png = render_png(victorus.Game("compact"))
    assert png is not None and png[:8] == b"\x89PNG\r\n\x1a\n"
    assert render_png(victorus.Game("compact"), path) is None     # a REPL echoes no bytes
    assert path.read_bytes() == png
    rgb = render_rgb(victorus.Game("compact"), size=10)
    assert rgb.shape[2] == 3 and rgb.dtype == np.uint8 and rgb.mean() > 50


# -- pickling ---------------------------------------------------------------------------

def test_games_pickle_and_deepcopy():
    import copy
    game = victorus.Game("compact", players=4, variant="quick30")
    victorus.play_random(game, seed=6, max_actions=77)
    again = pickle.loads(pickle.dumps(game))
    assert [str(a) for a in again.history()] == [str(a) for a in game.history()]
    assert again.phase == game.phase and again.to_move == game.to_move
    twin = copy.deepcopy(game)
    twin.undo()
    assert len(twin.history()) == len(game.history()) - 1


def test_openspiel_small_observation_keeps_every_plane():
    """observation="small" (6 values a cell, the whole-position planes once) decodes back
    to the planes exactly, for every player, along a random game (R33 teams)."""
    import numpy as np
    import pyspiel
    from open_spiel.python.observation import make_observation

    from victorus.constants import PLANES
    from victorus.openspiel import SMALL_GLOBALS, SMALL_ROWS
    game = pyspiel.load_game("victorus", {"board": "compact", "players": 2, "observation": "small"})
    planes = make_observation(pyspiel.load_game("victorus", {"board": "compact", "players": 2}))
    small = make_observation(game)
    state, rng = game.new_initial_state(), np.random.default_rng(5)
    for _ in range(300):
        if state.is_terminal():
            break
        for player in range(2):
            planes.set_from(state, player)
            small.set_from(state, player)
            full = planes.dict["observation"]
            for r, row in enumerate(SMALL_ROWS.values()):
                decoded = np.zeros_like(full[0])
                for plane, weight in row.items():
                    decoded += weight * full[PLANES.index(plane)]
                assert np.array_equal(small.dict["cells"][r], decoded)
                if r != list(SMALL_ROWS).index("flags") and len(row) > 1:   # a code: one set
                    assert full[[PLANES.index(p) for p in row]].sum(axis=0).max() <= 1
            assert np.array_equal(small.dict["globals"],
                                  full[[PLANES.index(p) for p in SMALL_GLOBALS], 0])
            assert (full[[PLANES.index(p) for p in SMALL_GLOBALS]]
                    == full[[PLANES.index(p) for p in SMALL_GLOBALS], :1]).all()
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert len(state.observation_tensor(0)) == 6 * 127 + len(SMALL_GLOBALS)
    # The game's own check (through pyspiel.load_game the error crosses OpenSpiel's C++,
    # which the sanitizer build cannot unwind).
    from victorus.openspiel import VictorusSpielGame
    with pytest.raises(ValueError, match="observation must be one of"):
        VictorusSpielGame({"observation": "tiny"})


def test_openspiel_observers_refuse_parameters_at_the_game():
    """make_py_observer, the one door OpenSpiel passes observer parameters through,
    refuses any (neither observation takes one) and makes either observer without."""
    pytest.importorskip("pyspiel")
    from victorus.openspiel import SmallObserver, VictorusObserver, VictorusSpielGame
    for observation, kind in (("planes", VictorusObserver), ("small", SmallObserver)):
        game = VictorusSpielGame({"board": "compact", "players": 2, "observation": observation})
        with pytest.raises(ValueError, match="observation parameters are not supported"):
            game.make_py_observer(None, {"x": 1})
        assert type(game.make_py_observer(None, {})) is kind
        assert type(game.make_py_observer()) is kind
