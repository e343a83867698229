"""The analysis board's calls over HTTP: a record read as the board holds it (its actions,
each turn's start as a VPN; the game shown's without a record), a bad record refused in
one line, and "learn from your mistakes" (``POST /api/review/try``) under the same rules
as every other call."""

import http.client
import json

import pytest

import victorus
from helpers import call, serving, settled
from victorus import record
from victorus.game import replay_action
from victorus.page import server as page_server
from victorus.page.analysis import Review
from victorus.page.server import PERSON, Table


@pytest.fixture
def server():
    with serving(Table("compact", 2, seats=[PERSON] * 6, agent_delay=0), worker=False) as srv:
        yield srv


def played(srv, actions=("g6-g10", "d13-f15", "d17-f17")):
    for text in actions:
        status, data = call(srv, "/api/play", {"action": text})
        assert status == 200, data


def test_a_record_is_read_as_its_actions_and_each_turn_s_start(server):
    played(server)
    status, shown = call(server, "/api/record/read", {})
    game = server.table.game
    texts = [a.text for a in game.history()]
    assert status == 200 and shown["shown"] and shown["actions"] == texts
    text = server.table.record_text()
    status, read = call(server, "/api/record/read", {"record": text})
    assert status == 200 and not read["shown"] and read["actions"] == texts
    assert read["board"] == "compact" and read["players"] == 2
    assert shown["starts"] == read["starts"]
    replay, starts = record.starting_game(game), []
    for index, action in enumerate(texts + [None]):
        if replay.phase == "start" and not replay.is_over:
            starts.append([index, replay.vpn()])
        if action is not None:
            replay_action(replay, action, False)
    assert read["starts"] == starts and starts[0] == [0, victorus.Game("compact", 2).vpn()]
    assert len(starts) >= 2                                   # a turn ended: a new start


@pytest.mark.parametrize("body, error", [
    ({"record": "not a record"}, "that record cannot be read: record line 1: expected"),
    ({"record": 7}, "'record' must be the text of a game record, got int"),
    ({"record": "", "x": 1}, "unknown fields ['x']; accepted fields: record"),
])
def test_a_bad_record_is_refused_in_one_line(server, body, error):
    status, data = call(server, "/api/record/read", body)
    assert status == 400 and data["error"].startswith(error) and "\n" not in data["error"]


def test_a_record_longer_than_the_board_holds_is_refused(server, monkeypatch):
    monkeypatch.setattr(page_server, "MAX_BOARD_ACTIONS", 2)
    played(server)
    status, data = call(server, "/api/record/read", {"record": server.table.record_text()})
    assert status == 400 and "more than 2 actions; at most 2 are read here" in data["error"]
    status, shown = call(server, "/api/record/read", {})      # the game shown: any length
    assert status == 200 and len(shown["actions"]) == 3 and shown["starts"] == []
    assert shown["board"] == "compact" and shown["players"] == 2


@pytest.mark.parametrize("body, error", [
    ({"index": 0}, "missing ['action']; accepted fields: index, action"),
    ({"index": 0, "action": "g6-g10", "seat": 0}, "unknown fields ['seat']"),
    ({"index": True, "action": "g6-g10"}, "'index' (a marked position of the review)"),
    ({"index": "3", "action": "g6-g10"}, "'index' (a marked position of the review)"),
    ({"index": 0, "action": ["g6-g10"]}, "'action' must be an action in R38 notation"),
    ({"index": 0, "action": "g6-" * 1000}, "'action' must be an action in R38 notation"),
])
def test_a_try_is_checked_as_every_call(server, body, error):
    status, data = call(server, "/api/review/try", body)
    assert status == 400 and data["error"].startswith(error), data


def test_a_try_from_another_site_is_refused(server):
    connection = http.client.HTTPConnection(*server.server_address[:2], timeout=30)
    connection.request("POST", "/api/review/try", json.dumps({"index": 0, "action": "pass"}),
                       {"Origin": "http://evil.example", "Content-Type": "application/json"})
    response = connection.getresponse()
    data = json.loads(response.read())
    connection.close()
    assert response.status == 403 and "only the page served here" in data["error"]


def test_a_try_is_judged_by_the_finished_review(server):
    status, data = call(server, "/api/review/try", {"index": 0, "action": "g6-g10"})
    assert status == 400 and "\n" not in data["error"]          # no review done: refused
    table = server.table
    table.review = Review(seconds=None, iterations=50)
    table.set_seats(["random"] * 6)
    while table.work():
        pass
    assert call(server, "/api/review", {})[0] == 200
    review = settled(server, "/api/review")
    marked = [p for p in review["points"] if p["mark"]]
    assert marked, "a random game gets marks"
    point = marked[0]
    status, answer = call(server, "/api/review/try", {"index": point["index"],
                                                       "action": point["best"]})
    assert status == 200, answer
    assert {"index", "action", "loss", "mark", "better", "best", "chance"} <= set(answer)
    assert answer["index"] == point["index"] and answer["action"] == point["best"]
    assert answer["better"] and answer["mark"] is None
    status, data = call(server, "/api/review/try", {"index": point["index"], "action": "a1-a2"})
    assert status == 400 and "\n" not in data["error"]
    unmarked = next(p for p in review["points"] if not p["mark"] and p["best"])
    status, data = call(server, "/api/review/try", {"index": unmarked["index"],
                                                     "action": unmarked["best"]})
    assert status == 400 and "\n" not in data["error"]
