"""The public API of API.md: construction, play/undo/copy, results, errors, CLI."""

import subprocess
import sys
from functools import partial

import pytest

import victorus
from helpers import fingerprint
from victorus.cli import main
from victorus.constants import KING, QUEEN


def test_api_names_exist():
    for name in ("Game", "Board", "perft", "Action", "VictorusError", "NotationError",
                 "IllegalActionError", "StateError"):
        assert hasattr(victorus, name)
    assert issubclass(victorus.IllegalActionError, ValueError)
    for err in (victorus.NotationError, victorus.IllegalActionError, victorus.StateError):
        assert issubclass(err, victorus.VictorusError)


def test_extension_is_compiled():
    import victorus._core as core
    assert core.__file__.endswith((".so", ".pyd"))


def test_game_defaults():
    g = victorus.Game()
    assert g.board is victorus.Board("standard") and len(g.board) == 181
    assert g.to_move == 0 and not g.is_over and g.winners is None and g.result_reason is None
    assert all(isinstance(a, victorus.Action) for a in g.legal_actions())
    g = victorus.Game(board="compact", players=4, variant="quick40")
    assert len(g.board) == 127 and g.vpn().endswith("players4+quick40")


@pytest.mark.parametrize("kwargs, message", [
    ({"board": "hex"}, "unknown board 'hex'"),
    ({"players": 7}, "players must be an integer from 2 to 6"),
    ({"players": "4"}, "players must be an integer from 2 to 6"),
    ({"players": 4, "variant": "allied"}, "allied variant needs 6 players"),
    ({"players": 7, "variant": "allied"}, "players must be an integer from 2 to 6"),
    ({"players": "6", "variant": "allied"}, "players must be an integer from 2 to 6"),
    ({"variant": "quick0"}, "quick round limit"),
    ({"variant": "turbo"}, "bad variant part 'turbo'"),
    ({"variant": "players3", "players": 4}, "says 3 players"),
    ({"variant": ""}, "non-empty"),
])
def test_game_constructor_errors(kwargs, message):
    with pytest.raises(victorus.ConfigError, match=message):
        victorus.Game(**kwargs)


def test_play_accepts_action_objects_and_strings():
    g = victorus.Game()
    a = g.legal_actions()[0]
    g.play(a)
    g.undo()
    g.play(str(a))
    assert g.to_move == 1


def test_undo_restores_exact_state_and_errors_when_empty():
    g = victorus.Game()
    with pytest.raises(victorus.StateError, match="nothing to undo"):
        g.undo()
    states = [fingerprint(g)]
    for _ in range(30):
        g.play(g.legal_actions()[-1])
        states.append(fingerprint(g))
    for state in reversed(states[:-1]):
        g.undo()
        assert fingerprint(g) == state


def test_copy_is_independent():
    g = victorus.Game()
    victorus.play_random(g, seed=3, max_actions=25)
    twin = g.copy()
    before = fingerprint(g)
    victorus.play_random(twin, seed=4, max_actions=25)
    assert fingerprint(g) == before
    for _ in range(40):
        twin.undo()
    assert fingerprint(g) == before
    g.undo()
    assert fingerprint(twin) != before


def test_copies_share_the_undo_history_and_stay_independent():
    """Copies share the (immutable) history: each undoes on its own, all the way back,
    also after the others are gone."""
    g = victorus.Game()
    states = [fingerprint(g)]
    for _ in range(40):
        g.play(g.legal_actions()[len(states) % len(g.legal_actions())])
        states.append(fingerprint(g))
    copies = [g.copy() for _ in range(3)]
    copies[0].play(copies[0].legal_actions()[0])             # a branch of its own
    copies[0].undo()
    del g
    for twin in copies:
        assert twin.ply == 40
        for state in reversed(states[:-1]):
            twin.undo()
            assert fingerprint(twin) == state
        assert twin.ply == 0 and twin.vpn() == victorus.Game().vpn()


def test_a_game_starts_from_a_cached_position_it_cannot_change():
    g = victorus.Game("compact", players=3)
    victorus.play_random(g, seed=2, max_actions=30)
    again = victorus.Game("compact", players=3)
    assert again.ply == 0 and again.vpn() == victorus.Game("compact", 3).vpn()
    assert again.vpn() != g.vpn() and g.origin == ""


def test_repr_mentions_state():
    assert repr(victorus.Game()) == "<Game standard 6p, ply 0, red to move>"


