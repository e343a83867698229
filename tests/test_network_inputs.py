"""The learned evaluation's dense inputs (victorus.search._network's network_inputs: per
seat present, active, team mate, points on the board and held, King and Queen race
progress, knight captures; then phase, passes, pending bonuses, the quick game and its
rounds left, the best capture, the present seats) against the same values computed here,
in Python, from the pure-Python rules (ReferenceGame, playing the same actions) and the
configuration: nothing of the C evaluator or of the engine's arithmetic is reused. The
other tests of the network hold the C evaluator to its numpy twin fed the same C inputs,
so a wrong dense input passed them."""

from __future__ import annotations

import random

import pytest

import victorus
from helpers import position
from victorus._reference_game import ReferenceGame
from victorus.constants import KING, NUM_SEATS, QUEEN
from victorus.evaluation import _network
from victorus.evaluation.twin import inputs
from victorus.geometry import hex_distance, winding_base

SEAT_INPUTS = _network.SIZES["seat_inputs"]
GLOBAL_INPUTS = _network.SIZES["global_inputs"]
#: The names of the dense inputs, in the C layout's order (its module docstring).
SEAT_NAMES = ("present", "active", "mate", "board", "held", "king", "queen", "knight_caps")
GLOBAL_NAMES = ("phase_start", "phase_move", "phase_bonus", "passes", "pending", "quick",
                "rounds_left", "best_capture", "present_seats")
NAMES = [f"seat{i}.{name}" for i in range(NUM_SEATS) for name in SEAT_NAMES] + list(GLOBAL_NAMES)


def test_the_layout_is_the_one_listed_here():
    assert (SEAT_INPUTS, GLOBAL_INPUTS) == (len(SEAT_NAMES), len(GLOBAL_NAMES))
    assert _network.SIZES["dense_inputs"] == len(NAMES)


def progress(board, cell: int, piece) -> float:
    """R28/R29: a King's or Queen's winding (its R29 base + 360 laps) as a share of one
    lap, clipped to [0, 1], times (1 + closeness) / 2, closeness 1 next to the centre and
    0 on the rim (the heuristic evaluation's race term, docs/agents.md)."""
    rim = max(hex_distance(q, r) for q, r in board.coords)
    q, r = board.coords[cell]
    lap = (winding_base(q, r, piece.army, piece.kind == KING) + 360 * piece.laps) / 360
    return min(1.0, max(0.0, lap)) * (1 + (rim - hex_distance(q, r)) / (rim - 1)) / 2


def expected_dense(ref: ReferenceGame) -> dict[str, float]:
    """The dense inputs of ``ref``'s position by name, from the pure-Python rules: seat i
    is the army i seats after the army to act; an absent seat's inputs are all 0."""
    cells, armies, turn, _ = ref._view()
    config, p = ref.config, turn.to_move
    on_board = [0] * NUM_SEATS
    race = {}
    for cell, piece in enumerate(cells):
        if piece is None:
            continue
        on_board[piece.army] += piece.points                      # R37 points
        if piece.kind in (KING, QUEEN):
            race[piece.army, piece.kind] = progress(ref.board, cell, piece)
    out = dict.fromkeys(NAMES, 0.0)
    for i in range(NUM_SEATS):
        a = (p + i) % NUM_SEATS
        if a not in config.present:
            continue
        seat = {"present": 1, "active": armies[a].state == "a",
                "mate": config.teams[a] == config.teams[p],          # R33 (itself included)
                "board": on_board[a] / 10,
                "held": sum(h.points for h in armies[a].held) / 10,  # R20
                "king": race.get((a, KING), 0.0), "queen": race.get((a, QUEEN), 0.0),
                "knight_caps": armies[a].knight_captures / 3}        # R19
        out.update({f"seat{i}.{name}": float(v) for name, v in seat.items()})
    out[f"phase_{turn.phase}"] = 1.0                                 # R22
    out["passes"] = turn.passes / 6                                  # R26
    out["pending"] = min(turn.pending, 3) / 3
    if config.quick is not None:                                     # R37(a)
        out["quick"] = 1.0
        out["rounds_left"] = (config.quick - turn.round + 1) / config.quick
    captures = [cells[a.target].points for a in ref.legal_actions()
                if a.capture and cells[a.target] is not None]
    out["best_capture"] = max(captures, default=0) / 10
    out["present_seats"] = len(config.present) / 6
    return out


