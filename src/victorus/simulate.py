"""Bulk random simulation on all cores, reproducible whatever the worker count.

Game ``i`` of a run plays uniformly random legal actions from a seed derived
from ``(seed, i)`` only, entirely inside the C engine with the GIL released,
so worker threads run on separate cores and the results never depend on how
the games were shared out.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass

from ._engine import StopToken
from .checks import check_int, shown
from .constants import PIECE_LETTERS
from .errors import ConfigError, WorkerLost
from .game import DEFAULT_MAX_ACTIONS, MAX_ACTION_CAP, Game, check_stop, run_interruptibly
from .progress import Progress
from .workers import ray_map

log = logging.getLogger(__name__)

MASK64 = 2**64 - 1
"""The 64-bit mask of the seeds' arithmetic."""
MAX_GAMES = 10_000_000
"""The most games a run plays (one result object each is kept in memory)."""


@dataclass(frozen=True)
class SimulatedGame:
    """One simulated game: who won, why, how long, what was captured.

    Args:
        index: The game's index in its run.
        seed: Its seed (`game_seed` of the run's seed and the index).
        winners: The winning seats, or None: stopped by max_actions (R36), unfinished.
        reason: Why it ended, or None.
        actions: The actions played.
        rounds: The rounds played.
        captures: Captured pieces per type, in the order T U B X H K Q.
    """

    index: int
    seed: int
    winners: tuple[int, ...] | None     # None: stopped by max_actions (R36), unfinished
    reason: str | None
    actions: int
    rounds: int
    captures: tuple[int, ...]           # captured pieces per type, in the order T U B X H K Q

    def as_dict(self) -> dict[str, object]:
        """The game for JSON (``victorus simulate --json``). The seed, 64 bits, is written
        as a decimal string: JSON readers that hold numbers as doubles (JavaScript's
        ``JSON.parse``) keep integers exact only up to 2**53; ``int(d["seed"])``.

        Returns:
            Its fields, captures by piece letter.
        """
        return {"index": self.index, "seed": str(self.seed),
                "winners": None if self.winners is None else list(self.winners),
                "reason": self.reason, "actions": self.actions, "rounds": self.rounds,
                "captures": dict(zip(PIECE_LETTERS, self.captures))}


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run (splitmix64 of the pair).

    Args:
        seed: The run's seed.
        index: The game's index.

    Returns:
        The game's 64-bit seed.
    """
    z = (seed * 0x9E3779B97F4A7C15 + index * 0xBF58476D1CE4E5B9 + 1) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def _play_one(start: Game, seed: int, index: int, cap: int,
              stop: StopToken | None = None) -> SimulatedGame:
    """Game ``index`` of a run, from the start position ``start`` (cut short if ``stop``
    is set: the caller then discards it)."""
    engine = start._engine.copy(False)
    s = game_seed(seed, index)
    n = engine.random_playout(s, cap, False, stop)        # GIL released inside
    result = engine.result()
    return SimulatedGame(index, s, None if result is None else result[0],
                         None if result is None else result[1], n, engine.round,
                         engine.captured())


def play_games(indices: Iterable[int], seed: int, players: int | None, board: str, variant: str,
               cap: int) -> list[SimulatedGame]:
    """Play the games with these indices (a Ray task; simulate() checked the arguments).

    Args:
        indices: The games' indices in the run.
        seed: The run's seed.
        players: The players (None: the board's default).
        board: The board's name.
        variant: The variant's name.
        cap: The most actions a game (-1: no cap).

    Returns:
        One SimulatedGame per index, in their order.
    """
    start = Game(board=board, players=players, variant=variant)
    return [_play_one(start, seed, i, cap) for i in indices]


BACKENDS = ("local", "ray")
"""Where a run plays: here (on ``workers`` threads) or on a Ray cluster."""


def simulate(games: int, seed: int = 0, players: int | None = None, board: str = "standard",
             variant: str = "standard", workers: int | None = None,
             max_actions: int | None = DEFAULT_MAX_ACTIONS,
             progress: bool | None = None, backend: str = "local",
             address: str | None = None, stop: StopToken | None = None) -> list[SimulatedGame]:
    """Play ``games`` seeded random games; return one SimulatedGame per game, in index order.

    ``workers`` threads (default: all cores) share the games; the results are
    the same for any worker count. ``max_actions`` caps each game (R36; None:
    no cap, at the risk of a game that never ends).
    ``progress``: True draws a progress bar with an ETA on stderr, None (the default)
    only on a terminal, False never.
    ``backend="ray"`` fans the games out over a Ray cluster (``address``; None
    starts a local one; needs ``pip install "victorus[ray]"``), with the same
    results as the local backend for the same seed.
    Ctrl-C in the calling thread stops every game at once and goes on as
    KeyboardInterrupt; ``stop.stop()`` (a [`victorus.StopToken`][victorus.game.StopToken], local backend)
    from another thread makes it raise [`victorus.Cancelled`][victorus.errors.Cancelled]. Either way no
    result is returned.

    Args:
        games: How many games, 0 to MAX_GAMES.
        seed: The run's seed, an integer >= 0.
        players: The players (None: the board's default).
        board: The board's name.
        variant: The variant's name.
        workers: Worker threads, 1 to 256 (None: all cores); Ray's CPUs with ``backend="ray"``.
        max_actions: The most actions a game (None: no cap).
        progress: A progress bar on stderr: True always, None on a terminal, False never.
        backend: "local" or "ray".
        address: A Ray cluster's address (None: a local Ray).
        stop: A cancellation token (local backend), or None.

    Returns:
        One SimulatedGame per game, in index order.

    Raises:
        ConfigError: If an argument is out of its range or the configuration is not accepted.
        Cancelled: If ``stop`` is stopped.
        WorkerLost: If a Ray task or worker is lost.
    """
    games = check_int("games", games, 0, MAX_GAMES)
    seed = check_int("seed", seed, 0)
    if max_actions is not None:
        max_actions = check_int("max_actions", max_actions, 1, MAX_ACTION_CAP)
    if workers is None:
        workers = os.cpu_count() or 1
    workers = check_int("workers", workers, 1, 256)
    if backend not in BACKENDS:
        raise ConfigError(f"backend must be one of {', '.join(BACKENDS)}, got {shown(backend, 60)}")
    check_stop(stop, "simulate")
    if stop is not None and backend != "local":
        raise ConfigError("stop is for backend='local' (a Ray run stops with Ctrl-C)")
    if address is not None and backend != "ray":
        raise ConfigError("address is only for backend='ray'")
    start = Game(board=board, players=players, variant=variant)   # validates the configuration
    cap = -1 if max_actions is None else max_actions
    if backend == "ray":
        return _simulate_ray(games, seed, players, board, variant, workers, cap, progress, address)
    results: list[SimulatedGame | None] = [None] * games

    pending = iter(range(games))
    lock = threading.Lock()

    def run(stop: StopToken) -> None:
        while not stop.stopped:
            with lock:                   # workers take the next game as they finish one
                i = next(pending, None)
            if i is None:
                return
            game = _play_one(start, seed, i, cap, stop)
            if stop.stopped:             # cut short: not a result
                return
            results[i] = game
            bar.advance()

    # The games run in worker threads (one at least), so that Ctrl-C reaches this thread
    # at once; this run's token then stops every game being played within 0.1 s, and
    # nothing half-played is returned.
    threads = max(1, min(workers, games))
    log.info("%d games (%s, %s players, %s), seed %d, on %d threads", games, board,
             start.config.players, variant, seed, threads)
    began = time.perf_counter()
    with Progress(games, "games", progress) as bar:
        run_interruptibly([(run,)] * threads, threads, stop=stop)
    done = [game for game in results if game is not None]    # every slot is filled
    log.info("%d games played in %.1f s", len(done), time.perf_counter() - began)
    return done


def _play_chunk(job: tuple[int, int | None, str, str, int], indices: list[int]) -> list[SimulatedGame]:
    return play_games(indices, *job)


def _simulate_ray(games: int, seed: int, players: int | None, board: str, variant: str, workers: int,
                  cap: int, progress: bool | None, address: str | None) -> list[SimulatedGame]:
    """The same games as the local backend, in chunks of Ray tasks (`ray_map`: a lost
    task is a `WorkerLost`, its ``result`` the games finished before it, in order)."""
    size = max(1, min(64, games // (4 * workers) or 1))
    chunks = [list(range(i, min(games, i + size))) for i in range(0, games, size)]
    results: list[SimulatedGame] = []
    with Progress(games, "games", progress) as bar:
        try:
            for _, part in ray_map(_play_chunk, (seed, players, board, variant, cap), chunks,
                                   workers, address,
                                   lambda chunk: f"playing games {chunk[0]}-{chunk[-1]}"):
                results.extend(part)
                bar.advance(len(part))
        except WorkerLost as lost:
            raise WorkerLost(f"{lost}; {len(results)} of {games} games were finished before it",
                             sorted(results, key=lambda g: g.index)) from None
    return sorted(results, key=lambda g: g.index)
