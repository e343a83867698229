"""R38 action notation and R39 VPN: round trips, and every documented rejection."""

import pytest

import victorus
from helpers import ALL_CONFIGS, actions, config_id, position
from victorus.notation import parse_action

START = victorus.Game().vpn()
@pytest.mark.parametrize("board, players, variant", ALL_CONFIGS,
                         ids=[config_id(c) for c in ALL_CONFIGS])
def test_start_positions_round_trip_r39(board, players, variant):
    vpn = victorus.Game(board, players=players, variant=variant).vpn()
    assert victorus.Game.from_vpn(vpn).vpn() == vpn


def test_start_vpn_fields_r39():
    fields = START.split(" ")
    assert fields[0] == "standard" and fields[2] == "0" and fields[4] == "1" and fields[5] == "standard"
    assert fields[1].startswith("f1:0Xw,h1:0K,j1:0Xb,l1:0Q,")
    assert fields[3] == "/".join(["a,0,,0,0"] * 6)
    four = victorus.Game("compact", players=4, variant="quick").vpn().split(" ")
    assert four[3].split("/")[2] == "x,0,,-,-" and four[5] == "players4+quick40"


def test_variant_parsing_accepts_any_order_prints_alphabetical_r39():
    vpn = position({"i6": "0Tw"}, variant="quick12+players2")
    assert victorus.Game.from_vpn(vpn).vpn().endswith(" players2+quick12")
    vpn = position({"i6": "0Tw"}, variant="quick")
    assert victorus.Game.from_vpn(vpn).vpn().endswith(" quick40")
    assert victorus.Game(variant="quick+allied").vpn().endswith(" allied+quick40")


def test_odd_but_valid_positions_are_accepted_r39():
    # An active army with neither King nor Queen, tallies, royal knights, held pieces, passes.
    vpn = position({"i6": "0Tw1", "i8": "1Tb+", "h1": "0K"}, armies={2: "a,5,0Q.1Xb+.3Hw"},
                   laps={"h1": -2}, round_text="7/3", variant="players3")
    game = victorus.Game.from_vpn(vpn)
    assert game.vpn() == vpn
    assert game.held(2) == ("0Q", "1Xb+", "3Hw")


def swap_field(vpn, index, value):
    fields = vpn.split(" ")
    fields[index] = value
    return " ".join(fields)


def army_field(vpn, seat, value):
    fields = vpn.split(" ")
    armies = fields[3].split("/")
    armies[seat] = value
    fields[3] = "/".join(armies)
    return " ".join(fields)


REJECTED = {
    "too few fields": (START.rsplit(" ", 1)[0], "6 space-separated fields"),
    "too many fields": (START + " extra", "6 space-separated fields"),
    "fields out of order": (" ".join(START.split(" ")[1:2] + START.split(" ")[:1] + START.split(" ")[2:]),
                            "field 1"),
    "unknown board": (swap_field(START, 0, "giant"), "unknown board"),
    "placement order": (position({"i8": "0Tb"}).replace("i8:0Tb", "i8:0Tb,i6:0Tw"), "cell-index order"),
    "one cell twice": (position({"i6": "0Tw"}).replace("i6:0Tw", "i6:0Tw,i6:1Tw"), "cell-index order"),
    "unknown cell": (position({"i6": "0Tw"}).replace("i6:", "z6:"), "unknown cell 'z6'"),
    "unknown piece": (position({"i6": "0Tw"}).replace("0Tw", "0Zw"), "bad entry"),
    "piece on centre": (position({"i6": "0Tw"}).replace("i6:0Tw", "i14:0K"), "centre"),
    "knight off color": (position({"i6": "0Tw"}).replace("i6:0Tw", "i6:0Tb"), "only on grey"),
    "too many of a kind": (position({"i6": "0Tw", "i10": "0Tw"}), "2 pieces 'Tw'"),
    "held and on board": (position({"i6": "0Tw"}, armies={1: "a,0,0Tw"}), "2 pieces 'Tw'"),
    "absent army piece": (position({"i8": "2Tb"}, variant="players4"), "army 2 is absent"),
    "eliminated army piece": (position({"i8": "2Tb"}, armies={2: "e,0,"}), "army 2 is eliminated"),
    "absent side to move": (position({}, to_move=5, variant="players5"), "army 5 is absent"),
    "eliminated side to move": (position({}, to_move=1, armies={1: "e,0,"}), "army 1 is eliminated"),
    "royal hospitaller": (position({"i6": "0Hw"}).replace("0Hw", "0Hw+"), "Hospitaller"),
    "hospitaller tally": (position({"i6": "0Hw"}).replace("0Hw", "0Hw1"), "Hospitaller"),
    "royal king": (position({"h1": "0K"}).replace("0K", "0K+"), "bad entry"),
    "queen tally": (position({"l1": "0Q"}).replace("0Q", "0Q1"), "bad entry"),
    "pass count zero": (position({}, round_text="3/0"), "pass count"),
    "round zero": (position({}, round_text="0"), "round"),
    "non-integer laps": (position({"h1": "0K"}).replace("a,0,,0,-", "a,0,,1.5,-"), "laps"),
    "laps for absent royal": (position({"h1": "0K"}).replace("a,0,,0,-", "a,0,,0,3"), "not on the board"),
    "missing laps": (position({"h1": "0K"}).replace("a,0,,0,-", "a,0,,-,-"), "is on the board"),
    "allied with 4 players": (position({}, variant="allied+players4"), "allied"),
    "unknown variant": (position({}, variant="blitz"), "variant"),
    "army count": (START.replace("/a,0,,0,0 1 ", " 1 ", 1), "6 '/'-separated"),
    "army state": (army_field(START, 1, "z,0,,0,0"), "state 'z'"),
    "army wrongly absent": (army_field(START, 1, "x,0,,0,0"), "must be present"),
    "captures not a number": (army_field(START, 1, "a,-1,,0,0"), "knight captures"),
    "held code": (army_field(START, 1, "a,0,7K,0,0"), "held piece '7K'"),
    "held royal hospitaller": (army_field(START, 1, "a,0,2Hw+,0,0"), "held piece"),
    "side not a digit": (swap_field(START, 2, "red"), "side to move"),
    "not a string": (None, "a VPN is a string"),
    "empty": ("", "6 space-separated fields"),
}


