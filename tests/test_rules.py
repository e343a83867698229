"""One hand-built position (through VPN) per ruling R12-R37: each test's actions or
outcome would change if its ruling were broken. Every test runs on the engine and on the
reference."""

import pytest

import victorus
from helpers import actions, position
from victorus._reference_game import ReferenceGame, laps_after
from victorus.geometry import KING, QUEEN, Board
from victorus.pieces import Piece

IMPLEMENTATIONS = {"engine": victorus.Game, "reference": ReferenceGame}
_under_test = {"game": victorus.Game}


def G(vpn):
    """The game of a VPN in the implementation under test: every test of this module runs
    on the C engine and on the pure-Python reference (a rule broken in one is caught)."""
    return _under_test["game"].from_vpn(vpn)


@pytest.fixture(autouse=True, params=sorted(IMPLEMENTATIONS))
def implementation(request):
    _under_test["game"] = IMPLEMENTATIONS[request.param]
    yield request.param
    _under_test["game"] = victorus.Game
STD = Board("standard")
UNGATED = "a,3,"          # an army whose knights made 3 captures (R19)


def pass_until(game, seat):
    """Let the other armies (which have no pieces) pass until ``seat`` is to move."""
    while game.to_move != seat:
        assert actions(game) == {"pass"}
        game.play("pass")


def from_cell(game, label):
    return {a for a in actions(game) if a[:len(label)] == label and a[len(label)] in "-x"}


# -- R12 slides, R10 colors ---------------------------------------------------------

def test_templar_slides_and_captures_r10_r12():
    g = G(position({"i6": "0Tw", "i10": "1Xw"}))
    # Up: i8 (grey) is passed, i10 (white, enemy) captured; down: i2; spokes: e6, m6;
    # strategic steps (R13): the ring neighbours h7, j7.
    assert actions(g) == {"i6xi10", "i6-i2", "i6-e6", "i6-m6", "i6-h7", "i6-j7"}


def test_black_edged_knight_stops_only_on_grey_r10():
    g = G(position({"i8": "0Tb"}))
    targets = {a[3:] for a in actions(g)}
    assert targets and all(STD.color(t) == "grey" for t in targets)


# -- R13 strategic step -------------------------------------------------------------

def test_royal_templar_strategic_step_ends_the_move_r13():
    g = G(position({"i6": "0Tw+", "i20": "1Tb"}))
    g.play("i6-h7")                       # strategic: the move (and turn) ends
    assert g.to_move == 1 and g.phase == "start"


def test_one_step_normal_leg_is_not_a_strategic_step_r13():
    # A royal black Teutonic's one-step diagonal i8-j9 is its normal leg 1: leg 2 may follow.
    g = G(position({"i8": "0Ub+"}))
    g.play("i8-j9")
    assert g.phase == "move" and "stop" in actions(g)


def test_strategic_step_never_captures_r13():
    g = G(position({"i6": "0Tw", "h7": "1Uw"}))
    assert "i6-h7" not in actions(g) and "i6xh7" not in actions(g)
    assert "i6-j7" in actions(g)


# -- R14 Hospitaller ----------------------------------------------------------------

def test_hospitaller_travel_then_mandatory_pivot_r14():
    g = G(position({"e10": "0Hw", "i20": "1Tb"}))
    travel = sorted(actions(g))
    assert travel and all(a.startswith("e10-") for a in travel)      # never a capture
    g.play(travel[0])
    pivot = travel[0][4:]
    after = actions(g)
    assert g.phase == "move" and "stop" not in after and "end" not in after
    same = {STD.labels[n] for n in STD.neighbours(STD.cell(pivot))
            if STD.colors[n] == STD.colors[STD.cell(pivot)]}
    assert {a[len(pivot) + 1:] for a in after} == same


def test_travel_without_pivot_is_illegal_r14_r16():
    g = G(position({"e10": "0Hw"}))
    dest = sorted(actions(g))[0][4:]
    d = STD.cell(dest)
    mates = [STD.labels[n] for n in STD.neighbours(d) if STD.colors[n] == STD.colors[d]]
    codes = iter(["0Tw", "0Uw"])
    g = G(position({"e10": "0Hw", **{m: next(codes) for m in mates}}))
    assert f"e10-{dest}" not in actions(g)
    with pytest.raises(victorus.IllegalActionError):
        g.play(f"e10-{dest}")
    # An enemy on a pivot cell makes the pivot a capture: the travel is legal again.
    g = G(position({"e10": "0Hw", mates[0]: "1Tw", mates[1]: "0Uw"}))
    assert f"e10-{dest}" in actions(g)
    g.play(f"e10-{dest}")
    assert actions(g) == {f"{dest}x{mates[0]}"}


# -- R15, R26 words: stop, end, pass; the all-pass draw -------------------------------

def test_pass_only_without_legal_action_and_all_pass_draw_r26():
    g = G(position({}))
    assert actions(g) == {"pass"}
    for n in range(1, 6):
        g.play("pass")
        assert g.vpn().split()[4] == f"1/{n}"
    assert not g.is_over
    g.play("pass")                        # sixth consecutive pass: all six live armies
    assert g.is_over and g.winners == () and g.result_reason == "draw"


