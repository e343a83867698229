"""The engine's figures (perft, playouts, simulate, copy, play+undo) and the
pure-Python path's, as pytest-benchmark cases (the same workloads as
``victorus bench``). Rates: divide ``extra_info`` counts by the mean time.
"""

import pytest

import victorus
from victorus._reference_game import ReferenceGame, reference_perft
from victorus.bench import api_playout


@pytest.mark.parametrize("board", ["standard", "compact"])
def test_perft_engine(benchmark, board):
    game = victorus.Game(board)
    benchmark.extra_info["leaves"] = benchmark(victorus.perft, game, 4)


@pytest.mark.parametrize("board", ["standard", "compact"])
def test_perft_reference(benchmark, board):
    game = ReferenceGame(board)
    benchmark.extra_info["leaves"] = benchmark.pedantic(reference_perft, (game, 2), rounds=3)


def test_perft_midgame_engine(benchmark, midgame):
    games = [victorus.Game.from_vpn(v) for v in midgame]
    benchmark.extra_info["leaves"] = benchmark(lambda: sum(victorus.perft(g, 3) for g in games))


def test_perft_midgame_reference(benchmark, midgame):
    games = [ReferenceGame.from_vpn(v) for v in midgame]
    benchmark.extra_info["leaves"] = benchmark.pedantic(
        lambda: sum(reference_perft(g, 1) for g in games), rounds=3)


def test_playout_api_engine(benchmark):
    benchmark.extra_info["actions"] = benchmark(api_playout, victorus.Game, 1, 10**6)


def test_playout_api_reference(benchmark):
    benchmark.extra_info["actions"] = benchmark.pedantic(
        api_playout, (ReferenceGame, 1, 300), rounds=3)


def test_play_random_engine(benchmark):
    def run():
        return victorus.play_random(victorus.Game(), seed=1)
    benchmark.extra_info["actions"] = benchmark(run)


@pytest.mark.parametrize("workers", [1, 2])
def test_simulate(benchmark, workers):
    results = benchmark.pedantic(victorus.simulate, (100,), {"seed": 1, "workers": workers},
                                 rounds=3)
    benchmark.extra_info["games"] = len(results)
    benchmark.extra_info["actions"] = sum(g.actions for g in results)


@pytest.mark.parametrize("impl", ["engine", "reference"])
def test_copy(benchmark, midgame, impl):
    game = (victorus.Game if impl == "engine" else ReferenceGame).from_vpn(midgame[0])
    benchmark(game.copy)


@pytest.mark.parametrize("impl", ["engine", "reference"])
def test_play_undo(benchmark, midgame, impl):
    game = (victorus.Game if impl == "engine" else ReferenceGame).from_vpn(midgame[0])
    action = str(game.legal_actions()[0])

    def run():
        game.play(action)
        game.undo()
    benchmark(run)