# -- command line ------------------------------------------------------------------

def test_cli_perft(capsys):
    assert main(["perft", "--board", "compact", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[:3] for line in lines] == [["perft", "1:", "15"], ["perft", "2:", "165"]]
    assert "nodes/s" in lines[0]


def test_cli_perft_vpn_and_variants(capsys):
    vpn = victorus.Game("compact", players=4).vpn()
    assert main(["perft", "--vpn", vpn, "2"]) == 0
    assert capsys.readouterr().out.splitlines()[1].split()[2] == "250"
    assert main(["perft", "--variant", "allied", "--board", "compact", "2"]) == 0
    assert capsys.readouterr().out.splitlines()[1].split()[2] == "173"


def test_perft_on_threads_counts_the_same(capsys):
    """The root's actions split over threads; R40 counts unchanged."""
    for game in (victorus.Game("compact", players=3),
                 victorus.Game.from_vpn(victorus.Game().vpn())):
        victorus.play_random(game, seed=5, max_actions=30)
        done: list[int] = []
        one = victorus.perft(game, 4)
        assert victorus.perft(game, 4, threads=3, progress=partial(done.append, 1)) == one
        assert len(done) == len(game.legal_actions())
    assert main(["perft", "--board", "compact", "--players", "2", "--threads", "2", "4"]) == 0
    counts = [line.split()[2] for line in capsys.readouterr().out.splitlines()]
    assert counts == [str(victorus.perft(victorus.Game("compact", players=2), d))
                      for d in range(1, 5)]
    for threads in (0, 257, 1.5, True):
        with pytest.raises(victorus.ConfigError, match="perft threads must be"):
            victorus.perft(victorus.Game(), 4, threads=threads)


def test_cli_perft_with_a_table(capsys):
    assert main(["perft", "--board", "compact", "--players", "2", "--threads", "2",
                 "--hash", "1", "5"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[2] for line in lines] == [
        str(victorus.perft(victorus.Game("compact", players=2), d)) for d in range(1, 6)]
    hits = [int(line.rsplit("s, ", 1)[1].split()[0]) for line in lines]
    assert hits[-1] > 0                     # leg-1-then-stop and two legs meet at depth 5


@pytest.mark.parametrize("argv, message", [
    (["perft", "--threads", "0", "2"], "--threads must be"),
    (["perft", "--hash", "-1", "2"], "--hash must be"),
    (["perft", "0"], "DEPTH must be an integer from 1 to 10"),
    (["perft", "x"], "DEPTH must be an integer from 1 to 10"),
    (["perft", "--board", "hex", "1"], "invalid choice"),
    (["perft", "--players", "9", "1"], "--players must be"),
    (["frobnicate"], "invalid choice"),
    ([], "required"),
])
def test_cli_usage_errors(argv, message, capsys):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("argv, message", [
    (["perft", "--variant", "blitz", "1"], "bad variant part 'blitz'"),
    (["perft", "--vpn", "nonsense", "1"], "6 space-separated fields"),
    (["perft", "--vpn", victorus.Game().vpn(), "--board", "compact", "1"], "do not combine"),
])
def test_cli_domain_errors(argv, message, capsys):
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_console_script_runs():
    out = subprocess.run([sys.executable, "-m", "victorus.cli", "perft", "1"],
                         capture_output=True, text=True, check=True).stdout
    assert out.startswith("perft 1: 31 ")


@pytest.mark.parametrize("call, error, message", [
    (lambda g: g.held(6), victorus.ConfigError, "seat must be an integer from 0 to 5"),
    (lambda g: g.held("red"), victorus.ConfigError, "seat must be an integer"),
    (lambda g: g.piece_at("zz9"), victorus.NotationError, "unknown cell 'zz9'"),
    (lambda g: g.piece_at(5), victorus.NotationError, "unknown cell 5"),
    (lambda g: victorus.perft(g, 33), victorus.ConfigError, "from 0 to 32"),
    (lambda g: victorus.perft("game", 1), victorus.ConfigError, "needs a victorus.Game"),
    (lambda g: victorus.play_random(g, seed=1.5), victorus.ConfigError, "seed must be"),
    (lambda g: victorus.play_random(g, max_actions=-1), victorus.ConfigError, "max_actions"),
    (lambda g: victorus.play_random("game"), victorus.ConfigError, "needs a victorus.Game"),
])
def test_bad_arguments_name_what_is_accepted(call, error, message):
    game = victorus.Game()
    before = game.vpn()
    with pytest.raises(error, match=message):
        call(game)
    assert game.vpn() == before


def test_actions_from_another_board_are_read_by_their_text():
    from victorus.notation import leg_action
    compact, standard = victorus.Board("compact"), victorus.Game()
    # 'h3-h7' is legal on the standard board; as a compact-board Action its cell indices differ.
    foreign = leg_action(compact, compact.cell("h3"), compact.cell("h7"), False)
    native = next(a for a in standard.legal_actions() if str(a) == "h3-h7")
    assert str(foreign) == str(native) and foreign.key != native.key
    standard.play(foreign)
    assert standard.piece_at("h7") == "0Tw" and standard.to_move == 1
    illegal = leg_action(compact, compact.cell("g4"), compact.cell("g8"), False)
    with pytest.raises(victorus.IllegalActionError, match="g4-g8"):
        standard.play(illegal)


def test_handed_out_actions_are_found_by_slot_and_forged_ones_by_text():
    """play() takes the compiled path only for the very Action objects legal_actions()
    handed out (their board's table, by constants.action_slot); anything else is read by
    its text, so a forged key can neither play another action nor crash."""
    import dataclasses

    from victorus.constants import action_slot
    game = victorus.Game()
    victorus.play_random(game, seed=4, max_actions=25)
    for action in game.legal_actions():
        assert game._actions[action_slot(action.key)] is action
    first, second = game.legal_actions()[:2]
    for key in (second.key, -1, 2**40, 10**30):
        forged = dataclasses.replace(first, key=key)
        probe = game.copy()
        probe.play(forged)
        played = game.copy()
        played.play(str(first))
        assert probe == played, key
    victorus.play_random(game, seed=4)
    assert game.is_over
    with pytest.raises(victorus.IllegalActionError, match="the game is over"):
        game.play(first)                          # handed out, no longer legal


def test_many_quick_variants_keep_a_bounded_cache():
    """Every distinct quick<N> used to stay cached for ever (~20 KB each)."""
    from victorus import game as game_module
    for n in range(1, 3 * game_module.CACHED_CONFIGURATIONS):
        victorus.Game("compact", players=2, variant=f"quick{n}")
    for cached in (game_module._rules, game_module._start_position):
        assert cached.cache_info().currsize <= game_module.CACHED_CONFIGURATIONS


@pytest.mark.parametrize("cap", [0, 1, 7])
def test_play_random_stops_at_the_cap_r36(cap):
    """R36: ``max_actions=n`` plays exactly n actions of a game that lasts longer (0:
    none) and leaves it unfinished; None plays to the end."""
    game = victorus.Game("compact")
    start = game.vpn()
    assert victorus.play_random(game, seed=1, max_actions=cap) == cap
    assert game.ply == cap and not game.is_over
    if cap == 0:
        assert game.vpn() == start
    victorus.play_random(game, seed=1, max_actions=None)
    assert game.is_over


def test_the_engine_loads_what_it_exports_and_refuses_a_second_king_r29_r35():
    """A King's and a Queen's laps live per army in the compact state (R29): loading a
    game's pieces, with laps of its own for every royal, gives them back, and two Kings of
    one army are refused before the state is touched (an army has one of each, R35)."""
    game = victorus.Game(board="compact", players=2)
    victorus.play_random(game, seed=3, max_actions=200)
    cells, armies, held, turn, _ = game._engine.export()
    royals = [i for i, p in enumerate(cells) if p is not None and p[1] in (KING, QUEEN)]
    assert len(royals) >= 3
    for lap, i in enumerate(royals):
        cells[i] = cells[i][:5] + (lap * 7 - 9,)
    other = victorus.Game(board="compact", players=2)
    other._engine.load(cells, armies, held, turn)
    assert other._engine.export()[0] == cells
    assert [other._engine.piece(i)[5] for i in royals] == [lap * 7 - 9 for lap in range(len(royals))]
    king = next(i for i in royals if cells[i][1] == KING)
    empty = next(i for i, p in enumerate(cells) if p is None and i != game.board.centre)
    twice = list(cells)
    twice[empty] = cells[king]
    before = other._engine.export()
    with pytest.raises(ValueError, match="one King and one Queen"):
        other._engine.load(twice, armies, held, turn)
    assert other._engine.export() == before