def test_no_pass_beside_a_single_legal_leg_r15_r26():
    """A Templar in the board's corner has one leg (a14-a16): it must be played, pass is
    only for an army with no legal action at all."""
    g = G(position({"a14": "0Tw"}))
    assert actions(g) == {"a14-a16"}


def test_pass_count_resets_and_counts_live_armies_only_r26():
    g = G(position({"i6": "0Tw"}, armies={3: "e,0,", 4: "e,0,"}))
    g.play("i6-i2")
    assert g.vpn().split()[4] == "1"
    for _ in range(3):
        g.play("pass")                    # seats 1, 2, 5 (3 and 4 are eliminated)
    assert g.vpn().split()[4] == "2/3" and not g.is_over
    g.play("i2-i6")
    assert g.vpn().split()[4] == "2"


# -- R16-R17 royal knights ------------------------------------------------------------

def test_royal_knight_second_leg_or_stop_r16_r17():
    g = G(position({"i6": "0Tw+", "i20": "1Tb"}))
    g.play("i6-i10")
    after = actions(g)
    assert "stop" in after and "end" not in after
    assert "i10-i6" not in after          # R17: no null move back to the start cell
    assert "i10-i2" in after              # ...but sliding past it is fine
    g.play("stop")
    assert g.to_move == 1


@pytest.mark.parametrize("impl", [victorus.Game, ReferenceGame], ids=["engine", "reference"])
def test_royal_knight_leg_two_never_ends_on_the_start_cell_even_capturing_r17_r31(impl):
    """R17 "leg 2 may not end on the cell where the move started", also when leg 1's
    rescue (R31) has put a royal back there."""
    # Blue's royal Excalibur leaves h1 and captures red's King on h5 while red holds
    # blue's King: the exchange puts red's King home, on h1, the move's start cell.
    g = impl.from_vpn(position({"h1": "1Xb+", "l1": "0Q", "h5": "0K", "i20": "1Q"},
                               to_move=1, armies={0: "a,0,1K"}))
    assert STD.kingdom("h5") is None                  # no kingdom stop (R21) on leg 1
    g.play("h1xh5")
    assert g.piece_at("h1") == "0K" and g.held(0) == () and g.phase == "move"
    after = actions(g)
    assert "h5xh1" not in after                      # leg 2 would end on the start cell
    assert "h5-f3" in after and "stop" in after      # other legs are unaffected


def test_royal_knight_leg_two_captures_after_quiet_leg_one_r17():
    g = G(position({"i6": "0Tw+", "m10": "1Tw"}))
    g.play("i6-i10")
    assert "i10xm10" in actions(g)


# -- R16, R18 King and Queen ---------------------------------------------------------

def test_king_leg_one_without_leg_two_is_illegal_r16():
    pieces = {"h1": "0K", "j1": "0Tb", "l1": "0Tw", "g2": "0Ub", "i2": "0Uw", "l3": "0Bb"}
    g = G(position(pieces))
    # From f1 a gated King has no white kingdom cell to reach: f1 is refused.
    assert from_cell(g, "h1") == {"h1-h3"}
    with pytest.raises(victorus.IllegalActionError, match="legal from h1: h1-h3"):
        g.play("h1-f1")
    # Ungated (R19), f1 -> f5 exists, so h1-f1 becomes legal.
    g = G(position(pieces, armies={0: UNGATED}))
    assert "h1-f1" in actions(g)


def test_king_color_alternation_r18():
    g = G(position({"h17": "0K"}, armies={0: UNGATED}))
    assert STD.color("h17") == "white"
    leg1 = {a[4:] for a in actions(g)}
    assert leg1 and all(STD.color(c) == "grey" for c in leg1)
    g.play("h17-j19")
    leg2 = {a[4:] for a in actions(g)}
    assert leg2 and all(STD.color(c) == "grey" for c in leg2)
    assert "end" not in actions(g) and "stop" not in actions(g)   # leg 2 is mandatory


# -- R19 royal gating -------------------------------------------------------------------

def test_gated_royals_stay_in_their_kingdom_r19():
    g = G(position({"h1": "0K"}, armies={0: "a,2,"}))
    for a in actions(g):
        assert STD.kingdom(a[3:]) == 0
    g = G(position({"h1": "0K"}, armies={0: UNGATED}))
    assert any(STD.kingdom(a[3:]) is None for a in actions(g))


def test_gated_royal_outside_its_kingdom_cannot_move_r19():
    g = G(position({"h17": "0K", "i20": "1Tb"}, armies={0: "a,2,"}))
    assert actions(g) == {"pass"}


def test_gated_royal_beside_its_kingdom_cannot_step_back_in_r19():
    """R19: a gated royal must *start* in its kingdom: on g4, one step from red's f3 and
    h3, it still has no leg."""
    g = G(position({"g4": "0K", "i20": "1Tb"}, armies={0: "a,2,"}))
    assert actions(g) == {"pass"}


def test_centre_entered_only_from_the_portal_r28():
    """R28: a King with a full lap beside the centre enters it only from its portal cell
    (i12 for red), never from another neighbour (h13)."""
    beside = G(position({"h13": "0K", "i20": "1Tb"}, armies={0: UNGATED}, laps={"h13": 1}))
    assert not any(a.endswith("i14") for a in actions(beside))
    portal = G(position({"i12": "0K", "i20": "1Tb"}, armies={0: UNGATED}, laps={"i12": 1}))
    assert "i12-i14" in actions(portal)


