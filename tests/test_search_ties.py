"""One-line mistakes in the searches' choices, each pinned by a value worked out by hand or
by the slow Python PUCT (tests/puct_reference.py): the choice among equally visited
children (PUCT's and the UCT's: the first of equals), a batch whose walks all end in
finished or proven positions (the search goes on to its budget), and the mix of the
root's Dirichlet noise with the priors ((1 - fraction) x prior + fraction x noise)."""

from __future__ import annotations

import numpy as np
import pytest

import victorus
from puct_reference import search as reference_search
from victorus.agents import MCTSAgent
from victorus.search.puct import PUCTAgent


def midgame(board="compact", players=2, seed=5, actions=40):
    game = victorus.Game(board, players=players)
    victorus.play_random(game, seed=seed, max_actions=actions)
    assert not game.is_over
    return game


def near_end(seed, before):
    """A compact 2-player position ``before`` actions from the end of a seeded random game."""
    game = victorus.Game("compact", players=2)
    victorus.play_random(game, seed=seed, max_actions=100_000)
    assert game.is_over
    for _ in range(before):
        game.undo()
    return game


def flat(batch):
    """Uniform priors and a value of 0 for every seat: every child alike."""
    return None, np.zeros((batch.size, 6))


def first_best(result):
    """PUCT's documented choice, worked out from what it reports: the most visited root
    child, then the best valued for the army to act, then the first."""
    return max(range(len(result.actions)), key=lambda i: (result.visits[i], result.values[i]))


@pytest.mark.parametrize("iterations", [1, "one per child"])
def test_puct_takes_the_first_of_equally_visited_equally_valued_children(iterations):
    """Uniform priors and values of 0: one iteration leaves every child unvisited, one more
    per child visits each once (first-play urgency 0: an unvisited child's bonus is the
    larger); all alike, the first legal action is chosen, never the last."""
    for seed in (5, 6, 7):
        game = midgame(seed=seed)
        n = len(game.legal_actions())
        budget = 1 if iterations == 1 else 1 + n
        result = PUCTAgent(budget, evaluator=flat, batch_size=1, reuse_tree=False,
                           seed=0).search(game)
        assert set(result.visits) == ({0} if budget == 1 else {1}) and n > 2
        assert result.action == result.actions[0]


@pytest.mark.parametrize("seed", [5, 6])
def test_puct_picks_the_most_visited_then_the_best_valued_then_the_first(seed):
    result = PUCTAgent(60, evaluator="heuristic", batch_size=4, reuse_tree=False,
                       seed=0).search(midgame(seed=seed))
    assert result.action == result.actions[first_best(result)]


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_the_uct_takes_the_first_of_equally_visited_children(seed):
    """Five iterations on a position of many legal actions: each expands another root child
    (one visit each); the chosen one is the first of them in legal_actions() order."""
    game = midgame(seed=seed)
    result = MCTSAgent(5, seed=seed).search(game)
    assert sorted(result.visits)[-5:] == [1] * 5 and len(result.actions) > 5
    assert result.action == result.actions[result.visits.index(1)]


def _finished_positions(node):
    """The finished games in the reference tree below ``node``."""
    count = int(node.proof is node)
    return count + sum(_finished_positions(c) for c in node.children or ())


@pytest.mark.parametrize("seed,before", [(3, 2), (3, 8), (4, 10), (5, 8)])
def test_walks_ending_in_finished_games_do_not_end_the_search(seed, before):
    """One leaf a batch (the C evaluator's step) near the end of a game: a walk ending in a
    finished or proven position is backed up at once and its batch has no leaf left; the
    search goes on to its budget, as the reference does (the uniform evaluation is its
    ``flat`` twin: two teams, values 0)."""
    game = near_end(seed, before)
    result = PUCTAgent(200, evaluator="uniform", batch_size=1, reuse_tree=False,
                       seed=0).search(game)
    root = reference_search(game, lambda g: ([1.0] * len(g.legal_actions()), [0.0] * 6), 200)
    assert root.proof is None and _finished_positions(root) > 0   # the case is exercised
    assert result.iterations == root.visits == 200
    assert result.visits == tuple(c.visits for c in root.children)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_root_noise_weighs_the_priors_by_one_minus_its_fraction(seed):
    """The root's priors all on its first action (the evaluator's first call is the root),
    values 0, first-play urgency 0, noise fraction 0.25: the root's noised prior of that
    action is 0.75 + 0.25 x its noise share >= 0.75, so its visits n0 bound the others'
    (PUCT visits a child only while p / (1 + n) is the largest): sum n <= (1 + n0) / 3.
    Swapped (0.25 x prior + 0.75 x noise) the others take most of the visits. And the noise
    reaches the root: without it the others' prior is 0 and they are never visited."""
    calls = []

    def root_first(batch):
        calls.append(batch.size)
        if len(calls) > 1:
            return None, np.zeros((batch.size, 6))
        priors = np.zeros(batch.legal_ids.shape)
        priors[:, 0] = 1.0
        return priors, np.zeros((batch.size, 6))

    game = midgame(seed=seed, actions=30)
    result = PUCTAgent(400, evaluator=root_first, batch_size=1, noise_fraction=0.25,
                       fpu_reduction=0.0, reuse_tree=False, seed=seed).search(game)
    first, others = result.visits[0], sum(result.visits[1:])
    assert len(result.actions) > 5 and first + others == 399
    assert others <= (1 + first) / 3
    assert others > 0
