"""The page's review and analysis over HTTP (victorus.page.analysis): a chance read as the
fair share when the search sees nothing, a browsed position analysed, a finished game's
end told by its result, the review of a whole game (bounded, cancellable, its marks),
and the tabs that watch a game played in another tab."""


import pytest

import victorus
from helpers import call, serving, settled
from victorus import record
from victorus.clock import ManualTime
from victorus.game import replay_action
from victorus.page.analysis import (
    REVIEW_MAX_POSITIONS,
    Analysis,
    Review,
    _search,
    _spread,
    chance,
    describe,
    mark_of,
    position_seed,
)
from victorus.page.calibration import Calibration
from victorus.page.server import PERSON, Table

TAB_A, TAB_B = "0123456789abcdef", "fedcba9876543210"


@pytest.fixture
def server():
    with serving(Table("compact", 2, seats=[PERSON] * 6, agent_delay=0), worker=False) as srv:
        yield srv



def test_a_chance_without_a_fitted_curve_reads_the_value_as_twice_the_share_less_one():
    uncalibrated = Calibration("best", 1, "0123456789ab", {})
    assert chance(2 / 6 - 1, 6, uncalibrated) == pytest.approx(1 / 6, abs=1e-3)   # the fair share
    assert chance(0.0, 2, uncalibrated) == 0.5 and chance(1.0, 6, uncalibrated) == 1.0
    assert chance(-1.0, 6, uncalibrated) == 0.0 and chance(0.5, 2, uncalibrated) == 0.75
    assert chance(7.0, 2, uncalibrated) == 1.0                       # clamped


def test_a_browsed_position_is_analysed_and_a_finished_game_told_by_its_result(server):
    table = server.table
    table.analysis = Analysis(seconds=None, seed=1)
    table.analysis.seconds = 0.05
    for text in ("g6-g10", "d13-f15"):
        call(server, "/api/play", {"action": text})
    assert call(server, "/api/analyse", {"at": 1})[0] == 200
    state = settled(server, "/api/analysis")
    assert state["status"] == "done" and state["at"] == 1
    assert state["to_move"] == 1 and state["team"] == ["blue", "green", "orange"]
    assert state["chances"][1] + state["chances"][0] == pytest.approx(1, abs=1e-3)
    status, data = call(server, "/api/analyse", {"at": 9})
    assert status == 400 and "'at' must be a number of actions from 0 to 2" in data["error"]
    call(server, "/api/resign", {"seat": 1})
    call(server, "/api/analyse", {})
    state = call(server, "/api/analysis")[1]
    assert state["over"] and state["chances"][0] == 1.0 and state["chances"][1] == 0.0


def test_a_finished_game_is_reviewed_position_by_position(server):
    table = server.table
    status, data = call(server, "/api/review", {})
    assert status == 400 and "once the game is over" in data["error"]
    table.review = Review(seconds=None, iterations=50)
    table.set_seats(["greedy"] * 6)
    while table.work():
        pass
    assert table.game.is_over
    assert call(server, "/api/review", {})[0] == 200
    state = settled(server, "/api/review")
    assert state["status"] == "done" and state["total"] == table.game.ply + 1
    points = state["points"]
    assert [p["index"] for p in points] == list(range(table.game.ply + 1))
    assert all(0 <= c <= 1 for p in points for c in p["chances"] if c is not None)
    last = points[-1]
    assert last["best"] is None and sorted(set(last["chances"])) == [0.0, 1.0]
    marked = [p for p in points if p["mark"]]
    assert [m["index"] for m in state["marks"]] == [p["index"] + 1 for p in marked]
    for mark, point in zip(state["marks"], marked):
        assert mark["before"] - mark["after"] == pytest.approx(mark["drop"], abs=1e-3)
        assert mark["drop"] >= state["thresholds"]["?!"] and mark["played"] == point["played"]
    assert sum(sum(c.values()) for c in state["counts"]) == len(marked)
    assert [p["played"] for p in points[:-1]] == [a.text for a in table.game.history()]
    assert call(server, "/api/review?from=5")[1]["points"] == points[5:]
    status, data = call(server, "/api/review", {"cancel": "yes"})
    assert status == 400 and "'cancel' must be true or false" in data["error"]