def test_knight_captures_ungate_royals_mid_turn_r19():
    # Third knight capture made this turn: the King may leave the kingdom in the bonus move.
    g = G(position({"h1": "0K", "i6": "0Tw", "i10": "1Xw"}, armies={0: "a,2,"}))
    assert all(STD.kingdom(a[3:]) == 0 for a in from_cell(g, "h1"))
    g.play("i6xi10")
    assert any(STD.kingdom(a[3:]) is None for a in from_cell(g, "h1"))


# -- R20 captures ------------------------------------------------------------------------

def test_team_mates_are_not_captured_r20_r33():
    vpn = position({"i6": "0Tw", "i10": "2Xw"}, variant="players2")
    assert "i6xi10" not in actions(G(vpn))
    vpn = position({"i6": "0Tw", "i10": "3Xw"}, variant="players2")
    assert "i6xi10" in actions(G(vpn))


def test_captured_piece_is_held_by_the_capturer_r20():
    g = G(position({"i6": "0Tw", "i10": "1Xw+", "i20": "1Tb"}))
    g.play("i6xi10")
    assert g.held(0) == ("1Xw+",)
    g.play("end")
    assert g.vpn().split()[3].split("/")[0] == "a,1,1Xw+,-,-"


def test_kingdom_to_kingdom_capture_forbidden_r20():
    # i2 (red kingdom) and d7 (blue kingdom) lie on one diagonal through g4 and f5.
    assert STD.kingdom("i2") == 0 and STD.kingdom("d7") == 1 and STD.kingdom("g4") is None
    assert "i2-d7" in actions(G(position({"i2": "0Xw"})))
    assert "i2xd7" not in actions(G(position({"i2": "0Xw", "d7": "1Tw"})))
    # Battlefield to kingdom and kingdom to battlefield are allowed.
    assert "g4xd7" in actions(G(position({"g4": "0Xw", "d7": "1Tw"})))
    assert "i2xg4" in actions(G(position({"i2": "0Xw", "g4": "1Tw"})))
    # Once blue's kingdom is no longer live (R30) the capture is allowed.
    assert "i2xd7" in actions(G(position({"i2": "0Xw", "d7": "2Tw"}, armies={1: "e,0,"})))


# -- R21 kingdom stop ----------------------------------------------------------------------

def test_royal_capture_in_foreign_kingdom_ends_the_move_r21():
    # Red's King (ungated) captures a blue piece inside blue's kingdom on leg 1.
    g = G(position({"i4": "0K", "c10": "1Tw"}, armies={0: UNGATED}))
    assert STD.kingdom("c10") == 1 and STD.kingdom("i4") is None
    g.play("i4xc10")
    assert g.phase == "bonus"
    assert actions(g) == {"end"}          # the King is frozen; no other piece to move


def test_capture_in_eliminated_kingdom_does_not_stop_r21():
    g = G(position({"i4": "0K", "c10": "2Tw"}, armies={0: UNGATED, 1: "e,0,"}))
    g.play("i4xc10")
    assert g.phase == "move"               # blue's kingdom is battlefield now: leg 2 follows


# -- R22-R24 bonus moves, self-bonus, frozen pieces ----------------------------------------

def test_bonus_move_after_capture_r22():
    g = G(position({"i6": "0Tw", "i10": "1Xw", "e10": "0Xw", "i20": "1Tb"}))
    g.play("i6xi10")
    legal = actions(g)
    assert g.phase == "bonus" and "end" in legal
    assert not from_cell(g, "i10")        # the capturer is frozen
    assert from_cell(g, "e10")            # another piece takes the bonus
    g.play(sorted(a for a in from_cell(g, "e10") if "x" not in a)[0])
    assert g.to_move == 1                 # a quiet bonus move ends the turn


def test_capturing_bonus_move_keeps_the_bonus_state_r22():
    g = G(position({"i6": "0Tw", "i10": "1Xw", "e10": "0Xw", "e14": "1Uw", "i20": "1Tb"}))
    g.play("i6xi10")
    g.play("e10xe14")
    assert g.phase == "bonus" and g.to_move == 0
    assert actions(g) == {"end"}


def test_self_bonus_after_two_captures_r23():
    # A royal Templar captures on both legs: it takes the bonus itself, one leg at a time.
    g = G(position({"i6": "0Tw+", "i10": "1Xw", "m10": "1Uw", "e6": "0Uw", "m14": "2Tw",
                    "i20": "1Tb"}))
    g.play("i6xi10")
    g.play("i10xm10")
    assert g.phase == "bonus" and "m10xm14" in actions(g) and "end" in actions(g)
    assert from_cell(g, "e6")             # other pieces may take the bonus instead
    g.play("m10xm14")                     # the chain continues (R23)
    assert g.phase == "bonus" and from_cell(g, "m14")
    quiet = sorted(a for a in from_cell(g, "m14") if "x" not in a)
    g.play(quiet[0])                      # a quiet self-bonus leg ends the turn
    assert g.to_move == 1


