"""victorus serve: the JSON API behind the page, over real HTTP."""

import contextlib
import http.client
import json
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import victorus
from helpers import position, serving
from victorus import record
from victorus.clock import ManualTime
from victorus.geometry import SEAT_NAMES
from victorus.page import page_state
from victorus.page import server as server_module
from victorus.page import table as table_module
from victorus.page.server import PERSON, Table
from victorus.simulate import simulate

PEOPLE_FIRST = [PERSON, "greedy", "greedy", "greedy", "greedy", "greedy"]


@pytest.fixture
def server():
    """A server on a free loopback port, without an agents' thread: a test that wants an
    agent to act calls ``server.work()``, so nothing happens behind a test's back."""
    with serving(Table("compact", 2, seats=[PERSON] * 6, agent_delay=0), worker=False) as srv:
        yield srv


def call(srv, path, body=None, raw=None):
    """(status, decoded JSON or text) of a request; POST when ``body`` or ``raw`` is given."""
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    request = urllib.request.Request(srv.url.rstrip("/") + path, data=data,
                                     method="GET" if data is None else "POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            status, text, kind = response.status, response.read().decode(), \
                response.headers["Content-Type"]
    except urllib.error.HTTPError as exc:
        status, text, kind = exc.code, exc.read().decode(), exc.headers["Content-Type"]
    return status, json.loads(text) if kind == "application/json" else text


def state(srv, query=""):
    status, data = call(srv, "/api/state" + query)
    assert status == 200
    return data


def test_page_and_assets_are_served(server):
    status, page = call(server, "/")
    assert status == 200 and "<title>VICTORUS</title>" in page and "/app.js" in page
    for path in ("/app.js", "/board.js", "/style.css"):
        assert call(server, path)[0] == 200
    status, data = call(server, "/nope")
    assert status == 404 and "no page '/nope'" in data["error"]
    status, data = call(server, "/api/nope", {})
    assert status == 404 and "accepted: /api/analyse, /api/new, /api/play" in data["error"]


def test_state_describes_the_game_and_its_legal_legs(server):
    s = state(server)
    game = victorus.Game("compact", players=2)
    assert s["mode"] == "play" and s["board"] == "compact" and s["players"] == 2
    assert s["to_move"] == 0 and s["phase"] == "start" and s["round"] == 1
    assert s["vpn"] == game.vpn() and s["placement"] == game.vpn().split()[1]
    assert sorted(leg[2] for leg in s["legal"]["legs"]) == sorted(
        str(a) for a in game.legal_actions() if a.is_leg)
    assert s["svg"].count('class="cell"') == len(game.board)
    assert [a["state"] for a in s["armies"]] == ["active"] * 6
    assert s["armies"][0]["king_laps"] == 0 and s["armies"][0]["held"] == []
    assert s["log"] == [] and s["clock"] is None and s["person_to_act"]
    again = state(server, f"?since={s['version']}")
    assert again == {"version": s["version"], "unchanged": True, "clock": None}


def test_view_turns_the_board_to_a_seat(server):
    assert state(server, "?view=0")["svg"] != state(server, "?view=3")["svg"]
    assert state(server, "?view=turn")["view"] == 0
    for bad in ("?view=6", "?view=red", "?since=-1"):
        status, data = call(server, "/api/state" + bad)
        assert status == 400 and "must be" in data["error"]


def test_a_legal_action_is_played_and_logged(server):
    before = state(server)
    status, data = call(server, "/api/play", {"action": "g6-g10"})
    assert (status, data["ok"]) == (200, True), data
    after = state(server)
    assert after["log"] == [{"turn": "1.0", "seat": 0, "actions": ["g6-g10"], "forfeit": False,
                            "events": []}]
    assert after["version"] > before["version"] and after["to_move"] == 1
    assert after["can_undo"] and after["message"] == "red plays g6-g10"


@pytest.mark.parametrize("body, raw, message", [
    ({"action": "g6-g12"}, None, "'g6-g12' is not legal for red (seat 0"),
    ({"action": "zz9-a1"}, None, "malformed action"),
    ({"action": 7}, None, "'action' must be a string in R38 notation"),
    ({}, None, "missing ['action']; accepted fields: action"),
    ({"action": "g6-g10", "seat": 0}, None, "unknown fields ['seat']"),
    (None, b"{not json", "request body must be a JSON object"),
    (None, b"[1, 2]", "must be a JSON object, got list"),
    (None, b"\xff\xfe", "request body must be a JSON object"),
])
def test_bad_play_requests_are_refused_and_change_nothing(server, body, raw, message):
    before = state(server)
    status, data = call(server, "/api/play", body, raw)
    assert status == 400 and message in data["error"]
    assert state(server) == before


def test_only_the_person_to_act_plays_from_the_page(server):
    call(server, "/api/seats", {"seats": ["greedy"] + [PERSON] * 5})
    before = state(server)
    assert not before["person_to_act"] and before["legal"] is None
    status, data = call(server, "/api/play", {"action": "g6-g10"})
    assert status == 400 and "played by the greedy agent" in data["error"]
    assert state(server)["log"] == []
    assert server.work() is True                  # the agent plays red's move itself
    assert state(server)["log"][0]["seat"] == 0


def test_undo_goes_back_to_the_persons_last_action():
    table = Table("compact", 2, seats=PEOPLE_FIRST, agent_delay=0)
    with pytest.raises(victorus.VictorusError, match="nothing to undo"):
        table.undo()
    table.play("g6-g10")
    while table.game.to_move != 0:
        assert table.tick()                       # the five agents answer
    table.undo()
    assert table.game.history() == [] and table.game.to_move == 0
    table.set_seats(["random"] * 6)
    with pytest.raises(victorus.VictorusError, match="every seat is an agent"):
        table.undo()


@pytest.mark.parametrize("body, message", [
    ({"players": 7}, "players must be an integer from 2 to 6"),
    ({"variant": "fast"}, "variant"),
    ({"board": "huge"}, "huge"),
    ({"seats": ["person"]}, "'seats' must be a list of six controllers"),
    ({"seats": ["person", "genius", "random", "random", "random", "random"]}, "seat 1:"),
    ({"seats": ["person", "mcts:20001", "random", "random", "random", "random"]},
     "seat 1: 'mcts:20001': on the page mcts takes at most 20,000 iterations and 5s a "
     "decision, on at most @4 threads"),
    ({"seats": ["person", "random", "mcts:6s", "random", "random", "random"]},
     "seat 2: 'mcts:6s': on the page mcts takes at most 20,000 iterations and 5s"),
    ({"seats": ["person", "random", "random", "mcts:100@5", "random", "random"]},
     "seat 3: 'mcts:100@5': on the page"),
    ({"seats": ["person", "alphabeta:2000001", "random", "random", "random", "random"]},
     "seat 1: 'alphabeta:2000001': on the page alphabeta takes at most 2,000,000 nodes"),
    ({"seats": ["person", "best:6s", "random", "random", "random", "random"]},
     "seat 1: 'best:6s': on the page best takes at most 20,000 iterations and 5s"),
    ({"seats": ["person", "mcts-py:2001", "random", "random", "random", "random"]},
     "seat 1: 'mcts-py:2001': on the page mcts-py takes at most 2,000 iterations"),
    ({"time_limit": 0}, "time limit must be a number of seconds from 0.001"),
    ({"agent_delay": -1}, "'agent_delay' must be a number of seconds from 0 to 10"),
    ({"color": "red"}, "unknown fields ['color']"),
])
def test_bad_new_game_requests_are_refused_and_change_nothing(server, body, message):
    call(server, "/api/play", {"action": "g6-g10"})
    before = state(server)
    status, data = call(server, "/api/new", body)
    assert status == 400 and message in data["error"], data
    assert state(server) == before


def test_new_game_with_board_players_variant_and_seats(server):
    seats = ["random", PERSON, "mcts:5", "greedy", "random", "random"]
    status, _ = call(server, "/api/new", {"board": "standard", "players": 4, "variant": "quick3",
                                          "seats": seats, "time_limit": 120})
    assert status == 200
    s = state(server)
    assert (s["board"], s["players"], s["variant"]) == ("standard", 4, "players4+quick3")
    assert s["seats"] == ["random", PERSON, "-", "greedy", "random", "-"]   # R33: 2, 5 absent
    assert [a["state"] for a in s["armies"]][2] == "absent"
    assert s["time_limit"] == 120 and 119 <= s["clock"] <= 120


def test_agents_play_their_turns_and_a_stale_choice_is_dropped():
    table = Table("compact", 2, seats=PEOPLE_FIRST, agent_delay=0)
    assert not table.tick()                       # a person's turn: nothing to do
    table.play("g6-g10")
    assert table.tick()                           # blue's greedy agent acts
    assert len(table.game.history()) == 2 and "blue (greedy) plays" in table.message

    class Meddler:                                # the game changes while it "thinks"
        name = "meddler"

        def choose(self, game):
            table.set_seats(PEOPLE_FIRST)
            return game.legal_actions()[0]
    seat = table.game.to_move
    table.agents[seat] = Meddler()
    length = len(table.game.history())
    assert not table.tick()
    assert len(table.game.history()) == length


def test_a_turn_not_started_in_time_is_forfeited():
    now = ManualTime()
    table = Table("compact", 2, seats=[PERSON] * 6, time_limit=0.5, agent_delay=0, now=now)
    now.advance(0.25)
    assert not table.tick()                       # still in time
    now.advance(0.25)
    assert table.tick()
    s = table.state()
    assert s["log"] == [{"turn": "1.0", "seat": 0, "actions": ["pass"], "forfeit": True,
                         "events": []}]
    assert "red did not start the turn within 0.5 s and forfeits it (pass)" in s["message"]
    assert s["to_move"] == 1 and s["clock"] == 0.5    # blue's time starts now
    text = table.record_text()
    assert "time-limit: 0.5" in text and record.loads(text).to_move == 1


def test_the_clock_stops_once_the_turn_has_started():
    now = ManualTime()
    table = Table("standard", 6, seats=[PERSON] * 6, time_limit=0.05, agent_delay=0, now=now)
    table.play("k2-j5")                           # a first leg; the move goes on
    assert table.game.phase == "move"
    now.advance(10)
    assert not table.tick() and table.state()["clock"] is None
    assert [str(a) for a in table.game.history()] == ["k2-j5"]


def test_watch_a_record_step_by_step(server):
    game = victorus.Game("compact", players=2)
    victorus.play_random(game, seed=11, max_actions=60)
    text = record.dumps(game)
    status, _ = call(server, "/api/watch", {"record": text})
    assert status == 200
    s = state(server)
    assert s["mode"] == "watch" and s["watch"]["index"] == 0 and s["watch"]["length"] == 60
    assert s["placement"] == victorus.Game("compact", players=2).vpn().split()[1]
    assert sum(len(t["actions"]) for t in s["log"]) == 60 and s["legal"] is None
    assert call(server, "/api/step", {"index": 60})[0] == 200
    end = state(server)
    final_cells = {lab: game.piece_at(lab) for lab in game.board.labels if game.piece_at(lab)}
    assert end["placement"] == ",".join(f"{lab}:{code}" for lab, code in final_cells.items())
    call(server, "/api/step", {"index": 59})
    game.undo()
    assert state(server)["placement"] == ",".join(
        f"{lab}:{game.piece_at(lab)}" for lab in game.board.labels if game.piece_at(lab))
    for bad in (61, -1, "3", True):
        status, data = call(server, "/api/step", {"index": bad})
        assert status == 400 and "'index' must be an integer from 0 to 60" in data["error"]
    status, data = call(server, "/api/play", {"action": "g6-g10"})
    assert status == 400 and "watched game" in data["error"]
    assert call(server, "/api/record")[1] == text


def test_watch_a_seeded_simulation_is_that_simulated_game(server):
    spec = {"seed": 5, "index": 3, "board": "compact", "players": 2}
    assert call(server, "/api/watch", {"simulate": spec})[0] == 200
    s = state(server)
    expected = simulate(4, seed=5, players=2, board="compact")[3]
    assert s["watch"]["length"] == expected.actions
    call(server, "/api/step", {"index": expected.actions})
    end = state(server)
    assert end["over"] == (expected.winners is not None)
    assert end["winners"] == (None if expected.winners is None else list(expected.winners))


def test_watch_a_simulation_with_a_64_bit_seed_given_as_digits(server):
    """A seed past 2**53 comes as a string (the page sends the digits a person typed: a
    JavaScript number would round it) and plays that very game."""
    seed = 2**64 - 7
    spec = {"seed": str(seed), "index": 1, "board": "compact", "players": 2}
    assert call(server, "/api/watch", {"simulate": spec})[0] == 200
    expected = simulate(2, seed=seed, players=2, board="compact")[1]
    assert state(server)["watch"]["length"] == expected.actions
    rounded = float(seed)                            # what Number("18446744073709551609") is
    assert int(rounded) != seed


@pytest.mark.parametrize("body, message", [
    ({}, "watch needs exactly one of 'record'"),
    ({"record": "victorus-record 1\nboard: round\n"}, "that record cannot be replayed"),
    ({"record": 5}, "'record' must be the text of a game record"),
    ({"simulate": {"seed": -1}}, "'seed' must be an integer from 0 to"),
    ({"simulate": {"seed": "12x"}}, "'seed' must be an integer from 0 to"),
    ({"simulate": {"seed": str(2**64)}}, "'seed' must be an integer from 0 to"),
    ({"simulate": {"max_actions": 10**6}}, "'max_actions' must be an integer from 0 to 100000"),
    ({"simulate": {"speed": 2}}, "unknown fields ['speed']"),
    ({"simulate": {"players": 9}}, "players must be an integer from 2 to 6"),
])
def test_bad_watch_requests_are_refused(server, body, message):
    before = state(server)
    status, data = call(server, "/api/watch", body)
    assert status == 400 and message in data["error"], data
    assert state(server) == before
    status, data = call(server, "/api/step", {"index": 0})
    assert status == 400 and "step needs a watched game" in data["error"]


def test_record_of_the_game_played(server):
    call(server, "/api/play", {"action": "g6-g10"})
    status, text = call(server, "/api/record")
    assert status == 200 and "\n1.0 g6-g10\n" in text
    assert [str(a) for a in record.loads(text).history()] == ["g6-g10"]


def test_serve_command_starts_a_server_and_checks_its_options():
    proc = subprocess.Popen([sys.executable, "-m", "victorus.cli", "serve", "--port", "0",
                             "--board", "compact", "--players", "2"],
                            stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert line.startswith("victorus: serving the page at http://127.0.0.1:")
        url = line.split(" at ")[1].split()[0]
        with urllib.request.urlopen(url + "api/state", timeout=30) as response:
            assert json.load(response)["board"] == "compact"
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    for argv, message in ((["--seats", "9"], "--seats (comma-separated seat numbers)"),
                          (["--players", "4", "--seats", "2"], "black (seat 2) is not in this game"),
                          (["--agent", "genius"], "seat 1:")):
        result = subprocess.run([sys.executable, "-m", "victorus.cli", "serve", "--port", "0",
                                 *argv], capture_output=True, text=True, timeout=60)
        assert result.returncode == 2 and message in result.stderr, result.stderr


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats() |
    st.text(max_size=12) | st.sampled_from(["person", "random", "mcts:3", "compact", "g6-g10",
                                            "quick2", "allied", "stop", "end", "pass", "turn"]),
    lambda inner: st.lists(inner, max_size=7) | st.dictionaries(
        st.sampled_from(["seed", "index", "board", "players", "variant", "max_actions"]), inner,
        max_size=4),
    max_leaves=12)
FIELDS = ["action", "board", "players", "variant", "seats", "time_limit", "agent_delay",
          "record", "simulate", "index", "seat", "extra"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=st.sampled_from(["/api/new", "/api/play", "/api/undo", "/api/seats", "/api/watch",
                             "/api/step", "/api/resign"]),
       body=st.dictionaries(st.sampled_from(FIELDS), JSON_VALUES, max_size=4))
def test_fuzzed_requests_get_an_answer_and_a_refusal_changes_nothing(server, path, body):
    server.table.new_game("compact", 2, seats=[PERSON] * 6, agent_delay=0)   # nothing moves
    before = state(server)
    status, data = call(server, path, body)
    assert status in (200, 400), data
    if status == 400:
        assert data["error"] and state(server) == before


def test_an_agent_that_fails_is_reported_and_the_server_keeps_serving(server):
    class Broken:
        name = "broken"

        def choose(self, game):
            raise RuntimeError("no idea")
    with server.table.lock:
        server.table.set_seats(["greedy"] + [PERSON] * 5)
        server.table.agents[0] = Broken()
    assert server.work() is None
    assert state(server)["message"] == "agent error: RuntimeError('no idea')"
    assert call(server, "/api/seats", {"seats": [PERSON] * 6})[0] == 200
    assert call(server, "/api/play", {"action": "g6-g10"})[0] == 200


def test_armies_show_held_pieces_promotion_cards_and_laps():
    vpn = position({"h1": "0K", "l1": "0Q", "h7": "0Tw1", "g6": "0Ub+", "d7": "1Bw"},
                   armies={0: "a,1,1Hw", 1: "a,0,"}, laps={"h1": 1})
    table = Table("standard", 6, seats=[PERSON] * 6, agent_delay=0)
    table.session.replace_game(victorus.Game.from_vpn(vpn))
    red, blue = table.state()["armies"][:2]
    assert red["held"] == ["1Hw"] and red["points"] == 5 and red["knight_captures"] == 1
    assert red["promotion"] == ["Tw h7: 1/2"] and red["royal_knights"] == 1
    assert (red["king_laps"], red["queen_laps"]) == (1, 0)
    assert (blue["king_laps"], blue["promotion"], blue["royal_knights"]) == (None, [], 0)


# -- hostile requests: who may ask, malformed HTTP, limits ----------------------
def raw_request(srv, data: bytes, timeout=30, end=False) -> tuple[int, dict | None]:
    """Send raw bytes (``end``: and close the sending side); (status, JSON body or None)."""
    with socket.create_connection(srv.server_address[:2], timeout=timeout) as sock:
        sock.sendall(data)
        if end:
            sock.shutdown(socket.SHUT_WR)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    assert b"Content-Type: application/json" in head, head
    return int(head.split()[1]), json.loads(body) if body else None


def http_request(srv, method, path, body=b"", headers=None):
    connection = http.client.HTTPConnection(*srv.server_address[:2], timeout=30)
    connection.request(method, path, body=body, headers=headers or {})
    response = connection.getresponse()
    data = response.read()
    connection.close()
    kind = response.headers["Content-Type"]
    return response.status, (json.loads(data) if data and kind == "application/json" else data)


PLAY = json.dumps({"action": "g6-g10"}).encode()


@pytest.mark.parametrize("host", ["evil.example", "evil.example:{port}", "127.0.0.1:1",
                                  "localhost.evil.example:{port}", ""])
def test_a_foreign_host_is_refused_dns_rebinding(server, host):
    before = state(server)
    port = server.server_address[1]
    for method, path, body in (("GET", "/api/state", b""), ("GET", "/", b""),
                               ("POST", "/api/play", PLAY)):
        status, data = http_request(server, method, path, body,
                                    {"Host": host.format(port=port)})
        assert status == 403 and "is not served here; accepted:" in data["error"], data
        assert f"localhost:{port}" in data["error"]
    assert state(server) == before


def test_the_bound_address_and_localhost_are_served(server):
    port = server.server_address[1]
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"LOCALHOST:{port}"):
        assert http_request(server, "GET", "/api/state", headers={"Host": host})[0] == 200
    status, _ = http_request(server, "POST", "/api/play", PLAY,
                             {"Origin": f"http://localhost:{port}", "Host": f"localhost:{port}"})
    assert status == 200 and state(server)["log"][0]["actions"] == ["g6-g10"]


