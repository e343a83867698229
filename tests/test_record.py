"""Game records: save, load, replay, and every rejection (issues 5 and 7)."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import victorus
from helpers import SOME_CONFIGS, config_id
from victorus import record

CONFIGS = SOME_CONFIGS


def played(board, players, variant, seed, max_actions=None):
    game = victorus.Game(board, players=players, variant=variant)
    victorus.play_random(game, seed=seed, max_actions=max_actions)
    return game


@pytest.mark.parametrize("board, players, variant", CONFIGS, ids=[config_id(c) for c in CONFIGS])
def test_records_round_trip_and_replay(board, players, variant):
    game = played(board, players, variant, seed=21)
    text = record.dumps(game, seed=21, agents=["random"] * 6)
    again = record.loads(text)
    assert [str(a) for a in again.history()] == [str(a) for a in game.history()]
    assert (again.winners, again.result_reason) == (game.winners, game.result_reason)
    assert record.dumps(again, seed=21, agents=["random"] * 6) == text
    header = record.parse(text)
    assert (header.board, header.players, header.seed) == (board, players, 21)
    steps = list(record.replay(text))
    assert len(steps) == len(game.history())
    assert steps[-1][1].is_over == game.is_over


def test_record_lines_are_whole_turns():
    game = played("compact", 6, "standard", seed=3, max_actions=60)
    lines = record.dumps(game).split("\n\n", 1)[1].splitlines()
    replay = victorus.Game("compact")
    for line in lines:
        label, *actions = line.split()
        assert label == f"{replay.round}.{replay.to_move}" and replay.phase == "start"
        for action in actions:
            replay.play(action)


def test_record_from_a_vpn_and_unfinished_turn(tmp_path):
    start = played("standard", 6, "standard", seed=8, max_actions=200)
    while start.phase != "start":
        start.play(start.legal_actions()[0])
    game = victorus.Game.from_vpn(start.vpn())
    victorus.play_random(game, seed=2, max_actions=25)
    path = tmp_path / "game.vrec"
    record.save(game, path)
    text = path.read_text()
    assert f"start: {start.vpn()}" in text and "result: unfinished" in text
    loaded = record.load(path)
    assert [str(a) for a in loaded.history()] == [str(a) for a in game.history()]
    assert loaded.phase == game.phase and loaded.to_move == game.to_move


def test_copy_without_history_mid_turn_cannot_be_recorded():
    game = victorus.Game.from_vpn(victorus.Game().vpn().replace("h3:0Tw", "h3:0Tw+"))
    game.play("h3-h7")
    assert game.phase == "move"
    with pytest.raises(victorus.VictorusError, match="cannot be recorded"):
        record.dumps(game.copy(history=False))
    assert record.dumps(game.copy()).count("h3-h7") == 1


GOOD = record.dumps(played("compact", 6, "standard", seed=5), seed=5)


def edit(old, new, count=1):
    assert old in GOOD
    return GOOD.replace(old, new, count)


@pytest.mark.parametrize("text, message", [
    ("", "line 1: expected 'victorus-record 1'"),
    (edit("victorus-record 1", "victorus-record 2"), "line 1"),
    (edit("board: compact", "board: giant"), "unknown board 'giant'"),
    (edit("players: 6", "players: 9"), "players must be 2 to 6"),
    (edit("variant: standard", "variant: turbo"), "bad variant part 'turbo'"),
    (edit("seed: 5", "seed: -5"), "seed must be an integer from 0 to"),
    (edit("seed: 5", "color: red"), "key among"),
    (edit("seed: 5", "seed: 5\nseed: 6"), "'seed' given twice"),
    (edit("seed: 5", "agents: a,b"), "six comma-separated names"),
    (edit("seed: 5", "start: standard nonsense"), "record header: a VPN has 6"),
    (edit("seed: 5", "start: " + victorus.Game().vpn()), "standard standard game"),
    (edit("\n1.0 ", "\n1.3 "), "turn 1.3 but the game is at 1.0"),
    (edit("\n1.0 ", "\n1.0x "), "starts with '<round>.<seat>'"),
    (edit("\n1.1 ", "\n1.1\n"), "has no action"),
    (edit("result: ", "result: centre 4 # "), "record result"),
])
def test_record_rejections(text, message):
    with pytest.raises(victorus.RecordError, match=message):
        record.loads(text)


def test_illegal_action_and_trailing_turns_are_rejected():
    body = GOOD.split("\n\n", 1)[1].splitlines()
    first = body[0].split()
    bad = GOOD.replace(body[0], f"{first[0]} z9-z1", 1)
    with pytest.raises(victorus.RecordError, match="line 8, action 1: .*unknown cell"):
        record.loads(bad)
    bad = GOOD.replace(body[0], f"{first[0]} {first[1]} end", 1)
    with pytest.raises(victorus.RecordError, match=r"line 8: turn 1.0 ends after action 1 "
                                                   r"\(.*\), but the line goes on"):
        record.loads(bad)
    finished = GOOD.rstrip("\n") + "\n999.0 pass\n"
    with pytest.raises(victorus.RecordError, match="already over"):
        record.loads(finished)


def test_load_errors(tmp_path):
    path = tmp_path / "bad.vrec"
    path.write_bytes(b"victorus-record 1\n\xff\xfe")
    with pytest.raises(victorus.RecordError, match="not UTF-8"):
        record.load(path)
    with pytest.raises(FileNotFoundError):
        record.load(tmp_path / "missing.vrec")


def test_dumps_argument_errors():
    game = victorus.Game()
    with pytest.raises(victorus.ConfigError, match="seed"):
        record.dumps(game, seed=-1)
    with pytest.raises(victorus.ConfigError, match="agents"):
        record.dumps(game, agents=["a b"] * 6)
    with pytest.raises(victorus.ConfigError, match="made from a victorus.Game"):
        record.dumps("game")


ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789-x.:, \n"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_records_give_only_record_errors(data):
    text = list(GOOD[:1500])
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(text) - 1))
        op = data.draw(st.sampled_from(["replace", "insert", "delete"]))
        if op == "replace":
            text[i] = data.draw(st.sampled_from(ALPHABET))
        elif op == "insert":
            text.insert(i, data.draw(st.sampled_from(ALPHABET)))
        else:
            del text[i]
    text = "".join(text)
    try:
        game = record.loads(text)
    except victorus.RecordError as exc:
        assert str(exc)
        return
    again = record.loads(record.dumps(game))
    assert [str(a) for a in again.history()] == [str(a) for a in game.history()]


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_random_text_records(text):
    try:
        record.loads(text)
    except victorus.RecordError:
        pass


def test_max_actions_refuses_a_longer_record_before_replaying_it():
    game = victorus.Game("compact", players=2)
    victorus.play_random(game, seed=3, max_actions=60)
    text = record.dumps(game)
    assert len(record.loads(text, max_actions=60).history()) == 60
    with pytest.raises(record.RecordError, match="more than 59 actions; at most 59"):
        record.loads(text, max_actions=59)
    with pytest.raises(record.RecordError, match="more than 0 actions"):
        record.parse(text, max_actions=0)


@pytest.mark.parametrize("config", SOME_CONFIGS, ids=config_id)
def test_turn_lines_kept_up_to_date_equal_those_made_anew(config):
    # TurnLines.update (the page's log as a game goes on) replays only the new actions;
    # after every action, with forfeits on time among them, it lists what turn_lines lists.
    import random
    rng = random.Random(7)
    board, players, variant = config
    game = victorus.Game(board, players=players, variant=variant)
    lister = record.TurnLines(game)
    while game.ply < 150 and not game.is_over:
        if game.phase == "start" and rng.random() < 0.05:
            game.forfeit()
        else:
            game.play(rng.choice(game.legal_actions()))
        if rng.random() < 0.5:                        # sometimes several actions at once
            assert lister.update() == record.turn_lines(game)
    assert lister.update() == record.turn_lines(game)
    assert any(line.forfeit for line in lister.lines)
    game.undo()
    with pytest.raises(victorus.VictorusError, match="taken back; list it anew"):
        lister.update()


#: A record written before resignations were recorded (a clock, a turn forfeited on time).
OLD_RECORD = """victorus-record 1
board: compact
players: 2
variant: standard
agents: person,greedy,greedy,greedy,greedy,greedy
time-limit: 30
result: unfinished

