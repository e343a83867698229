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


# -- an unattended timed game (docs/serve.md, The clock's rules) -------------------------
def _forfeit_round(table, now, turns):
    """``turns`` turns let pass on the fake clock, each forfeited by the table's worker."""
    for _ in range(turns):
        now.advance(2)
        assert table.tick()


def test_an_unattended_timed_game_pauses_after_a_whole_round_and_stops_growing():
    """Every seat a person, nobody plays: each turn is forfeited on time until a whole
    round is (one turn per live army); then the clock pauses, and however long the game
    is left, it holds no more actions, versions, states or memory. The army to act's
    first action starts the clock again; another whole round pauses it again."""
    import gc
    import tracemalloc

    from victorus.clock import ManualTime
    from victorus.page.table import PERSON, WATCHED_KEPT, Table
    now = ManualTime()
    table = Table("compact", 2, seats=[PERSON] * 6, time_limit=1, agent_delay=0, now=now)
    table.state()
    _forfeit_round(table, now, 5)
    assert table.state()["clock"] == 1.0                      # orange's turn is timed
    _forfeit_round(table, now, 1)                             # the sixth: a whole round
    state = table.state()
    assert table.game.ply == 6 and state["clock"] is None
    assert "the clock is paused until red plays" in state["message"]
    assert [c["state"] for c in state["army_clocks"]] == ["paused"] + ["waiting"] * 5
    version, watched = table.version, table.notice(None)
    table.state(frame="")                                     # (its states made once)
    tracemalloc.start()
    try:
        gc.collect()
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(500):                                   # left alone for a long time
            now.advance(2)
            assert table.tick() is False
            table.state(frame="")
            table.notice((table.instance, version))
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert table.game.ply == 6 and table.version == version and grown < 64 * 1024
    assert table.notice(None) == watched and len(table._watched) <= WATCHED_KEPT
    table.play("g6-g10")                                      # red acts: the clock runs again
    while table.game.phase != "start":
        table.play(next(a for a in table.game.legal_actions() if not a.is_leg).text)
    assert table.game.to_move == 1 and table.state()["clock"] == 1.0
    _forfeit_round(table, now, 5)                             # blue to orange: not a round
    assert table.state()["clock"] == 1.0
    _forfeit_round(table, now, 1)                             # red's too: paused again
    assert table.state()["clock"] is None and table.tick() is False


def test_agents_too_slow_for_the_clock_act_once_it_pauses():
    """An agent whose delay is longer than the time limit has every turn forfeited; once
    a whole round is, the paused clock lets the army to act's agent play: the game goes
    on (and stays within the page's cap of actions)."""
    from victorus.clock import ManualTime
    from victorus.page.table import Table
    now = ManualTime()
    table = Table("compact", 2, seats=["random"] * 6, time_limit=1, agent_delay=5, now=now)
    table.state()
    _forfeit_round(table, now, 6)
    assert table.clock.paused(table.game) and table.tick() is False   # the agent's delay
    now.advance(5)
    assert table.tick() and table.game.history()[-1].text != "pass"


def test_the_session_s_clock_pauses_after_a_whole_round_forfeited():
    """victorus.session (shared with victorus play): a forfeit by an army whose only
    legal action is pass counts toward the round (nobody acted); an action, a restart
    (undo, load) resumes the clock."""
    from victorus.clock import ManualTime
    from victorus.session import PERSON, Session
    now = ManualTime()
    s = Session(victorus.Game("compact", players=2), [PERSON] * 6, time_limit=5, now=now)
    for _ in range(6):
        assert not s.clock.paused(s.game) and s.clock.remaining(s.game) == 5
        now.advance(6)
        assert s.clock.expired(s.game)
        s.forfeit()
    assert s.clock.paused(s.game) and s.clock.remaining(s.game) is None
    now.advance(100)
    assert not s.clock.expired(s.game)
    s.replace_game(s.game.copy())
    assert not s.clock.paused(s.game) and s.clock.remaining(s.game) == 5
    g = victorus.Game.from_vpn(position({"i20": "1Tb"}, variant="players2"))
    s = Session(g, [PERSON] * 6, time_limit=5, now=now)
    for _ in range(6):                        # red, black, ... have only pass: their
        assert not s.clock.paused(s.game)        # forfeits are those passes (R26)
        s.forfeit()
    assert s.clock.paused(s.game) and not s.game.is_over    # blue's forfeit reset the count
