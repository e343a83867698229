"""A time budget bounds the whole decision (victorus.search.budgets): its deadline is read
when ``choose`` or ``search`` is called and covers the setup (the game's copy, the tree's
reuse), the search and the choice. No test here times anything: a fake clock, or a
setup made slow on purpose, puts the deadline in the past, and the search must then do
its least work (PUCT one batch: the root evaluated; MCTS one iteration a tree;
alpha-beta its depth 1) and still return a legal action."""

from __future__ import annotations

import gc
import time

import pytest

import victorus
from victorus.game import Game
from victorus.search import _alphabeta, _mcts, _puct, budgets, mcts
from victorus.search.alphabeta import AlphaBetaAgent
from victorus.search.mcts import MCTSAgent, PythonMCTSAgent
from victorus.search.puct import PUCTAgent
from victorus.search.registry import REGISTRY, make_agent
from victorus.timing import decision_times, time_budget_kinds


def spent(agent) -> None:
    """The agent's clock read an hour back at its next decision's start (the true time
    after): that decision's budget is spent when it starts."""
    readings = []

    def clock() -> float:
        readings.append(None)
        return budgets.now() - (3600.0 if len(readings) == 1 else 0.0)
    agent._clock = clock


def test_every_kind_with_a_time_budget_is_measured_by_the_bench():
    assert time_budget_kinds() == [name for name, kind in REGISTRY.items() if kind.unit]
    assert {"mcts", "mcts-py", "puct", "alphabeta", "alphabeta-net", "best", "best-net",
            "best-heuristic"} <= set(time_budget_kinds())


def test_the_clock_is_the_searches_and_the_deadline_is_start_plus_budget():
    before = time.monotonic()
    assert before - 1 < budgets.now() < time.monotonic() + 1     # the same monotonic clock
    assert budgets.deadline(0.05, 100.0) == 100.05
    assert budgets.deadline(None, 100.0) == 0.0
    # a start long before the clock's zero (an hour back on a machine up for minutes) is a
    # deadline already past, never 0.0, which the searches read as none
    assert 0.0 < budgets.deadline(10.0, -3600.0) == budgets.MIN_DEADLINE


@pytest.mark.parametrize("kind", time_budget_kinds())
def test_a_budget_spent_at_the_start_still_gives_a_legal_choice(kind):
    game = Game("compact", players=2)
    agent = make_agent(f"{kind}:10s", seed=1)      # 10 s: only the faked start ends it
    spent(agent)
    assert agent.choose(game) in game.legal_actions()


@pytest.mark.parametrize("kind", ["puct", "best", "best-net", "best-heuristic"])
def test_puct_past_its_deadline_evaluates_the_root_alone(kind):
    agent = make_agent(f"{kind}:10s", seed=1)
    spent(agent)
    result = agent.search(Game("compact", players=2))
    assert result.iterations == 1 and sum(result.visits) == 0


def test_mcts_past_its_deadline_runs_one_iteration_a_tree():
    game = Game("compact", players=2)
    for threads in (1, 2):
        agent = MCTSAgent(None, seconds=10, threads=threads, seed=1)
        spent(agent)
        result = agent.search(game)
        assert result.iterations == threads and sum(result.visits) == threads


@pytest.mark.parametrize("kind", ["alphabeta", "alphabeta-net"])
def test_alphabeta_past_its_deadline_completes_depth_one(kind):
    agent = make_agent(f"{kind}:10s", seed=1)
    spent(agent)
    assert agent.search(Game("compact", players=2)).depth == 1


def test_python_mcts_past_its_deadline_runs_one_iteration(monkeypatch):
    rollouts = []
    real = mcts.play_random
    monkeypatch.setattr(mcts, "play_random", lambda *a, **k: (rollouts.append(1), real(*a, **k))[1])
    agent = PythonMCTSAgent(None, seconds=10, seed=1)
    spent(agent)
    game = Game("compact", players=2)
    assert agent.choose(game) in game.legal_actions() and len(rollouts) == 1


def test_python_mcts_grows_its_tree_without_objects_for_the_garbage_collector(monkeypatch):
    """The Python example's tree is flat lists of numbers: its nodes are no objects the
    collector tracks, so a search does not pile up the objects that set off its full
    collections (milliseconds in a process holding many objects, long enough to run past
    a deadline when one starts near it). Counted between the first and the last rollout."""
    tracked, rollouts, real = [], [], mcts.play_random

    def rollout(*args, **kwargs):
        rollouts.append(None)
        if len(rollouts) in (1, 2000):
            tracked.append(len(gc.get_objects()))
        return real(*args, **kwargs)
    monkeypatch.setattr(mcts, "play_random", rollout)
    game = Game("compact", players=2)
    assert PythonMCTSAgent(2000, seed=1).choose(game) in game.legal_actions()
    assert len(tracked) == 2 and tracked[1] - tracked[0] < 50       # 2,000 nodes were made


