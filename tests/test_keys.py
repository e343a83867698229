"""Position keys, == and hash: positions, not histories."""

import random
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import victorus
from helpers import SOME_CONFIGS, position
from victorus._engine import Engine
from victorus._reference_game import ReferenceGame
from victorus.constants import EXCALIBUR, HOSPITALLER, KING, QUEEN, TEMPLAR


def play_turns(game, moves):
    """Red plays ``moves`` in turn; every other army passes its turn with its first action
    until red is to act again (the same replies in every order)."""
    for move in moves:
        game.play(move)
        while game.to_move != 0:
            game.play(game.legal_actions()[0])


def test_the_same_position_by_two_move_orders_has_one_key():
    a, b = victorus.Game("standard", players=6), victorus.Game("standard", players=6)
    play_turns(a, ["h3-h7", "l3-l7"])
    play_turns(b, ["l3-l7", "h3-h7"])
    assert a.vpn() == b.vpn()                  # the same position...
    assert a.history() != b.history()          # ...by different histories
    assert a.key() == b.key() and a == b and hash(a) == hash(b)
    c = victorus.Game("standard", players=6)
    play_turns(c, ["h3-h7", "l3-l11"])
    assert c.key() != a.key() and c != a


def test_keys_tell_phases_and_bonus_states_apart():
    """The key is valid inside a turn: the same placement in another phase differs."""
    g = victorus.Game.from_vpn(
        "standard i6:0Tw+,i20:1Tb 0 a,0,,-,-/a,0,,-,-/a,0,,-,-/a,0,,-,-/a,0,,-,-/a,0,,-,- 1 standard")
    start = g.key()
    g.play("i6-i10")                            # leg 1 of a royal Templar: the move goes on
    mid = g.key()
    g.play("stop")
    assert len({start, mid, g.key()}) == 3


def test_the_round_counts_only_in_the_quick_game():
    vpn = "compact i6:0Tw,i20:1Tb 0 " + "/".join(["a,0,,-,-"] * 6) + " {} {}"
    assert victorus.Game.from_vpn(vpn.format(3, "players2")).key() == \
        victorus.Game.from_vpn(vpn.format(4, "players2")).key()
    assert victorus.Game.from_vpn(vpn.format(3, "players2+quick9")).key() != \
        victorus.Game.from_vpn(vpn.format(4, "players2+quick9")).key()


def test_held_pieces_count_per_army_in_capture_order_r39():
    """The engine logs every capture in one list; a position is each army's held list."""
    game = victorus.Game.from_vpn(
        "standard i6:0Tw,i10:1Xw,c14:2Hw,e14:3Tw,i20:1Tb 0 a,0,2Bw,-,-/a,0,3Ub,-,-/"
        "a,0,,-,-/a,0,,-,-/a,0,,-,-/a,0,,-,- 1 standard")
    game.play("i6xi10")                         # red now holds 2Bw then 1Xw
    game.play("end")
    assert game.vpn().split()[3].startswith("a,1,2Bw.1Xw,")     # a knight capture (R19)
    again = victorus.Game.from_vpn(game.vpn())  # rebuilt army by army
    assert again == game and again.key() == game.key()


def test_games_of_other_configurations_are_never_equal():
    assert victorus.Game("standard", players=6) != victorus.Game("standard", players=3)
    assert victorus.Game() != "a game" and victorus.Game() == victorus.Game()


@settings(max_examples=80, deadline=None)
@given(config=st.sampled_from(SOME_CONFIGS), seed=st.integers(0, 2**32 - 1),
       length=st.integers(0, 300))
def test_undo_restores_the_key(config, seed, length):
    board, players, variant = config
    game = victorus.Game(board, players=players, variant=variant)
    victorus.play_random(game, seed=seed, max_actions=length)
    if game.is_over:
        return
    before = game.key()
    for action in game.legal_actions():
        game.play(action)
        game.undo()
        assert game.key() == before


def test_equal_keys_mean_equal_positions_on_sampled_games():
    """Turn starts of many random games: a key never stands for two VPNs, and == agrees."""
    seen: dict[int, str] = {}
    rng = random.Random(4)
    for n in range(60):
        game = victorus.Game(*SOME_CONFIGS[n % len(SOME_CONFIGS)][:2],
                             variant=SOME_CONFIGS[n % len(SOME_CONFIGS)][2])
        while not game.is_over and game.ply < 600:
            if game.phase == "start":
                vpn = game.vpn()
                assert seen.setdefault(game.key(), vpn) == vpn
                assert game == victorus.Game.from_vpn(vpn)
            game.play(rng.choice(game.legal_actions()))
    assert len(seen) > 5000


@pytest.mark.parametrize("salt", [0, 1])
def test_random_keys_are_the_keys_of_the_positions_met(salt):
    import numpy as np
    game = victorus.Game("compact", players=2)
    keys = np.zeros((50, 2), np.uint64)
    game._engine.random_keys(7, keys, 10**6)
    assert keys[0, 0] == game.key() and len(set(keys[:, salt].tolist())) > 40


