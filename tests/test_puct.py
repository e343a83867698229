"""PUCT in C (victorus.search.puct, victorus.search._puct) against the slow Python reference
(tests/puct_reference.py), and the search's contract: batches, proofs, reuse, noise,
bad evaluators, cancellation. Values are per seat with team mates sharing (R33)."""

import threading

import numpy as np
import pytest

import victorus
from puct_reference import search as reference_search
from victorus.agents import make_agent
from victorus.errors import ConfigError
from victorus.search.puct import PUCTAgent, uniform_evaluator


def leaf_evaluation(game):
    """A deterministic evaluation over the public API: priors from the action's text,
    values from the material of each seat's team (finite, in [-1, 1])."""
    priors = [1.0 + (sum(map(ord, action.text)) % 7) for action in game.legal_actions()]
    material = game.material()
    teams = game.config.teams
    total = sum(material) or 1
    per_team = {}
    for seat in game.config.present:
        per_team[teams[seat]] = per_team.get(teams[seat], 0) + material[seat]
    mean = total / len(per_team)
    values = [(per_team[teams[s]] - mean) / total if s in game.config.present else 0.0
              for s in range(6)]
    return priors, values


def batch_evaluator(batch):
    """leaf_evaluation for every leaf of a batch, read through LeafBatch.game."""
    priors = np.zeros(batch.legal_ids.shape)
    values = np.zeros((batch.size, 6))
    for i in range(batch.size):
        p, v = leaf_evaluation(batch.game(i))
        priors[i, :len(p)] = p
        values[i] = v
    return priors, values


def midgame(board="compact", players=2, seed=5, actions=40):
    game = victorus.Game(board, players=players)
    victorus.play_random(game, seed=seed, max_actions=actions)
    assert not game.is_over
    return game


def near_end(board="compact", players=2, seed=1, before=3):
    """A position ``before`` actions from the end of a seeded random game."""
    game = victorus.Game(board, players=players)
    victorus.play_random(game, seed=seed, max_actions=100_000)
    assert game.is_over
    for _ in range(before):
        game.undo()
    return game


def c_search(game, iterations, batch_size):
    agent = PUCTAgent(iterations, evaluator=batch_evaluator, batch_size=batch_size,
                      reuse_tree=False, seed=0)
    return agent.search(game)


@pytest.mark.parametrize("players,batch", [(2, 1), (2, 8), (3, 1), (6, 4)])
def test_the_c_search_makes_the_reference_tree(players, batch):
    board = "compact" if players <= 3 else "standard"
    game = midgame(board, players, seed=players * 11)
    result = c_search(game, 120, batch)
    root = reference_search(game, leaf_evaluation, 120, batch_size=batch)
    assert result.visits == tuple(c.visits for c in root.children)
    seat = game.to_move
    assert result.values == pytest.approx(
        [c.value[seat] / c.visits if c.visits else 0.0 for c in root.children], abs=1e-12)
    assert result.priors == pytest.approx([c.prior for c in root.children])


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_proofs_match_the_reference_near_the_end(seed):
    game = near_end(seed=seed, before=3)
    result = c_search(game, 300, 1)
    root = reference_search(game, leaf_evaluation, 300)
    assert result.visits == tuple(c.visits for c in root.children)
    if root.proof is not None and root.proof is not root:
        assert result.action == root.proof.action
        assert result.iterations < 300                   # a proven root ends the search


def test_a_win_at_once_is_proven_and_played():
    proven = 0
    for seed in range(1, 30):
        game = near_end(seed=seed, before=1)
        mover = game.to_move
        agent = PUCTAgent(3000, evaluator=batch_evaluator, batch_size=4, seed=0)
        result = agent.search(game)
        if any(_wins(game, a, mover) for a in game.legal_actions()):
            # A proven root ends the search; its action is a win, at once or forced.
            assert result.iterations < 3000
            assert result.values[result.actions.index(result.action)] == 1.0
            proven += 1
    assert proven >= 5


