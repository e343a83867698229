"""The page's HTTP API beside the state (docs/serve.md, The page's HTTP API): the
socket's deltas applied to the old watched state give the new one exactly, the position
drawn from its data; premoves; the analysis of any position; the review's marks."""

import time

import pytest

import victorus
from helpers import call, serving, settled
from victorus.clock import ManualTime
from victorus.game import play_random
from victorus.page import page_state
from victorus.page.analysis import Analysis, Review, _search, _teams, chance, mark_thresholds
from victorus.page.server import PERSON, Table


# -- deltas ------------------------------------------------------------------------------
def _whole(table):
    """The watched state a page makes of a whole state (asked with frame=, its log whole)."""
    return page_state.watched(table.state(view="0", frame=""))


@pytest.mark.parametrize("board,players", [("standard", 6), ("compact", 3)])
def test_deltas_applied_to_the_old_state_give_the_new_state_exactly(board, players):
    table = Table(board, players, seats=["random"] * 6, agent_delay=0, seed=3)
    held, told = _whole(table), (table.instance, table.version)
    table.notice(None)
    lagging, lag_told = held, told                 # a page told every third change only
    carried = 0
    for step in range(400):
        if not table.work():
            break
        message = table.notice(told)
        now = _whole(table)
        if "delta" in message:
            assert message["base"] == held["version"]
            held = page_state.apply_delta(held, message["delta"])
            assert held == now
            carried += 1
        else:                                       # (an army out: the whole state)
            assert any(a["state"] == "eliminated" for a in now["armies"])
            held = now
        told = (table.instance, table.version)
        if step % 3 == 2:
            message = table.notice(lag_told)
            lagging = page_state.apply_delta(lagging, message["delta"]) \
                if "delta" in message else now
            assert lagging == now
            lag_told = told
    assert carried > 100


def test_the_position_vpn_and_placement_come_from_the_watched_state():
    table = Table("standard", 6, seats=["random"] * 6, agent_delay=0, seed=5)
    for _ in range(120):
        table.work()
        state = table.state(view="2", frame="")
        held = page_state.watched(state)
        assert page_state.position_layer(held, state["centres"]) == state["position"]
        assert page_state.placement_of(held) == state["placement"]
        assert page_state.vpn_of(held) == state["vpn"]
    shapes = page_state.piece_shapes()["shapes"]
    assert "0K" in shapes and "3Xb+*" in shapes and "5Hw1" in shapes


def test_a_change_a_delta_does_not_carry_is_told_without_one():
    table = Table("compact", 2, seats=[PERSON] * 6, agent_delay=0)
    table.notice(None)
    told = (table.instance, table.version)
    table.play("g6-g10")
    message = table.notice(told)
    assert message["base"] == told[1] and message["delta"]["set"]["message"] == \
        "red plays g6-g10"
    told = (table.instance, table.version)
    table.undo()
    assert "delta" not in table.notice(told)          # the log is made anew
    told = (table.instance, table.version)
    table.new_game("compact", 2, seats=[PERSON] * 6)
    assert "delta" not in table.notice(told)
    assert "delta" not in table.notice(("another", table.version - 1))


# -- premoves ------------------------------------------------------------------------------
def _premove_table():
    clock = ManualTime()
    table = Table("compact", 2, seats=["greedy"] + [PERSON] * 5, agent_delay=0,
                  time_limit=30, now=clock)
    table.set_seats(["greedy"] + [PERSON] * 5)
    return table, clock


def test_a_premove_is_played_when_its_turn_comes_and_legal():
    table, _ = _premove_table()
    assert table.game.to_move == 0                     # the agent's turn
    table.set_premove("d13-f15")
    assert table.state()["premove"] == "d13-f15"
    while table.game.to_move == 0:
        assert table.work()
    assert table.game.history()[-1].text == "d13-f15"
    assert table.message == "blue plays d13-f15 (premove)" and table.premove is None


def test_a_premove_not_legal_then_is_dropped_with_a_note_and_the_clock_starts_after():
    table, clock = _premove_table()
    table.set_premove("d13-d17")            # (blue's Templar never goes there)
    clock.advance(20)                                  # the agent thinks 20 s
    while table.game.to_move == 0:
        assert table.work()
    assert table.premove is None and table.message.startswith(
        "blue's premove d13-d17 was not legal then: ")
    assert table.state()["clock"] == 30.0              # blue's whole time, from now
    assert table.game.to_move == 1


def test_a_premove_is_refused_when_it_is_the_person_s_turn_or_malformed():
    with serving(Table("compact", 2, seats=[PERSON] * 6, agent_delay=0), worker=False) as srv:
        status, data = call(srv, "/api/premove", {"action": "g6-g10"})
        assert status == 400 and "play the action (/api/play)" in data["error"]
        srv.table.set_seats(["greedy"] + [PERSON] * 5)
        status, data = call(srv, "/api/premove", {"action": "g6-"})
        assert status == 400 and data["error"].startswith("'action': ")
        assert srv.table.premove is None
        assert call(srv, "/api/premove", {"action": "d13-f15"})[0] == 200
        assert call(srv, "/api/premove", {"action": None})[0] == 200
        assert srv.table.premove is None