@pytest.mark.parametrize("origin", ["http://evil.example", "null", "https://127.0.0.1:{port}",
                                    "http://127.0.0.1:1"])
def test_a_write_from_another_origin_is_refused(server, origin):
    before = state(server)
    origin = origin.format(port=server.server_address[1])
    status, data = http_request(server, "POST", "/api/play", PLAY, {"Origin": origin})
    assert status == 403 and "only the page served here" in data["error"], data
    assert state(server) == before
    status, _ = http_request(server, "POST", "/api/play", PLAY,
                             {"Origin": server.url.rstrip("/")})
    assert status == 200


@pytest.mark.parametrize("method", ["PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "TRACE"])
def test_other_methods_get_a_json_405(server, method):
    status, data = http_request(server, method, "/api/state")
    assert status == 405
    if method != "HEAD":                      # a HEAD answer has headers only
        assert f"method {method} is not served; accepted: GET" in data["error"]


@pytest.mark.parametrize("data, status, message", [
    (b"GARBAGE\r\n\r\n", 400, "Bad request"),
    (b"GET /api/state HTTP/9.9\r\n\r\n", 505, "Invalid HTTP version"),
    (b"BREW /api/state HTTP/1.0\r\n\r\n", 501, "Unsupported method"),
    (b"GET /" + b"a" * 70_000 + b" HTTP/1.0\r\n\r\n", 414, ""),
])
def test_malformed_http_gets_a_json_error(server, data, status, message):
    got, body = raw_request(server, data)
    assert got == status and message in body["error"]


def test_a_client_still_sending_reads_the_whole_error_answer(server):
    """The server answers a too-long request line at once, while the client is still
    sending: it keeps reading (and dropping) the rest before it closes, so the client
    gets the answer rather than a reset connection."""
    for _ in range(5):
        got, body = raw_request(server, b"GET /" + b"a" * 600_000 + b" HTTP/1.0\r\n\r\n")
        assert got == 414 and "Request-URI Too Long" in body["error"], body


def test_a_request_in_hand_answered_by_an_error_gets_that_answer_alone(server):
    """A malformed body (a bad chunk size) after a well-formed request: the server answers
    400 whole while the client still sends, the request in hand gets no other answer, and
    the server goes on serving."""
    host = f"127.0.0.1:{server.server_address[1]}".encode()
    for _ in range(5):
        got, body = raw_request(server, b"GET /api/state HTTP/1.1\r\nHost: " + host
                                + b"\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"
                                + b"x" * 600_000)
        assert got == 400 and "Bad request" in body["error"], body
    assert http_request(server, "GET", "/api/meta")[0] == 200


@pytest.mark.parametrize("length, status, message", [
    ("\xb2", 400, "needs a Content-Length (a number of bytes)"),      # '²': isdigit() but not int
    ("9" * 5000, 400, "needs a Content-Length"),
    ("-1", 400, "needs a Content-Length"),
    (str(2**40), 413, "at most 2097152"),
])
def test_a_bad_content_length_is_refused(server, length, status, message):
    before = state(server)
    got, body = raw_request(server, b"POST /api/play HTTP/1.0\r\nHost: " +
                            f"127.0.0.1:{server.server_address[1]}".encode() +
                            b"\r\nContent-Length: " + length.encode("latin-1") + b"\r\n\r\n")
    assert got == status and message in body["error"], body
    assert state(server) == before


def test_a_deeply_nested_body_and_a_huge_since_are_refused(server):
    status, data = call(server, "/api/play", raw=b"[" * 200_000 + b"]" * 200_000)
    assert status == 400 and "nested too deeply" in data["error"]
    status, data = call(server, "/api/state?since=" + "9" * 5000)
    assert status == 400 and "'since' (a version number) must be an integer" in data["error"]


def test_a_body_cut_short_is_refused(server):
    got, body = raw_request(server, b"POST /api/play HTTP/1.0\r\nHost: " +
                            f"127.0.0.1:{server.server_address[1]}".encode() +
                            b"\r\nContent-Length: 100\r\n\r\n{\"action\"", end=True)
    assert got == 400 and "ended after 9 of 100 bytes" in body["error"]


def test_a_body_that_never_comes_times_out(monkeypatch):
    monkeypatch.setattr(server_module, "REQUEST_TIMEOUT", 0.3)
    with serving(Table("compact", 2, seats=[PERSON] * 6), worker=False) as srv:
        got, body = raw_request(srv, b"POST /api/play HTTP/1.0\r\nHost: " +
                                f"127.0.0.1:{srv.server_address[1]}".encode() +
                                b"\r\nContent-Length: 100\r\n\r\n{")
        assert got == 408 and "nothing received for 0.3 s" in body["error"]


def test_a_long_record_is_refused_before_it_is_replayed(server, monkeypatch):
    monkeypatch.setattr(table_module, "MAX_WATCH_ACTIONS", 50)
    game = victorus.Game("compact", players=2)
    victorus.play_random(game, seed=1, max_actions=80)
    status, data = call(server, "/api/watch", {"record": record.dumps(game)})
    assert status == 400 and "more than 50 actions; at most 50" in data["error"], data


def test_idle_connections_are_capped_and_time_out(monkeypatch):
    """Half-open connections cannot starve the server: beyond the cap an answer comes at
    once (503), and silent connections are dropped after the timeout."""
    timeout = 3.0
    monkeypatch.setattr(server_module, "REQUEST_TIMEOUT", timeout)
    with serving(Table("compact", 2, seats=[PERSON] * 6), worker=False) as srv:
        start = time.monotonic()
        idle = [socket.create_connection(srv.server_address[:2])
                for _ in range(server_module.MAX_CONNECTIONS)]
        try:
            # One more connection (accepted after the idle ones) is refused at once; it
            # sends nothing, so the refusal is read whole.
            with socket.create_connection(srv.server_address[:2], timeout=30) as extra:
                answer = extra.recv(4096)
            if time.monotonic() - start < timeout:   # else the idle ones may be gone
                assert answer.startswith(b"HTTP/1.0 503") and \
                    f"busy: {server_module.MAX_CONNECTIONS} connections".encode() in answer, answer
            for _ in range(1200):              # then a client is served again
                try:
                    if call(srv, "/api/state")[0] == 200:
                        break
                except OSError:                # refused while the cap is full
                    pass
                time.sleep(0.05)
            else:
                pytest.fail("the idle connections were never dropped")
            assert all(sock.recv(10) == b"" for sock in idle)    # closed by the server
        finally:
            for sock in idle:
                sock.close()


def test_a_slow_client_is_cut_at_the_deadline(monkeypatch):
    """A byte every 0.2 s keeps the per-read timeout happy; the watchdog still closes it."""
    monkeypatch.setattr(server_module, "REQUEST_DEADLINE", 1.0)
    with serving(Table("compact", 2, seats=[PERSON] * 6), worker=False) as srv:
        sock = socket.create_connection(srv.server_address[:2], timeout=30)
        closed = False
        try:
            for _ in range(300):               # up to a minute of dripping
                sock.sendall(b"X-Drip: 1\r\n" if _ else b"GET /api/state HTTP/1.0\r\n")
                time.sleep(0.2)
        except OSError:
            closed = True
        if not closed:                          # a shutdown may show only on the read side
            try:
                closed = sock.recv(100) == b""
            except OSError:
                closed = True
        sock.close()
        assert closed
        assert call(srv, "/api/state")[0] == 200


def test_the_page_gets_seat_names_colours_agents_and_its_frames_cap_from_the_server(server):
    from victorus.agents import make_agent
    from victorus.render import SEAT_COLORS
    status, meta = call(server, "/api/meta")
    assert status == 200 and meta["seat_names"] == list(SEAT_NAMES)
    assert meta["seat_colors"] == list(SEAT_COLORS)
    assert meta["frames_held"] == page_state.MAX_FRAMES_HELD and meta["agents"]
    for spec in meta["agents"]:
        make_agent(spec)                     # raises on a spec the server would refuse


def test_turn_summaries_name_the_pieces_and_what_captures_took():
    from helpers import position
    game = victorus.Game.from_vpn(position({"i6": "0Tw", "i10": "1Q", "m6": "1Xw",
                                            "i20": "1Tb", "h1": "0K"}))
    game.play("i6xi10")
    summary = page_state.summary(game, person_seats={1})
    assert summary[-1]["text"].startswith("red: Templar i6xi10 took your Queen")
    assert summary[-1]["cells"][:2] == ["i6", "i10"] and summary[-1]["seat"] == 0
    assert page_state.summary(game, person_seats={0})[-1]["text"].startswith(
        "you: Templar i6xi10 took blue's Queen")
    assert page_state.summary(victorus.Game(), person_seats={0}) == []


def test_a_watched_game_tells_its_last_turns_in_words():
    # The watch mode's summary is made from the record's turns cut at the action shown;
    # it equals the one made by replaying the position shown, at every action.
    table = Table("compact", 2)
    table.start_watch(simulate={"seed": 0, "index": 6, "board": "compact", "players": 2,
                                "max_actions": 120})
    for index in range(len(table.watch.actions) + 1):
        table.step(index)
        summary = table.state()["summary"]
        assert summary == page_state.summary(table.watch.game, set()), index
    assert summary[-1]["text"].startswith(f"{SEAT_NAMES[summary[-1]['seat']]}: ")


def test_state_labels_parameter():
    table = Table("compact", 2)
    assert 'class="label"' not in table.state()["svg"]
    assert table.state(labels="1")["svg"].count('class="label"') == len(table.game.board)
    with pytest.raises(page_state.RequestError, match="'labels' must be 0 or 1"):
        table.state(labels="yes")


# -- what the page holds is not sent again ---------------------------
def test_the_board_frame_is_sent_only_when_it_changed():
    from victorus.render import POSITION_SLOT
    table = Table("standard", 6, seats=[PERSON] * 6, agent_delay=0)
    first = table.state(view="0", frame="")
    assert "svg" not in first and first["frame"].startswith("<svg")
    whole = first["frame"].replace(POSITION_SLOT, f'<g class="position">{first["position"]}</g>')
    assert whole == table.state(view="0")["svg"]          # the two layers make the picture
    key = first["frame_key"]
    table.play("k2-j5")
    second = table.state(view="0", frame=key)
    assert second["frame"] is None and second["frame_key"] == key
    assert second["position"] != first["position"]
    other = "0123456789abcdef"
    for answer in (table.state(view="3", frame=key), table.state(view="0", labels="1", frame=key)):
        assert answer["frame"] is not None and answer["frame_key"] != key
    assert table.state(view="0", frame=other)["frame"] is not None      # another frame held
    # A page holds a frame per view (the rotating board turns with every army to act).
    blue = table.state(view="1", frame="")["frame_key"]
    assert table.state(view="1", frame=f"{key},{blue}")["frame"] is None
    assert table.state(view="0", frame=f"{blue},{key}")["frame"] is None
    for bad in ("x" * 16, "0123", ",".join(f"{k:016x}" for k in range(13)), "g" * 16):
        with pytest.raises(page_state.RequestError, match="'frame' must be frame_keys"):
            table.state(frame=bad)


def test_the_frame_is_sent_again_when_an_army_is_eliminated():
    # Its kingdom loses its tint and walls (R8): the frame's key changes then, and only then.
    import random
    table = Table("standard", 6, seats=[PERSON] * 6, agent_delay=0)
    rng = random.Random(5)
    key = table.state(frame="")["frame_key"]
    changes = 0
    while "eliminated" not in table.game.view().states:
        table.play(rng.choice(table.game.legal_actions()).text)
        answer = table.state(view="0", frame=key)
        changes += answer["frame"] is not None
        key = answer["frame_key"]
    assert changes == 1 and answer["frame"] is not None


LOG_STEPS = st.lists(st.tuples(st.sampled_from(["play", "play", "play", "undo", "forfeit",
                                                "new", "watch", "step"]), st.booleans()),
                     max_size=40)


def _log_table(now):
    return Table("compact", 2, seats=[PERSON] + ["random"] * 5, time_limit=1, agent_delay=0,
                 now=now)                                 # an undo takes back agents' turns


def _grow_log(table, key, held):
    """A page's log after asking for what it lacks: (key, held) updated in place."""
    answer = table.state(log=None if key is None else (key, len(held)))
    if answer["log_key"] != key:
        assert answer["log_from"] == 0
    del held[answer["log_from"]:]
    held += answer["log"]
    return answer["log_key"]


def _act(table, rng):
    """The person plays a random legal action, or an agent acts."""
    if table.session.person_to_act():
        table.play(rng.choice(table.game.legal_actions()).text)
    else:
        assert table.tick()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(LOG_STEPS, st.randoms(use_true_random=False))
def test_a_log_grown_from_the_turns_sent_equals_the_whole_log(steps, rng):
    # The page keeps the turns it has and asks for the rest (log=<key>:<turns held>):
    # through plays, undos, forfeits, new games and watched games it holds the whole log,
    # whenever it asks.
    now = ManualTime()
    table = _log_table(now)
    key, held = None, []
    for step, ask in steps:
        try:
            if step == "play" and table.watch is None and not table.game.is_over:
                _act(table, rng)
            elif step == "undo":
                table.undo()
            elif step == "forfeit" and table.watch is None:
                now.advance(2)
                table.tick()
            elif step == "new":
                table.new_game("compact", 2, seats=table.controllers, time_limit=1,
                               agent_delay=0)
            elif step == "watch":
                table.start_watch(simulate={"seed": rng.randrange(9), "board": "compact",
                                            "players": 2, "max_actions": 40})
            elif step == "step" and table.watch is not None:
                table.step(rng.randrange(len(table.watch.actions) + 1))
        except page_state.RequestError:
            pass                                          # (nothing to undo, a watched game)
        if ask:
            key = _grow_log(table, key, held)
            assert held == table.state()["log"]


def test_the_log_is_sent_in_full_after_an_undo_and_new_turns():
    # Turns taken back and played again differently, between two requests of the page:
    # its last turns are no longer the game's, so the log comes whole.
    import random
    rng, table = random.Random(1), _log_table(ManualTime())
    while table.game.round < 3:
        _act(table, rng)
    held: list = []
    key = _grow_log(table, None, held)
    table.undo()
    for _ in range(8):
        _act(table, rng)
    _grow_log(table, key, held)
    assert held == table.state()["log"]


def test_state_log_and_frame_parameters_are_checked(server):
    for query, expected in (("?log=1", "'log' must be <log_key>:<turns held>"),
                            ("?log=a.b:x", "'log' turns held must be"), ("?log=:3", "'log' must be"),
                            ("?log=" + "1" * 41 + ":1", "'log' must be")):
        status, data = call(server, "/api/state" + query)
        assert status == 400 and expected in data["error"], (query, data)
    key = state(server)["log_key"]
    assert state(server, f"?log={key}:0&frame=")["log_from"] == 0
    assert state(server, "?log=ffff.0:5")["log_from"] == 0          # another server's key


def test_connections_are_kept_alive_and_a_refused_body_is_not_read_as_a_request(server):
    connection = http.client.HTTPConnection(*server.server_address[:2], timeout=30)
    try:
        for _ in range(3):                       # three requests on one connection
            connection.request("GET", "/api/state")
            response = connection.getresponse()
            assert response.status == 200 and response.version == 11
            json.loads(response.read())
        assert connection.sock is not None       # still open
        # A POST refused before its body is read ends the connection: its body (here a
        # request of its own) is never served.
        smuggled = b"POST /api/play HTTP/1.1\r\nHost: x\r\nContent-Length: 24\r\n\r\n" + PLAY
        connection.request("POST", "/api/play", body=smuggled,
                           headers={"Origin": "http://evil.example"})
        response = connection.getresponse()
        assert response.status == 403 and response.getheader("Connection") == "close"
        response.read()
    finally:
        connection.close()
    assert server.table.game.ply == 0
    # A POST whose body was read keeps the connection for the next request.
    connection = http.client.HTTPConnection(*server.server_address[:2], timeout=30)
    try:
        connection.request("POST", "/api/play", body=PLAY)
        assert connection.getresponse().read() and server.table.game.ply == 1
        connection.request("GET", "/api/state")
        assert json.loads(connection.getresponse().read())["version"] > 1
    finally:
        connection.close()


@pytest.mark.parametrize("accept, gzipped", [("gzip, deflate, br", True), ("br", False),
                                             ("gzip;q=0", False), ("", False), ("*", True)])
def test_answers_are_gzipped_for_clients_that_accept_it(server, accept, gzipped):
    import gzip
    connection = http.client.HTTPConnection(*server.server_address[:2], timeout=30)
    connection.request("GET", "/api/state", headers={"Accept-Encoding": accept} if accept else {})
    response = connection.getresponse()
    data = response.read()
    connection.close()
    assert (response.headers.get("Content-Encoding") == "gzip") == gzipped
    assert int(response.headers["Content-Length"]) == len(data)
    state = json.loads(gzip.decompress(data) if gzipped else data)
    assert state["svg"].startswith("<svg")
    if gzipped:
        assert len(data) * 4 < len(json.dumps(state))          # the SVG shrinks a lot


def test_a_state_request_waits_for_the_next_change():
    table = Table("compact", 2, seats=[server_module.PERSON] + ["random"] * 5)
    version = table.state()["version"]
    assert server_module.MAX_POLL_WAIT < server_module.REQUEST_DEADLINE
    timer = threading.Timer(0.2, table.set_seats, ([server_module.PERSON] + ["greedy"] * 5,))
    timer.start()
    answer = table.state(since=version, wait=20)          # returns at the change, not in 20 s
    timer.join()
    assert answer["version"] == version + 1 and answer["seats"][1] == "greedy"
    assert table.state(since=version + 1, wait=0) == {
        "version": version + 1, "unchanged": True, "clock": None}


@pytest.mark.parametrize("wait", ["-1", "21", "1.5", "x", "9" * 50])
def test_bad_waits_are_refused(server, wait):
    status, data = http_request(server, "GET", f"/api/state?since=0&wait={wait}")
    assert status == 400 and "'wait' (whole seconds) must be an integer from 0 to 20" in data["error"]


def test_browsing_a_past_position_leaves_the_game_alone():
    table = Table("compact", 2, seats=[PERSON] * 6)
    table.play("g6-g10")
    vpn = table.game.vpn() if table.game.phase == "start" else None
    played = table.game.ply
    past = table.state(at=0)
    assert past["browse"] == {"index": 0, "length": played, "over": False}
    assert not past["person_to_act"]
    assert past["placement"] == page_state.placement(victorus.Game("compact", players=2))
    assert past["legal"] is None and past["can_undo"] is False
    assert table.game.ply == played and (vpn is None or table.game.vpn() == vpn)
    assert table.state()["browse"] is None
    for at in (-1, played + 1):
        with pytest.raises(page_state.RequestError, match="'at' must be a number of actions"):
            table.state(at=at)
    table.start_watch(simulate={"seed": 0, "index": 0, "board": "compact", "players": 2,
                                "variant": "quick2"})
    with pytest.raises(page_state.RequestError, match="steps with /api/step"):
        table.state(at=0)


@pytest.mark.parametrize("at", ["-1", "x", "1.5", "9" * 30])
def test_bad_ats_are_refused(server, at):
    status, data = http_request(server, "GET", f"/api/state?at={at}")
    assert status == 400 and "'at' (a number of actions) must be an integer" in data["error"]


# -- the socket: a message at every change (WS /api/socket) --------------------------------
def open_socket(srv, origin=None, host=None):
    """A client of /api/socket (``origin``: the Origin header, the page's by default;
    ``host``: the name the URL gives the server, which the Host header says)."""
    from websockets.sync.client import connect
    url = srv.url.replace("http", "ws") + "api/socket"
    if host is not None:
        url = f"ws://{host}/api/socket"
    return connect(url, open_timeout=30, origin=origin or srv.url.rstrip("/"),
                   sock=socket.create_connection(srv.server_address[:2], timeout=30))


def notice(ws) -> dict:
    return json.loads(ws.recv(timeout=30))


def test_the_socket_tells_every_change(server):
    with open_socket(server) as ws:
        first = notice(ws)
        assert first == {"version": server.table.version, "instance": server.table.instance,
                         "clock": None, "analysis": 0}
        held = page_state.watched(state(server, "?frame="))
        assert call(server, "/api/play", {"action": "g6-g10"})[0] == 200
        played = notice(ws)                          # with its delta from the version told
        assert played["version"] == first["version"] + 1 and played["base"] == first["version"]
        assert page_state.apply_delta(held, played["delta"]) == \
            page_state.watched(state(server, "?frame="))
        server.table.set_seats([PERSON] * 6)         # a change made by the table itself
        assert notice(ws)["version"] == first["version"] + 2


@pytest.mark.parametrize("origin", ["http://evil.example", "null", "http://127.0.0.1:1"])
def test_a_socket_from_another_origin_or_host_is_refused(server, origin):
    from websockets.exceptions import InvalidStatus
    with pytest.raises(InvalidStatus) as refused:
        open_socket(server, origin=origin)
    assert refused.value.response.status_code == 403
    port = server.server_address[1]
    with pytest.raises(InvalidStatus) as refused:          # DNS rebinding
        open_socket(server, origin=f"http://evil.example:{port}", host=f"evil.example:{port}")
    assert refused.value.response.status_code == 403


def long_poll(srv, since, answers):
    """A page's long poll (20 s at most) in a thread; its answer goes to ``answers``."""
    def ask():
        answers.append(state(srv, f"?since={since}&wait=20"))
    thread = threading.Thread(target=ask, daemon=True)
    thread.start()
    return thread


def test_a_move_is_answered_while_40_sockets_and_40_long_polls_wait(server):
    # The old server's 32-connection cap was filled by watchers: the player was refused.
    version = server.table.version
    answers: list = []
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(open_socket(server)) for _ in range(40)]
        assert all(notice(ws)["version"] == version for ws in sockets)
        polls = [long_poll(server, version, answers) for _ in range(40)]
        status, data = call(server, "/api/play", {"action": "g6-g10"})
        assert (status, data["version"]) == (200, version + 1)
        assert all(notice(ws)["version"] == version + 1 for ws in sockets)
        for thread in polls:
            thread.join(30)
        assert len(answers) == 40 and all(a["version"] == version + 1 for a in answers)


def test_an_agent_that_fails_wakes_every_socket_and_waiter_with_the_error(server):
    class Broken:
        name = "broken"

        def choose(self, game):
            raise RuntimeError("no idea")
    server.table.set_seats(["greedy"] + [PERSON] * 5)
    server.table.agents[0] = Broken()
    version = server.table.version
    waiting = threading.Event()
    answers: list = []
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(open_socket(server)) for _ in range(5)]
        assert all(notice(ws)["version"] == version for ws in sockets)
        table_waiter = threading.Thread(target=lambda: answers.append(
            (waiting.set(), server.table.state(since=version, wait=20))[1]), daemon=True)
        table_waiter.start()
        polls = [long_poll(server, version, answers) for _ in range(5)]
        waiting.wait(30)
        assert server.work() is None                      # the agent raised
        assert all(notice(ws)["version"] == version + 1 for ws in sockets)
        for thread in [table_waiter, *polls]:
            thread.join(30)
        # Each answer is the new state, not 'unchanged' after 20 s: every waiter woke.
        assert len(answers) == 6
        assert all(a["message"] == "agent error: RuntimeError('no idea')" for a in answers)