def test_the_deadline_handed_to_the_search_is_the_calls_start_plus_the_budget(monkeypatch):
    """The clock is read once, when the call starts; the C search gets that reading plus
    the budget as its deadline (whatever the setup took)."""
    seen = {}
    real_mcts, real_ab, real_runs = _mcts.mcts, _alphabeta.alphabeta, _puct.run_trees

    def spy(name, real, where):
        def call(*args, **kwargs):
            seen[name] = args[where]
            return real(*args[:where], 0.0, *args[where + 1:], **kwargs)   # searched by count
        return call
    monkeypatch.setattr(_mcts, "mcts", spy("mcts", real_mcts, 2))
    monkeypatch.setattr(_alphabeta, "alphabeta", spy("alphabeta", real_ab, 3))
    monkeypatch.setattr(_puct, "run_trees", spy("puct", real_runs, 3))
    game = Game("compact", players=2)
    for name, agent in (("mcts", MCTSAgent(50, seconds=0.25, seed=1)),
                        ("alphabeta", AlphaBetaAgent(50, seconds=0.25, seed=1)),
                        ("puct", PUCTAgent(50, seconds=0.25, seed=1))):
        readings = iter([1000.0, 2000.0, 3000.0])
        agent._clock = lambda readings=readings: next(readings)
        assert agent.choose(game) in game.legal_actions()
        assert seen[name] == 1000.25                 # the first reading, at choose's start
        agent._clock = lambda: 50.0
        agent.search(game)
        assert seen[name] == 50.25


def test_a_slow_setup_is_taken_from_the_budget(monkeypatch):
    """A tree's preparation slower than the whole budget leaves the search its least work:
    the budget counts from the call, not from the end of the setup."""
    agent = PUCTAgent(None, seconds=0.05, seed=1)
    prepare = agent._tree_for

    def slow(game, slot):
        time.sleep(0.06)
        return prepare(game, slot)
    monkeypatch.setattr(agent, "_tree_for", slow)
    assert agent.search(Game("compact", players=2)).iterations == 1


def test_a_slow_copy_of_the_game_is_taken_from_the_budget(monkeypatch):
    """MCTS and alpha-beta search a copy of the game: its making counts in the budget."""
    copy = Game.copy

    def slow(self, *args, **kwargs):
        time.sleep(0.06)
        return copy(self, *args, **kwargs)
    monkeypatch.setattr(Game, "copy", slow)
    game = Game("compact", players=2)
    assert MCTSAgent(None, seconds=0.05, seed=1).search(game).iterations == 1
    assert AlphaBetaAgent(seconds=0.05, seed=1).search(game).depth == 1


def test_a_reused_tree_is_compacted_whole():
    """Tree reuse keeps the subtree of the actions played in place: over several moves
    of two agents (each tree advanced by two actions), the kept root has the visits its
    node had, and the tree's invariants hold."""
    game = Game("compact", players=2)
    agents = (PUCTAgent(300, seed=1), PUCTAgent(300, seed=2))
    last = [None, None]
    for ply in range(8):
        agent = agents[ply % 2]
        if last[ply % 2] is not None:
            tree, root_ply = agent._trees[0]
            before = tree.nodes_used
            kept = tree.advance(game._engine, game._engine.history_keys()[root_ply:])
            agent._trees[0] = (tree, game.ply)
            agent.verify()
            assert tree.nodes_used <= before
            if kept:
                assert tree.root_visits >= 1
        result = agent.search(game)
        agent.verify()
        last[ply % 2] = result
        game.play(result.action)


def ends_of_random_games(seeds: range, backs: tuple[int, ...] = (3, 5, 8)):
    """Positions ``back`` actions before the end of random compact games, not decided at once."""
    for seed in seeds:
        for back in backs:
            game = Game("compact", players=2)
            victorus.play_random(game, seed, 3000)
            for _ in range(back if game.is_over else 0):
                game.undo()
            if not game.is_over and victorus.search.decisive(game, game.legal_actions()) is None:
                yield game


def test_reuse_keeps_the_chosen_subtree_and_its_proofs():
    """After a move, the kept tree is the subtree below it, compacted in place: its root's
    visits are the child's, and the proofs found below it (near the ends of games) still
    name the right nodes: a proven root names a proven child, and proven values are
    returns."""
    proofs = 0
    for game in ends_of_random_games(range(6)):
        agent = PUCTAgent(3000, seed=1)
        first = agent.search(game)
        tree, root_ply = agent._trees[0]
        game.play(first.action)
        if game.is_over:
            continue
        assert tree.advance(game._engine, game._engine.history_keys()[root_ply:])
        assert tree.root_visits == first.visits[first.actions.index(first.action)]
        agent._trees[0] = (tree, game.ply)
        agent.verify()
        children = tree.root_children()
        proven = [c[3] for c in children if c[3] is not None]
        assert all(-1 <= value <= 1 for value in proven)
        if tree.proven_child >= 0:
            assert children[tree.proven_child][3] is not None
            assert agent.search(game).action == game.legal_actions()[tree.proven_child]
        proofs += len(proven)
    assert proofs > 0


def test_the_bench_times_searched_decisions_of_the_public_api():
    times = decision_times("mcts:0.001s", 4, plies=3)
    assert len(times) == 4 and all(t > 0 for t in times)
