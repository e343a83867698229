"""Search: MCTS in C against the Python example at equal rollout lengths,
root parallelism, and perft with a transposition table. The same workloads as
``victorus bench``'s search rows. Rates: divide ``extra_info`` counts by the mean time.
"""

import pytest

import victorus
from victorus.agents import MCTSAgent, PythonMCTSAgent


@pytest.mark.parametrize("rollout", [200, 10, 0])
@pytest.mark.parametrize("agent", [MCTSAgent, PythonMCTSAgent], ids=["c", "python"])
def test_mcts_from_the_start(benchmark, agent, rollout):
    game = victorus.Game("compact", players=2)
    search = agent(400, rollout_actions=rollout, seed=1)
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
