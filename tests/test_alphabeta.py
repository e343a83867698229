"""The alpha-beta agent (victorus.search.alphabeta, C in victorus.search._alphabeta): its value and
best action against a slow minimax / paranoid search in Python over the public API, on
positions of two teams and of three or more (R33); reproducibility; budgets and specs;
cancellation."""

import threading

import pytest

import victorus
from helpers import load_tool, position
from victorus.agents import make_agent
from victorus.errors import ConfigError
from victorus.evaluation import evaluate
from victorus.evaluation.registry import heuristic
from victorus.search import _alphabeta
from victorus.search.alphabeta import AlphaBetaAgent

WIN_DECAY = 0.001         # a win k actions deep is worth 1 - k / 1000 (docs/agents.md)


def reference_value(game, depth, root_seat, ply=0):
    """Minimax of the root team's value (R33): its armies take the most, every other army
    the least (negamax with two teams, paranoid with more), ``depth`` actions deep."""
    if game.is_over:
        return game.share_returns()[root_seat] * (1 - ply * WIN_DECAY)
    if depth == 0:
        return evaluate(game)[root_seat]
    teams = game.config.teams
    values = []
    for action in game.legal_actions():
        game.play(action)
        values.append(reference_value(game, depth - 1, root_seat, ply + 1))
        game.undo()
    return max(values) if teams[game.to_move] == teams[root_seat] else min(values)


def c_search(game, depth, seed=0, nodes=-1):
    """(best action, value, depth reached, nodes) of the C search to ``depth``."""
    best, value, reached, searched = _alphabeta.alphabeta(game._engine, depth, nodes, 0.0, seed, 12,
                                                             heuristic())
    return game.legal_actions()[best], value, reached, searched


SPARSE = [  # (VPN, depth): few pieces, so that the Python reference is quick
    (position({"i6": "0Tw", "i10": "1Xw", "h1": "0K", "i20": "1Q"}, board="standard",
              variant="players2"), 4),
    (position({"g4": "0Tw", "i6": "0Uw", "h3": "0K", "i10": "1Xw", "j9": "1Tb", "k18": "1K"},
              board="compact", variant="players2"), 3),
    (position({"i6": "0Tw", "i10": "1Xw", "i20": "2Q", "h1": "0K", "g16": "2Bw"},
              variant="players3"), 3),
    (position({"i6": "0Tw", "i10": "3K", "i20": "1Q", "h1": "0K", "f13": "4Hb"}), 3),
    (position({"i12": "0K", "i20": "1Tb", "i10": "1Xw"}, armies={0: "a,3,"},
              laps={"i12": 1}), 2),
]


def played(players, seed, actions):
    game = victorus.Game("compact", players=players)
    victorus.play_random(game, seed=seed, max_actions=actions)
    return game


@pytest.mark.parametrize("vpn,depth", SPARSE)
def test_value_and_best_action_equal_the_reference_on_sparse_positions_r33(vpn, depth):
    game = victorus.Game.from_vpn(vpn)
    for d in range(1, depth + 1):
        action, value, reached, _ = c_search(game, d)
        root = reference_value(game, d, game.to_move)
        assert reached == d and value == pytest.approx(root, abs=1e-6)
        child = game.copy()
        child.play(action)
        assert reference_value(child, d - 1, game.to_move, 1) == pytest.approx(root, abs=1e-6)


@pytest.mark.parametrize("players,seed", [(2, 2), (2, 4), (3, 3), (3, 5), (4, 2), (6, 8)])
def test_value_and_best_action_equal_the_reference_on_played_positions(players, seed):
    """Seeds where the opponents' replies change the depth-3 value (a search maximising
    at every node would fail)."""
    game = played(players, seed, 50)
    for depth in (1, 2, 3):
        action, value, _, _ = c_search(game, depth, seed=seed)
        root = reference_value(game, depth, game.to_move)
        assert value == pytest.approx(root, abs=1e-6)
        child = game.copy()
        child.play(action)
        assert reference_value(child, depth - 1, game.to_move, 1) == pytest.approx(root, abs=1e-6)


def test_the_nearest_win_is_taken_r28():
    game = victorus.Game.from_vpn(SPARSE[-1][0])
    action, value, _, _ = c_search(game, 3)
    assert str(action) == "i12-i14" and value == pytest.approx(1 - WIN_DECAY)


def test_a_seed_and_a_node_budget_give_the_same_search():
    game = played(2, 7, 30)
    first = [make_agent("alphabeta:3000", seed=5).search(game) for _ in range(2)]
    assert first[0] == first[1] and first[0].nodes <= 3001 and first[0].depth >= 2
    agents = [make_agent("alphabeta:500", seed=9) for _ in range(2)]
    games = [played(2, 8, 10) for _ in range(2)]
    for _ in range(12):
        if games[0].is_over:
            break
        moves = [agent.choose(g) for agent, g in zip(agents, games)]
        assert moves[0] == moves[1]
        for g, move in zip(games, moves):
            g.play(move)


def test_specs_and_bad_budgets():
    assert make_agent("alphabeta:0.05s").name == "alphabeta:0.05s"
    assert make_agent("alphabeta:2000").nodes == 2000
    assert make_agent("alphabeta").seconds == 0.1
    for spec in ("alphabeta:0", "alphabeta:x", "alphabeta:1@2", "alphabeta:-5", "alphabeta:0s"):
        with pytest.raises(ConfigError):
            make_agent(spec)
    for kwargs in ({}, {"nodes": 10, "depth": 0}, {"nodes": 10, "table_bits": 40},
                   {"nodes": 10, "evaluator": "heuristic(speed)"}, {"seconds": -1.0}):
        with pytest.raises(ConfigError):
            AlphaBetaAgent(**kwargs)
    with pytest.raises(ConfigError):
        AlphaBetaAgent(10).search(played(2, 1, 10), stop="stop")


def test_a_stop_token_ends_the_search():
    game = played(2, 3, 20)
    stopped = victorus.StopToken()
    stopped.stop()
    with pytest.raises(victorus.Cancelled, match="already stopped"):   # the one rule
        AlphaBetaAgent(seconds=600).search(game, stop=stopped)
    token, results = victorus.StopToken(), []
    worker = threading.Thread(target=lambda: results.append(
        AlphaBetaAgent(seconds=600).search(game, stop=token)))
    worker.start()
    worker.join(0.3)
    token.stop()
    worker.join(60)
    assert not worker.is_alive() and results[0].depth >= 1


def test_paired_match_plays_each_opening_twice_with_colours_swapped():
    match = load_tool("match")
    result = match.match(lambda s: make_agent("alphabeta:300", seed=s),
                         lambda s: make_agent("random", seed=s), 2, seed=1, max_actions=400,
                         progress=False)
    assert result.games == 4 and result.wins + result.losses + result.draws + result.unfinished == 4
    low, high = result.interval()
    assert 0 <= low <= result.wins / 4 <= high <= 1


@pytest.mark.parametrize("board,players", [("standard", 6), ("compact", 3), ("standard", 4)])
def test_the_agent_plays_every_player_count_r33(board, players):
    game = victorus.Game(board, players=players)
    agent = AlphaBetaAgent(400, seed=2)
    for _ in range(30):
        if game.is_over:
            break
        game.play(agent.choose(game))
    assert game.ply == 30 or game.is_over