@pytest.mark.parametrize("name", sorted(REJECTED))
def test_vpn_rejections_r39(name):
    vpn, message = REJECTED[name]
    with pytest.raises(victorus.NotationError, match=message):
        victorus.Game.from_vpn(vpn)


def test_vpn_only_at_turn_start():
    game = victorus.Game.from_vpn(position({"i6": "0Tw+"}))
    game.play("i6-i10")
    with pytest.raises(victorus.StateError, match="start of a turn"):
        game.vpn()
    game.play("stop")
    game.vpn()


# -- R38 actions --------------------------------------------------------------------

def test_every_action_has_one_string_and_parses_back_r38():
    game = victorus.Game()
    for action in game.legal_actions():
        again = parse_action(game.board, str(action))
        assert again == action and str(again) == str(action)


@pytest.mark.parametrize("text, message", [
    ("h3h5", "malformed action"), ("h3-", "malformed action"), ("H3-H5", "malformed action"),
    ("h3-z5", "unknown cell 'z5'"), ("stop!", "malformed action"), ("", "malformed action"),
    (42, "an Action or an R38 string"), (None, "an Action or an R38 string"),
    # junk around a legal leg (g2-h5 is legal at the start): one action, one string
    ("g2-h5zz", "malformed action"), ("g2-h5 ", "malformed action"), (" g2-h5", "malformed action"),
    ("g2-h5\n", "malformed action"), ("g2-h5x", "malformed action"), ("endx", "malformed action")])
def test_malformed_actions_are_notation_errors_r38(text, message):
    game = victorus.Game()
    before = game.vpn()
    with pytest.raises(victorus.NotationError, match=message):
        game.play(text)
    assert game.vpn() == before


@pytest.mark.parametrize("text", ["h3-h9", "h3xh5", "end", "stop", "pass", "i14-i12"])
def test_illegal_actions_leave_the_game_unchanged(text):
    game = victorus.Game()
    before = game.vpn()
    with pytest.raises(victorus.IllegalActionError) as err:
        game.play(text)
    assert text in str(err.value) and "legal" in str(err.value)
    assert game.vpn() == before and actions(game) and len(game.legal_actions()) == 31
    assert isinstance(err.value, ValueError) and isinstance(err.value, victorus.VictorusError)


def test_action_objects_from_another_state_are_checked():
    game = victorus.Game()
    first = game.legal_actions()[0]
    game.play(first)
    with pytest.raises(victorus.IllegalActionError):
        game.play(first)


def test_huge_numbers_in_variants_are_refused_clearly():
    with pytest.raises(victorus.ConfigError, match="from 1 to 1000000000"):
        victorus.Game(variant="quick" + "9" * 5000)        # not Python's int() digit limit
    with pytest.raises(victorus.NotationError):
        victorus.Game.from_vpn(victorus.Game().vpn().rsplit(" ", 1)[0] + " quick" + "9" * 5000)