def test_self_bonus_is_a_single_normal_leg_r23():
    g = G(position({"i6": "0Tw+", "i10": "1Xw", "m10": "1Uw", "i20": "1Tb"}))
    g.play("i6xi10")
    g.play("i10xm10")
    # No strategic step (ring neighbours l11, n11 are white but not Templar lines).
    assert not {"m10-l11", "m10-n11"} & actions(g)
    g.play("m10-m6")
    assert g.to_move == 1                 # single leg: no leg 2, the turn is over


def test_other_piece_taking_the_bonus_freezes_the_self_eligible_one_r22_r23():
    g = G(position({"i6": "0Tw+", "i10": "1Xw", "m10": "1Uw", "e6": "0Uw", "g8": "1Bw",
                    "i20": "1Tb"}))
    g.play("i6xi10")
    g.play("i10xm10")
    g.play("e6xg8")                       # another piece takes the bonus and captures
    assert g.to_move == 0 and g.phase == "bonus"
    assert not from_cell(g, "m10")        # the self-eligible Templar is frozen now


def test_king_self_bonus_color_rule_r23():
    # King on white h17: leg 1 captures on grey, leg 2 captures on grey; the bonus leg ends on grey.
    g = G(position({"h17": "0K", "j19": "1Tb", "j23": "1Ub", "i20": "2Tb"}, armies={0: UNGATED}))
    g.play("h17xj19")
    g.play("j19xj23")
    legs = from_cell(g, "j23")
    assert legs and all(STD.color(a[4:]) == "grey" for a in legs)


def test_frozen_pieces_thaw_at_the_next_turn_r24():
    g = G(position({"i6": "0Tw", "i10": "1Xw", "i20": "1Tb"}))
    g.play("i6xi10")
    assert not from_cell(g, "i10")
    g.play("end")
    pass_until(g, 1)
    g.play(sorted(actions(g))[0])
    pass_until(g, 0)
    assert from_cell(g, "i10")


# -- R25 promotion ----------------------------------------------------------------------------

def test_promotion_at_end_of_turn_r25():
    g = G(position({"i6": "0Tw1", "i10": "1Xw", "i20": "1Tb"}))
    g.play("i6xi10")
    assert g.piece_at("i10") != "0Tw+"    # not before the turn ends
    g.play("end")
    assert g.piece_at("i10") == "0Tw+"


def test_royal_capture_counts_two_r25():
    g = G(position({"i6": "0Tw", "i10": "1Xw+", "i20": "1Tb"}))
    g.play("i6xi10")
    g.play("end")
    assert g.piece_at("i10") == "0Tw+"
    g = G(position({"i6": "0Tw", "i10": "1Xw", "i20": "1Tb"}))
    g.play("i6xi10")
    g.play("end")
    assert g.piece_at("i10") == "0Tw1"


def test_capturing_a_king_or_queen_counts_two_in_the_tally_r25():
    """A King or Queen is a royal mover: taking one counts 2 and promotes a regular knight
    at the turn's end; a regular knight counts 1 (tally shown as '1')."""
    for victim, after in (("1K", "0Tw+"), ("1Q", "0Tw+"), ("1Xw", "0Tw1")):
        royals = {"i20": "1Q"} if victim != "1Q" else {"i20": "1K"}
        g = G(position({"i6": "0Tw", "i10": victim, **royals}))
        g.play("i6xi10")
        while g.to_move == 0:
            g.play("end")
        assert g.piece_at("i10") == after, victim


def test_hospitaller_never_promoted_r14_r25():
    # Two captures by a Hospitaller (a royal knight would make 2 tally points, R25).
    g = G(position({"e10": "0Hw", "j11": "1Xw+", "i20": "1Tb"}))
    g.play("e10-i10")
    g.play("i10xj11")
    g.play("end")
    assert g.piece_at("j11") == "0Hw"     # no tally, never royal


# -- R28, R29 centre conquest and winding ----------------------------------------------------

def test_centre_entry_needs_a_full_lap_r28():
    g = G(position({"i8": "0K", "i20": "1Tb"}, armies={0: UNGATED}, laps={"i8": 1}))
    assert "i8-i14" in actions(g)
    g.play("i8-i14")
    assert g.is_over and g.winners == (0,) and g.result_reason == "centre"
    g = G(position({"i8": "0K", "i20": "1Tb"}, armies={0: UNGATED}, laps={"i8": 0}))
    assert "i8-i14" not in actions(g)


def test_centre_entry_wins_for_the_team_r28_r32():
    g = G(position({"i8": "0Q", "i20": "1Tb"}, armies={0: UNGATED}, laps={"i8": 1},
                   variant="players2"))
    g.play("i8-i14")
    assert g.winners == (0, 2, 4)


def test_winding_counts_laps_across_the_opposite_ray_r29():
    king = Piece(0, KING, None, laps=0)
    queen = Piece(0, QUEEN, None, laps=0)
    h17, i18, j19 = STD.cell("h17"), STD.cell("i18"), STD.cell("j19")
    # Crossing red's opposite (top) ray from west to east is clockwise: +1 for the King.
    assert laps_after(STD, king, h17, j19) == 1
    assert laps_after(STD, queen, h17, j19) == -1
    # Landing on the ray itself (+180) does not count yet; leaving it eastwards does.
    assert laps_after(STD, king, h17, i18) == 0
    assert laps_after(STD, king, i18, j19) == 1
    # Crossing the seat's own ray (bottom) changes nothing.
    assert laps_after(STD, king, STD.cell("h5"), STD.cell("j5")) == 0
    # Through the game: the King's laps show in the VPN after the turn.
    g = G(position({"h17": "0K"}, armies={0: UNGATED}))
    g.play("h17-j19")
    g.play("j19-n19")                     # stays east of the ray
    pass_until(g, 0)
    assert g.vpn().split()[3].split("/")[0].split(",")[3] == "1"