@pytest.mark.parametrize("variant", ["standard", "quick40"])
def test_every_turn_field_is_seen_by_key_and_equality(variant):
    """Each field of the turn (victorus.pieces.Turn, the one list of them), changed alone
    in the C state, changes the key and breaks equality; the round only in the quick
    game, where the round limit makes it part of the position (R37a)."""
    from victorus._engine import Engine
    from victorus.constants import PHASES
    from victorus.pieces import Turn
    game = victorus.Game("compact", players=3, variant=variant)
    for _ in range(7):
        game.play(game.legal_actions()[len(game.legal_actions()) // 2])
    cells, armies, held, turn, _ = game._engine.export()

    def loaded(changed):
        engine = Engine(game._engine.rules)
        engine.load(cells, armies, held, changed)
        return engine

    same = loaded(turn)
    assert same.key() == game._engine.key() and same.same_position(game._engine)
    for field in Turn._fields:
        value = turn[field]
        if field == "phase":
            other = PHASES[(PHASES.index(value) + 1) % len(PHASES)]
        elif field == "frozen":
            other = value | {next(i for i, c in enumerate(cells) if c is not None)}
        else:
            other = value + 1
        changed = loaded({**turn, field: other})
        part_of_position = field != "round" or variant == "quick40"
        assert (changed.key() != same.key()) is part_of_position, field
        assert (not changed.same_position(same)) is part_of_position, field


# -- held pieces: each army's list in capture order (R39), which R31 reads -------------

def test_the_order_of_an_armys_held_pieces_decides_which_royal_comes_back_r31_r39():
    """Blue holds red's King and Queen (red, without them, is never eliminated: R39's
    puzzle positions) and red captures blue's King: R31 returns the royal blue took first
    (docs/rules.md, interpretation 1). Two positions that differ only in the order of
    blue's held list go different ways, so == and the key must tell them apart."""
    vpns = {held: position({"i6": "0Tw", "i10": "1K"}, armies={1: f"a,0,{held}"},
                           variant="players2") for held in ("0K.0Q", "0Q.0K")}
    first, second = (victorus.Game.from_vpn(v) for v in vpns.values())
    assert first != second and first.key() != second.key() and hash(first) != hash(second)
    for impl in (victorus.Game, ReferenceGame):
        returned = {}
        for held, vpn in vpns.items():
            game = impl.from_vpn(vpn)
            game.play("i6xi10")
            returned[held] = (game.piece_at("h1"), game.piece_at("l1"), game.held(1))
        assert returned == {"0K.0Q": ("0K", None, ("0Q",)), "0Q.0K": (None, "0Q", ("0K",))}


HELD_BASE = "standard i6:0Tw,i20:1Tb 0 " + "/".join(
    ["a,0,{},-,-", "a,0,{},-,-"] + ["a,0,,-,-"] * 4) + " 1 standard"
#: Pieces of armies 2-5 that red (0) and blue (1) may hold: (army, kind, edge, royal).
HELD_POOL = ((2, HOSPITALLER, 0, False), (3, TEMPLAR, 1, False), (4, EXCALIBUR, 0, True),
             (5, KING, None, False), (5, QUEEN, None, False))


def test_every_order_of_held_pieces_is_its_own_position_r39():
    """Exhaustively, red's held list in each of its 6 orders beside blue's in each of its
    2: 12 positions, pairwise unequal (==) with 12 distinct keys; each equal to itself
    rebuilt from its VPN, with the same key."""
    games = [victorus.Game.from_vpn(HELD_BASE.format(".".join(red), ".".join(blue)))
             for red in permutations(("2Hw", "3Tb", "4Xw+"))
             for blue in permutations(("5K", "5Q"))]
    assert len({g.key() for g in games}) == len(games) == 12
    for i, a in enumerate(games):
        for j, b in enumerate(games):
            assert (a == b) == (i == j) == (a.key() == b.key())
        again = victorus.Game.from_vpn(a.vpn())
        assert again == a and again.key() == a.key() and hash(again) == hash(a)


def _loaded(held):
    """The engine at HELD_BASE with ``held``: its one capture log, (holder, army, kind,
    edge, royal) in the order given."""
    game = victorus.Game.from_vpn(HELD_BASE.format("", ""))
    cells, armies, _, turn, _ = game._engine.export()
    engine = Engine(game._engine.rules)
    engine.load(cells, armies, held, turn)
    return engine


@st.composite
def _held_logs(draw):
    """A capture log: each pool piece held by red, by blue or by nobody, logged in a
    random order (which interleaves the two armies' captures)."""
    log = draw(st.permutations(HELD_POOL))
    holders = draw(st.lists(st.sampled_from((0, 1, None)), min_size=len(log), max_size=len(log)))
    return [(h, *piece) for h, piece in zip(holders, log) if h is not None]


def _per_army(log):
    return [[entry for entry in log if entry[0] == holder] for holder in (0, 1)]


@settings(max_examples=300, deadline=None)
@given(first=_held_logs(), how=st.sampled_from(("interleave", "swap", "any")), data=st.data())
def test_keys_and_equality_agree_on_held_pieces_r31_r39(first, how, data):
    """Two capture logs are one position exactly when each army's held list, in capture
    order, is the same (R39; R31 reads that order): how the two armies' captures
    interleave in the engine's one log is no part of it. The key and == agree on that,
    whichever way the second log is drawn: the first with its armies' captures
    interleaved otherwise, with two pieces of one army swapped, or any log."""
    if how == "interleave":                 # the same lists, merged in another order
        red, blue = _per_army(first)
        picks = data.draw(st.permutations([0] * len(red) + [1] * len(blue)))
        lists = [iter(red), iter(blue)]
        second = [next(lists[k]) for k in picks]
    elif how == "swap":
        second = list(first)
        if len(first) >= 2:
            i, j = data.draw(st.lists(st.integers(0, len(first) - 1), min_size=2, max_size=2,
                                      unique=True))
            second[i], second[j] = second[j], second[i]
    else:
        second = data.draw(_held_logs())
    a, b = _loaded(first), _loaded(second)
    same = _per_army(first) == _per_army(second)
    assert a.same_position(b) == b.same_position(a) == same
    assert (a.key() == b.key()) == same
    assert (a.key(7) == b.key(7)) == same                  # the salted keys too