def _wins(game, action, seat):
    trial = game.copy(history=False)
    trial.play(action)
    return trial.is_over and seat in trial.winners


def test_search_is_reproducible_for_a_seed_and_changes_with_noise():
    game = midgame()
    runs = [PUCTAgent(400, seed=7, noise_fraction=0.25).search(game).visits for _ in range(2)]
    assert runs[0] == runs[1]
    other = PUCTAgent(400, seed=8, noise_fraction=0.25).search(game).visits
    plain = PUCTAgent(400, seed=7).search(game).visits
    assert other != runs[0] and plain != runs[0]


def test_the_tree_is_reused_after_a_move():
    game = midgame()
    agent = PUCTAgent(600, seed=1)
    first = agent.search(game)
    kept = dict(zip(first.actions, first.visits))[first.action]
    game.play(first.action)
    second = agent.search(game)
    assert kept > 1 and sum(second.visits) == kept - 1 + 600
    fresh = PUCTAgent(600, seed=1, reuse_tree=False).search(game)
    assert sum(second.visits) > sum(fresh.visits)


def test_a_failing_evaluator_leaves_the_tree_whole():
    game = midgame()
    calls = []

    def flaky(batch):
        calls.append(batch.size)
        if len(calls) == 3:
            raise RuntimeError("network down")
        return batch_evaluator(batch)

    agent = PUCTAgent(200, evaluator=flaky, batch_size=4, seed=0)
    with pytest.raises(RuntimeError, match="network down"):
        agent.search(game)
    agent.verify()
    result = agent.search(game)
    agent.verify()
    assert sum(result.visits) > 0


@pytest.mark.parametrize("answer,needle", [
    (None, "returns \\(priors, values\\)"),
    ((None, np.zeros((4, 5))), "values of shape"),
    ((None, np.full(4, 2.0)), "values of shape"),
    ((None, np.full(4, np.nan)), "values of shape"),
    ((np.ones((4, 1)), np.zeros(4)), "priors must be"),
    ((-np.ones((4, 999)), np.zeros(4)), "priors must be"),
])
def test_bad_evaluations_are_refused_clearly(answer, needle):
    game = midgame()
    agent = PUCTAgent(100, evaluator=lambda batch: answer, batch_size=4, seed=0)
    with pytest.raises(ValueError, match=needle):
        agent.search(game)
    agent.verify()


def test_batches_carry_observations_ids_and_movers():
    game = midgame()
    seen = []

    def look(batch):
        seen.append((batch.observations.copy(), batch.legal_ids.copy(), batch.seats.copy(),
                     [batch.game(i) for i in range(batch.size)]))
        return uniform_evaluator(batch)

    PUCTAgent(40, evaluator=look, batch_size=8, observation="float32", seed=0).search(game)
    for obs, ids, seats, games in seen:
        for i, leaf in enumerate(games):
            assert seats[i] == leaf.to_move
            n = len(leaf.legal_actions())
            assert list(ids[i, :n]) == list(leaf.legal_action_ids())
            assert (ids[i, n:] == -1).all()
            assert np.array_equal(obs[i], leaf.observation(leaf.to_move))


def test_observer_ids_follow_the_observation_columns():
    game = midgame("standard", 4, seed=3)
    seen = []

    def look(batch):
        seen.append((batch.legal_ids.copy(), [batch.game(i) for i in range(batch.size)]))
        return uniform_evaluator(batch)

    PUCTAgent(30, evaluator=look, batch_size=4, id_frame="observer", seed=0).search(game)
    from victorus.tensors import id_columns
    n = len(game.board)
    for ids, games in seen:
        for i, leaf in enumerate(games):
            absolute = np.asarray(leaf.legal_action_ids())
            origin, target = id_columns(leaf.board, absolute, leaf.to_move)
            expected = np.where(origin >= 0, origin * n + target, absolute)
            assert list(ids[i, :len(absolute)]) == list(expected)


