"""victorus serve's API for the page's comforts: the narration and the result in the
state, resigning, the analysis on request; every bad request a clear 4xx."""

import time

import pytest

import victorus
from helpers import call, position, serving
from victorus.clock import ManualTime
from victorus.geometry import DIRECTION_NAMES, DIRECTION_VECTORS, coords_of_label
from victorus.page import page_state
from victorus.page.analysis import Analysis
from victorus.page.server import PERSON, Table

RESCUE = position({"i6": "0Tw", "i10": "1Q", "f17": "1K", "i20": "2Tb"}, armies={1: "a,0,0K"})


@pytest.fixture
def server():
    with serving(Table("compact", 2, seats=[PERSON] * 6, agent_delay=0), worker=False) as srv:
        yield srv



def scripted(table, vpn, seats=(PERSON,) * 6):
    table.set_seats(list(seats))
    table.session.replace_game(victorus.Game.from_vpn(vpn))
    table.set_seats(list(seats))                 # (a new version: the log starts anew)


def test_the_state_tells_the_events_in_the_summary_and_the_log_r24_r25_r31():
    table = Table("standard", 6, seats=[PERSON] * 6, agent_delay=0)
    scripted(table, RESCUE)
    table.play("i6xi10")
    table.play("end")
    state = table.state()
    # every army is a person's: each named
    rescue = ("rescue: your red King was exchanged for your blue Queen; both went home "
              "(h1 and d3)")
    assert state["summary"][-1]["events"][0] == rescue
    assert state["summary"][-1]["text"].startswith("you (red): ")
    assert state["log"][0]["events"][0] == ("rescue: red's King was exchanged for blue's "
                                            "Queen; both went home (h1 and d3)")
    assert "red's Templar on i10 was promoted to a royal knight" in state["log"][0]["events"]
    assert state["result"] is None and state["watching"] is None


def test_a_watched_game_is_narrated_and_ends_with_its_result():
    table = Table("compact", 2)
    table.start_watch(simulate={"seed": 0, "index": 3, "board": "compact", "players": 2})
    length = len(table.watch.actions)
    assert any(entry["events"] for entry in table.state()["log"])
    table.step(length)
    result = table.state()["result"]
    assert result["reason"] == "centre" and result["title"].endswith("reached the centre")
    assert result["yours"] is None                      # nobody plays a watched game


def test_resigning_ends_the_game_for_the_other_teams(server):
    table = server.table                     # compact, 2 players: teams of 3 (R33)
    table.set_seats([PERSON] + ["greedy"] * 5)
    status, data = call(server, "/api/resign", {"seat": 0})
    assert (status, data["ok"]) == (200, True)
    state = table.state()
    assert state["over"] and state["reason"] == "resignation"
    assert state["winners"] == [1, 3, 5] and state["result"]["yours"] == "your team lost"
    assert state["result"]["title"] == "blue, green and orange won: red resigned"
    assert not state["person_to_act"] and state["clock"] is None
    assert table.tick() is False                             # the agents stop
    status, data = call(server, "/api/play", {"action": "g6-g10"})
    assert status == 400 and data["error"] == ("the game is over (red resigned); start a "
                                               "new game")
    table.new_game("compact", 2, seats=[PERSON] * 6)
    assert not table.state()["over"]


def test_the_record_says_who_resigned_and_a_watched_one_ends_so(server):
    table = server.table
    table.set_seats([PERSON] + ["greedy"] * 5)
    table.play("g6-g10")
    assert table.tick() is True                              # blue's agent acts
    call(server, "/api/resign", {"seat": 0})
    text = table.record_text()
    assert "resigned: 0\nresult: resignation 1,3,5\n" in text
    assert victorus.record.parse(text).resigned == 0
    assert victorus.record.dumps(victorus.record.loads(text), agents=table.controllers,
                                 resigned=0) == text
    call(server, "/api/watch", {"record": text})
    assert table.state()["result"] is None                   # the start: nothing told yet
    call(server, "/api/step", {"index": table.game.ply})     # the end of the record
    state = table.state()
    assert state["over"] and state["reason"] == "resignation"
    assert state["result"]["title"] == "blue, green and orange won: red resigned"
    assert table.record_text() == text


@pytest.mark.parametrize("body, error", [
    ({}, "missing ['seat']; accepted fields: seat"),
    ({"seat": "0"}, "'seat' must be an integer from 0 to 5, got '0'"),
    ({"seat": 9}, "'seat' must be an integer from 0 to 5, got 9"),
    ({"seat": 1, "x": 1}, "unknown fields ['x']; accepted fields: seat"),
])
def test_a_bad_resignation_is_refused_and_changes_nothing(server, body, error):
    before = server.table.version
    status, data = call(server, "/api/resign", body)
    assert status == 400 and error in data["error"]
    assert server.table.version == before


def test_only_a_person_s_army_resigns(server):
    server.table.set_seats([PERSON] + ["greedy"] * 5)
    status, data = call(server, "/api/resign", {"seat": 1})
    assert status == 400 and data["error"] == ("only a person's army resigns; a person plays "
                                               "red, got seat 1")