def test_a_turn_forfeited_on_time_is_reviewed_as_a_point_of_its_own_kind():
    """A timed game (a fake clock) where red forfeits its first turn, then agents play it
    out: the review completes; the forfeit is a point of kind ``forfeit`` (never looked up
    among the legal actions, never marked), listed in ``forfeits``; every other point is
    what the review made before (the same search, loss and mark); the watched record of
    the game is reviewed the same."""
    now = ManualTime()
    table = Table("compact", 2, seats=[PERSON] + ["greedy"] * 5, time_limit=10,
                  agent_delay=0, now=now)
    table.review = Review(seconds=None, iterations=50)
    table.state()                                         # the first look starts the clock
    now.advance(11)
    assert table.tick() and table.game.history()[0].text == "pass"
    table.set_seats(["greedy"] * 6)
    while table.work():
        pass
    assert table.game.is_over
    table.review_game()
    table.review.thread.join(120)
    state = table.review.state()
    assert state["status"] == "done", state.get("error")
    points = state["points"]
    assert [p["index"] for p in points] == list(range(table.game.ply + 1))
    forfeit = points[0]
    assert forfeit["kind"] == "forfeit" and forfeit["played"] == "pass"
    assert forfeit["loss"] is None and forfeit["mark"] is None and forfeit["best"] is not None
    assert state["forfeits"] == [{"index": 1, "seat": 0, "name": "red", "team": 0,
                                  "before": forfeit["chances"][0], "best": forfeit["best"],
                                  "cells": forfeit["cells"]}]
    assert all(m["index"] != 1 for m in state["marks"])
    assert [p["kind"] for p in points[1:]] == ["played"] * (len(points) - 2) + ["end"]
    start = record.starting_game(table.game)
    replay = start.copy()
    history = [a.text for a in table.game.history()]
    replay_action(replay, history[0], clock=True)
    for point in points[1:-1]:              # each searched from its own position's seed
        position = replay.copy()
        if not point["forced"]:
            found = describe(position, _search(position, None,
                                               position_seed(start, history[:point["index"]]), 50))
            assert (point["chances"], point["best"]) == (found["chances"], found["best"])
        after = points[point["index"] + 1]["chances"][point["seat"]]
        loss = 0 if point["forced"] or point["played"] == point["best"] else \
            round(max(0.0, point["chances"][point["seat"]] - after), 3)
        assert point["played"] == history[point["index"]] and point["loss"] == loss
        assert point["mark"] == mark_of(loss, state["thresholds"])
        replay.play(history[point["index"]])
    table.start_watch(table.record_text())               # the record says it was timed
    table.review_game()
    table.review.thread.join(120)
    watched = table.review.state()
    assert watched["status"] == "done" and watched["points"] == points
    assert watched["forfeits"] == state["forfeits"]


def test_a_review_is_cancelled_between_two_positions_and_by_a_new_game():
    game = victorus.Game("standard", players=6)
    victorus.game.play_random(game, seed=2, max_actions=200)
    review = Review(iterations=2000)
    review.start(game, "a")
    assert review.cancel()["status"] in ("cancelled", "done")
    count = len(review.state()["points"])
    review.thread.join(30)                # it stops between two positions, adding none
    assert not review.thread.is_alive()
    assert len(review.state()["points"]) == count and review.state()["status"] == "cancelled"
    table = Table("compact", 2, seats=["greedy"] * 6, agent_delay=0)
    while table.work():
        pass
    table.review = Review(iterations=2000)
    table.review_game()
    table.new_game("compact", 2)
    assert table.review.state()["status"] in ("cancelled", "done")


def test_a_long_game_is_reviewed_at_a_bounded_number_of_positions():
    spread = _spread(5001, REVIEW_MAX_POSITIONS)
    assert len(spread) == REVIEW_MAX_POSITIONS and spread[0] == 0 and spread[-1] == 5000
    assert _spread(10, 1000) == list(range(10))


def test_a_second_tab_watches_until_it_takes_the_seats(server):
    assert call(server, "/api/state?tab=" + TAB_A)[1]["spectator"] is False   # none holds
    assert call(server, "/api/state?claim=1&tab=" + TAB_A)[1]["spectator"] is False
    assert call(server, "/api/state?claim=1&tab=" + TAB_B)[1]["spectator"] is True
    assert call(server, "/api/state")[1]["spectator"] is False          # a script
    status, data = call(server, "/api/play", {"action": "g6-g10"}, tab=TAB_B)
    assert status == 409 and "this tab watches" in data["error"]
    assert server.table.game.ply == 0
    assert call(server, "/api/take", {}, tab=TAB_B)[0] == 200
    assert call(server, "/api/state?tab=" + TAB_A)[1]["spectator"] is True
    assert call(server, "/api/play", {"action": "g6-g10"}, tab=TAB_B)[0] == 200
    status, data = call(server, "/api/state?tab=xyz")
    assert status == 400 and "16 hex digits" in data["error"]
    status, data = call(server, "/api/take", {})
    assert status == 400 and "names the tab" in data["error"]


def test_a_tab_without_sockets_holds_the_seats_no_more(server):
    server.follows(TAB_A, +1)
    assert call(server, "/api/state?claim=1&tab=" + TAB_A)[1]["spectator"] is False
    server.follows(TAB_A, +1)                          # (a reload: the new socket first)
    server.follows(TAB_A, -1)
    assert call(server, "/api/state?tab=" + TAB_B)[1]["spectator"] is True
    server.follows(TAB_A, -1)                          # the tab closed
    assert call(server, "/api/state?tab=" + TAB_B)[1]["spectator"] is False
    assert call(server, "/api/state?claim=1&tab=" + TAB_B)[1]["spectator"] is False
    assert call(server, "/api/state?claim=1&tab=" + TAB_A)[1]["spectator"] is True


def test_the_first_game_s_clock_starts_when_a_page_first_shows_it():
    from victorus.clock import ManualTime
    time_source = ManualTime()
    table = Table("compact", 2, seats=[PERSON] + ["greedy"] * 5, time_limit=30, now=time_source)
    time_source.advance(25)                   # the server waited for its first page
    assert table.state()["clock"] == 30.0
    time_source.advance(10)
    assert table.state()["clock"] == 20.0     # from then on, the clock runs
