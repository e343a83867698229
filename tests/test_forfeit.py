"""Forfeit on time (rulebook, Time Management; docs/rules.md interpretation 11):
a turn not started in time ends, written `pass`, in the game and in records; it is not an
R26 pass unless `pass` was the army's only legal action."""

import pytest

import victorus
from helpers import actions, position
from victorus import record


def test_forfeit_ends_the_turn_as_a_pass_and_undo_restores_it():
    g = victorus.Game(board="compact", players=2)
    before = g.vpn()
    assert "pass" not in actions(g)             # R26: pass itself is not legal here
    g.forfeit()
    assert g.to_move == 1 and g.phase == "start"
    assert [str(a) for a in g.history()] == ["pass"]
    assert g.vpn().split()[4] == "1"            # not an R26 pass: it had legal actions
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


def test_forfeits_are_not_r26_passes_and_reset_the_count():
    """R26 draws when every live army in a row had no legal action; forfeiting armies had
    some, so six forfeits from the start (31 legal actions each time) do not draw."""
    g = victorus.Game()
    for _ in range(12):
        assert len(g.legal_actions()) > 1
        g.forfeit()
    assert not g.is_over and g.vpn().split()[4] == "3"
    # Red and blue have only `pass` (R26); the pass count is reset by black's forfeit.
    g = victorus.Game.from_vpn(position({"i6": "3Tw", "i20": "4Tb"}, variant="players4"))
    g.play("pass")
    g.play("pass")
    assert g.vpn().split()[4] == "1/2"
    g.forfeit()                                 # green had a legal action: the count resets
    assert g.vpn().split()[4] == "1"


def test_forfeit_of_an_army_with_only_pass_is_that_pass_r26():
    g = victorus.Game.from_vpn(position({"i20": "1Tb"}, variant="players2"))
    assert actions(g) == {"pass"}
    g.forfeit()                                 # red has nothing: its forfeit is its pass
    assert g.vpn().split()[4] == "1/1"
    assert [t.forfeit for t in record.turn_lines(g)] == [False]
    g = victorus.Game.from_vpn(position({}))      # nobody can act: six forfeits draw
    for _ in range(6):
        assert not g.is_over
        g.forfeit()
    assert g.is_over and g.result_reason == "draw" and g.winners == ()
    with pytest.raises(victorus.StateError, match="game is over"):
        g.forfeit()


def test_a_game_with_a_forfeit_pickles_and_copies():
    import copy
    import pickle
    g = victorus.Game(board="compact", players=2)
    g.forfeit()
    g.play(g.legal_actions()[0])
    for again in (pickle.loads(pickle.dumps(g)), copy.deepcopy(g)):
        assert [str(a) for a in again.history()] == [str(a) for a in g.history()]
        assert again.vpn() == g.vpn() if g.phase == "start" else again.phase == g.phase
        assert [t.forfeit for t in record.turn_lines(again)] == [True, False]


def test_record_of_a_forfeit_round_trips_with_or_without_its_time_limit():
    g = victorus.Game(board="compact", players=2)
    g.forfeit()
    g.play(g.legal_actions()[0])
    # The game does not know its clock; the record says it had one.
    unknown = record.dumps(g)
    assert "time-limit: unknown\n" in unknown and "\n1.0 pass\n" in unknown
    assert record.parse(unknown).clock and record.parse(unknown).time_limit is None
    assert [str(a) for a in record.loads(unknown).history()] == [str(a) for a in g.history()]
    assert record.dumps(record.loads(unknown)) == unknown
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
