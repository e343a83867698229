"""The public read-only view: Game.view(), material(), returns(), checked
against the game's own records cell by cell on positions of random games."""

import pytest

import victorus
from helpers import SOME_CONFIGS, config_id
from victorus.constants import points


def positions(board, players, variant, games=3, every=11):
    for seed in range(games):
        game = victorus.Game(board, players=players, variant=variant)
        n = 0
        while not game.is_over and n < 600:
            if n % every == 0:
                yield game
            victorus.play_random(game, seed=seed * 1000 + n, max_actions=1)
            n += 1
        yield game


@pytest.mark.parametrize("board, players, variant", SOME_CONFIGS,
                         ids=[config_id(c) for c in SOME_CONFIGS])
def test_view_agrees_with_the_game_cell_by_cell(board, players, variant):
    for game in positions(board, players, variant):
        view = game.view()
        cells, armies, turn, _ = game._view()
        labels = game.board.labels
        assert [view.piece_code(i) for i in range(len(labels))] == \
            [game.piece_at(label) for label in labels]
        assert view.pieces() == cells
        assert {i for i, f in enumerate(view.frozen) if f} == set(turn.frozen)
        assert view.held == tuple(tuple(h.code for h in a.held) for a in armies)
        assert view.held == tuple(tuple(f"{c}" for c in game.held(s)) for s in range(6))
        assert view.states == tuple({"a": "active", "e": "eliminated", "x": "absent"}[a.state]
                                    for a in armies)
        assert view.knight_captures == tuple(a.knight_captures for a in armies)
        assert (view.to_move, view.phase, view.round) == (game.to_move, game.phase, game.round)
        on_board = [0] * 6
        for piece in cells:
            if piece is not None:
                on_board[piece.army] += points(piece.kind, piece.royal)
        held = [sum(h.points for h in a.held) for a in armies]
        assert view.board_points == tuple(on_board) and view.held_points == tuple(held)
        assert game.material() == view.material() == tuple(b + h for b, h in zip(on_board, held))


def test_the_view_is_a_snapshot():
    game = victorus.Game("compact", players=2)
    view = game.view()
    before = game.vpn()
    view.army[0] = 5
    view.kind[:] = view.kind[::-1]
    assert game.vpn() == before and game.view() != view and game.view() == game.view()


def test_returns_follow_the_team_result():
    seen = set()
    for board, players, variant in SOME_CONFIGS:
        for seed in range(6):
            game = victorus.Game(board, players=players, variant=variant)
            assert game.returns() == (0.0,) * 6              # running
            victorus.play_random(game, seed=seed)
            winners = set(game.winners or ())
            present = set(game.config.present)
            expected = tuple((1.0 if s in winners else -1.0) if winners and s in present
                             else 0.0 for s in range(6))
            if game.is_over:
                assert game.returns() == expected
                seen.add("won" if winners else "draw")
                if winners:                                  # one team wins (R27, R33)
                    assert len({game.config.teams[s] for s in winners}) == 1
            else:
                assert game.returns() == (0.0,) * 6          # capped (R36)
    assert "won" in seen


def test_play_random_without_history_drops_it_and_plays_the_same_game():
    kept, dropped = victorus.Game(), victorus.Game()
    assert victorus.play_random(kept, seed=9, max_actions=300) == \
        victorus.play_random(dropped, seed=9, max_actions=300, history=False)
    assert kept == dropped and kept.key() == dropped.key()
    with pytest.raises(victorus.StateError, match="nothing to undo"):
        dropped.undo()
    assert len(dropped.history()) == 0
    victorus.play_random(dropped, seed=2, max_actions=40)
    assert len(dropped.history()) == 40
