"""Speed measurements in one table, each against a baseline measured in the same run.

Used by ``victorus bench`` and by ``benchmarks/`` (pytest-benchmark). The engine's
figures are set against the slow, obviously-correct Python implementation
(`victorus._reference_game` on `victorus._reference`); the paths users take
(the Python API loop, observations, masks, environments) against the C playout or
``play()`` + ``undo()``. Workloads are what users run: many fresh games from the start,
with the garbage collector on.

The engine against its limits: perft is also set against a naive C first-leg generator
(`victorus._probe.FirstLegProbe`: a byte per cell, the core's step tables, slides
and strategic steps only) over positions a few random actions from the standard start,
where perft's last ply counts; and 2 threads against 1 while another process keeps a
core busy.

Time budgets: for every agent kind that takes one, a decision's wall time over its
budget (the median and the slowest), agents of the kind playing fresh games as users
call them (`decision_times`).
"""

from __future__ import annotations

import array
import math
import random
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypedDict, cast

from ._core import Position
from ._probe import FirstLegProbe
from ._reference import ReferencePosition
from ._reference_game import ReferenceGame, reference_perft
from .constants import KING, PLANES, QUEEN, num_action_ids
from .errors import MissingDependencyError, optional_imports
from .game import Game, perft, play_random
from .geometry import Board, direction_mask
from .progress import Progress
from .simulate import simulate
from .timing import (
    BUDGET,
    DECISIONS,
    QUICK_BUDGET,
    QUICK_DECISIONS,
    decision_times,
    time_budget_kinds,
)

if TYPE_CHECKING:
    from open_spiel.python import rl_environment

    from ._engine import Engine
    from .env import VictorusEnv
    from .evaluation._network import NetworkCore
    from .gym_env import LearnerEnv
    from .notation import Action
    from .search._puct import LeafBatch
    from .search.alphabeta import AlphaBetaAgent
    from .search.mcts import MCTSAgent, PythonMCTSAgent


class RowDict(TypedDict):
    """A `Row` as ``victorus bench --json`` writes it."""

    case: str
    unit: str
    victorus: float | None
    baseline: float | None
    baseline_is: str
    ratio: float | None
    higher_is_better: bool
    skipped: str | None


#: A position of the leg corpus: the core's, the reference's, and its movers
#: (cell, army, direction mask, colors).
LegPosition = tuple[Position, ReferencePosition, list[tuple[int, int, int, int]]]


@dataclass
class Row:
    case: str
    unit: str
    fast: float | None                   # None: skipped (``skipped`` says why)
    slow: float | None
    higher_is_better: bool = True
    against: str = "pure Python"         # what ``slow`` measured
    skipped: str | None = None           # the install hint of a missing optional package

    @property
    def ratio(self) -> float | None:
        if self.slow is None or not self.slow or not self.fast:
            return None
        return self.fast / self.slow if self.higher_is_better else self.slow / self.fast

    def as_dict(self) -> RowDict:
        """The row for ``victorus bench --json``: its fields and the ratio."""
        return {"case": self.case, "unit": self.unit, "victorus": self.fast, "baseline": self.slow,
                "baseline_is": self.against, "ratio": self.ratio,
                "higher_is_better": self.higher_is_better, "skipped": self.skipped}


def optional_row(case: str, unit: str, measure: Callable[[], float], slow: float | None,
                 against: str) -> Row:
    """A row measured by ``measure()``, or, when it needs an optional package that is not
    installed, the row with no figure and the install hint (never a rate of 0)."""
    try:
        return Row(case, unit, measure(), slow, against=against)
    except MissingDependencyError as exc:
        return Row(case, unit, None, None, against=against, skipped=str(exc))


def _rate(work: Callable[[], int], seconds: float) -> tuple[float, int]:
    """Run ``work()`` (returning units done) until ``seconds`` pass; (units per second, runs)."""
    done, runs = 0, 0
    start = time.perf_counter()
    while True:
        done += work()
        runs += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed, runs


def _micros(work: Callable[[], object], seconds: float) -> float:
    """Microseconds per call of ``work()``."""
    calls, _ = _rate(lambda: (work(), 1)[1], seconds)
    return 1e6 / calls


def midgame_corpus(count: int = 8, seed: int = 11) -> list[str]:
    """VPNs of turn starts taken from seeded random games on both boards."""
    rng = random.Random(seed)
    out: list[str] = []
    while len(out) < count:
        game = Game(board=rng.choice(["standard", "compact"]))
        play_random(game, seed=rng.getrandbits(32), max_actions=rng.randrange(60, 600))
        while game.phase != "start" and not game.is_over:
            game.play(rng.choice(game.legal_actions()))
        if not game.is_over:
            out.append(game.vpn())
    return out


def leg_corpus(board_name: str, positions: int = 50, seed: int = 1) -> list[LegPosition]:
    """[(core position, reference position, [(cell, army, dir mask, colors), ...])]."""
    rng = random.Random(seed)
    board = Board(board_name)
    corpus: list[LegPosition] = []
    for _ in range(positions):
        core, ref = Position(board.tables), ReferencePosition(board)
        cells = [i for i in range(len(board)) if i != board.centre]
        rng.shuffle(cells)
        movers = []
        for cell in cells[:rng.randint(20, 72)]:
            army = rng.randrange(6)
            core.put(cell, army)
            ref.put(cell, army)
            piece = rng.randrange(7)
            colors = 3 if piece in (KING, QUEEN) else 1 << board.colors[cell]
            movers.append((cell, army, direction_mask(army, piece), colors))
        corpus.append((core, ref, movers))
    return corpus


