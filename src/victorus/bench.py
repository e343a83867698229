"""Speed measurements: the engine against the pure-Python path, in one table.

Used by ``victorus bench`` and by ``benchmarks/`` (pytest-benchmark). Every
figure is measured in the same run for the C engine and for the slow,
obviously-correct Python implementation (:mod:`victorus._reference_game` on
:mod:`victorus._reference`), and reported with their ratio.
"""

from __future__ import annotations

import array
import gc
import random
import time
import tracemalloc
from dataclasses import dataclass

from ._core import Position
from ._reference import ReferencePosition
from ._reference_game import ReferenceGame, reference_perft
from .game import Game, perft, play_random
from .constants import KING, QUEEN
from .geometry import Board, direction_mask
from .progress import Progress
from .simulate import simulate


@dataclass
class Row:
    case: str
    unit: str
    fast: float
    slow: float | None
    higher_is_better: bool = True

    @property
    def ratio(self) -> float | None:
        if self.slow is None or not self.slow or not self.fast:
            return None
        return self.fast / self.slow if self.higher_is_better else self.slow / self.fast


def _rate(work, seconds: float) -> tuple[float, int]:
    """Run ``work()`` (returning units done) until ``seconds`` pass; (units per second, runs)."""
    done, runs = 0, 0
    start = time.perf_counter()
    while True:
        done += work()
        runs += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed, runs


def _micros(work, seconds: float) -> float:
    """Microseconds per call of ``work()``."""
    calls, _ = _rate(lambda: (work(), 1)[1], seconds)
    return 1e6 / calls


def midgame_corpus(count: int = 8, seed: int = 11) -> list[str]:
    """VPNs of turn starts taken from seeded random games on both boards."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        game = Game(board=rng.choice(["standard", "compact"]))
        play_random(game, seed=rng.getrandbits(32), max_actions=rng.randrange(60, 600))
        while game.phase != "start" and not game.is_over:
            game.play(rng.choice(game.legal_actions()))
        if not game.is_over:
            out.append(game.vpn())
    return out


def leg_corpus(board_name: str, positions: int = 50, seed: int = 1):
    """[(core position, reference position, [(cell, army, dir mask, colours), ...])]."""
    rng = random.Random(seed)
    board = Board(board_name)
    corpus = []
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
            colours = 3 if piece in (KING, QUEEN) else 1 << board.colors[cell]
            movers.append((cell, army, direction_mask(army, piece), colours))
        corpus.append((core, ref, movers))
    return corpus


def mobility_buffers(corpus):
    """Per position, the flat (cell, army, dirs, colours) buffer for Position.mobility."""
    return [(core, array.array("i", [x for mover in movers for x in mover]))
            for core, _, movers in corpus]


def legs_bulk(buffers) -> int:
    """Generate every mover's leg inside the core, one call per position."""
    return sum(len(core.mobility(buffer)) for core, buffer in buffers)


def legs_per_run(corpus, use_reference: bool) -> int:
    """Generate every mover's leg once; return how many legs that was."""
    n = 0
    for core, ref, movers in corpus:
        pos = ref if use_reference else core
        for cell, army, mask, colours in movers:
            pos.leg(cell, army, mask, colours)
            n += 1
    return n


def api_playout(game_class, seed: int, max_actions: int) -> int:
    """Random play through the public API (legal_actions + play); actions played."""
    rng = random.Random(seed)
    game = game_class()
    n = 0
    while not game.is_over and n < max_actions:
        game.play(rng.choice(game.legal_actions()))
        n += 1
    return n


def _state_bytes(make, count: int = 200) -> float:
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    keep = [make() for _ in range(count)]
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    size = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    del keep
    return size / count