1.0 k6-h15 h15-h13
1.1 e8-i20
1.2 e18-h21
1.3 i22-j21
1.4 m20xi20 m18-k20
1.5 pass
2.0 h13-i16 i16-h15
2.1 e10-e14
"""


def test_an_older_record_still_loads_and_saves_the_same():
    game = record.loads(OLD_RECORD)
    header = record.parse(OLD_RECORD)
    assert header.resigned is None and header.time_limit == 30
    assert game.ply == 11 and not game.is_over
    assert record.dumps(game, agents=header.agents, time_limit=30) == OLD_RECORD


def test_a_resignation_is_recorded_and_round_trips_exactly(tmp_path):
    # A resignation (victorus serve's resign) is a header line after the clock's: the
    # actions replay to a game going on, the result names the other team (R33).
    game = record.loads(OLD_RECORD)
    text = record.dumps(game, agents=record.parse(OLD_RECORD).agents, time_limit=30,
                        resigned=0)
    assert "time-limit: 30\nresigned: 0\nresult: resignation 1,3,5\n\n1.0 " in text
    path = tmp_path / "resigned.vrec"
    record.save(game, path, agents=["person"] + ["greedy"] * 5, time_limit=30, resigned=0)
    assert path.read_text() == text
    loaded, header = record.load(path), record.parse(text)
    assert header.resigned == 0 and header.result == "resignation 1,3,5"
    assert [str(a) for a in loaded.history()] == [str(a) for a in game.history()]
    assert record.dumps(loaded, agents=header.agents, time_limit=header.time_limit,
                        resigned=header.resigned) == text            # load(save(x)) == x
    four = victorus.Game("compact", players=4)                       # seats 0, 1, 3, 4
    assert "result: resignation 0,3,4" in record.dumps(four, resigned=1)


def test_resignations_that_cannot_be_are_refused():
    over = played("compact", 2, "quick2", seed=1)
    assert over.is_over
    with pytest.raises(victorus.ConfigError, match="already over"):
        record.dumps(over, resigned=0)
    with pytest.raises(victorus.ConfigError, match="seat 2 is not in this game"):
        record.dumps(victorus.Game("compact", players=4), resigned=2)
    resigned = record.dumps(record.loads(OLD_RECORD), resigned=1)
    for old, new, message in [
        ("resigned: 1", "resigned: 6", "resigned must be a seat 0 to 5"),
        ("result: resignation 0,2,4", "result: unfinished", "the replay ends 'resignation"),
        ("result: resignation 0,2,4", "result: resignation 1,3,5", "record result"),
    ]:
        with pytest.raises(victorus.RecordError, match=message):
            record.loads(resigned.replace(old, new))
    text = record.dumps(over)
    finished = text.replace("result: ", "resigned: 0\nresult: ")
    with pytest.raises(victorus.RecordError, match="already over"):
        record.loads(finished)


def test_the_documented_resigned_record_loads_and_round_trips():
    import re
    from pathlib import Path
    api = (Path(__file__).resolve().parents[1] / "docs" / "api.md").read_text()
    text = re.search(r"```text\n(victorus-record 1\n.*?)```", api, re.S).group(1)
    header = record.parse(text)
    assert header.resigned == 0
    assert record.dumps(record.loads(text), agents=header.agents, time_limit=header.time_limit,
                        resigned=header.resigned) == text


@pytest.mark.parametrize("key", ["board", "variant", "start", "agents", "result"])
def test_a_huge_header_value_is_refused_in_a_short_message(key):
    """A 1 MB header value: the error names the key and the limit, and does not echo it."""
    text = f"victorus-record 1\n{key}: {'x' * 1_000_000}\n\n"
    with pytest.raises(victorus.RecordError, match=f"'{key}' is 1,000,000 characters") as info:
        record.loads(text)
    assert len(str(info.value)) < 200
