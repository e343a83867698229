"""victorus.constants is the one source of the facts Python and C share."""

import pytest

from victorus import constants
from victorus._engine import COMPILED_CONSTANTS
from victorus.pieces import piece_from_code


def test_the_engine_was_compiled_with_these_constants():
    expected = dict(
        NUM_SEATS=6, MAX_CELLS=192, NUM_KINDS=7, KING=constants.KING, QUEEN=constants.QUEEN,
        HOSPITALLER=constants.HOSPITALLER, GATE_CAPTURES=3,
        ROYAL_KINDS=sum(1 << k for k in constants.ROYALS),
        PROMOTABLE_KINDS=sum(1 << k for k in constants.PROMOTABLE),
        STRATEGIC_KINDS=sum(1 << k for k in constants.STRATEGIC),
        TARGET_SHIFT=constants.TARGET_SHIFT, CAPTURE_FLAG=constants.CAPTURE_FLAG,
        LEG_TYPE_SHIFT=constants.LEG_TYPE_SHIFT, KEY_MASK=constants.KEY_MASK,
        WORD_STOP=constants.WORD_CODES["stop"], WORD_END=constants.WORD_CODES["end"],
        WORD_PASS=constants.WORD_CODES["pass"], WORD_FORFEIT=constants.WORD_FORFEIT,
        POINTS=[constants.POINTS[k] for k in range(7)])
    assert COMPILED_CONSTANTS == expected


@pytest.mark.parametrize("code, points", [
    ("Tw", 2), ("Ub", 2), ("Bw", 2), ("Xb", 4), ("Hw", 5), ("Hb", 5),
    ("Tw+", 6), ("Ub+", 6), ("Bb+", 6), ("Xw+", 8), ("K", 10), ("Q", 10), ("Tw1", 2)])
def test_r37_points_of_every_piece_code(code, points):
    """R37(a): regular T/U/B 2, regular X 4, H 5, royal T/U/B 6, royal X 8, K or Q 10."""
    assert piece_from_code(0, code).points == points


def test_kinds_letters_and_sets():
    assert constants.PIECE_LETTERS == "TUBXHKQ"                        # R39 codes
    letter = dict(zip(range(7), constants.PIECE_LETTERS))
    assert {letter[k] for k in constants.PROMOTABLE} == set("TUBX")    # R25: never H, K, Q
    assert {letter[k] for k in constants.STRATEGIC} == set("TUB")      # R13
    assert {letter[k] for k in constants.ROYALS} == set("KQ")          # R18
    assert {letter[k] for k in constants.KNIGHTS} == set("TUBXH")


def test_action_keys_round_trip_through_the_layout():
    key = constants.leg_key(5, 130, True)
    assert key & 0xFF == 5 and (key >> constants.TARGET_SHIFT) & 0xFF == 130
    assert key & constants.CAPTURE_FLAG and key <= constants.KEY_MASK
    assert min(constants.WORD_CODES.values()) > constants.KEY_MASK >= constants.leg_key(191, 191, True)


def test_the_cython_include_declares_every_shared_name():
    text = constants.cython_include()
    for name in ("NUM_SEATS", "KING", "PROMOTABLE_KINDS", "PHASE_BONUS", "RESULT_ROUND_LIMIT",
                 "ARMY_ABSENT", "LEG_SELF", "WORD_FORFEIT", "kind_points"):
        assert name in text


def test_whole_board_planes_come_last():
    """The C writer fills the planes from phase_start on as whole-board values."""
    planes = constants.PLANES
    tail = planes[planes.index("phase_start"):]
    families = ("phase_", "to_move", "knight_captures", "held", "active")
    assert all(name.startswith(families) or name in ("round", "passes", "pending")
               for name in tail)
    assert len(tail) == 3 + 4 * 6 + 3


def test_turn_matches_the_table_of_turn_fields():
    """victorus.pieces.Turn has constants.TURN_FIELDS' fields with their start values (the
    phase by name), plus the frozen cells (R24); the C state's TurnC is generated from the
    same table."""
    from victorus.constants import PHASES, TURN_FIELDS
    from victorus.pieces import Turn
    assert [f for f in Turn._fields if f != "frozen"] == [name for name, _ in TURN_FIELDS]
    start = Turn(to_move=0)
    for name, value in TURN_FIELDS:
        assert getattr(start, name) == (PHASES[value] if name == "phase" else value), name
    assert start.frozen == frozenset()


def test_id_decoders_in_python_and_in_c_agree():
    """id_is_leg, id_origin, id_target and id_in_frame: generated into the Cython include
    beside action_id, with their Python twins here; the vector games' observer-frame ids
    (C, R9) are the Python twin's on every legal action of games played on."""
    import random

    import numpy as np

    import victorus
    from victorus.tensors import _columns
    from victorus.vector import VectorGames
    text = constants.cython_include()
    for name in ("id_is_leg", "id_origin", "id_target", "id_in_frame"):
        assert f"cdef inline {'bint' if name == 'id_is_leg' else 'int'} {name}(" in text
    n = len(victorus.Board("compact"))
    columns = _columns("compact", 3)
    inverse = [0] * n
    for cell, column in enumerate(columns):
        inverse[column] = cell
    for ident in range(constants.num_action_ids(n)):
        leg = constants.id_is_leg(ident, n)
        assert leg == (ident < n * n)
        moved = constants.id_in_frame(ident, n, columns)
        assert constants.id_in_frame(moved, n, inverse) == ident
        if leg:
            o, t = constants.id_origin(ident, n), constants.id_target(ident, n)
            assert constants.leg_id(o, t, n) == ident
            assert moved == constants.leg_id(columns[o], columns[t], n)
        else:
            assert moved == ident
    games = VectorGames(1, "compact", players=3, seed=4, legal="ids", id_frame="observer")
    game, rng = victorus.Game("compact", players=3), random.Random(4)
    for _ in range(30):
        seat = game.to_move
        frame = _columns("compact", seat)
        expected = sorted(constants.id_in_frame(int(i), n, frame) for i in game.legal_action_ids())
        assert sorted(games.ids[0, :games.counts[0]].tolist()) == expected
        ident = int(rng.choice(game.legal_action_ids()))
        game.play_id(ident)
        games.step(np.array([constants.id_in_frame(ident, n, frame)]))
