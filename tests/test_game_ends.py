"""How games end, on every path that counts or compares positions: perft (R40) from
positions where an action inside the tree ends the game (the quick game's round limit,
R37a; the last opponent eliminated, R30/R31; the all-pass draw with an army already out,
R26), against the plain recursion over Game.play/undo and the pure-Python rules; and
position keys and == against every field of the state (R29's laps included)."""

import pytest

import victorus
from victorus._reference_game import ReferenceGame, reference_perft
from victorus.pieces import Army, Held, Piece, Turn

# Turn starts a few actions before the end of seeded random games (play_random with the
# seed given), each with a game-ending action within three plies of its perft tree.
ROUND_LIMIT_2P = (  # compact, players2+quick6, seed 0: 1,814 of 4,499 depth-3 lines end
    "compact h3:0K,j3:0Q,g4:0Tw,k4:0Bw,f5:1Hw,h5:0Ub,l5:0Hw,g6:0Tb,i6:0Xw,k6:0Xb,m6:5Tw,"
    "d7:1Q,f7:1Hb,l7:5Tb,n7:5K,c8:1Xw,g8:4Tw,m8:5Ub,o8:5Xw,d9:1Xb,j9:0Bb1,n9:5Xb,c10:1K,"
    "m10:0Uw,o10:5Q,d11:1Ub,f11:2Bb,l11:5Bb,c12:1Tw,o12:5Bw,d13:1Tb,j13:0Hb,c14:2Hw,k14:4Uw1,"
    "o14:5Hw,d15:2Hb,f15:4Tb,c16:2Bw,e16:3Uw1,g16:1Uw,n17:4Ub,c18:2Q,k18:3Tb,o18:4K,d19:2Ub,"
    "n19:4Xb,c20:2Xw,e20:2Xb,i20:5Hb,k20:3Tw,o20:4Xw,d21:2K,f21:2Tb,h21:1Bw,l21:4Hb,n21:4Q,"
    "e22:2Tw,g22:3Hb,m22:4Bw,f23:3Hw,h23:4Bb1,j23:3Ub,l23:4Hw,g24:3Bw,i24:3Xb,h25:3Q,j25:3K,"
    "i26:3Xw 3 a,1,1Bb,0,0/a,0,,0,0/a,0,,0,0/a,1,2Uw,0,0/a,2,3Bb.5Uw,0,0/a,0,,0,0 6 "
    "players2+quick6")
ROUND_LIMIT_3P = (  # compact, players3+quick6, seed 1: 2,412 of 4,441 lines end
    "compact j3:0Q,g4:0Tw,k4:0Bw,f5:1Hw,h5:0K,l5:0Hw,e6:1Bw,g6:0Tb,i6:1Uw1,k6:0Xb,m6:5Tw,"
    "d7:0Uw+,f7:1Hb,n7:5K,c8:1Xw,i8:0Bb,m8:5Ub,o8:5Xw,d9:1Xb,j9:5Tb,c10:1K,g10:1Bb,o10:5Q,"
    "d11:1Ub,h11:5Uw,n11:5Bb,c12:1Tw,o12:5Bw,d13:1Tb,h13:0Hb,l13:5Xb,n13:5Hb,c14:2Hw,g14:3Uw,"
    "o14:5Hw,d15:2Tb,n15:4Tb,g16:2Bw,o16:4Tw,f17:2Hb,l17:4Bb,n17:4Ub,c18:2Q,k18:3Tb,o18:4K,"
    "d19:2Xb,n19:4Xb,c20:2Xw,e20:2Ub,g20:2Uw,k20:3Tw,o20:4Xw,d21:2K,h21:4Uw,l21:4Hb,n21:4Q,"
    "e22:2Tw,g22:3Hb,m22:4Bw,f23:3Hw,h23:3Bb,j23:3Ub,l23:4Hw,g24:3Bw,i24:3Xb,h25:3Q,j25:3K,"
    "i26:3Xw 3 a,1,1Q.2Bb,0,0/a,1,0Xw,0,-/a,1,0Ub,0,0/a,0,,0,0/a,0,,0,0/a,0,,0,0 6 "
    "players3+quick6")
