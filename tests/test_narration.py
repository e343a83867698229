"""The game's events in words (victorus.page.narration): each found by comparing the position
before and after an action, in hand-built positions (R24, R25, R28-R32)."""

import victorus
from helpers import position
from victorus import record
from victorus.page import page_state
from victorus.page.narration import Narration, cells, result_words, turn_events, watching_words

UNGATED = "a,3,"          # an army whose knights made 3 captures (R19)
RESCUE = position({"i6": "0Tw", "i10": "1Q", "f17": "1K", "i20": "2Tb"}, armies={1: "a,0,0K"})


def narrated(vpn, played):
    """(the game after ``played``, the events of each action) from ``vpn``."""
    game = victorus.Game.from_vpn(vpn)
    narration = Narration(game, victorus.Game.from_vpn(vpn))
    for action in played:
        game.play(action)
    return game, narration.update()


def test_a_rescue_exchange_says_who_was_exchanged_for_whom_r31():
    game, events = narrated(RESCUE, ["i6xi10", "end"])
    assert events[0][0] == ("rescue: red's King was exchanged for blue's Queen; both went home "
                            "(h1 and d3)")
    assert "red's King on h1 is frozen for the rest of the turn" in events[0]      # R31, R24


def test_the_capturer_is_frozen_r24_and_promoted_at_the_turn_s_end_r25():
    game, events = narrated(position({"i6": "0Tw1", "i10": "1Xw", "i20": "1Tb"}),
                            ["i6xi10", "end"])
    assert events == [["red's Templar on i10 is frozen for the rest of the turn"],
                      ["red's Templar on i10 was promoted to a royal knight"]]


def test_a_quiet_move_tells_nothing():
    game, events = narrated(position({"i6": "0Tw", "i20": "1Tb"}), ["i6-i10"])
    assert events == [[]]


def test_an_elimination_says_the_army_is_out_r30():
    game, events = narrated(position({"i6": "0Tw", "i10": "1Q", "c6": "1Tb", "i20": "2Tb"},
                                     armies={3: "a,0,1K"}), ["i6xi10"])
    assert "blue is out" in events[0]


def test_laps_and_the_centre_are_told_r28_r29():
    game, events = narrated(position({"h17": "0K", "i20": "1Tb"}, armies={0: UNGATED}),
                            ["h17-j19"])
    assert events == [["red's King completed lap 1 around the centre and may enter it"]]
    game, events = narrated(position({"i8": "0K", "i20": "1Tb"}, armies={0: UNGATED},
                                     laps={"i8": 1}), ["i8-i14"])
    assert events == [["red's King reached the centre"]]


def test_the_result_in_a_player_s_words_r28_r32():
    game, _ = narrated(position({"i8": "0Q", "i20": "1Tb"}, armies={0: UNGATED},
                                laps={"i8": 1}, variant="players2"), ["i8-i14"])
    words = result_words(game, (0,))
    assert words["title"] == "red, black and purple won: red's Queen reached the centre"
    assert words["yours"] == "your team won"
    assert result_words(game, (1,))["yours"] == "your team lost"
    assert result_words(game, ())["yours"] is None
    game, _ = narrated(position({"i6": "0Tw", "i10": "1K"},
                                armies={0: "a,0,1Q", 2: "e,0,", 3: "e,0,", 4: "e,0,",
                                        5: "e,0,"}), ["i6xi10"])
    assert result_words(game, (1,)) == {"title": "red won: every other army is out",
                                        "reason": "elimination", "winners": [0],
                                        "yours": "you lost"}
    assert result_words(victorus.Game(), (0,)) is None


def test_a_person_whose_army_is_out_is_watching_r30():
    game, _ = narrated(position({"i6": "0Tw", "i10": "1Q", "c6": "1Tb", "i20": "2Tb"},
                                armies={3: "a,0,1K"}), ["i6xi10"])
    assert watching_words(game, (1,)) == "blue is out: you are watching now"
    assert watching_words(game, (0,)) is None


def test_the_summary_tells_the_events_with_the_person_s_army_as_yours():
    game = victorus.Game.from_vpn(RESCUE)
    game.play("i6xi10")
    game.play("end")
    turn = page_state.summary(game, person_seats={1})[-1]
    assert turn["text"] == "red: Templar i6xi10 took your Queen"
    assert turn["events"][0] == ("rescue: red's King was exchanged for your Queen; both went "
                                 "home (h1 and d3)")
    assert "red's Templar on i10 was promoted to a royal knight" in turn["events"]


def test_the_narration_of_a_growing_game_is_that_of_its_whole_history():
    game = victorus.Game("compact", players=3)
    narration = Narration(game, record.starting_game(game))
    victorus.game.play_random(game, seed=3, max_actions=150)
    grown = narration.update()
    victorus.game.play_random(game, seed=4, max_actions=150)
    grown = narration.update()
    whole = turn_events(record.starting_game(game), game.history())
    assert grown == whole and len(whole) == game.ply
    assert any(whole)                      # a random game has captures and frozen pieces


def test_the_cells_events_are_read_from_are_the_view_s():
    game = victorus.Game("compact", players=3)
    victorus.game.play_random(game, seed=5, max_actions=200)
    view, read = game.view(), cells(game)
    for name in ("army", "kind", "royal", "laps", "frozen", "states"):
        assert getattr(read, name) == getattr(view, name), name