def mobility_buffers(corpus: Sequence[LegPosition]) -> list[tuple[Position, array.array[int]]]:
    """Per position, the flat (cell, army, dirs, colors) buffer for Position.mobility."""
    return [(core, array.array("i", [x for mover in movers for x in mover]))
            for core, _, movers in corpus]


def legs_bulk(buffers: Sequence[tuple[Position, array.array[int]]]) -> int:
    """Generate every mover's leg inside the core, one call per position."""
    return sum(len(core.mobility(buffer)) for core, buffer in buffers)


def legs_per_run(corpus: Sequence[LegPosition], use_reference: bool) -> int:
    """Generate every mover's leg once; return how many legs that was."""
    n = 0
    for core, ref, movers in corpus:
        pos = ref if use_reference else core
        for cell, army, mask, colors in movers:
            pos.leg(cell, army, mask, colors)
            n += 1
    return n


def api_playout(game_class: Callable[..., Game | ReferenceGame], seed: int, max_actions: int,
                **config: Any) -> int:
    """One fresh game of random play through the public API (legal_actions + play), up to
    ``max_actions``; actions played."""
    rng = random.Random(seed)
    game = game_class(**config)
    n = 0
    while not game.is_over and n < max_actions:
        game.play(rng.choice(game.legal_actions()))
        n += 1
    return n


def c_playout_rate(seconds: float, seed: int = 1, **config: Any) -> float:
    """Actions per second of the C random playout (play_random), fresh games."""
    seeds = iter(range(seed, 10**9))
    rate, _ = _rate(lambda: play_random(Game(**config), seed=next(seeds)), seconds)
    return rate


def position_corpus(games: int = 30, seed: int = 5, **config: Any) -> list[Game]:
    """Positions users meet: every 7th position of fresh random games, as Games."""
    rng = random.Random(seed)
    out: list[Game] = []
    for _ in range(games):
        game = Game(**config)
        while not game.is_over and game.ply < 1500:
            if game.ply % 7 == 0:
                out.append(game.copy(history=False))
            game.play(rng.choice(game.legal_actions()))
    return out


def _per_position(corpus: Sequence[Game], step: Callable[[Game, Action], object],
                  seconds: float) -> float:
    """Microseconds of ``step(game, action)`` over the corpus, cycled."""
    pairs = [(g, g.legal_actions()[0]) for g in corpus]
    i = 0

    def work() -> int:
        nonlocal i
        for game, action in pairs[i:i + 16]:
            step(game, action)
        i = (i + 16) % len(pairs)
        return min(16, len(pairs))
    calls, _ = _rate(work, seconds)
    return 1e6 / calls


def _state_bytes(make: Callable[[], object], count: int = 200) -> float:
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    keep = [make() for _ in range(count)]
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    size = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    del keep
    return size / count


#: Seconds each timed loop runs: the default run takes about 15 s on two cores, the
#: quick one (a smoke run, its figures rough) about 2 s.
SECONDS, QUICK_SECONDS = 0.15, 0.03


def run(quick: bool = False, progress: bool | None = None) -> list[Row]:
    """Measure every case; ``quick`` shortens the workloads (for tests and CI)."""
    t = QUICK_SECONDS if quick else SECONDS
    rows: list[Row] = []
    with Progress(10, "bench", progress) as bar:     # 10 progress steps below
        corpus = midgame_corpus(3 if quick else 8)
        rows += _perft_rows(quick, corpus, bar)
        rows += _leg_rows(quick, t, bar)
        rows += _playout_rows(quick, t, bar)
        rows += _state_rows(quick, t, corpus, bar)
    rows += learning_rows(quick, progress)
    rows += search_rows(quick, progress)
    rows += budget_rows(quick, progress)
    rows += limit_rows(quick, progress)
    return rows


def _perft_rows(quick: bool, corpus: Sequence[str], bar: Progress) -> list[Row]:
    """perft against the reference, from both starts and mid-game positions."""
    fast_depth, slow_depth = (3, 2) if quick else (5, 3)
    rows: list[Row] = []
    for board in ("standard", "compact"):
        start = time.perf_counter()
        fast_n = perft(Game(board), fast_depth)
        fast = fast_n / (time.perf_counter() - start)
        start = time.perf_counter()
        slow_n = reference_perft(ReferenceGame(board), slow_depth)
        slow = slow_n / (time.perf_counter() - start)
        rows.append(Row(f"perft, {board} start (d{fast_depth} / d{slow_depth})",
                        "leaves/s", fast, slow))
        bar.advance()

    start = time.perf_counter()
    fast_n = sum(perft(Game.from_vpn(v), 2 if quick else 3) for v in corpus)
    fast = fast_n / (time.perf_counter() - start)
    start = time.perf_counter()
    slow_n = sum(reference_perft(ReferenceGame.from_vpn(v), 1 if quick else 2) for v in corpus)
    slow = slow_n / (time.perf_counter() - start)
    rows.append(Row(f"perft, {len(corpus)} mid-game positions", "leaves/s", fast, slow))
    bar.advance()
    return rows