@pytest.mark.parametrize("impl", [victorus.Game, ReferenceGame], ids=["engine", "reference"])
def test_laps_stay_within_the_vpn_range_r29_r39(impl):
    """A King at the largest laps VPN accepts goes round once more: its laps stay there,
    so the VPN printed is one VPN accepts."""
    from victorus.constants import MAX_LAPS
    g = impl.from_vpn(position({"h17": "0K"}, armies={0: UNGATED}, laps={"h17": MAX_LAPS}))
    g.play("h17-j19")
    g.play("j19-n19")
    pass_until(g, 0)
    assert g.vpn().split()[3].split("/")[0].split(",")[3] == str(MAX_LAPS)
    assert impl.from_vpn(g.vpn()).vpn() == g.vpn()


# -- R30-R32 elimination, rescue, victory ----------------------------------------------------

def test_rescue_exchange_r31():
    """R31, R27: red captures blue's Queen while blue holds red's King: both royals go
    home, to their setup cells."""
    g = G(position({"i6": "0Tw", "i10": "1Q", "f17": "1K", "i20": "2Tb"},
                   armies={1: "a,0,0K"}))
    g.play("i6xi10")
    assert g.piece_at("h1") == "0K"        # red's King home (frozen for this turn)
    assert not from_cell(g, "h1")
    blue_queen_home = STD.labels[STD.home_cells[1]["Q"]]
    assert g.piece_at(blue_queen_home) == "1Q"
    assert g.held(0) == () and g.held(1) == ()
    g.play("end")
    assert g.vpn().split()[3].split("/")[:2] == ["a,1,,0,-", "a,0,,0,0"]   # windings reset


def test_rescue_fallback_to_nearest_empty_kingdom_cell_r31():
    # Red's home h1 is occupied by a blue piece: the King goes to the nearest empty red cell.
    g = G(position({"i6": "0Tw", "i10": "1Q", "h1": "1Tb", "i20": "2Tb", "f1": "0Xw",
                    "j1": "0Xb", "g2": "0Bb", "i2": "0Uw"},
                   armies={1: "a,0,0K"}))
    g.play("i6xi10")
    # h1's neighbours g2 and i2 are taken; h3, one step up, is the only empty red cell at
    # hex distance 1 (f1 and j1 are 2 away, along the row).
    assert [lab for lab in STD.labels if g.piece_at(lab) == "0K"] == ["h3"]
    assert STD.kingdom("h3") == 0


# Red captures blue's Queen while blue holds red's King (R31); the cells named are
# filled with pieces of the four other armies. Per board: the capture, then per case the
# cells filled and where red's King (and blue's Queen) must land.
RESCUE = {
    "standard": {"capture": ("i6", "i10", "i6xi10"),
                 # own kingdom: red cells within 2 of h1 taken; g4 (2 away) is nearer
                 # than any empty red cell, k2 (3 away) is the nearest one
                 "own": ("h1 g2 i2 h3 f1 j1 f3 j3", "k2"),
                 # home taken: g2, i2, h3 all 1 away, g2 has the lowest index
                 "tie": ("h1", "g2"),
                 # red kingdom full: g4 and i4 2 away, g4 the lower index
                 "full": ("RED", "g4"),
                 # red full, blue full but e2, the empty cell nearest to h1 (once g4, i4,
                 # h5 are taken): red's King takes e2 first, blue's Queen falls back to f5
                 "first": ("RED BLUE-e2 g4 i4 h5", "e2", "f5")},
    "compact": {"capture": ("k12", "k16", "k12xk16"),
                "own": ("h3 i2 g4 i4 h5 j3 g6 i6 j5", "k4"),       # f5 (blue's) is nearer
                "tie": ("h3", "i2"),                                # i2, g4, i4, h5 1 away
                "full": ("RED", "f5"),                              # a blue cell, 2 away
                "first": ("RED BLUE-f5", "f5", "f9")},
}


def rescue_game(impl, board_name, filled):
    """Red's Templar captures blue's Queen, blue holding red's King, with ``filled``
    (labels; ``RED``: red's kingdom, ``BLUE-<label>``: blue's but that cell) taken."""
    board = Board(board_name)
    cells = set()
    for word in filled.split():
        if word == "RED":
            cells |= {c for c in range(len(board)) if board.kingdoms[c] == 0}
        elif word.startswith("BLUE-"):
            cells |= {c for c in range(len(board)) if board.kingdoms[c] == 1} - {board.cell(word[5:])}
        else:
            cells.add(board.cell(word))
    pool = {0: [f"{s}{k}w" for s in range(2, 6) for k in "TUBXH"],        # white cells
            1: [f"{s}{k}b" for s in range(2, 6) for k in "TUBXH"]}        # grey cells
    royals = [f"{s}{k}" for s in range(2, 6) for k in "KQ"]
    pieces = {}
    for c in sorted(cells):
        color = board.colors[c]
        pieces[board.labels[c]] = pool[color].pop() if pool[color] else royals.pop()
    start, victim, capture = RESCUE[board_name]["capture"]
    assert start not in pieces and victim not in pieces
    pieces.update({start: "0Tw", victim: "1Q"})
    g = impl.from_vpn(position(pieces, board=board_name, armies={1: "a,0,0K"}))
    g.play(capture)
    return g, board


