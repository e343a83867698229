"""Forfeit on time (rulebook, Time Management; docs/rules.md interpretation 11):
a turn not started in time ends as a `pass` (R26), in the game and in records."""

import pytest
from helpers import actions, position

import victorus
from victorus import record


def test_forfeit_ends_the_turn_as_a_pass_and_undo_restores_it():
    g = victorus.Game(board="compact", players=2)
    before = g.vpn()
    assert "pass" not in actions(g)             # R26: pass itself is not legal here
    g.forfeit()
    assert g.to_move == 1 and g.phase == "start"
    assert [str(a) for a in g.history()] == ["pass"]
    assert g.vpn().split()[4] == "1/1"          # counted as a pass turn (R26)
    g.undo()
    assert g.vpn() == before


def test_forfeit_only_before_the_turn_starts_and_changes_nothing_otherwise():
    g = victorus.Game()
    for action in g.legal_actions():            # a first leg that leaves the turn open
        g.play(action)
        if g.phase != "start":
            break
        g.undo()
    assert g.phase != "start"
    state = (g.phase, g.to_move, len(g.history()))
    with pytest.raises(victorus.StateError, match="only a turn not yet started"):
        g.forfeit()
    assert (g.phase, g.to_move, len(g.history())) == state


def test_forfeits_of_every_live_army_make_the_r26_draw():
    g = victorus.Game(players=4)
    for _ in range(3):
        g.forfeit()
    assert not g.is_over
    g.forfeit()                                 # four live armies, four passes in a row
    assert g.is_over and g.winners == () and g.result_reason == "draw"
    with pytest.raises(victorus.StateError, match="game is over"):
        g.forfeit()


def test_record_of_a_forfeit_needs_the_time_limit_and_round_trips():
    g = victorus.Game(board="compact", players=2)
    g.forfeit()
    g.play(g.legal_actions()[0])
    with pytest.raises(victorus.ConfigError, match="forfeited on time"):
        record.dumps(g)
    text = record.dumps(g, time_limit=90)
    assert "time-limit: 90\n" in text and "\n1.0 pass\n" in text
    again = record.loads(text)
    assert [str(a) for a in again.history()] == [str(a) for a in g.history()]
    assert record.dumps(again, time_limit=90) == text
    lines = record.turn_lines(again)
    assert [t.forfeit for t in lines] == [True, False]
    assert [game.to_move for _, game in record.replay(text)] == [1, 1]


def test_record_without_a_clock_rejects_a_forfeit():
    g = victorus.Game(board="compact", players=2)
    g.forfeit()
    text = record.dumps(g, time_limit=1.5)
    assert "time-limit: 1.5\n" in text
    assert "time-limit: 0.001\n" in record.dumps(g, time_limit=0.001)     # the shortest
    with pytest.raises(victorus.RecordError, match="'pass' is not legal"):
        record.loads(text.replace("time-limit: 1.5\n", ""))


def test_a_legal_r26_pass_is_not_a_forfeit():
    g = victorus.Game.from_vpn(position({}))
    g.play("pass")
    assert [t.forfeit for t in record.turn_lines(g)] == [False]
    assert "time-limit" not in record.dumps(g)


@pytest.mark.parametrize("value", ["0", "-1", "1e3", "abc", "1.2345", "01"])
def test_bad_time_limit_header_is_a_clear_error(value):
    text = f"victorus-record 1\nboard: compact\nplayers: 2\ntime-limit: {value}\n\n"
    with pytest.raises(victorus.RecordError, match="time-limit must be a number of seconds"):
        record.parse(text)


@pytest.mark.parametrize("value", [0, 0.0009, -3, float("nan"), float("inf"), True, "60"])
def test_bad_time_limit_argument_is_a_clear_error(value):
    with pytest.raises(victorus.ConfigError, match="time limit must be a number of seconds"):
        record.dumps(victorus.Game(), time_limit=value)