def actual_dense(game) -> dict[str, float]:
    dense = inputs(game)[2]
    assert dense.shape == (len(NAMES),)
    return dict(zip(NAMES, dense.tolist()))


def assert_same(game, ref, where: str) -> dict[str, float]:
    want, got = expected_dense(ref), actual_dense(game)
    wrong = {name: (got[name], want[name]) for name in NAMES
             if got[name] != pytest.approx(want[name], abs=1e-6)}
    assert not wrong, f"{where}: (C, expected) {wrong}"
    return want


# Hand-built positions (R39), each input distinctive: every present seat its own points on
# the board and held, knight captures and race progress (laps 1 and -1 among them); an
# eliminated and an absent army; passes and a quick game half-way; team mates.
FIVE_QUICK = position(
    {"h1": "0K", "h3": "0Tw", "h17": "0Xw", "d3": "1Q", "e2": "1Hw", "c22": "2K", "i12": "2Q",
     "d21": "2Tw", "j27": "3K", "j25": "3Tw+", "e16": "3Hw"},
    to_move=2, armies={0: "a,1,1Tb", 1: "a,2,4K.4Q", 2: "a,5,3Xb", 3: "a,3,0Ub.1Hb",
                       4: "e,7,2Hb"},
    laps={"h1": 1, "j27": -1}, round_text="5/2", variant="players5+quick12")
THREE_TEAMS = position(     # compact, teams {0,3} {1,4} {2,5}: purple (4), blue's mate, acts
    {"h3": "0K", "g4": "0Tw", "c10": "1K", "d7": "1Q", "e6": "1Bw", "d21": "2K", "c16": "2Bw",
     "c20": "2Xw", "j25": "3Q", "k24": "3Tw", "k18": "3Hb", "o18": "4K", "n21": "4Q",
     "o16": "4Tw", "m18": "4Uw", "n7": "5K", "o10": "5Q", "m6": "5Tw+", "m14": "5Uw"},
    to_move=4, board="compact",
    armies={0: "a,0,5Xw", 1: "a,4,2Tw.0Q", 2: "a,1,", 3: "a,2,1Tb.5Hb", 4: "a,6,1Ub",
            5: "a,3,4Bb.0Xb"},
    laps={"c10": 1, "n21": 1, "o10": -1}, round_text="9/1", variant="players3")
FOUR_QUICK = position(       # four players (2 and 5 absent), the last round of quick3
    {"h1": "0K", "l1": "0Q", "h3": "0Tw", "b9": "1K", "c10": "1Tw", "j27": "3K", "f27": "3Q",
     "p19": "4K", "o18": "4Tw+"},
    to_move=3, armies={0: "a,2,1Q", 1: "a,0,", 3: "a,4,4Q.1Hw", 4: "a,1,"},
    round_text="3", variant="players4+quick3")


@pytest.mark.parametrize("vpn", [FIVE_QUICK, THREE_TEAMS],
                         ids=["five-players-quick", "three-teams"])
def test_dense_inputs_of_hand_built_positions_r19_r20_r26_r28_r29_r33_r37(vpn):
    """Every dense input against its value from the rules: R37 points on the board and
    R20 held, R19 knight captures, R28/R29 race progress, R33 team mates, R26 passes, the
    R37(a) quick game's share of rounds left, the best capture open to the army to act."""
    game, ref = victorus.Game.from_vpn(vpn), ReferenceGame.from_vpn(vpn)
    want = assert_same(game, ref, "start")
    present = [i for i in range(NUM_SEATS) if want[f"seat{i}.present"]]
    for name in ("board", "held", "knight_caps"):            # each seat its own value
        values = [want[f"seat{i}.{name}"] for i in present]
        assert len(set(values)) == len(values), (name, values)
    assert want["best_capture"] > 0 and want["passes"] > 0
    assert len({want[f"seat{i}.mate"] for i in present}) == 2