def royal_cell(g, board, code):
    return [lab for lab in board.labels if g.piece_at(lab) == code]


IMPLS = pytest.mark.parametrize("impl", [victorus.Game, ReferenceGame], ids=["engine", "reference"])


@IMPLS
def test_rescue_prefers_own_kingdom_over_a_nearer_empty_cell_r31(board, impl):
    """R31: with the home cell taken, the royal goes to the nearest empty cell of its own
    kingdom even though an empty cell outside it is nearer."""
    filled, expected = RESCUE[board.name]["own"]
    g, b = rescue_game(impl, board.name, filled)
    assert royal_cell(g, b, "0K") == [expected]
    assert b.kingdoms[b.cell(expected)] == 0


@IMPLS
def test_rescue_fallback_ties_go_to_the_lower_cell_index_r31(board, impl):
    """R31: several empty kingdom cells at the same distance: the lowest cell index."""
    filled, expected = RESCUE[board.name]["tie"]
    g, b = rescue_game(impl, board.name, filled)
    assert royal_cell(g, b, "0K") == [expected]


@IMPLS
def test_rescue_full_kingdom_falls_back_to_the_nearest_board_cell_r31(board, impl):
    """R31: own kingdom full: the nearest empty non-centre cell of the whole board (ties
    by lower index), the home cell's occupant untouched."""
    filled, expected = RESCUE[board.name]["full"]
    g, b = rescue_game(impl, board.name, filled)
    assert royal_cell(g, b, "0K") == [expected]
    assert g.piece_at(b.labels[b.home_cells[0]["K"]]) not in (None, "0K")


@IMPLS
def test_rescue_places_the_capturers_royal_first_r31(board, impl):
    """R31 "X's royal is placed first": both royals fall back to the same empty cell;
    the capturer's King gets it, the victim's Queen takes the next nearest to its home."""
    filled, king, queen = RESCUE[board.name]["first"]
    g, b = rescue_game(impl, board.name, filled)
    assert royal_cell(g, b, "0K") == [king]
    assert royal_cell(g, b, "1Q") == [queen]


def test_elimination_r30():
    # Blue's King is held by green; red captures blue's Queen: blue is eliminated.
    g = G(position({"i6": "0Tw", "i10": "1Q", "c6": "1Tb", "i20": "2Tb"},
                   armies={3: "a,0,1K"}))
    g.play("i6xi10")
    g.play("end")
    fields = g.vpn().split()
    assert fields[3].split("/")[1] == "e,0,,-,-"
    assert "c6" not in fields[1]          # blue's pieces left the board
    assert g.to_move == 2                 # blue's turns are skipped


def test_eliminated_kingdom_loses_its_walls_r8_r30():
    # A step between red's and blue's kingdoms is walled while blue lives.
    b = STD
    i, d = next((i, d) for i in range(len(b)) for d in range(6)
                if b.kingdoms[i] == 0 and b.steps[i][d] is not None
                and b.kingdoms[b.steps[i][d]] == 1 and b.colors[b.steps[i][d]] == b.colors[i])
    a, t = b.labels[i], b.labels[b.steps[i][d]]
    code = "0Xw" if b.colors[i] == 0 else "0Xb"       # an Excalibur uses all six edges
    assert f"{a}-{t}" not in actions(G(position({a: code})))
    assert f"{a}-{t}" in actions(G(position({a: code}, armies={1: "e,0,"})))


def test_victory_by_elimination_r32():
    g = G(position({"i6": "0Tw", "i10": "1K"},
                   armies={0: "a,0,1Q", 2: "e,0,", 3: "e,0,", 4: "e,0,", 5: "e,0,"}))
    g.play("i6xi10")
    assert g.is_over and g.winners == (0,) and g.result_reason == "elimination"


def test_team_victory_by_elimination_r32_r33():
    g = G(position({"i6": "0Tw", "i10": "1K", "i20": "2Tb"},
                   armies={0: "a,0,1Q", 3: "e,0,", 5: "e,0,"}, variant="players2"))
    g.play("i6xi10")
    assert g.winners == (0, 2, 4) and g.result_reason == "elimination"


# -- R33, R34 players, teams, turn order ------------------------------------------------------

def test_turn_order_and_first_mover_r33_r34():
    new_game = _under_test["game"]
    assert new_game().to_move == 0
    g = new_game(variant="allied")
    assert g.to_move == 5
    seen = []
    for _ in range(6):
        seen.append(g.to_move)
        g.play(sorted(actions(g))[0])
        while g.phase != "start":
            g.play(sorted(actions(g))[0])
    assert seen == [5, 2, 0, 1, 3, 4]
    g = new_game(players=4)
    assert g.vpn().split()[3].split("/")[2].startswith("x") and \
        g.vpn().split()[3].split("/")[5].startswith("x")


