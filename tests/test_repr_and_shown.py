"""Two small frictions of the core API: a game's repr reads like python-chess's, and an
error built from numpy integers shows them as plain ints."""

import re

import pytest

import victorus
from victorus.checks import check_action_id, check_int, check_seat, shown
from victorus.errors import ConfigError, IllegalActionError

np = pytest.importorskip("numpy")

REPR = re.compile(r"<Game (standard|compact) [2-6]p( [a-z0-9+]+)?, ply \d+, [^<>\n]+>")


def test_a_fresh_games_repr_is_short_and_says_who_moves():
    assert repr(victorus.Game("compact", players=2)) == "<Game compact 2p, ply 0, red to move>"
    assert repr(victorus.Game()) == "<Game standard 6p, ply 0, red to move>"
    assert repr(victorus.Game(variant="allied+quick5")) == \
        "<Game standard 6p allied+quick5, ply 0, orange to move>"    # R34: orange first


def test_the_repr_counts_plies_and_names_the_phase_inside_a_turn():
    game = victorus.Game("compact", players=2)
    game.play(game.legal_actions()[0])
    assert repr(game) == "<Game compact 2p, ply 1, blue to move>"
    while game.phase == "start":             # a position inside a move or a bonus
        for action in game.legal_actions():
            game.play(action)
            if game.phase != "start":
                break
            game.undo()
        else:
            game.play(game.legal_actions()[0])
    seat = victorus.geometry.SEAT_NAMES[game.to_move]
    assert repr(game) == f"<Game compact 2p, ply {game.ply}, {seat} to move ({game.phase} phase)>"


@pytest.mark.parametrize("seed", range(4))
def test_a_finished_games_repr_says_who_won(seed):
    game = victorus.Game("compact", players=2, variant="quick3")
    victorus.play_random(game, seed=seed)
    assert game.is_over
    text = repr(game)
    assert REPR.fullmatch(text) and "\n" not in text and len(text) <= 100, text
    assert f"ply {game.ply}, over: " in text
    if game.winners:
        names = [victorus.geometry.SEAT_NAMES[s] for s in game.winners]
        assert text.endswith(f" won ({game.result_reason})>") and all(n in text for n in names)
    else:
        assert "draw" in text


def test_a_draw_reads_draw():
    game = victorus.Game("compact", players=2, variant="quick1")
    victorus.play_random(game, seed=0)            # one round, no capture: a tie on points
    assert game.winners == () and game.result_reason == "round-limit"
    assert repr(game) == f"<Game compact 2p quick1, ply {game.ply}, over: draw (round-limit)>"


@pytest.mark.parametrize("ident", [5, np.int32(5), np.int64(5), np.uint16(5)])
def test_an_illegal_ids_error_lists_plain_ints(ident):
    game = victorus.Game("compact", players=2)
    legal = [int(i) for i in game.legal_action_ids()]
    from victorus.tensors import action_from_id
    for call in (game.play_id, game.action_from_id, lambda i: action_from_id(game, i)):
        with pytest.raises(IllegalActionError) as error:
            call(ident)
        message = str(error.value)
        assert "np." not in message and "int32" not in message, message
        assert "action id 5 " in message and f"legal ids: {legal[:20]}" in message
    assert game.ply == 0


@pytest.mark.parametrize("ident", [np.int64(99999), np.int32(99999), np.uint32(99999)])
def test_an_out_of_range_numpy_id_is_shown_as_a_plain_int(ident):
    game = victorus.Game("compact", players=2)
    for call in (game.play_id, game.action_from_id,
                 lambda i: check_action_id(i, game.num_distinct_actions)):
        with pytest.raises(ConfigError, match=r"got 99999$"):
            call(ident)


def test_checked_numbers_show_numpy_integers_plainly():
    assert shown(np.int64(7)) == "7" and shown(np.uint8(255)) == "255"
    with pytest.raises(ConfigError, match=r"got 9$"):
        check_seat(np.int16(9))
    with pytest.raises(ConfigError, match=r"got -3$"):
        check_int("depth", np.int32(-3), 0)
    with pytest.raises(ConfigError, match=r"got 9$"):
        victorus.Game().held(np.int64(9))
    # what is no integer keeps its repr: the type is the news there
    assert shown(np.float64(1.5)) == repr(np.float64(1.5))
    assert shown(np.array(3)) == repr(np.array(3))
    assert shown(True) == "True" and shown(np.True_) == repr(np.True_)