def test_dense_inputs_name_their_values_r26_r30_r33_r37():
    """The five-player quick position read by hand: black (army 2) acts, so seat i is army
    2 + i (mod 6): purple (army 4) is eliminated (R30) but present, orange (5) absent; 5 of
    12 rounds begun (R37(a): 8/12 left); two passes before this turn (R26); black's best
    capture a Hospitaller (5 points); red's King, one lap on (R29), past half the race,
    green's King, a lap back, nowhere."""
    dense = actual_dense(victorus.Game.from_vpn(FIVE_QUICK))
    assert [dense[f"seat{i}.present"] for i in range(6)] == [1, 1, 1, 0, 1, 1]
    assert [dense[f"seat{i}.active"] for i in range(6)] == [1, 1, 0, 0, 1, 1]
    assert [dense[f"seat{i}.mate"] for i in range(6)] == [1, 0, 0, 0, 0, 0]
    assert [round(dense[f"seat{i}.board"] * 10) for i in range(6)] == [22, 21, 0, 0, 16, 15]
    assert [round(dense[f"seat{i}.held"] * 10) for i in range(6)] == [4, 7, 5, 0, 2, 20]
    assert [round(dense[f"seat{i}.knight_caps"] * 3) for i in range(6)] == [5, 3, 7, 0, 1, 2]
    assert dense["seat4.king"] > 0.5 and dense["seat1.king"] == 0
    assert dense["rounds_left"] == pytest.approx(8 / 12) and dense["quick"] == 1
    assert dense["passes"] == pytest.approx(2 / 6)
    assert dense["present_seats"] == pytest.approx(5 / 6)
    assert dense["best_capture"] == pytest.approx(0.5) and dense["phase_start"] == 1


def playout(vpn: str, seed: int, plies: int):
    """The same actions on the engine and the reference from ``vpn``: captures first (to
    reach moves in progress and bonus states, R22), otherwise at random."""
    game, ref = victorus.Game.from_vpn(vpn), ReferenceGame.from_vpn(vpn)
    rng = random.Random(seed)
    yield game, ref
    for _ in range(plies):
        if game.is_over:
            return
        legal = game.legal_actions()
        captures = [a for a in legal if a.capture]
        action = str(rng.choice(captures or legal))
        game.play(action)
        ref.play(action)
        yield game, ref


def test_dense_inputs_along_games_r22_r26_r33_r37():
    """Along games from the hand-built positions and from the setups of five
    configurations (2, 3, 4, 5 and 6 players, allied, quick), every position's dense
    inputs, mid-move and bonus states included (R22), are the rules' values; and every
    input takes at least two values on the way (but seat 0's present, active and team
    mate: seat 0 is the army to act), so none is checked only at a constant."""
    starts = [FIVE_QUICK, THREE_TEAMS, FOUR_QUICK] + [
        victorus.Game(board, players=players, variant=variant).vpn()
        for board, players, variant in [("compact", 2, "quick6"), ("standard", 6, "allied"),
                                        ("compact", 5, "standard"), ("standard", 3, "quick20"),
                                        ("compact", 4, "standard")]]
    seen: dict[str, set[float]] = {name: set() for name in NAMES}
    for n, vpn in enumerate(starts):
        for ply, (game, ref) in enumerate(playout(vpn, n, 60)):
            if game.is_over:
                break
            for name, value in assert_same(game, ref, f"start {n}, ply {ply}").items():
                seen[name].add(round(value, 6))
    # seat 0 is the army to act: present, active and its own team mate, always
    constant = {"seat0.present", "seat0.active", "seat0.mate"}
    assert all(seen[name] == {1.0} for name in constant)
    flat = [name for name, values in seen.items() if len(values) < 2 and name not in constant]
    assert not flat, flat