def test_three_player_teams_r33():
    vpn = position({"i6": "0Tw", "i10": "3Xw"}, variant="players3")
    assert "i6xi10" not in actions(G(vpn))


# -- R37 quick game -------------------------------------------------------------------------

def test_quick_round_limit_and_score_r37a():
    vpn = position({"i6": "0Tw", "i20": "1Tb"}, armies={0: "a,0,2Xw", 1: "a,0,0Hw"},
                   variant="quick1")
    g = G(vpn)
    for _ in range(6):
        assert not g.is_over
        g.play(sorted(actions(g))[0])
    # Red holds an X (4 points), blue an H (5 points): blue wins on points.
    assert g.is_over and g.result_reason == "round-limit" and g.winners == (1,)


def test_quick_round_limit_ends_the_game_after_round_l_not_before_r37a():
    """quick2: the game goes on into round 2 and ends when round 2's last army is done."""
    g = G(position({"i6": "0Tw", "i20": "1Tb"}, variant="quick2"))
    while g.round == 1:
        assert not g.is_over
        g.play(sorted(actions(g))[0])
    assert g.round == 2 and not g.is_over
    while not g.is_over:
        assert g.round == 2
        g.play(sorted(actions(g))[0])
    assert g.result_reason == "round-limit"


def test_quick_round_limit_tie_is_a_draw_r37a():
    g = G(position({"i6": "0Tw", "i8": "1Tb"}, variant="quick1",
                   armies={0: "a,0,1Xw", 1: "a,0,0Xb"}))
    for _ in range(6):
        assert not g.is_over
        g.play(sorted(actions(g))[0])
    assert g.is_over and g.winners == () and g.result_reason == "round-limit"


def test_quick_any_capturer_is_self_eligible_r37b():
    g = G(position({"i6": "0Tw", "i10": "1Xw", "i20": "1Tb"}, variant="quick40"))
    g.play("i6xi10")
    assert g.phase == "bonus" and from_cell(g, "i10")         # a regular knight's self-bonus
    g = G(position({"i6": "0Tw", "i10": "1Xw", "i20": "1Tb"}))
    g.play("i6xi10")
    assert not from_cell(g, "i10")                              # not in the standard game


def test_quick_two_captures_earn_two_bonuses_r37b():
    g = G(position({"i6": "0Tw+", "i10": "1Xw", "m10": "1Uw", "i20": "1Tb"}, variant="quick40"))
    g.play("i6xi10")
    g.play("i10xm10")
    g.play("m10-m6")                      # one quiet bonus leg: one bonus still pending
    assert g.to_move == 0 and g.phase == "bonus" and from_cell(g, "m6")
    g.play(sorted(a for a in from_cell(g, "m6") if "x" not in a)[0])
    assert g.to_move == 1


def test_quick_kingdom_stop_keeps_self_eligibility_without_captures_there_r37c():
    pieces = {"i4": "0K", "c10": "1Tw", "c8": "1Uw", "c14": "3Tw"}
    g = G(position(pieces, armies={0: UNGATED}, variant="quick40"))
    g.play("i4xc10")                      # R21: the move ends at once...
    legs = from_cell(g, "c10")
    assert "c10xc14" in legs              # ...but the King stays self-eligible (R37c)
    assert "c10xc8" not in legs           # and may not capture inside blue's kingdom
    assert "c10-a12" in legs              # quiet legs into it are fine
    g.play("c10xc14")                     # after a capture elsewhere the ban is lifted
    assert g.phase == "bonus"
    g = G(position(pieces, armies={0: UNGATED}))
    g.play("i4xc10")
    assert not from_cell(g, "c10")        # the standard game freezes it (R21)


def test_quick_self_bonus_capture_into_a_kingdom_bars_the_next_one_there_r37c():
    """R37(c) after a self-bonus leg: a capture on the battlefield (h3xh7), then a
    self-bonus capture into blue's live kingdom (h7xd7): the next self-bonus leg may not
    capture inside that kingdom (d7xd3), though it may still move."""
    assert [STD.kingdom(c) for c in ("h7", "d7", "d3")] == [None, 1, 1]
    g = G(position({"h3": "0Tw", "h7": "2Tw", "d7": "3Uw", "d3": "4Bw"},
                   armies={0: UNGATED}, variant="quick40"))
    g.play("h3xh7")
    g.play("h7xd7")
    legs = from_cell(g, "d7")
    assert legs and "d7xd3" not in legs


@pytest.mark.parametrize("impl", [victorus.Game, ReferenceGame], ids=["engine", "reference"])
def test_quick_regular_knight_may_not_capture_again_in_that_kingdom_r37c(impl):
    """R37(c) bars every self-eligible piece, not only R21's (rulebook, quick game rule 5:
    "a regular or royal knight, King or Queen that executes a capture within an
    opponent's kingdom is still NOT permitted to capture another piece within the
    opponent's kingdom")."""
    assert [STD.kingdom(c) for c in ("c8", "c10", "c12", "e10")] == [1, 1, None, None]
    pieces = {"e10": "0Tw", "c10": "1Tw", "c8": "1Uw", "c12": "2Tw", "i20": "1Tb"}
    g = impl.from_vpn(position(pieces, variant="quick40"))
    g.play("e10xc10")                     # a regular Templar captures in blue's kingdom
    legs = from_cell(g, "c10")
    assert "c10xc8" not in legs           # no second capture inside blue's kingdom
    assert {"c10xc12"} <= legs            # captures elsewhere are fine
    g.play("c10xc12")                     # ...and lift the ban
    assert "c12xc8" in from_cell(g, "c12")
    g = impl.from_vpn(position(pieces))
    g.play("e10xc10")
    assert not from_cell(g, "c10")        # the standard game freezes it (R22)


