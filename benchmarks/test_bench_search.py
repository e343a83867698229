"""Search: MCTS in C against the Python example at equal rollout lengths,
root parallelism, and perft with a transposition table. The same workloads as
``victorus bench``'s search rows. Rates: divide ``extra_info`` counts by the mean time.
"""

import pytest

import victorus
from victorus.agents import MCTSAgent, PythonMCTSAgent
from victorus.search.alphabeta import AlphaBetaAgent


@pytest.mark.parametrize("rollout", [200, 10, 0])
@pytest.mark.parametrize("agent", [MCTSAgent, PythonMCTSAgent], ids=["c", "python"])
def test_mcts_from_the_start(benchmark, agent, rollout):
    game = victorus.Game("compact", players=2)
    search = (MCTSAgent(400, seed=1, evaluator=f"rollouts({rollout}, material)") if agent is MCTSAgent
              else PythonMCTSAgent(400, rollout, seed=1))
    benchmark.pedantic(search.choose, (game,), rounds=5)
    benchmark.extra_info["iterations"] = 400


@pytest.mark.parametrize("threads", [1, 2])
def test_mcts_threads(benchmark, threads):
    game = victorus.Game("compact", players=2)
    agent = MCTSAgent(8000, threads=threads, seed=1)
    benchmark.pedantic(agent.search, (game,), rounds=5)
    benchmark.extra_info["iterations"] = 8000


@pytest.mark.parametrize("hash_mb", [0, 64])
def test_perft_hashed(benchmark, midgame, hash_mb):
    games = [victorus.Game(), victorus.Game.from_vpn(midgame[0])]
    benchmark.extra_info["leaves"] = benchmark.pedantic(
        lambda: sum(victorus.perft(g, 5, hash_mb=hash_mb) for g in games), rounds=3)


def _positions():
    """The compact 2-player start and positions along random games."""
    games = [victorus.Game("compact", players=2)]
    for seed in range(4):
        game = victorus.Game("compact", players=2)
        victorus.play_random(game, seed, 40 * (seed + 1))
        if not game.is_over:
            games.append(game)
    return games


def test_alphabeta_nodes(benchmark):
    """Alpha-beta in C with the default evaluation: nodes / mean time is its rate; divide
    by test_play_undo_on_the_same_positions's for the ratio to play()+undo()."""
    games = _positions()
    agent = AlphaBetaAgent(20_000, seed=1)
    nodes = benchmark.pedantic(lambda: sum(agent.search(g).nodes for g in games), rounds=3)
    benchmark.extra_info["nodes"] = nodes


def test_play_undo_on_the_same_positions(benchmark):
    """play() + undo() of each position's first legal action, 1,000 times a position."""
    pairs = [(g, g.legal_actions()[0]) for g in _positions()]

    def run():
        for game, action in pairs:
            for _ in range(1000):
                game.play(action)
                game.undo()
        return 1000 * len(pairs)
    benchmark.extra_info["play_undo"] = benchmark.pedantic(run, rounds=3)


@pytest.mark.parametrize("evaluation", ["heuristic", "network"])
def test_alphabeta_nodes_by_evaluation(benchmark, evaluation):
    """Alpha-beta in C with the heuristic or the learned evaluation (the shipped network)
    on the same positions and budget: the ratio of their nodes / mean time."""
    games = _positions()
    network = "default" if evaluation == "network" else None
    agent = AlphaBetaAgent(20_000, seed=1, network=network)
    nodes = benchmark.pedantic(lambda: sum(agent.search(g).nodes for g in games), rounds=3)
    benchmark.extra_info["nodes"] = nodes


@pytest.mark.parametrize("evaluation", ["heuristic", "network"])
def test_evaluation_per_leaf(benchmark, evaluation):
    """One evaluation of each of the positions, in C (the cost of a leaf): divide
    ``leaves`` by the mean time; the network's against the heuristic's."""
    from victorus.evaluation import _network
    from victorus.evaluation.network import default_network
    engines = [g._engine for g in _positions()]
    core = default_network().core if evaluation == "network" else None
    benchmark.extra_info["leaves"] = benchmark.pedantic(
        lambda: _network.evaluate_many(engines, core, 2000), rounds=3)