# -- the analysis of any position ------------------------------------------------------------
@pytest.fixture
def server():
    table = Table("compact", 2, seats=[PERSON] * 6, agent_delay=0)
    table.analysis = Analysis(seconds=None, seed=1, iterations=40, rounds=2, line=4)
    with serving(table, worker=False) as srv:
        yield srv


def test_a_vpn_and_a_variation_are_analysed_with_a_line_the_game_unchanged(server):
    call(server, "/api/play", {"action": "g6-g10"})
    vpn = victorus.Game("compact", players=2).vpn()
    assert call(server, "/api/analyse", {"vpn": vpn, "moves": ["g6-g10"]})[0] == 200
    state = settled(server, "/api/analysis")
    assert state["status"] == "done" and state["depth"] == 2 and state["to_move"] == 1
    assert state["vpn"] == server.table.game.vpn()         # (the same position)
    assert 1 <= len(state["line"]) <= 4 and state["line"][0]["action"] == state["best"]
    assert state["source"] == {"vpn": vpn, "moves": ["g6-g10"]}
    assert all(c is not None for c in state["chances"])
    assert call(server, "/api/analyse", {"at": 0, "moves": ["g6-g10", "d13-f15"]})[0] == 200
    state = settled(server, "/api/analysis")
    assert state["source"] == {"at": 0, "moves": ["g6-g10", "d13-f15"]}
    assert state["to_move"] == 2
    assert server.table.game.ply == 1                      # the game played is unchanged


def test_bad_analysis_requests_name_what_was_wrong(server):
    status, data = call(server, "/api/analyse", {"vpn": "standard x"})
    assert status == 400 and data["error"].startswith("'vpn' is not a position: ")
    status, data = call(server, "/api/analyse", {"at": 0, "moves": ["g6-g10", "g6-g12"]})
    assert status == 400 and data["error"].startswith("'moves' action 2 ('g6-g12') is not legal")
    status, data = call(server, "/api/analyse", {"at": 0, "vpn": "x"})
    assert status == 400 and "at most one of 'vpn'" in data["error"]
    status, data = call(server, "/api/analyse", {"moves": "g6-g10"})
    assert status == 400 and "'moves' must be a list" in data["error"]
    assert server.table.game.ply == 0 and call(server, "/api/analysis")[1]["status"] == "none"


def test_an_analysis_is_stopped_and_keeps_its_last_round():
    analysis = Analysis(seconds=None, seed=1, iterations=30, rounds=None)
    analysis.start(victorus.Game("compact", players=2), 1)
    deadline = time.monotonic() + 60
    while analysis.state()["depth"] < 1:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    state = analysis.stop()
    analysis.thread.join(60)
    assert state["status"] == "stopped" and analysis.state()["status"] == "stopped"
    assert analysis.state()["best"] and analysis.state()["depth"] >= 1


# -- the review's marks ----------------------------------------------------------------------
def test_the_thresholds_are_lichess_s_for_two_teams_and_scale_by_the_fair_share():
    assert mark_thresholds(2) == {"?!": 0.05, "?": 0.1, "??": 0.15}
    assert mark_thresholds(6) == pytest.approx({"?!": 0.1 / 6, "?": 0.2 / 6, "??": 0.05}, abs=1e-4)


def _reviewed(board, players, seed, iterations):
    game = victorus.Game(board, players=players)
    play_random(game, seed=seed, max_actions=120)
    review = Review(seconds=None, iterations=iterations, seed=seed)
    review.start(game, "k")
    review.thread.join(300)
    state = review.state()
    assert state["status"] == "done"
    return game, state


@pytest.mark.parametrize("board,players,seed", [("compact", 2, 4), ("standard", 6, 2)])
def test_a_forced_action_is_never_marked_and_the_biggest_mark_holds_deeper(board, players,
                                                                          seed):
    game, state = _reviewed(board, players, seed, 200)
    start = victorus.record.starting_game(game)
    history = [a.text for a in game.history()]
    forced = 0
    positions = {}
    trial = start.copy()
    for index, text in enumerate(history):
        positions[index] = trial.copy(history=False)
        if len(trial.legal_actions()) == 1:
            forced += 1
            point = state["points"][index]
            assert point["loss"] == 0 and point["mark"] is None
        trial.play(text)
    assert forced                                   # (the game has forced actions: ends)
    assert state["marks"]
    worst = max(state["marks"], key=lambda m: m["drop"])
    position = positions[worst["index"] - 1]
    deep = _search(position, None, 99, 4000)
    teams = len(_teams(position))
    values = dict(zip((a.text for a in deep.actions), deep.values))
    loss = chance(deep.values[deep.actions.index(deep.action)], teams) - \
        chance(values[worst["played"]], teams)
    assert loss >= state["thresholds"]["?!"]
