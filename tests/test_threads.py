"""What users combine: one object called from many threads, long calls side by side, and
cancellation that belongs to a call (docs/robustness.md, "Threads and interrupts").

No test here depends on timing: thread interleavings vary from run to run, and every
outcome they can produce is checked against a replay through :class:`victorus.Game`.
"""

import os
import threading

import numpy as np
import pytest

import victorus
from victorus import Cancelled, Game, StopToken, perft
from victorus._engine import PerftSplit
from victorus.agents import MCTSAgent
from victorus.errors import IllegalActionError
from victorus.vector import VectorGames


class RecordingEngine:
    """Stands in for VectorGames' native engine and logs every call in the order the
    calls really ran (they run under the VectorGames lock), with the outputs they left."""

    def __init__(self, games, engine):
        self.games, self._native, self.log = games, engine, []

    def __getattr__(self, name):
        return getattr(self._native, name)

    def _outputs(self):
        g = self.games
        return {"masks": g.masks.copy(), "rewards": g.rewards.copy(), "to_move": g.to_move.copy(),
                "terminated": g.terminated.copy(), "truncated": g.truncated.copy(),
                "counts": g.counts.copy()}

    def reset(self, seed):
        self._native.reset(seed)
        self.log.append(("reset", seed, self._outputs()))

    def step(self, ids):
        sent = np.array(ids, copy=True)
        bad = self._native.step(ids)
        self.log.append(("step", (sent, bad), self._outputs()))
        return bad

    def sample(self):
        self._native.sample()
        self.log.append(("sample", self.games._sampled.copy(), None))


def replay(log, num_envs, max_actions):
    """Replay a VectorGames call log through victorus.Game, checking every output."""
    games, ended, steps = [], [False] * num_envs, 0
    for kind, arg, out in log:
        if kind == "reset":
            games, ended = [Game("compact", players=2) for _ in range(num_envs)], [False] * num_envs
        elif kind == "sample":
            for i, ident in enumerate(arg):
                if ended[i]:
                    assert ident == -1
                else:
                    assert int(ident) in set(games[i].legal_action_ids().tolist())
            continue
        else:
            ids, bad = arg
            legal = [ended[i] or int(ids[i]) in set(games[i].legal_action_ids().tolist())
                     for i in range(num_envs)]
            if bad >= 0:                 # all or nothing: the first illegal id, nothing moved
                assert not legal[bad] and all(legal[:bad])
            else:
                assert all(legal)
                for i in range(num_envs):
                    if ended[i]:
                        games[i], ended[i] = Game("compact", players=2), False
                    else:
                        games[i].play_id(int(ids[i]))
                        steps += 1
                        ended[i] = games[i].is_over or games[i].ply >= max_actions
        for i, game in enumerate(games):
            assert out["masks"][i].tolist() == game.legal_action_mask().tolist()
            assert out["counts"][i] == len(game.legal_action_ids())
            if not game.is_over:
                assert out["to_move"][i] == game.to_move
            assert bool(out["terminated"][i]) == game.is_over
            if game.is_over and kind == "step":
                assert tuple(out["rewards"][i]) == pytest.approx(game.returns())
    return games, steps