def run(quick: bool = False, progress: bool | None = None) -> list[Row]:
    """Measure every case; ``quick`` shortens the workloads (for tests and CI)."""
    t = 0.2 if quick else 1.0
    fast_depth, slow_depth = (3, 2) if quick else (5, 3)
    rows: list[Row] = []
    cases = 10                       # progress steps below
    with Progress(cases, "bench", progress) as bar:
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

        corpus = midgame_corpus(3 if quick else 8)
        start = time.perf_counter()
        fast_n = sum(perft(Game.from_vpn(v), 2 if quick else 3) for v in corpus)
        fast = fast_n / (time.perf_counter() - start)
        start = time.perf_counter()
        slow_n = sum(reference_perft(ReferenceGame.from_vpn(v), 1 if quick else 2) for v in corpus)
        slow = slow_n / (time.perf_counter() - start)
        rows.append(Row(f"perft, {len(corpus)} mid-game positions", "leaves/s", fast, slow))
        bar.advance()

        legs = leg_corpus("standard", 10 if quick else 50)
        fast, _ = _rate(lambda: legs_per_run(legs, False), t)
        slow, _ = _rate(lambda: legs_per_run(legs, True), t)
        rows.append(Row("legs generated, one Python call per leg", "legs/s", fast, slow))
        buffers = mobility_buffers(legs)
        fast, _ = _rate(lambda: legs_bulk(buffers), t)
        rows.append(Row("legs generated in the core (Position.mobility)", "legs/s", fast, slow))
        bar.advance()

        # Later cases should not pay for rescanning the corpora built so far (gen-2 GC).
        legs = buffers = None
        gc.collect()
        gc.freeze()
        seeds = iter(range(10**9))
        fast, _ = _rate(lambda: api_playout(Game, next(seeds), 10**6), t)
        slow, _ = _rate(lambda: api_playout(ReferenceGame, next(seeds), 200 if quick else 500), t)
        rows.append(Row("random playout, public API loop", "actions/s", fast, slow))
        bar.advance()

        games = 20 if quick else 800
        start = time.perf_counter()
        sims = simulate(games, seed=1, workers=1)
        fast = games / (time.perf_counter() - start)
        fast_actions = sum(g.actions for g in sims) / (time.perf_counter() - start)
        mean_length = sum(g.actions for g in sims) / games
        rows.append(Row("random playout, play_random/simulate (1 worker)", "actions/s",
                        fast_actions, slow))
        # Reference games per second, from its playout rate and the mean game length.
        rows.append(Row("random games (1 worker)", "games/s", fast, slow / mean_length))
        bar.advance()
        start = time.perf_counter()
        simulate(games, seed=1, workers=2)
        two = games / (time.perf_counter() - start)
        rows.append(Row("random games, simulate with 2 workers", "games/s", two, None))
        rows.append(Row("simulate speed-up, 2 workers vs 1", "x", two / fast, None))
        bar.advance()

        mid = Game.from_vpn(corpus[0])
        mid_ref = ReferenceGame.from_vpn(corpus[0])
        fast = _micros(lambda: mid.copy(history=False), t)
        slow = _micros(mid_ref.copy, t)
        rows.append(Row("copy(), mid-game", "us", fast, slow, higher_is_better=False))
        bar.advance()

        action = mid.legal_actions()[0]

        def fast_play_undo():
            mid.play(action)
            mid.undo()

        def slow_play_undo():
            mid_ref.play(str(action))
            mid_ref.undo()
        fast = _micros(fast_play_undo, t)
        slow = _micros(slow_play_undo, t)
        rows.append(Row("play() + undo(), mid-game", "us", fast, slow, higher_is_better=False))
        bar.advance()

        fast = _state_bytes(lambda: mid.copy(history=False))
        slow = _state_bytes(lambda: ReferenceGame.from_vpn(corpus[0]).copy())
        rows.append(Row("bytes per game state (a copy, no history)", "bytes", fast, slow,
                        higher_is_better=False))
        bar.advance()
    gc.unfreeze()
    return rows


def format_table(rows: list[Row]) -> str:
    """A plain-text table: case, unit, victorus, pure Python, ratio."""
    def num(x):
        if x is None:
            return "-"
        return f"{x:,.2f}" if x < 100 else f"{x:,.0f}"
    lines = [("case", "unit", "victorus", "pure Python", "ratio")]
    for row in rows:
        ratio = row.ratio
        lines.append((row.case, row.unit, num(row.fast), num(row.slow),
                      "-" if ratio is None else f"{ratio:,.0f}x" if ratio >= 10 else f"{ratio:.1f}x"))
    widths = [max(len(line[i]) for line in lines) for i in range(5)]
    out = []
    for n, line in enumerate(lines):
        out.append("  ".join(cell.ljust(widths[i]) if i < 2 else cell.rjust(widths[i])
                             for i, cell in enumerate(line)))
        if n == 0:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out)