def _leg_rows(quick: bool, t: float, bar: Progress) -> list[Row]:
    """Leg generation, one Python call per leg and in bulk in the core."""
    rows: list[Row] = []
    legs = leg_corpus("standard", 10 if quick else 50)
    fast, _ = _rate(lambda: legs_per_run(legs, False), t)
    slow, _ = _rate(lambda: legs_per_run(legs, True), t)
    rows.append(Row("legs generated, one Python call per leg", "legs/s", fast, slow))
    buffers = mobility_buffers(legs)
    fast, _ = _rate(lambda: legs_bulk(buffers), t)
    rows.append(Row("legs generated in the core (Position.mobility)", "legs/s", fast, slow))
    bar.advance()
    return rows


def _playout_rows(quick: bool, t: float, bar: Progress) -> list[Row]:
    """Random playouts through the API and in C, and simulate on 1 and 2 workers."""
    rows: list[Row] = []
    seeds = iter(range(10**9))
    fast, _ = _rate(lambda: api_playout(Game, next(seeds), 10**6), t)
    slow, _ = _rate(lambda: api_playout(ReferenceGame, next(seeds), 100 if quick else 300), t)
    rows.append(Row("random playout, public API loop, fresh games", "actions/s", fast, slow))
    rows.append(Row("  the same loop against the C playout", "actions/s", fast,
                    c_playout_rate(t), against="C playout"))
    bar.advance()

    games = 20 if quick else 400
    start = time.perf_counter()
    sims = simulate(games, seed=1, workers=1, progress=False)
    fast = games / (time.perf_counter() - start)
    fast_actions = sum(g.actions for g in sims) / (time.perf_counter() - start)
    mean_length = sum(g.actions for g in sims) / games
    rows.append(Row("random playout, play_random/simulate (1 worker)", "actions/s",
                    fast_actions, slow))
    # Reference games per second, from its playout rate and the mean game length.
    rows.append(Row("random games (1 worker)", "games/s", fast, slow / mean_length))
    bar.advance()
    start = time.perf_counter()
    simulate(games, seed=1, workers=2, progress=False)
    two = games / (time.perf_counter() - start)
    rows.append(Row("random games, simulate with 2 workers", "games/s", two, None, against="-"))
    rows.append(Row("simulate speed-up, 2 workers vs 1", "x", two / fast, None, against="-"))
    bar.advance()
    return rows


def _state_rows(quick: bool, t: float, corpus: Sequence[str], bar: Progress) -> list[Row]:
    """copy(), play()+undo() and the bytes of a state, mid-game."""
    rows: list[Row] = []
    mid = Game.from_vpn(corpus[0])
    mid_ref = ReferenceGame.from_vpn(corpus[0])
    fast = _micros(lambda: mid.copy(history=False), t)
    slow = _micros(mid_ref.copy, t)
    rows.append(Row("copy(), mid-game", "us", fast, slow, higher_is_better=False))
    bar.advance()

    action = mid.legal_actions()[0]

    def fast_play_undo() -> None:
        mid.play(action)
        mid.undo()

    def slow_play_undo() -> None:
        mid_ref.play(str(action))
        mid_ref.undo()
    fast = _micros(fast_play_undo, t)
    slow = _micros(slow_play_undo, t)
    rows.append(Row("play() + undo(), mid-game", "us", fast, slow, higher_is_better=False))
    bar.advance()

    count = 30 if quick else 200
    fast = _state_bytes(lambda: mid.copy(history=False), count)
    slow = _state_bytes(lambda: ReferenceGame.from_vpn(corpus[0]).copy(), count)
    rows.append(Row("bytes per game state (a copy, no history)", "bytes", fast, slow,
                    higher_is_better=False))
    bar.advance()
    return rows


def learning_rows(quick: bool = False, progress: bool | None = None) -> list[Row]:
    """The learning paths, standard board, 6 players, against play()+undo() or
    the C playout measured in the same run."""
    t = QUICK_SECONDS if quick else SECONDS
    rows: list[Row] = []
    with Progress(6, "bench: learning paths", progress) as bar:
        corpus = position_corpus(4 if quick else 30)
        base, api_rows = _api_rows(corpus, t)
        rows += api_rows
        bar.advance()
        rows += _search_primitive_rows(corpus, base, t, quick)
        bar.advance()
        rows += _adapter_rows(t, quick, bar)
    return rows


def _play_undo(game: Game, action: Action) -> None:
    game.play(action)
    game.undo()


def own_cost_calls(cells: int) -> dict[str, Callable[[Game], object]]:
    """The learning calls whose own cost is measured after a play()+undo() (the bench's
    "its own cost" rows; tools/own_cost.py counts their instructions): name -> call(game).
    The ``out=`` forms write into buffers made here, once."""
    import numpy as np
    out = np.empty((len(PLANES), cells), np.float32)
    mask = np.empty(num_action_ids(cells), bool)
    return {"observation(seat)": lambda g: g.observation(g.to_move),
            "observation(seat, out=)": lambda g: g.observation(g.to_move, out),
            "legal_action_mask()": lambda g: g.legal_action_mask(),
            "legal_action_mask(out=)": lambda g: g.legal_action_mask(mask),
            "legal_action_ids()": lambda g: g.legal_action_ids()}