def test_policy_targets():
    game = midgame()
    result = PUCTAgent(300, seed=0).search(game)
    assert sum(result.policy(1.0)) == pytest.approx(1.0)
    assert max(result.policy(0)) == 1.0
    sharp, flat = result.policy(0.25), result.policy(4.0)
    assert max(sharp) > max(result.policy(1.0)) > max(flat)
    with pytest.raises(ConfigError, match="temperature"):
        result.policy(-1)


def test_a_stop_token_ends_the_search_and_bad_arguments_are_refused():
    game = midgame()
    token = victorus.StopToken()
    token.stop()
    with pytest.raises(victorus.Cancelled, match="already stopped"):      # the one rule
        PUCTAgent(None, seconds=60, seed=0).search(game, stop=token)
    for kwargs in ({"batch_size": 0}, {"c_puct": -1}, {"observation": "int4"},
                   {"evaluator": 3}, {"iterations": None}, {"noise_fraction": 2}):
        with pytest.raises(ConfigError):
            PUCTAgent(**kwargs)


def test_one_agent_searched_from_two_threads_stays_whole():
    game = midgame()
    agent = PUCTAgent(300, seed=0)
    errors = []

    def work():
        try:
            for _ in range(3):
                agent.search(game.copy())
        except Exception as error:                       # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=work) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    agent.verify()


def test_puct_specs():
    agent = make_agent("puct:50", seed=3)
    assert isinstance(agent, PUCTAgent) and agent.name == "puct:50"
    assert make_agent("puct:0.01s").seconds == 0.01
    game = midgame()
    assert agent.choose(game) in game.legal_actions()
    for bad in ("puct:x", "puct:5@2", "puct:0"):
        with pytest.raises(ConfigError):
            make_agent(bad)


def test_positions_searched_together_share_batches_and_match_alone():
    games = [midgame(seed=s) for s in (5, 6, 7)] + [midgame(players=3, seed=8)]
    sizes = []

    def counting(batch):
        sizes.append(batch.size)
        return batch_evaluator(batch)

    agent = PUCTAgent(100, evaluator=counting, batch_size=4, seed=0)
    together = agent.search_many(games)
    assert max(sizes) > 4                                 # leaves of several trees at once
    alone = [c_search(game, 100, 4) for game in games]
    assert [r.visits for r in together] == [r.visits for r in alone]
    agent.verify()
    for game, result in zip(games, together):
        game.play(result.action)
    again = agent.search_many(games)                      # each tree kept for its game
    assert all(sum(r.visits) >= 100 for r in again)
    with pytest.raises(ConfigError, match="one board"):
        agent.search_many([games[0], midgame("standard", 4)])
    with pytest.raises(ConfigError, match="list of one or more"):
        agent.search_many([])


def test_rollouts_cut_short_are_scored_by_the_evaluation():
    """rollouts(0, heuristic): a leaf's value is the heuristic evaluation's
    (victorus.evaluation), for the UCT and for PUCT alike (R33 teams)."""
    from victorus.agents import MCTSAgent
    from victorus.evaluation import evaluate
    for players in (2, 3):
        game = next(g for g in (midgame(players=players, seed=s) for s in range(21, 60))
                    if len(g.legal_actions()) > 3)
        actions = game.legal_actions()
        expected = []
        for action in actions:
            child = game.copy()
            child.play(action)
            expected.append(evaluate(child)[game.to_move])
        uct = MCTSAgent(len(actions), seed=0, evaluator="rollouts(0, heuristic)").search(game)
        assert uct.visits == (1,) * len(actions)
        assert uct.values == pytest.approx(expected, abs=1e-6)
        puct = PUCTAgent(2, evaluator="rollouts(0, heuristic)", seed=0).search(game)
        visited = [i for i, n in enumerate(puct.visits) if n]
        assert len(visited) == 1
        assert puct.values[visited[0]] == pytest.approx(expected[visited[0]], abs=1e-6)
        material = MCTSAgent(len(actions), seed=0, evaluator="rollouts(0, material)").search(game)
        assert material.values != uct.values