@pytest.mark.parametrize("threads", [1, 2])
def test_one_vector_games_stepped_from_four_threads(threads):
    """Four Python threads call step/reset/sample on one VectorGames (threads 1 and 2)
    without any lock of their own, stale ids included; the log of what really ran, replayed
    through victorus.Game, agrees on every mask, count, seat, result and reward."""
    n, cap = 8, 60
    vg = VectorGames(n, board="compact", players=2, threads=threads, seed=3, max_actions=cap)
    recorder = RecordingEngine(vg, vg._engine)
    vg._engine = recorder
    vg.reset(3)
    errors = []

    def actor(k):
        try:
            for j in range(150):
                if j % 50 == 49 and k == 0:
                    vg.reset()
                ids = vg.sample().copy()        # may be stale by the time it is sent
                try:
                    vg.step(ids)
                except IllegalActionError:
                    pass
        except BaseException as exc:        # pragma: no cover - reported below
            errors.append(exc)

    workers = [threading.Thread(target=actor, args=(k,)) for k in range(4)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert not errors
    games, steps = replay(recorder.log, n, cap)
    assert steps > 500                      # many real steps were checked
    for i, game in enumerate(games):        # the final positions too
        assert vg.game(i).key() == game.key()


def test_vector_env_copies_under_its_lock():
    """The gymnasium vector env holds the games' lock until its outputs are copied: each
    of three threads stepping one env (no lock of their own) gets the outputs of its own
    step, as the native step left them, never those of another thread's later step."""
    pytest.importorskip("gymnasium")
    from victorus.vector_env import VictorusVectorEnv
    env = VictorusVectorEnv(8, board="compact", players=2, threads=2)
    recorder = RecordingEngine(env.games, env.games._engine)
    env.games._engine = recorder
    env.reset(seed=1)
    returned, errors = [], []

    def actor():
        try:
            for _ in range(60):
                actions = env.sample_legal()          # may be stale when it is sent
                try:
                    obs, rewards, terminated, _, _ = env.step(actions)
                except IllegalActionError:
                    continue
                returned.append((actions, obs["action_mask"].view(bool), terminated))
        except BaseException as exc:                  # pragma: no cover - reported below
            errors.append(exc)

    workers = [threading.Thread(target=actor) for _ in range(3)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert not errors and len(returned) > 30
    steps = [(arg[0], out) for kind, arg, out in recorder.log if kind == "step" and arg[1] < 0]
    for actions, masks, terminated in returned:
        mine = [out for sent, out in steps if (sent == actions).all()]
        assert mine, "a step the engine never saw"
        assert any((out["masks"] == masks).all() and (out["terminated"] == terminated).all()
                   for out in mine)


def _vector_run():
    vg = VectorGames(16, board="compact", players=3, threads=2, seed=5, observations=None)
    for _ in range(200):
        vg.step(vg.sample())
    return [vg.game(i).key() for i in range(16)]


def test_perft_mcts_and_vector_side_by_side():
    """Three threads run perft, an MCTS search and vector steps at once: each gives what
    it gives alone."""
    game = Game("compact", players=4)
    agent = lambda: MCTSAgent(iterations=3000, seed=7, threads=2)   # noqa: E731
    alone = (perft(game, 4, threads=2), agent().search(game).visits, _vector_run())
    together = {}
    calls = {"perft": lambda: perft(game, 4, threads=2),
             "mcts": lambda: agent().search(game).visits, "vector": _vector_run}
    workers = [threading.Thread(target=lambda k=k: together.__setitem__(k, calls[k]()))
               for k in calls]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert (together["perft"], together["mcts"], together["vector"]) == alone


@pytest.mark.skipif(not hasattr(os, "sched_getaffinity") or len(os.sched_getaffinity(0)) < 2,
                    reason="threads are placed on Linux, with two CPUs or more")
def test_a_thread_lent_to_perft_keeps_off_an_earlier_ones_cpu_and_leaves_with_its_own():
    """perft's threads keep off each other's CPU while they count (docs/performance.md):
    a thread that finds the first one on its CPU moves off it, and leaves with the CPUs it
    came with. The first is held on one CPU and the second put on that CPU (again, if the
    kernel moved it away before it looked)."""
    cpu = min(os.sched_getaffinity(0))
    game = Game()
    parts = [[part] for child in game._engine.children() for part in child.children()]
    split = PerftSplit(parts, 4, None, 2)           # 758 parts of perft 4 (perft 6)
    token, second_id, seen = StopToken(), [], {}

    def first():
        os.sched_setaffinity(0, {cpu})               # this thread's own CPUs, nobody else's
        split.run(token)

    def second():
        second_id.append(threading.get_native_id())
        came_with = os.sched_getaffinity(0)
        os.sched_setaffinity(0, {cpu})               # moved onto the first one's CPU ...
        os.sched_setaffinity(0, came_with)           # ... and free to leave it
        split.run(token)
        seen["came with"], seen["left with"] = came_with, os.sched_getaffinity(0)

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    try:
        threads[0].start()
        while split.groups_done() == 0 and threads[0].is_alive():   # it has counted a part
            threads[0].join(0.001)
        threads[1].start()
        while not second_id and threads[1].is_alive():
            threads[1].join(0.001)
        moved = None
        for tries in range(1, 20001):                # a guard: it moves at its first part
            try:
                narrowed = os.sched_getaffinity(second_id[0])
                if cpu not in narrowed:
                    moved = narrowed
                    break
                if tries % 50 == 0:                  # moved away by the kernel: back on it
                    os.sched_setaffinity(second_id[0], {cpu})
                    os.sched_setaffinity(second_id[0], narrowed)
            except ProcessLookupError:               # it has ended
                break
            threads[1].join(0.001)
    finally:
        token.stop()
        for t in threads:
            t.join()
    assert moved is not None and moved == seen["came with"] - {cpu}
    assert seen["left with"] == seen["came with"]


@pytest.mark.skipif(not hasattr(os, "sched_getaffinity") or len(os.sched_getaffinity(0)) < 2,
                    reason="threads are placed on Linux, with two CPUs or more")
def test_an_mcts_helper_thread_keeps_off_the_cpu_of_the_searching_thread():
    """A search on two threads grows tree 0 in the calling thread, whose CPUs are never
    changed, and its helper thread keeps off that thread's CPU (docs/performance.md)."""
    mine = os.sched_getaffinity(0)
    token = StopToken()
    agent = MCTSAgent(None, seconds=60, threads=2, seed=1)   # until the token stops it
    before = set(os.listdir("/proc/self/task"))
    caller = threading.Thread(target=agent.search, args=(Game("compact", players=2),),
                              kwargs={"stop": token})
    narrowed, callers = [], []
    try:
        caller.start()
        for _ in range(20000):                       # a guard: it moves as it starts
            for tid in set(os.listdir("/proc/self/task")) - before - {str(caller.native_id)}:
                try:
                    cpus = os.sched_getaffinity(int(tid))
                except ProcessLookupError:           # a thread that has ended since
                    continue
                if cpus != mine:
                    narrowed.append(cpus)
            if narrowed or not caller.is_alive():
                callers.append(os.sched_getaffinity(caller.native_id))
                break
            caller.join(0.001)
    finally:
        token.stop()
        caller.join()
    assert len(narrowed) == 1 and narrowed[0] < mine and len(narrowed[0]) == len(mine) - 1
    assert callers == [mine]


def test_failing_progress_stops_only_its_own_perft():
    """A perft progress callback that raises stops that perft, and neither an MCTS
    search nor another perft running in other threads."""
    game = Game()
    results = {}

    def failing():
        def progress():
            raise RuntimeError("callback failed")
        try:
            perft(game, 5, threads=2, progress=progress)
        except RuntimeError as exc:
            results["failing"] = str(exc)

    def search():
        results["mcts"] = MCTSAgent(iterations=4000, seed=1).search(game).iterations

    def other():
        results["perft"] = perft(Game("compact", players=2), 5, threads=2)

    workers = [threading.Thread(target=f) for f in (failing, search, other)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert results == {"failing": "callback failed", "mcts": 4000,
                       "perft": perft(Game("compact", players=2), 5)}


def test_stop_token_cancels_its_call_only():
    """stop() from another thread on one call's token makes that perft raise Cancelled;
    a perft beside it with its own token finishes with the exact count."""
    token, results, first_done = StopToken(), {}, threading.Event()

    def stopped():
        try:
            perft(Game(), 6, threads=1, stop=token, progress=first_done.set)
        except Cancelled:
            results["stopped"] = "cancelled"

    def other():
        results["other"] = perft(Game("compact", players=2), 5, threads=1, stop=StopToken())

    workers = [threading.Thread(target=f) for f in (stopped, other)]
    for w in workers:
        w.start()
    first_done.wait()
    token.stop()
    for w in workers:
        w.join()
    assert results == {"stopped": "cancelled", "other": perft(Game("compact", players=2), 5)}
    assert token.stopped
    for depth in (1, 5):                  # a stopped token is single use, at any depth
        with pytest.raises(Cancelled):
            perft(Game(), depth, stop=token)


def test_stop_token_ends_a_search_as_its_budget_would():
    token = StopToken()
    token.stop()
    with pytest.raises(victorus.Cancelled, match="already stopped"):      # the one rule
        MCTSAgent(iterations=10**6, seed=1).search(Game(), stop=token)
    token, results = StopToken(), []

    def search():
        try:
            results.append(MCTSAgent(iterations=None, seconds=3600, seed=1).search(
                Game(), stop=token).action)
        except victorus.Cancelled as exc:              # stopped before it began
            results.append(exc)
    worker = threading.Thread(target=search)
    worker.start()
    token.stop()                                       # an hour's search ends at once
    worker.join(120)
    assert not worker.is_alive() and len(results) == 1
    assert isinstance(results[0], victorus.Cancelled) or results[0] in Game().legal_actions()
    with pytest.raises(victorus.ConfigError, match="StopToken"):
        MCTSAgent(iterations=10).search(Game(), stop=True)


def test_simulate_stops_at_once_on_its_token(monkeypatch):
    """A simulation told to stop from another thread, once its games are under way,
    raises Cancelled and plays no more games (it would otherwise take minutes)."""
    import sys
    simulate_module = sys.modules["victorus.simulate"]      # victorus.simulate is the function
    token, started, seen = StopToken(), threading.Event(), []
    play_one = simulate_module._play_one

    def first_game_started(*args):
        started.set()
        return play_one(*args)
    monkeypatch.setattr(simulate_module, "_play_one", first_game_started)

    def run():
        try:
            victorus.simulate(10**6, seed=1, board="compact", players=2, workers=2, stop=token)
        except Cancelled:
            seen.append("cancelled")

    worker = threading.Thread(target=run)
    worker.start()
    started.wait()
    token.stop()
    worker.join()
    assert seen == ["cancelled"]
    with pytest.raises(victorus.ConfigError, match="StopToken"):
        victorus.simulate(1, stop="now")
    with pytest.raises(victorus.ConfigError, match="backend='local'"):
        victorus.simulate(1, stop=StopToken(), backend="ray")


def test_changing_a_game_during_its_playout_is_refused():
    """play_random without history plays on a copy with the GIL released and writes it
    back; meanwhile the game refuses changes, which the write-back would silently undo
    while their undo records stayed: the history left behind replays exactly."""
    game = Game()
    token = StopToken()
    refused, started = [], threading.Event()

    def playout():
        started.set()
        game._engine.random_playout(1, 10**6, False, token)

    worker = threading.Thread(target=playout)
    worker.start()
    started.wait()
    for _ in range(200):
        if not worker.is_alive() or game.is_over:
            break
        try:
            game.play(game.legal_actions()[0])
        except victorus.StateError as exc:
            refused.append(str(exc))
            token.stop()
        except (IllegalActionError, IndexError):   # written back between the two calls
            pass
    worker.join()
    assert all("another thread" in message for message in refused)
    played, key = game.history(), game.key()
    for _ in played:
        game.undo()
    for action in played:
        game.play(action)
    assert game.key() == key


def test_actions_listed_during_a_playout_are_not_kept_after_it():
    """Legal actions read while the playout runs are those of the position before it; once
    it is written back, the game lists the new position's actions (a stale list would
    let play() apply an action of the old position)."""
    for seed in range(3):
        game, token, busy = Game(), StopToken(), threading.Event()

        def playout(game=game, token=token, seed=seed):
            game._engine.random_playout(seed, 10**6, False, token)

        worker = threading.Thread(target=playout)
        worker.start()
        while worker.is_alive():
            try:
                game.undo()                        # refused while the playout runs
            except victorus.StateError as exc:
                if "another thread" in str(exc):
                    busy.set()
                    game.legal_actions()           # read (and cached) mid-playout
                    token.stop()
        worker.join()
        fresh = game.copy(history=False)
        assert [str(a) for a in game.legal_actions()] == [str(a) for a in fresh.legal_actions()]
        assert game.is_over == fresh.is_over