def _api_rows(corpus: Sequence[Game], t: float) -> tuple[float, list[Row]]:
    """play()+undo() (the base of the rows after it) and the learning calls' own costs."""
    rows: list[Row] = []
    base = _per_position(corpus, _play_undo, t)
    rows.append(Row("play(Action) + undo(), positions of fresh games", "us", base, base,
                    against="itself"))
    ids = {id(g): g.action_id(g.legal_actions()[0]) for g in corpus}

    def play_id_undo(game: Game, action: Action) -> None:
        game.play_id(ids[id(game)])
        game.undo()
    rows.append(Row("play_id() + undo()", "us", _per_position(corpus, play_id_undo, t),
                    base, against="play+undo"))
    for case, extra in own_cost_calls(len(corpus[0].board)).items():
        def step(game: Game, action: Action, extra: Callable[[Game], object] = extra) -> None:
            game.play(action)
            game.undo()
            extra(game)                    # after a change: the legal actions are new
        # A difference of two timings: both measured in turns, three times, the median.
        costs = sorted(_per_position(corpus, step, t / 3) - _per_position(corpus, _play_undo,
                                                                            t / 3)
                       for _ in range(3))
        rows.append(Row(f"{case}, its own cost", "us", costs[1], base, against="play+undo"))
    return base, rows


def _search_primitive_rows(corpus: Sequence[Game], base: float, t: float, quick: bool) -> list[Row]:
    """What a search calls per node: key, material, view, ==, copy, Game(), history."""
    rows: list[Row] = []
    twins = {id(g): g.copy() for g in corpus}
    rows.append(Row("Game.key(), positions of fresh games", "us",
                    _per_position(corpus, lambda g, a: g.key(), t), base, against="play+undo"))
    rows.append(Row("Game.material(), positions of fresh games", "us",
                    _per_position(corpus, lambda g, a: g.material(), t), base,
                    against="play+undo"))
    rows.append(Row("Game.view(), positions of fresh games", "us",
                    _per_position(corpus, lambda g, a: g.view(), t), base,
                    against="play+undo"))
    rows.append(Row("game == its copy, positions of fresh games", "us",
                    _per_position(corpus, lambda g, a: g == twins[id(g)], t), base,
                    against="play+undo"))
    game = Game()
    play_random(game, seed=3, max_actions=10)
    copy10 = _micros(game.copy, t)
    play_random(game, seed=3, max_actions=990)
    rows.append(Row("copy() after 1,000 actions", "us", _micros(game.copy, t), copy10,
                    against="after 10"))
    rows.append(Row("Game()", "us", _micros(Game, t), base, against="play+undo"))
    played = [Game() for _ in range(3 if quick else 20)]
    for n, g in enumerate(played):
        api_playout(lambda g=g: g, n, 20_000)
    total = sum(g.ply for g in played)
    rows.append(Row("undo history per action played", "bytes",
                    sum(g._engine.history_bytes() for g in played) / total, None, against="-"))
    return rows


#: The search opponent of the vector row: a step is the caller's action and the
#: opponent's replies, each decision a search of this budget.
SEARCH_OPPONENT = "mcts:20"


def _adapter_rows(t: float, quick: bool, bar: Progress) -> list[Row]:
    """The C playout, PettingZoo, vector games on 1 and 2 threads (and with a search
    opponent), OpenSpiel."""
    rows: list[Row] = []
    c_rate = c_playout_rate(t)
    rows.append(Row("C playout (play_random), fresh games", "actions/s", c_rate, c_rate,
                    against="itself"))
    rows.append(optional_row("PettingZoo AEC, observation + mask each step", "steps/s",
                             lambda: _pettingzoo_rate(t), c_rate, "C playout"))
    rows.append(optional_row("PettingZoo AEC, actions drawn from the legal ids", "steps/s",
                             lambda: _pettingzoo_rate(t, legal_ids=True), c_rate, "C playout"))
    rows.append(optional_row("single-agent gymnasium env, 6 players, 5 random opponents in C",
                             "steps/s", lambda: _learner_rate(t), c_rate, "C playout"))
    bar.advance()
    for case, kwargs in (("vector, 64 games, no observations, 1 thread",
                          dict(observations=None, legal=None)),
                         ("vector, 64 games, float32 observations + masks, 1 thread",
                          dict(observations="float32", legal="mask"))):
        rows.append(Row(case, "actions/s", _vector_rate(64, 1, t, **kwargs), c_rate,
                        against="C playout"))
    searched = 16 if quick else 64        # a step is a search per game: 10 steps take long
    rows.append(Row(f"vector, {searched} games, compact 2p, team 1 played by {SEARCH_OPPONENT} "
                    "in C", "steps/s", _vector_rate(searched, 1, t, board="compact", players=2,
                                            observations=None, legal=None,
                                            opponents={"team:1": SEARCH_OPPONENT}),
                    c_rate, against="C playout"))
    bar.advance()
    for n in (64, 256):                   # 1 and 2 threads in turns, three times
        runs = [(_vector_rate(n, 1, t / 3, observations="float32", legal="mask"),
                 _vector_rate(n, 2, t / 3, observations="float32", legal="mask"))
                for _ in range(3)]
        one, two = (sorted(run[k] for run in runs)[1] for k in (0, 1))
        rows.append(Row(f"vector, {n} games, float32 + masks, 2 threads", "actions/s",
                        two, one, against="1 thread"))
    bar.advance()
    rows += _openspiel_rows(t, c_rate, quick)
    bar.advance()
    return rows