ROUND_LIMIT_QUIET_LEG = (  # compact, players2+quick6, seed 2: quiet legs end the game
    # before their siblings (i8xj5 j5-k6 m8-l7 ends it, n9-l11 comes after)
    "compact i2:0Xw,h3:0K,j3:0Q,g4:0Tw,i4:0Xb,k4:0Bw,f5:1Hw,h5:0Ub,j5:1Ub,l5:0Hw,e6:1Bw,g6:0Tb,"
    "d7:1Q,n7:5K,c8:1Xw,e8:1Bb,i8:4Xb,m8:5Ub,o8:5Xw,d9:1Xb,n9:5Xb,c10:1K,k10:0Hb,o10:5Q,h11:5Tw,"
    "n11:0Bb1,c12:1Tw,o12:5Bw,d13:1Tb,f13:5Tb,l13:1Hb,n13:5Hb,c14:2Hw,e14:2Uw1,g14:0Uw,m14:5Uw+,"
    "o14:5Hw,d15:3Ub,n15:4Tb,c16:2Bw,o16:4Tw,f17:2Hb,l17:4Bb,n17:4Ub,c18:2Q,o18:4K,d19:2Xb,"
    "c20:2Xw,e20:2Ub,i20:3Hb,o20:4Xw,d21:2K,j21:3Uw,l21:4Hb,n21:4Q,e22:2Tw,k22:3Tb,f23:3Hw,"
    "j23:3Bb,l23:4Hw,g24:3Bw,i24:2Bb1,k24:3Tw,h25:3Q,j25:3K,i26:3Xw 4 a,1,5Bb,0,0/a,0,,0,0/a,2,"
    "3Xb.1Uw,0,0/a,1,2Tb,0,0/a,0,,0,0/a,2,4Uw.4Bw,0,0 6 players2+quick6")
ELIMINATION_2P = (  # compact, players2, seed 3: 1 of 243 lines eliminates the last opponent
    "compact g4:5Xw,f5:3Xw+,e6:1Hw,m8:5Ub,f11:3Tb+,m12:5Tw1,d13:3K,o14:5Hw,e18:1Tw1,c20:3Hw,"
    "o20:4Q,g22:1K,m22:5K 3 e,6,5Hb.3Bw.1Hb.3Tw.1Xw.3Xb.3Bb+.3Ub.5Q.5Bw.3Q,-,-/a,5,0Xb.2Hb."
    "0Xw.0Q.4Ub.4Uw.4Hb.2K.0Uw.4Hw.0Bb+.0K,-1,-/e,6,3Uw.1Tb.1Bb.5Tb.1Bw.1Uw.1Ub.1Xb+,-,-/a,9,"
    "0Tb.4Xb.2Tb.4Bb.4Tb+.2Uw.0Tw.4Bw.0Hw,0,-/a,2,1Q.5Bb+.5Uw.3Hb.5Xb+,-,0/a,6,0Ub.2Q.0Bw.2Ub+."
    "4K.4Xw.4Tw,0,- 97 players2")
ELIMINATION_4P = (  # compact, players4, seed 2: 15 of 1,723 lines end
    "compact h7:0Hw,c12:4Q,f15:0K 0 a,7,3Tw+.1Xw+.4Tb.1Xb.3K.1Hw.1K.4Xw.1Bw.1Bb+.4Tw.1Q.4Hw,"
    "-2,-/e,9,3Bw.3Tb.0Bw.0Ub.3Hb.4Xb.3Xw.3Q.4Hb.0Tb.4Bw.4Bb.0Xw+,-,-/x,0,,-,-/e,9,1Uw.0Bb.4Ub."
    "0Uw.0Xb.4Uw.1Tw.0Tw.4K.1Ub,-,-/a,3,3Bb+.0Hb.1Tb.1Hb.0Q,-,-2/x,0,,-,- 233 players4")
