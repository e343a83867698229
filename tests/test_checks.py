"""Checked numbers: every parser refuses a bad or huge number with the project's own
error naming the field and its range (victorus.checks), and what is printed reads back."""

import pytest

import victorus
from helpers import serving
from victorus import record
from victorus.agents import MCTSAgent, make_agent
from victorus.checks import check_int, parse_int
from victorus.cli import main
from victorus.notation import Action
from victorus.page.server import PERSON, Table

HUGE = "9" * 5000


def test_check_int_and_parse_int():
    assert check_int("n", 5, 0, 9) == 5 and parse_int("n", "-7", -9, 9) == -7
    for bad in (True, 2.0, "5", 10, -1, 10**5000):
        with pytest.raises(victorus.ConfigError, match="n must be an integer from 0 to 9"):
            check_int("n", bad, 0, 9)
    for bad in ("", " 5", "05", "+5", "-5", "5x", "٥", HUGE, None):
        with pytest.raises(victorus.RecordError, match="n must be an integer from 0 to 9"):
            parse_int("n", bad, 0, 9, victorus.RecordError)
    assert parse_int("n", "007", 0, 9, canonical=False) == 7


def _vpn_with(**fields):
    parts = victorus.Game("compact", players=2).vpn().split(" ")
    armies = parts[3].split("/")
    first = armies[0].split(",")
    for name, value in fields.items():
        if name == "side":
            parts[2] = value
        elif name == "round":
            parts[4] = value
        else:
            first[{"captures": 1, "k_laps": 3}[name]] = value
    armies[0] = ",".join(first)
    parts[3] = "/".join(armies)
    return " ".join(parts)


@pytest.mark.parametrize("field, value, named", [
    ("captures", HUGE, "VPN field 4 (armies): army 0 knight captures"),
    ("k_laps", HUGE, "VPN field 4 (armies): army 0 K laps"),
    ("k_laps", "-" + HUGE, "VPN field 4 (armies): army 0 K laps"),
    ("side", HUGE, "VPN field 3 (side to move)"),
    ("round", HUGE, "VPN field 5 (round): round"),
    ("round", "7/" + HUGE, "VPN field 5 (round): the pass count"),
])
def test_huge_vpn_numbers_are_notation_errors(field, value, named):
    with pytest.raises(victorus.NotationError, match=named.replace("(", r"\(").replace(")", r"\)")):
        victorus.Game.from_vpn(_vpn_with(**{field: value}))


def test_vpn_never_prints_what_from_vpn_refuses():
    game = victorus.Game.from_vpn(_vpn_with(round="1000000000"))
    assert victorus.Game.from_vpn(game.vpn()) == game
    while game.round == 1_000_000_000 and not game.is_over:
        game.play(game.legal_actions()[-1])             # stop/end/pass first: turns go by
    assert game.round == 1_000_000_001 and game.phase == "start"
    with pytest.raises(victorus.StateError, match="round .1000000001. is beyond what a VPN"):
        game.vpn()


def _record(**header):
    game = victorus.Game("compact", players=2, variant="quick3")
    victorus.play_random(game, seed=3)
    text = record.dumps(game, seed=1, time_limit=5)
    for key, value in header.items():
        old = next(line for line in text.splitlines() if line.startswith(f"{key}: "))
        text = text.replace(old, f"{key}: {value}")
    return text


def test_record_numbers():
    with pytest.raises(victorus.RecordError, match="record line 5: 'seed' is 5,000 characters"):
        record.loads(_record(seed=HUGE))           # refused before int() sees it
    with pytest.raises(victorus.RecordError, match="record line 5: seed must be an integer"):
        record.loads(_record(seed="9" * 4000))
    with pytest.raises(victorus.RecordError, match="time-limit must be a number of seconds from"):
        record.loads(_record(**{"time-limit": "999999999"}))
    for limit in ("0.001", "31622400"):                  # what loads takes, dumps writes
        game = record.loads(_record(**{"time-limit": limit}))
        again = record.dumps(game, seed=1, time_limit=record.parse(_record(**{
            "time-limit": limit})).time_limit)
        assert f"time-limit: {limit}\n" in again
    for bad in ("10", -1, 2.5, True, 2**80):
        with pytest.raises(victorus.ConfigError, match="max_actions"):
            record.loads(_record(), max_actions=bad)
    with pytest.raises(victorus.ConfigError, match="seed"):
        record.dumps(victorus.Game(), seed=2**64)


def test_agent_specs():
    for spec in ("mcts:" + HUGE, "mcts:" + "9" * 20, "mcts:2147483648", "mcts:100@" + HUGE,
                 "mcts-py:" + HUGE):
        with pytest.raises(victorus.ConfigError, match="must be an integer from 1 to"):
            make_agent(spec)
    assert make_agent("mcts:2147483647").iterations == 2**31 - 1
    with pytest.raises(victorus.ConfigError, match="iterations must be an integer"):
        MCTSAgent(iterations=2**63)


def test_actions_and_ids():
    game = victorus.Game()
    with pytest.raises(victorus.ConfigError, match="an action id must be an integer"):
        game.play_id(2**31)
    with pytest.raises(victorus.ConfigError, match="an action id must be an integer"):
        game.play_id(-2**40)
    labels = game.board.labels
    with pytest.raises(victorus.NotationError, match="origin"):
        game.action_id(Action(None, -1, 5, text=f"{labels[-1]}-{labels[5]}"))
    with pytest.raises(victorus.NotationError, match="word is one of stop, end, pass"):
        game.action_id(Action("bogus"))
    assert game.action_id(Action("pass")) == game.action_id("pass")

    class Odd(str):                                      # a str subclass hashing its own way
        def __hash__(self):
            return 1
    game = victorus.Game("compact", players=2)
    leg = game.legal_actions()[0].text
    game.play(Odd(leg))
    game.play(Odd(game.legal_actions()[-1].text))       # a word: stop, end or pass
    assert game.ply == 2


def test_perft_hash_that_cannot_be_allocated(monkeypatch, capsys):
    import victorus.game

    class NoMemory:
        def __init__(self, megabytes):
            raise MemoryError(f"no memory for a {megabytes} MB perft table")
    monkeypatch.setattr(victorus.game, "PerftTable", NoMemory)
    assert main(["perft", "1", "--hash", "65536"]) == 2
    err = capsys.readouterr().err
    assert "--hash 65536: no memory" in err and "Traceback" not in err


def test_server_bodies_and_queries():
    import json
    import urllib.error
    import urllib.request

    def call(srv, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        try:
            with urllib.request.urlopen(urllib.request.Request(
                    srv.url.rstrip("/") + path, data=data), timeout=30) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())
    with serving(Table("compact", 2, seats=[PERSON] * 6), worker=False) as srv:
        status, data = call(srv, "/api/new", {"board": "compact", "players": 2,
                                              "seats": [PERSON, "mcts:" + HUGE] + [PERSON] * 4})
        assert status == 400 and "iterations must be" in data["error"], data
        status, data = call(srv, "/api/watch", {"record": _record(seed=HUGE)})
        assert status == 400 and "'seed' is 5,000 characters long" in data["error"], data
        for query in ("since=" + HUGE, "since=1&wait=" + HUGE, "at=" + HUGE, "log=ab:" + HUGE):
            status, data = call(srv, "/api/state?" + query)
            assert status == 400 and "must be an integer" in data["error"], (query, data)
