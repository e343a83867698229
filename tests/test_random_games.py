"""Seeded random games checking the invariants after every action (R10, R15-R39).

Across both boards, every player count and both variants (plus allied): piece
conservation, one piece per cell with the core in step, knights on their edge
color, frozen pieces never move, exact undo, independent copies, unique action
strings (R38) and the VPN round trip at every turn start (R39).
"""

import random

import pytest

import victorus
from helpers import ALL_CONFIGS, SOME_CONFIGS, config_id, fingerprint, occupancy, view
from victorus.geometry import KING, QUEEN

CONFIGS = ALL_CONFIGS
GAMES = 504                    # 21 per configuration
ACTIONS_PER_GAME = 120


def check_invariants(game, initial_pieces):
    board = game.board
    cells, armies, _, _ = view(game)
    # One piece per cell, and the bitboards agree with the cell-by-cell view.
    occupied, live = occupancy(game)
    for army in range(6):
        assert occupied[army] == [i for i, p in enumerate(cells) if p and p.army == army]
    assert live == sum(1 << s for s in range(6) if armies[s].state != "e")
    assert cells[board.centre] is None
    # Knights stand on their edge color (R10).
    for i, p in enumerate(cells):
        if p is not None and p.kind not in (KING, QUEEN):
            assert board.colors[i] == p.edge, (board.labels[i], p)
    # Conservation: every piece of an active army is on the board or held (R20, R31).
    held = {}
    for army in armies:
        for h in army.held:
            held[h.army] = held.get(h.army, 0) + 1
    # A royal that conquered the centre (R28) left the board as the game ended.
    conqueror = game.to_move if game.result_reason == "centre" else None
    for seat, army in enumerate(armies):
        if army.state == "a":
            on_board = sum(1 for p in cells if p is not None and p.army == seat)
            in_centre = 1 if seat == conqueror else 0
            assert on_board + held.get(seat, 0) + in_centre == initial_pieces[seat], seat
        elif army.state == "e":
            assert all(p is None or p.army != seat for p in cells)


def run_game(board, players, variant, seed, max_actions=ACTIONS_PER_GAME, check_undo=True):
    rng = random.Random(seed)
    game = victorus.Game(board, players=players, variant=variant)
    initial = [12 if view(game)[1][s].state == "a" else 0 for s in range(6)]
    for _ in range(max_actions):
        if game.is_over:
            break
        turn = view(game)[2]
        if turn.phase == "start":
            vpn = game.vpn()
            again = victorus.Game.from_vpn(vpn)
            assert again.vpn() == vpn
            assert [str(a) for a in again.legal_actions()] == [str(a) for a in game.legal_actions()]
        legal = game.legal_actions()
        texts = [str(a) for a in legal]
        assert len(set(texts)) == len(texts)                                # R38
        for a in legal:                                                     # R24
            if a.is_leg:
                assert a.origin not in turn.frozen
                if turn.phase == "move":
                    assert a.origin == turn.mover
        action = rng.choice(legal)
        if not check_undo:
            game.play(action)
            check_invariants(game, initial)
            continue
        before = fingerprint(game)
        game.play(action)
        after = fingerprint(game)
        game.undo()
        assert fingerprint(game) == before                                  # exact undo
        game.play(str(action))
        assert fingerprint(game) == after
        if rng.random() < 0.05:                                             # independent copy
            twin = game.copy()
            victorus.play_random(twin, rng.getrandbits(32), max_actions=5)
            while twin._engine.history_length and rng.random() < 0.5:
                twin.undo()
            assert fingerprint(game) == after
        check_invariants(game, initial)
    return game


@pytest.mark.parametrize("chunk", range(8))
def test_random_games_keep_invariants(chunk):
    for n in range(chunk, GAMES, 8):
        board, players, variant = CONFIGS[n % len(CONFIGS)]
        run_game(board, players, variant, seed=n)


@pytest.mark.parametrize("board, players, variant", SOME_CONFIGS,
                         ids=[config_id(c) for c in SOME_CONFIGS])
def test_whole_games_keep_invariants(board, players, variant):
    """Games played to their end reach captures, rescues, eliminations and victories."""
    game = run_game(board, players, variant, seed=77, max_actions=10**6, check_undo=False)
    assert game.is_over


@pytest.mark.parametrize("board", ["standard", "compact"])
def test_default_game_plays_to_the_end(board):
    """A random game of the default configuration ends with a winner and a reason (R28, R32)."""
    game = victorus.Game(board)
    n = victorus.play_random(game, seed=2026)
    assert game.is_over and n > 0
    assert game.result_reason in ("centre", "elimination", "draw")
    assert game.winners and all(0 <= s < 6 for s in game.winners)
    assert game.legal_actions() == []
    with pytest.raises(victorus.IllegalActionError, match="game is over"):
        game.play("pass")


def test_action_cap_leaves_game_unfinished_r36():
    game = victorus.Game()
    assert victorus.play_random(game, seed=1, max_actions=10) == 10
    assert not game.is_over and game.winners is None and game.result_reason is None