# compact, players3, seed 142, 316 actions in: army 5 has no legal action and must pass
# (R26); one army (3) is out, five are live. With four passes before it the pass draws.
MUST_PASS = (
    "compact h3:0K,j3:0Tw+,f5:1Xw1,l5:0Hw,e6:0Q,k6:0Ub,j7:1Tw1,e8:2Q,o8:5Q,n9:2Bb+,k10:4Xb+,"
    "f11:1Q,c14:2Hw,o14:5Hw,c16:0Xw+,k18:2Tb1,m18:4K,d19:2K,j19:2Xb+,i20:4Ub,k20:4Xw+,d21:4Hw,"
    "n21:4Uw+,k22:4Q,i24:2Ub+ 5 a,6,2Hb.2Uw.4Bw.5K.4Tb.5Uw.5Tw.4Tw.2Xw,0,1/a,7,5Bb.3Ub.5Tb."
    "5Hb.0Tb.2Bw.0Xb.5Bw.2Tw,-,0/a,10,1Uw.0Bb.3Hb.3Q.4Hb.1Ub.1Hw.1Xb.1Hb.1Tb+.1K,0,0/e,2,5Ub."
    "4Bb.1Bb+,-,-/a,8,3Uw.3Bw.3K.0Hb.5Xw.5Xb.0Uw.0Bw,0,0/a,1,3Bb.1Bw,-,0 36{passes} players3")
ALL_PASS_DRAW = MUST_PASS.format(passes="/4")

ENDINGS = [("round-limit", ROUND_LIMIT_2P), ("round-limit", ROUND_LIMIT_3P),
           ("round-limit", ROUND_LIMIT_QUIET_LEG),
           ("elimination", ELIMINATION_2P), ("elimination", ELIMINATION_4P),
           ("draw", ALL_PASS_DRAW)]
IDS = ["round-limit-2p", "round-limit-3p", "round-limit-quiet-leg", "elimination-2p",
       "elimination-4p", "all-pass-draw"]


def plain_perft(game, depth: int, reasons: dict) -> int:
    """R40 by the plain recursion over the public API; ``reasons`` counts the actions of
    the tree that end the game, by result_reason."""
    if depth == 0:
        return 1
    total = 0
    for action in game.legal_actions():
        game.play(action)
        if game.is_over:
            reasons[game.result_reason] = reasons.get(game.result_reason, 0) + 1
        total += plain_perft(game, depth - 1, reasons)
        game.undo()
    return total


@pytest.mark.parametrize("reason, vpn", ENDINGS, ids=IDS)
def test_perft_stops_where_the_game_ends_r40(reason, vpn):
    """Every perft path (bulk leaves, quiet make and unmake, turn starts from the parent,
    threads, the hash table) counts nothing past an action that ends the game, and counts
    its siblings as the game going on."""
    game = victorus.Game.from_vpn(vpn)
    for depth in (1, 2, 3):
        reasons: dict = {}
        plain = plain_perft(game.copy(), depth, reasons)
        assert victorus.perft(game, depth) == plain, depth
        assert victorus.perft(game, depth, threads=2) == plain, depth
        assert victorus.perft(game, depth, hash_mb=1) == plain, depth
        if depth <= 2 or reason != "round-limit":          # the reference is slow
            assert reference_perft(ReferenceGame.from_vpn(vpn), depth) == plain, depth
    assert reasons.get(reason), reasons                     # the tree holds the ending
    assert game.vpn() == vpn and not game.is_over


def test_the_all_pass_draw_counts_only_the_armies_still_playing_r26():
    """Army 3 is out: the pass count is held against the five armies still playing, not
    the six present, so the fifth consecutive pass draws and the fourth does not."""
    draw = victorus.Game.from_vpn(ALL_PASS_DRAW)
    before = victorus.Game.from_vpn(MUST_PASS.format(passes="/3"))
    for game in (draw, before):
        assert [str(a) for a in game.legal_actions()] == ["pass"]
        assert [reference_perft(ReferenceGame.from_vpn(game.vpn()), d) for d in (1, 2)] == \
            [victorus.perft(game, d) for d in (1, 2)]
    draw.play("pass")
    before.play("pass")
    assert draw.is_over and draw.result_reason == "draw"
    assert not before.is_over and before.legal_actions()