def test_best_is_the_tuned_puct_at_a_budget():
    from victorus.agents import BEST_EVALUATOR, BEST_SETTINGS, REGISTRY
    from victorus.page.page_state import PAGE_AGENTS
    best = make_agent("best:0.01s", seed=1)
    assert best.name == "best:0.01s" and best.seconds == 0.01
    assert best.c_puct == BEST_SETTINGS["c_puct"] and REGISTRY["best"].settings == BEST_SETTINGS
    assert best.evaluator.spec == BEST_EVALUATOR == REGISTRY["best"].evaluator
    assert make_agent("best").seconds == 0.1 and make_agent("best:300").iterations == 300
    game = midgame()
    assert make_agent("best:200", seed=2).choose(game) == make_agent("best:200", seed=2).choose(game)
    assert any(spec.startswith("best") for spec in PAGE_AGENTS)
    with pytest.raises(ConfigError, match="bad search budget"):
        make_agent("best:fast")


def test_evaluated_priors_follow_the_evaluation_of_each_action():
    import math

    from victorus.evaluation import evaluate
    game = next(g for g in (midgame(seed=s) for s in range(30, 60)) if len(g.legal_actions()) > 3)
    weights = []
    for action in game.legal_actions():
        child = game.copy()
        child.play(action)
        weights.append(math.exp(4 * evaluate(child)[game.to_move]))
    result = PUCTAgent(1, evaluator="rollouts(10, lookahead(heuristic))", seed=0).search(game)
    assert result.priors == pytest.approx([w / sum(weights) for w in weights], rel=1e-5)
    captures = PUCTAgent(1, seed=0).search(game).priors
    assert captures != result.priors


def test_an_evaluator_may_not_search_with_its_own_agent_nor_keep_its_batch():
    game = midgame()
    kept = []

    def reentrant(batch):
        kept.append(batch)
        agent.search(batch.game(0))
        return uniform_evaluator(batch)

    agent = PUCTAgent(20, evaluator=reentrant, batch_size=2, seed=0)
    with pytest.raises(RuntimeError, match="its own evaluator"):
        agent.search(game)
    with pytest.raises(RuntimeError, match="only during the evaluator's call"):
        kept[0].game(0)
    agent.verify()
    assert PUCTAgent(20, evaluator=uniform_evaluator, seed=0).search(game).iterations == 20


def test_read_only_answers_are_accepted_and_overflowing_priors_refused():
    game = midgame()

    def frozen(batch):
        priors, values = np.ones(batch.legal_ids.shape), np.zeros(batch.size)
        priors.setflags(write=False)
        values.setflags(write=False)
        return priors, values

    assert PUCTAgent(30, evaluator=frozen, batch_size=4, seed=0).search(game).iterations == 30
    huge = PUCTAgent(30, evaluator=lambda b: (np.full(b.legal_ids.shape, 1e308), np.zeros(b.size)),
                     batch_size=4, seed=0)
    with pytest.raises(ValueError, match="finite sums"):
        huge.search(game)
    with pytest.raises(ConfigError, match="max_nodes"):
        PUCTAgent(10, max_nodes=100)


def test_a_mover_value_is_shared_out_to_the_other_teams():
    """(leaves,) values are the army to act's team's; each other team gets -v/(teams-1)
    (R33: team mates share)."""
    game = midgame(players=3, seed=9)

    def per_mover(batch):
        return None, np.full(batch.size, 0.6)

    def per_seat(batch):
        values = np.zeros((batch.size, 6))
        for i in range(batch.size):
            leaf = batch.game(i)
            teams = leaf.config.teams
            for s in leaf.config.present:
                values[i, s] = 0.6 if teams[s] == teams[leaf.to_move] else -0.3
        return None, values

    a = PUCTAgent(200, evaluator=per_mover, batch_size=4, seed=0).search(game)
    b = PUCTAgent(200, evaluator=per_seat, batch_size=4, seed=0).search(game)
    assert a.visits == b.visits and a.values == pytest.approx(b.values)