def _mcts_rate(agent_class: type[MCTSAgent] | type[PythonMCTSAgent], games: Sequence[Game],
               iterations: int, rollout: int, threads: int = 1) -> float:
    """MCTS iterations per second over the decisions of ``games`` (fresh games from the
    start and positions of random games), ``iterations`` a decision."""
    from .agents import MCTSAgent
    agent: MCTSAgent | PythonMCTSAgent
    if agent_class is MCTSAgent:
        agent = MCTSAgent(iterations, seed=1, threads=threads, evaluator=f"rollouts({rollout}, material)")
    else:
        agent = agent_class(iterations, rollout, seed=1)
    start = time.perf_counter()
    for game in games:
        agent.choose(game.copy())        # the positions stay as they are for the next run
    return iterations * len(games) / (time.perf_counter() - start)


def _puct_rows(games: Sequence[Game], iterations: int, batch: int = 64) -> list[Row]:
    """PUCT with a Python evaluator (uniform priors, value 0) against the C MCTS with its
    default rollouts; and the Python boundary's cost per batch (the leaves' ids, the
    call, the checks of the answer, without and with uint8 observations): the time
    outside the evaluator beyond the same search with the evaluator in C (the same
    tree), best of three."""
    from .agents import MCTSAgent
    from .search.puct import PUCTAgent, uniform_evaluator
    inside = [0.0]

    def timed(leaves: LeafBatch) -> tuple[None, list[float]]:
        start = time.perf_counter()
        answer = uniform_evaluator(leaves)
        inside[0] += time.perf_counter() - start
        return answer

    def seconds(evaluator: Callable[[LeafBatch], tuple[None, list[float]]] | str,
                observation: str) -> float:
        agent = PUCTAgent(iterations, evaluator=evaluator, batch_size=batch, reuse_tree=False,
                          observation=observation, seed=1)
        inside[0] = 0.0
        start = time.perf_counter()
        for game in games:
            agent.search(game)
        return time.perf_counter() - start - inside[0]

    batches = len(games) * math.ceil(iterations / batch)
    rows: list[Row] = []
    overall = math.inf
    for observation in ("none", "uint8"):
        python = in_c = math.inf
        for _ in range(3):
            in_c = min(in_c, seconds("uniform", observation))
            outside = seconds(timed, observation)
            python, overall = min(python, outside), min(overall, outside + inside[0])
        what = "no observations" if observation == "none" else "uint8 observations"
        rows.append(Row(f"PUCT's Python boundary per batch of {batch} ({what})", "us",
                        1e6 * (python - in_c) / batches, 1e6 * in_c / batches,
                        higher_is_better=False, against="the batch's tree work"))
    return [Row(f"PUCT in C, Python evaluator, batches of {batch}, compact 2p", "iterations/s",
                iterations * len(games) / overall, _mcts_rate(MCTSAgent, games, iterations, 10),
                against="MCTS in C")] + rows


def _alphabeta_row(games: Sequence[Game], nodes: int, seconds: float) -> Row:
    """Alpha-beta nodes per second (the default evaluation, ``nodes`` a decision) over
    ``games``, against play()+undo() per second on the same positions (``seconds``)."""
    from .search.alphabeta import AlphaBetaAgent
    agent = AlphaBetaAgent(nodes, seed=1)
    searched, start = 0, time.perf_counter()
    for game in games:
        searched += agent.search(game).nodes
    rate = searched / (time.perf_counter() - start)
    play_undo = 1e6 / _per_position(games, _play_undo, seconds)
    return Row("alpha-beta in C, compact 2p, nodes", "nodes/s", rate, play_undo,
               against="play+undo")