def test_the_analysis_runs_beside_the_game_and_tells_the_best_move(server):
    server.table.analysis = Analysis(seconds=0.2, seed=1)
    status, first = call(server, "/api/analyse", {})
    assert status == 200 and first["ok"]
    deadline = time.monotonic() + 60
    while (state := call(server, "/api/analysis")[1])["status"] == "running":
        assert time.monotonic() < deadline
        time.sleep(0.05)
    legal = {a.text for a in server.table.game.legal_actions()}
    assert state["status"] == "done" and state["best"] in legal
    assert 0 <= state["chance"] <= 1 and state["team"] == ["red", "black", "purple"]
    assert state["version"] == server.table.version and len(state["cells"]) == 2
    status, data = call(server, "/api/analyse", {"depth": 3})
    assert status == 400 and "unknown fields ['depth']" in data["error"]


def test_the_page_learns_the_marks_and_the_seats_present():
    meta = page_state.meta()
    assert len(set(meta["army_marks"])) == 6 and len(meta["army_mark_names"]) == 6
    assert meta["present_seats"][4] == [0, 1, 3, 4]


def _steps(frm, to, vectors) -> bool:
    """Whether ``to`` lies from ``frm`` along one of ``vectors``, a whole number of steps."""
    (q0, r0), (q1, r1) = (coords_of_label(frm), coords_of_label(to))
    dq, dr = q1 - q0, r1 - r0
    return any(k > 0 and (dq, dr) == (k * a, k * b) for a, b in vectors
               for k in {dq // a if a else dr // b})


def test_the_rules_help_draws_what_the_engine_allows_r10_r11_r13_r14_r17_r18(server):
    status, data = call(server, "/api/rules")
    assert status == 200
    panels = {p["name"]: p for p in data["panels"]}
    assert list(panels) == ["King", "Queen", "Templar", "Teutonic", "Byzantine", "Excalibur",
                            "Hospitaller", "Royal knight"]
    board = victorus.Board("standard")
    diagonal, vertical_horizontal = ([DIRECTION_VECTORS[DIRECTION_NAMES.index(n)] for n in names]
                                     for names in (("E30", "E150", "E-30", "E-150"),
                                                   ("E90", "E-90", "V0", "V180")))
    for name, panel in panels.items():
        assert board.color(panel["cell"]) == "grey"
        colours = {board.color(c) for c in panel["first"]}
        # R10: a black-edged knight stops on grey; R18: King and Queen on the other colour.
        assert colours == ({"white"} if name in ("King", "Queen") else {"grey"})
        assert panel["svg"].count('class="patch-cell') == 37
    near = {board.labels[n] for n in board.neighbours(board.cell("h9"))}
    for name, directions in (("Teutonic", diagonal), ("Templar", vertical_horizontal)):
        first = panels[name]["first"]                        # R11 slides, R13 one step
        assert first and all(_steps("h9", c, directions) or c in near for c in first)
        assert any(c not in near for c in first)
    assert {board.color(c) for c in panels["King"]["ends"]} == {"white"}      # R18
    hospitaller = panels["Hospitaller"]                     # R14: a pivot after the travel
    pivots = {board.labels[n] for c in hospitaller["first"]
              for n in board.neighbours(board.cell(c))}
    assert hospitaller["ends"] and set(hospitaller["ends"]) <= pivots
    assert panels["Templar"]["ends"] == [] and panels["Royal knight"]["ends"]     # R17


def test_every_army_s_clock_and_the_record_s_header_are_the_game_s_played():
    now = ManualTime()
    seats = [PERSON, PERSON, "-", PERSON, PERSON, "-"]         # compact, 4 players: no 2, 5
    table = Table("compact", 4, seats=seats, time_limit=10, agent_delay=0, now=now)
    clocks = table.state()["army_clocks"]
    assert [c["state"] for c in clocks] == ["acting", "waiting", "absent", "waiting",
                                            "waiting", "absent"]
    table.play("g6-g10")
    now.advance(11)
    assert table.tick() is True                              # blue forfeits (on time)
    state = table.state(at=0)                                # a past position: red to act
    assert state["to_move"] == 0 and state["clock_seat"] == 3
    assert [(c["state"], c["forfeits"]) for c in state["army_clocks"]][:4] == [
        ("waiting", 0), ("waiting", 1), ("absent", 0), ("acting", 0)]
    head = state["record_head"]
    assert head + "\n\n1.0 g6-g10\n1.1 pass\n" == table.record_text()
    table.resign(3)
    state = table.state()
    assert {c["state"] for c in state["army_clocks"]} == {"over", "absent"}
    assert state["record_head"].endswith("resigned: 3\nresult: resignation 0,1,4")
    assert Table("compact", 2).state()["army_clocks"] is None        # no clock


def test_a_seat_played_by_an_agent_with_threads_is_recorded():
    # An agent spec with its threads (mcts:100@2) is a record's agent name as any other:
    # the state's record header and GET /api/record hold it, and the record loads.
    table = Table("compact", 2, seats=[PERSON, "mcts:100@2"] + ["greedy"] * 4, agent_delay=0)
    table.play("g6-g10")
    assert "agents: person,mcts:100@2,greedy" in table.state()["record_head"]
    text = table.record_text()
    assert victorus.record.parse(text).agents[1] == "mcts:100@2"
    assert victorus.record.loads(text).ply == 1