# -- position keys and == against every field of the state ---------------------------

def _changed_piece(piece: Piece, field: str) -> Piece:
    """``piece`` with ``field`` alone changed to another legal value."""
    value = getattr(piece, field)
    if field == "army":
        return piece._replace(army=(value + 1) % 6)
    if field == "kind":                                       # a knight of another order
        return piece._replace(kind=(value + 1) % victorus.constants.KING)
    if field in ("edge", "royal"):
        return piece._replace(**{field: 1 - value if field == "edge" else not value})
    return piece._replace(**{field: value + 1})


def _cell_with(cells, want) -> int:
    return next(i for i, p in enumerate(cells) if p is not None and want(p))


def test_keys_and_equality_see_every_field_of_the_state():
    """Each field of the state's records (Piece, Army, Held and Turn, the one list of
    what a position holds; victorus.pieces), changed alone in the C state, changes the
    key and breaks ==. The list is read from the records themselves, so a field added to
    them is checked here without a word more; R29's laps among them."""
    from victorus._engine import Engine
    game = victorus.Game.from_vpn(ELIMINATION_2P)
    game.play(game.legal_actions()[0])                     # inside a move: every field set
    cells, armies, held, turn, _ = game._engine.export()
    cells = [None if p is None else Piece(*p) for p in cells]

    def loaded(cells=cells, armies=armies, held=held, turn=turn):
        engine = Engine(game._engine.rules)
        engine.load(cells, armies, held, turn)
        return engine

    same = loaded()
    assert same.key() == game._engine.key() and same.same_position(game._engine)
    changes = {}
    for field in Piece._fields:
        if field in ("tally", "edge", "kind", "army"):
            at = _cell_with(cells, lambda p: p.edge is not None and not p.royal)
        elif field == "laps":                                   # R29: a King's laps
            at = _cell_with(cells, lambda p: p.kind == victorus.constants.KING)
        else:
            at = _cell_with(cells, lambda p: p.edge is not None)
        changes[f"Piece.{field}"] = {"cells": [_changed_piece(p, field) if i == at else p
                                               for i, p in enumerate(cells)]}
    for field in Army._fields:
        if field == "held":
            continue                                           # Held below
        a = next(i for i, army in enumerate(armies) if army[0] == "a")
        value = armies[a][Army._fields.index(field)]
        other = "e" if field == "state" else value + 1
        changes[f"Army.{field}"] = {"armies": [
            tuple(other if k == Army._fields.index(field) else v for k, v in enumerate(army))
            if i == a else army for i, army in enumerate(armies)]}
    assert held, "the position holds pieces"
    held_fields = ("holder", *Held._fields)               # the engine's: its holder first
    assert len(held[0]) == len(held_fields)
    for k, field in enumerate(held_fields):
        value = held[0][k]
        other = (1 - value if field == "edge" else not value if field == "royal"
                 else (value + 1) % victorus.constants.KING if field == "kind" else (value + 1) % 6)
        changes[f"Held.{field}"] = {"held": [
            tuple(other if i == k else v for i, v in enumerate(held[0])), *held[1:]]}
    for field in Turn._fields:
        if field != "round":                                   # R37a: only in the quick game
            value = turn[field]
            changes[f"Turn.{field}"] = {"turn": {**turn, field: (
                value | {_cell_with(cells, lambda p: True)} if field == "frozen"
                else "bonus" if field == "phase" and value != "bonus"
                else "start" if field == "phase" else value + 1)}}
    covered = {name.split(".")[1] for name in changes}
    assert covered == (set(Piece._fields) | set(Turn._fields) - {"round"}
                       | set(Army._fields) - {"held"} | set(held_fields))
    for name, change in changes.items():
        other = loaded(**change)
        assert other.key() != same.key(), name
        assert not other.same_position(same) and not same.same_position(other), name