@pytest.mark.parametrize("impl", [victorus.Game, ReferenceGame], ids=["engine", "reference"])
@pytest.mark.parametrize("blue, barred", [("a,0,", True), ("e,0,", False)],
                         ids=["live-kingdom", "eliminated-kingdom"])
def test_quick_hospitaller_may_not_capture_again_in_that_live_kingdom_r37c(impl, blue, barred):
    """R37(c) for a Hospitaller, whose self-bonus is a pivot (R37(b)); only a live
    kingdom bars it (an eliminated army's kingdom is battlefield, R30)."""
    pieces = {"e12": "0Hw", "c10": "2Tw", "c8": "2Uw", "i20": "2Tb"}
    g = impl.from_vpn(position(pieces, armies={1: blue}, variant="quick40"))
    g.play("e12-c12")                     # travel
    g.play("c12xc10")                     # pivot: a capture in blue's kingdom
    legs = from_cell(g, "c10")
    assert "c10-c12" in legs              # the self-bonus pivot may go quietly...
    assert ("c10xc8" not in legs) is barred   # ...but not capture inside a live kingdom


def test_kingdom_stop_leg_is_legal_without_a_second_leg_r16_r21():
    """R16: a King's leg 1 that ends the move (R21) needs no leg 2 after it."""
    from victorus._core import Position
    from victorus.geometry import direction_mask as _dir_mask
    b = STD
    # A blue kingdom cell T whose battlefield neighbour X has the other color.
    t, x = next((t, x) for t in range(len(b)) if b.kingdoms[t] == 1
                for x in b.neighbours(t) if b.kingdoms[x] is None and b.colors[x] != b.colors[t])
    d = b.steps[x].index(t)
    beyond = b.steps[x][(d + 3) % 6]                       # behind X, seen from T
    horizontal = [b.steps[t][s] for s in range(6, 12) if (_dir_mask(0, KING) >> s) & 1]
    blockers = [c for c in b.neighbours(t) if c != x] + [beyond] + horizontal
    blockers = [c for c in dict.fromkeys(blockers) if c is not None]
    # Team-mates (armies 2 and 4 in the 2-player game) block and cannot be captured.
    stock = {0: ["Tw", "Uw", "Bw", "Xw", "Hw"] * 2, 1: ["Tb", "Ub", "Bb", "Xb", "Hb"] * 2}
    pieces = {b.labels[x]: "0K", b.labels[t]: "1T" + "wb"[b.colors[t]]}
    for n, c in enumerate(blockers):
        pieces[b.labels[c]] = f"{2 if n < 5 else 4}{stock[b.colors[c]].pop()}"
    g = G(position(pieces, armies={0: UNGATED}, variant="players2"))
    capture = f"{b.labels[x]}x{b.labels[t]}"
    # After the capture no leg 2 would exist...
    pos = Position(b.tables, (0, 1, 0, 1, 0, 1))
    for label, code in pieces.items():
        if label != b.labels[x]:
            pos.put(b.cell(label), int(code[0]))
    pos.remove(t)
    pos.put(t, 0)
    assert pos.leg(t, 0, _dir_mask(0, KING), 1 << b.colors[t]) == ([], [])
    # ...yet the leg is legal, because R21 ends the move at once.
    assert capture in actions(g)
    g.play(capture)
    assert g.phase == "bonus" and g.to_move == 0


def test_kingdom_stop_on_a_self_bonus_leg_freezes_but_keeps_the_bonus_r23():
    g = G(position({"i6": "0Tw+", "i10": "1Xw", "m10": "1Uw", "o10": "5Tw", "e6": "0Uw",
                    "i20": "1Tb"}))
    g.play("i6xi10")
    g.play("i10xm10")
    assert "m10xo10" in actions(g) and STD.kingdom("o10") == 5
    g.play("m10xo10")                     # self-bonus capture inside orange's kingdom
    assert g.phase == "bonus" and g.to_move == 0
    assert not from_cell(g, "o10")        # frozen (R21)
    assert from_cell(g, "e6") and "end" in actions(g)


def test_one_capture_is_not_enough_for_a_self_bonus_r23():
    # Royal Templar captures on leg 1 only (then stops): it is frozen, another piece moves.
    g = G(position({"i6": "0Tw+", "i10": "1Xw", "e6": "0Uw", "i20": "1Tb"}))
    g.play("i6xi10")
    g.play("stop")
    assert g.phase == "bonus" and not from_cell(g, "i10") and from_cell(g, "e6")
    # Capture on leg 2 only: frozen as well.
    g = G(position({"i6": "0Tw+", "m10": "1Uw", "e6": "0Uw", "i20": "1Tb"}))
    g.play("i6-i10")
    g.play("i10xm10")
    assert g.phase == "bonus" and not from_cell(g, "m10") and from_cell(g, "e6")
