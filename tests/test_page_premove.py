"""Premoves on the server (victorus.page.table): dropped at the game's end, after a
resignation and after an undo alike (a drop is never refused), and tied to the army whose
piece they move (in a team game a premove made for one army is never played for
another)."""

import pytest

import victorus
from helpers import call, position, serving
from victorus.page.page_state import RequestError
from victorus.page.server import PERSON, Table

# Red's King on i8 after a lap (i8-i14 enters the centre: red's team wins), blue's
# Templar on i20; red (an agent) to act.
RED_WINS_NEXT = position({"i8": "0K", "i20": "1Tb"}, armies={0: "a,3,"}, laps={"i8": 1})
# Red's Templar on i6, blue's on i20 and green's on c6 (six armies, no teams); blue to act.
THREE = position({"i6": "0Tw", "i20": "1Tb", "c6": "3Tb"}, to_move=1)


def table_at(vpn, seats):
    table = Table("standard", 6, seats=list(seats), agent_delay=0)
    table.session.replace_game(victorus.Game.from_vpn(vpn))
    table.set_seats(list(seats))
    return table


def test_a_premove_is_dropped_at_the_game_s_end_and_a_drop_is_never_refused():
    table = table_at(RED_WINS_NEXT, ["best"] + [PERSON] * 5)
    table.set_premove("i20-i16")
    assert table.state()["premove"] == "i20-i16" and table.state()["premove_army"] == 1
    table.game.play("i8-i14")                 # red's King enters the centre
    table.tell("red wins")                    # (any change after the end)
    assert table.game.is_over
    state = table.state()
    assert table.premove is None and state["premove"] is None and state["premove_army"] is None
    table.set_premove(None)                   # Escape after the end: nothing to drop, no error
    with pytest.raises(RequestError, match="the game is over"):
        table.set_premove("i20-i16")


def test_the_agent_s_winning_move_drops_the_premove_and_escape_is_answered_200():
    with serving(table_at(RED_WINS_NEXT, ["greedy"] + [PERSON] * 5), worker=False) as srv:
        assert call(srv, "/api/premove", {"action": "i20-i16"})[0] == 200
        while not srv.table.game.is_over:
            assert srv.work()
        assert srv.table.premove is None
        status, state = call(srv, "/api/state")
        assert status == 200 and state["over"] and state["premove"] is None
        status, answer = call(srv, "/api/premove", {"action": None})     # (Escape)
        assert status == 200 and answer["ok"]


def test_a_premove_is_dropped_by_a_resignation_and_by_an_undo():
    table = table_at(THREE, [PERSON, "greedy", "greedy", PERSON, "greedy", "greedy"])
    table.set_premove("i6-i2")
    table.resign(0)
    assert table.premove is None and table.premove_army is None
    assert table.state()["premove"] is None
    table.set_premove(None)                   # never refused
    # undo: red (the person) played its turn, blue's agent is to act
    table = Table("compact", 2, seats=[PERSON] + ["greedy"] * 5, agent_delay=0)
    while table.game.to_move == 0:
        table.play(table.game.legal_actions()[0].text)
    red_piece = next(label for label in table.game.board.labels
                     if (table.game.piece_at(label) or "").startswith("0"))
    table.set_premove(f"{red_piece}-{red_piece}")
    assert table.premove_army == 0
    table.undo()
    assert table.premove is None and table.state()["premove"] is None
    assert table.game.ply == 0


def test_a_premove_is_tied_to_its_army_and_never_played_for_another():
    seats = [PERSON, "greedy", "greedy", PERSON, "greedy", "greedy"]
    table = table_at(THREE, seats)            # blue to act, then black, green, ..., red
    # refused: a piece of an agent's army, an empty cell, a word
    for text, words in (("i20-i16", "i20-i16 moves a piece of blue"),
                        ("e6-e10", "e6-e10 moves no piece"), ("pass", "pass moves no piece")):
        with pytest.raises(RequestError, match=f"army played from the page \\(red, green\\); "
                                               f"{words}$"):
            table.set_premove(text)
    # red's premove: green's turn comes first and drops it (never played for green)
    table.set_premove("i6-i2")
    assert (table.premove, table.premove_army) == ("i6-i2", 0)
    assert table.state()["premove_army"] == 0
    while not table.session.person_to_act():
        assert table.work()
    assert table.game.to_move == 3 and table.premove is None
    assert table.message == "red's premove i6-i2 was dropped: green's turn came first"
    assert all(not a.text.startswith("i6") for a in table.game.history())
    # green's own premove is played at green's turn
    table = table_at(THREE, seats)
    table.set_premove("c6-g6")
    assert table.premove_army == 3
    while "c6-g6" not in [a.text for a in table.game.history()]:
        assert table.work()
    assert [a.text for a in table.game.history()][-2:] == ["pass", "c6-g6"]   # black, green
    assert table.message == "green plays c6-g6 (premove)"