def _learned_rows(games: Sequence[Game], nodes: int, seconds: float) -> list[Row]:
    """The learned evaluation (the shipped network) against the heuristic one, measured in
    the same run: its cost per leaf (positions of fresh games, evaluated in C) and
    alpha-beta's nodes per second with each."""
    from .evaluation import _network
    from .evaluation.network import default_network
    from .evaluation.registry import network as network_evaluator
    from .search.alphabeta import AlphaBetaAgent
    network = default_network()
    corpus = [game._engine for game in position_corpus(games=10, seed=7, board="compact",
                                                         players=2)]
    corpus += [game._engine for game in position_corpus(games=4, seed=7, board="standard",
                                                          players=6)]

    def per_leaf(core: NetworkCore | None) -> float:
        rate, _ = _rate(lambda: _network.evaluate_many(corpus, core, 20), seconds)
        return 1e6 / rate
    costs = [(per_leaf(network.core), per_leaf(None)) for _ in range(3)]       # in turns
    learned, heuristic = (sorted(c[k] for c in costs)[1] for k in (0, 1))

    def node_rate(agent: AlphaBetaAgent) -> float:
        searched, start = 0, time.perf_counter()
        for game in games:
            searched += agent.search(game).nodes
        return searched / (time.perf_counter() - start)
    learned_leaves = network_evaluator(network)
    rates = [(node_rate(AlphaBetaAgent(nodes, seed=1, evaluator=learned_leaves)),
              node_rate(AlphaBetaAgent(nodes, seed=1))) for _ in range(3)]
    with_net, without = (sorted(r[k] for r in rates)[1] for k in (0, 1))
    return [Row("learned evaluation, a leaf (fresh games, compact 2p and standard 6p)", "us",
                learned, heuristic, higher_is_better=False, against="heuristic"),
            Row("alpha-beta in C, compact 2p, nodes, learned evaluation", "nodes/s", with_net,
                without, against="heuristic"),
            _policy_row(games, nodes // 5)]


#: The shipped network with a policy head (the recipe's, docs/training.md), and the
#: value-only one best-net played with before: PUCT's cost of learned priors is the first's
#: iterations a second against the second's.
POLICY_NETWORK, VALUE_ONLY_NETWORK = "gated-2615ecd2ea22", "default-35c93a166b61"


def _policy_row(games: Sequence[Game], iterations: int) -> Row:
    """best-net's PUCT with a network with a policy head (learned priors and value)
    against best-net with the value-only network, in turns."""
    from .agents import PUCTAgent, make_agent

    def rate(network: str) -> float:
        agent = cast(PUCTAgent, make_agent(f"best-net({network}):{iterations}", 1, reuse_tree=False))
        searched, start = 0, time.perf_counter()
        for game in games:
            searched += agent.search(game).iterations
        return searched / (time.perf_counter() - start)
    rates = [(rate(POLICY_NETWORK), rate(VALUE_ONLY_NETWORK)) for _ in range(3)]
    learned, before = (sorted(r[k] for r in rates)[1] for k in (0, 1))
    return Row("PUCT (best-net), compact 2p, learned priors and value", "iterations/s", learned,
               before, against="value-only net")


def labelling_row(quick: bool = False) -> Row:
    """Training's self-play (victorus.training.selfplay, the recipe's searches: training.Settings'
    defaults with the shipped network) on one core: positions labelled a second, from
    fresh compact 2-player games."""
    from .evaluation.network import default_network
    from .evaluation.registry import network as network_evaluator
    from .training import Settings, play_game
    play, network = Settings().play(), network_evaluator(default_network().with_policy())
    labelled, start = 0, time.perf_counter()
    for seed in range(1 if quick else 3):
        labelled += len(play_game(("compact", 2, "standard", seed), network, play.iterations,
                                  play.opening, 60 if quick else play.max_actions, play.blend,
                                  label_iterations=play.label_iterations,
                                  label_share=play.label_share, noise=play.noise))
    return Row("training self-play, positions labelled, 1 core (compact 2p)", "positions/s",
               labelled / (time.perf_counter() - start), None, against="-")


def search_rows(quick: bool = False, progress: bool | None = None) -> list[Row]:
    """MCTS in C against the Python example at equal rollout lengths, root parallelism,
    alpha-beta against play()+undo(), and hashed perft: each against its baseline
    measured in the same run."""
    from .agents import MCTSAgent, PythonMCTSAgent
    from .search import decisive as _decisive
    iterations = 30 if quick else 200
    rows: list[Row] = []
    games_of_compact: list[Game] = []
    with Progress(5, "bench: search", progress) as bar:
        for board, players in (("compact", 2), ("standard", 6)):
            games = [Game(board, players=players)]
            for seed in range(2 if quick else 5):       # and positions along random games
                game = Game(board, players=players)
                play_random(game, seed, 40 * (seed + 1))
                if not game.is_over and _decisive(game, game.legal_actions()) is None:
                    games.append(game)
            if board == "compact":
                games_of_compact = games
            for rollout in (200, 10, 0):             # 10: the agents' default
                rows.append(Row(f"MCTS in C, {board} {players}p, rollouts of {rollout}",
                                "iterations/s",
                                _mcts_rate(MCTSAgent, games, iterations, rollout),
                                _mcts_rate(PythonMCTSAgent, games, iterations, rollout),
                                against="Python MCTS"))
            bar.advance()
            if board == "compact":
                rows += _puct_rows(games, 20 * iterations)
        rows.append(_alphabeta_row(games_of_compact, 20_000 if quick else 100_000,
                                   QUICK_SECONDS if quick else SECONDS))
        rows += _learned_rows(games_of_compact, 10_000 if quick else 50_000,
                              QUICK_SECONDS if quick else SECONDS)
        rows.append(labelling_row(quick))
        games = [Game("compact", players=2)]
        runs = [(_mcts_rate(MCTSAgent, games, 20 * iterations, 10),        # in turns, 3 times
                 _mcts_rate(MCTSAgent, games, 20 * iterations, 10, threads=2)) for _ in range(3)]
        one, two = (sorted(run[k] for run in runs)[1] for k in (0, 1))
        rows.append(Row("MCTS in C, 2 threads (root parallelism)", "iterations/s", two, one,
                        against="1 thread"))
        bar.advance()
        depth = 4 if quick else 5
        for name, vpn in (("standard start", Game().vpn()),
                          ("a mid-game position", midgame_corpus(1)[0])):
            game = Game.from_vpn(vpn)
            start = time.perf_counter()
            perft(game, depth)
            plain = time.perf_counter() - start
            start = time.perf_counter()
            perft(game, depth, hash_mb=64)
            hashed = time.perf_counter() - start
            rows.append(Row(f"perft {depth} hashed (64 MiB), {name}", "s", hashed, plain,
                            higher_is_better=False, against="no table"))
            bar.advance()
    return rows


# -- time budgets -----------------------------------------------------------------------

def budget_rows(quick: bool = False, progress: bool | None = None) -> list[Row]:
    """Whether time budgets hold: for every kind that takes one, a decision's wall time over
    its budget, the median and the slowest of DECISIONS decisions (decision_times)."""
    budget, decisions = (QUICK_BUDGET, QUICK_DECISIONS) if quick else (BUDGET, DECISIONS)
    kinds = time_budget_kinds()
    rows: list[Row] = []
    with Progress(len(kinds), "bench: time budgets", progress) as bar:
        for kind in kinds:
            spec = f"{kind}:{budget:g}s"
            times = decision_times(spec, decisions)
            rows += [Row(f"{spec}, a decision / its budget, median of {decisions} (compact 2p)", "x",
                         _median(times) / budget, None, against="the budget"),
                     Row("  the slowest of those / the budget", "x", max(times) / budget, None,
                         against="the budget")]
            bar.advance()
    return rows


# -- the limits -------------------------------------------------------------------------

#: The perft depth of the rows (the standard 6-player start), and the quick run's.
DEPTH, QUICK_DEPTH = 5, 4


def probe_positions(count: int = 2000, plies: int = 4, seed: int = 1) -> FirstLegProbe:
    """The probe over ``count`` positions, each ``plies`` random actions from the standard
    start (plies 4: the positions whose actions perft 5 counts)."""
    rng = random.Random(seed)
    engines: list[Engine] = []
    while len(engines) < count:
        game = Game()
        for _ in range(plies):
            game.play(rng.choice(game.legal_actions()))
        engines.append(game._engine)
    return FirstLegProbe(engines)


def perft_rate(depth: int, threads: int = 1) -> float:
    """Leaves per second of perft from the standard start."""
    start = time.perf_counter()
    leaves = perft(Game(), depth, threads=threads)
    return leaves / (time.perf_counter() - start)


def _median(values: list[float]) -> float:
    values = sorted(values)
    return values[len(values) // 2]


def probe_rows(quick: bool = False, rounds: int = 3) -> list[Row]:
    """perft on 1 and 2 threads against the probe's legs/s, taken in turns (medians)."""
    depth = QUICK_DEPTH if quick else DEPTH
    probe = probe_positions(200 if quick else 2000)
    seconds = 0.03 if quick else 0.2
    runs = [(_rate(lambda: probe.run(4), seconds)[0], perft_rate(depth), perft_rate(depth, 2))
            for _ in range(rounds)]
    legs, one, two = (_median([run[k] for run in runs]) for k in range(3))
    return [Row("first-leg probe (naive C: byte board, slides, strategic steps)", "legs/s",
                legs, None, against="-"),
            Row(f"perft {depth}, standard start, 1 thread", "leaves/s", one, legs,
                against="first-leg probe"),
            Row(f"perft {depth}, standard start, 2 threads", "leaves/s", two, legs,
                against="first-leg probe")]


def busy_process() -> subprocess.Popen[bytes]:
    """Another process keeping one core busy (a Python loop), until killed."""
    return subprocess.Popen([sys.executable, "-c", "while 1: pass"])


def _pairs(measure: Callable[[int], float], runs: int) -> list[tuple[float, float, float]]:
    """``runs`` 2-thread rates of ``measure(threads)``, each taken between two 1-thread
    rates (1, 2, 1, 2, ..., 2, 1): (the 1-thread rate before, the 2-thread rate, the
    1-thread rate after), so that a drift of the machine's load between runs is seen."""
    ones = [measure(1)]
    twos = []
    for _ in range(runs):
        twos.append(measure(2))
        ones.append(measure(1))
    return [(ones[k], twos[k], ones[k + 1]) for k in range(runs)]


def _pair_rows(case: str, unit: str, runs: list[tuple[float, float, float]]) -> list[Row]:
    """2 threads against the mean of the 1-thread runs on either side; the noise floor is
    1 thread against the next 1-thread run (the same work, so any gap is the machine)."""
    one = _median([(before + after) / 2 for before, _, after in runs])
    two = _median([two for _, two, _ in runs])
    ratios = [two / ((before + after) / 2) for before, two, after in runs]
    noise = [min(before, after) / max(before, after) for before, _, after in runs]
    return [Row(f"{case}, 2 threads, one core busy elsewhere ({len(runs)} runs)", unit, two,
                one, against="1 thread"),
            Row("  the slowest of those runs, 2 threads / 1", "x", min(ratios), None, against="-"),
            Row("  runs where 2 threads were slower than 1", "runs", sum(r < 1 for r in ratios),
                None, against="-"),
            Row("  noise: the largest gap between neighbouring 1-thread runs", "x",
                min(noise), None, against="-")]


def under_load_rows(quick: bool = False, runs: int | None = None) -> list[Row]:
    """2 threads against 1 with a busy process beside them: perft and vector stepping."""
    runs = runs or (3 if quick else 10)
    depth = QUICK_DEPTH if quick else DEPTH
    seconds = 0.03 if quick else 0.1
    busy = busy_process()
    try:
        time.sleep(0.05)                             # the loop is running
        perft_pairs = _pairs(lambda threads: perft_rate(depth, threads), runs)
        vector_pairs = _pairs(lambda threads: _vector_rate(
            256, threads, seconds, observations=None, legal=None), runs)
    finally:
        busy.kill()
        busy.wait()
    return (_pair_rows(f"perft {depth}, standard start", "leaves/s", perft_pairs)
            + _pair_rows("vector, 256 games, stepping only", "actions/s", vector_pairs))


def limit_rows(quick: bool = False, progress: bool | None = None) -> list[Row]:
    """The probe rows and the under-load rows."""
    with Progress(2, "bench: limits", progress) as bar:
        rows = probe_rows(quick)
        bar.advance()
        rows += under_load_rows(quick)
        bar.advance()
    return rows


def pettingzoo_episode(env: VictorusEnv, max_steps: int = 3000, legal_ids: bool = False) -> int:
    """One fresh AEC game: observation and mask at every step, actions drawn as PettingZoo
    documents it (``action_space(agent).sample(mask)``), or with ``legal_ids`` uniformly
    from the observation's legal ids; the steps taken."""
    env.reset(seed=0)
    rng = random.Random(0)
    for agent in env.possible_agents:
        env.action_space(agent).seed(0)
    steps = 0
    for agent in env.agent_iter(max_iter=max_steps):
        obs, _, done, truncated, _ = env.last()
        if done or truncated:
            env.step(None)
        elif legal_ids:
            env.step(int(obs["legal_ids"][rng.randrange(int(obs["legal_count"]))]))
        else:
            env.step(env.action_space(agent).sample(obs["action_mask"]))
        steps += 1
    return steps


def _pettingzoo_rate(seconds: float, legal_ids: bool = False) -> float:
    """AEC steps per second, standard 6 players, fresh games (pettingzoo_episode)."""
    from .env import aec_env
    env = aec_env()
    rate, _ = _rate(lambda: pettingzoo_episode(env, legal_ids=legal_ids), seconds)
    return rate


def learner_episode(env: LearnerEnv, seed: int = 0) -> int:
    """One game of a single-agent env (victorus.gym_env) with uniformly random legal
    actions read from ``info["action_mask"]``; the learner's steps taken."""
    rng = random.Random(seed)
    _, info = env.reset(seed=seed)
    steps, over = 0, False
    while not over:
        legal = info["action_mask"].nonzero()[0]
        _, _, terminated, truncated, info = env.step(int(legal[rng.randrange(len(legal))]))
        over = terminated or truncated
        steps += 1
    return steps


def _learner_rate(seconds: float) -> float:
    """Single-agent env steps per second, standard 6 players against random opponents."""
    from .gym_env import LearnerEnv
    env = LearnerEnv("standard", 6, opponent="random")
    seeds = iter(range(10**9))
    rate, _ = _rate(lambda: learner_episode(env, next(seeds)), seconds)
    return rate


def _vector_rate(n: int, threads: int, seconds: float, **kwargs: Any) -> float:
    """Steps (the caller's actions) per second of ``n`` vector games stepped with
    C-sampled random actions."""
    from .vector import VectorGames
    games = VectorGames(n, threads=threads, seed=1, **kwargs)

    def work() -> int:
        for _ in range(10):
            games.step(games.sample())
        return 10 * n
    rate, _ = _rate(work, seconds)
    return rate


def _openspiel_rows(seconds: float, c_rate: float, quick: bool) -> list[Row]:
    """random_sim_test (compact, 2 players; the quick run leaves it out: one game of
    OpenSpiel's checks takes seconds) and rl_environment; without OpenSpiel, those rows
    with its install hint."""
    sim = ("OpenSpiel random_sim_test, one compact 2-player game", "s", "-")
    planes = ("OpenSpiel rl_environment, compact 2 players", "steps/s", "C playout")
    small = ("  the same, observation='small'", "steps/s", "planes")
    try:
        with optional_imports("the OpenSpiel game"):
            import pyspiel
            from open_spiel.python import rl_environment

            from . import openspiel  # noqa: F401  (registers the game)
    except MissingDependencyError as exc:
        return [Row(case, unit, None, None, against=against, skipped=str(exc))
                for case, unit, against in ([] if quick else [sim]) + [planes, small]]
    game = pyspiel.load_game("victorus", {"board": "compact", "players": 2})
    rows: list[Row] = []
    if not quick:
        start = time.perf_counter()
        pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)
        rows.append(Row(sim[0], sim[1], time.perf_counter() - start, None, against=sim[2]))
    rng = random.Random(0)

    longest = 200 if quick else 500       # steps of an episode (one whole game takes ~0.2 s)

    def episodes(env: rl_environment.Environment) -> Callable[[], int]:
        def episode() -> int:
            step = env.reset()
            steps = 0
            while not step.last() and steps < longest:
                player = step.observations["current_player"]
                step = env.step([rng.choice(step.observations["legal_actions"][player])])
                steps += 1
            return steps
        return episode
    small_game = pyspiel.load_game("victorus", {"board": "compact", "players": 2,
                                                "observation": "small"})
    planes_rate, _ = _rate(episodes(rl_environment.Environment(game)), seconds)
    small_rate, _ = _rate(episodes(rl_environment.Environment(small_game)), seconds)
    return rows + [Row(planes[0], planes[1], planes_rate, c_rate, against=planes[2]),
                   Row(small[0], small[1], small_rate, planes_rate, against=small[2])]


def format_table(rows: list[Row]) -> str:
    """A plain-text table: case, unit, victorus, pure Python, ratio."""
    def num(x: float | None) -> str:
        if x is None:
            return "-"
        return f"{x:,.2f}" if x < 100 else f"{x:,.0f}"
    def times(ratio: float | None) -> str:
        if ratio is None:
            return "-"
        return f"{ratio:,.0f}x" if ratio >= 10 else f"{ratio:.2f}x"
    lines = [("case", "unit", "victorus", "baseline", "ratio", "baseline is")]
    for row in rows:
        lines.append((row.case, row.unit, num(row.fast), num(row.slow), times(row.ratio),
                      row.against if row.skipped is None else f"skipped: {row.skipped}"))
    widths = [max(len(line[i]) for line in lines) for i in range(6)]
    out = []
    for n, line in enumerate(lines):
        out.append("  ".join(cell.ljust(widths[i]) if i in (0, 1, 5) else cell.rjust(widths[i])
                             for i, cell in enumerate(line)).rstrip())
        if n == 0:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out)
