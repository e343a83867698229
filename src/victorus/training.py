"""Training the learned evaluation ([`Network`][victorus.evaluation.network.Network]) from the
engine's own search, as Stockfish's NNUE is trained: ``victorus train`` or `train`.

Each round:

1. **Self-play.** ``games`` games, spread over the configurations of `MIX` (both boards,
   2-6 players, the allied and quick variants), each from a seeded random opening, every
   decision searched with ``iterations`` iterations by ``best-net`` with the current
   network (the first round: ``best-heuristic``, PUCT with rollouts of 10 actions scored by
   the heuristic evaluation). Every searched position is kept with its label: per seat, ``blend`` x the
   search's root value + (1 - blend) x the game's result (a game stopped at
   ``max_actions``: the search's value alone).
2. **Training.** The positions of the last ``window`` rounds, ``epochs`` passes of Adam on
   the mean squared error of the network's value (numpy; the first layer's rows updated
   only where a position has them). A tenth of the round's games are held out: their
   loss is the curve's validation loss, next to that of the heuristic evaluation.
3. **Checkpoint.** ``OUT/round-<n>.vnet``, ``OUT/network.vnet`` (the latest), and
   ``OUT/curve.json``: every round's positions, losses and minutes. ``--resume`` goes on
   from the last checkpoint.

The next round's games are searched with the new network (search and distil). Everything
is drawn from ``seed``: the same command plays the same games and makes the same updates,
whatever ``workers`` (games are dealt to workers and gathered in order); a large run's
weights agree to float rounding (the BLAS library's threads), so its later, network-searched
rounds may part. Workers are processes
(``workers``), or Ray tasks (``backend="ray"``, ``pip install ray``).
"""

from __future__ import annotations

import json
import logging
import math
import os
import random
import re
import time
from collections.abc import Callable, Generator, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from typing import Any, cast

import numpy as np
from numpy.typing import NDArray

from .checkpoint import read_curve, read_window, window_bytes
from .checks import check_int, check_seed, shown
from .errors import ConfigError, WorkerLost
from .evaluation.network import (
    Batch,
    Gradients,
    Inputs,
    Network,
    Sample,
    default_network,
    inputs,
    loss_and_gradients,
    network_from,
)
from .files import check_writable, remove_stale_temporaries, write_atomic
from .game import Game
from .progress import Progress
from .workers import process_map, ray_map

log = logging.getLogger("victorus.training")

MIX: tuple[tuple[str, int, str, int], ...] = (
    ("compact", 2, "standard", 4),
    ("compact", 2, "quick", 1),
    ("standard", 2, "standard", 2),
    ("compact", 3, "standard", 1),
    ("compact", 4, "standard", 1),
    ("standard", 3, "standard", 1),
    ("standard", 4, "standard", 1),
    ("standard", 5, "standard", 1),
    ("standard", 6, "standard", 2),
    ("standard", 6, "allied", 1),
    ("standard", 6, "quick", 1),
)
"""The configurations self-play deals its games over, each (board, players, variant) with its share of the
games."""
BACKENDS = ("local", "ray")
"""Where self-play runs: here (on ``workers`` processes) or as Ray tasks."""


@dataclass
class Settings:
    """What a training run does (the module's docstring); `train` checks them.

    Args:
        rounds: Rounds of self-play and training.
        games: Self-play games per round.
        iterations: best's iterations per decision in self-play.
        opening: Random actions at most before the search plays.
        max_actions: A self-play game stops there.
        blend: The search's value's share of a label, 0 to 1.
        distil: Search the rounds after the first with the new network.
        window: Rounds whose positions are trained on.
        epochs: Passes of Adam over the window per round.
        batch: Positions per step of Adam.
        learning_rate: Adam's learning rate.
        weight_decay: AdamW's decay, per unit of learning rate.
        hidden: The first hidden layer's size.
        hidden2: The second hidden layer's size.
        seed: Seeds everything drawn.
        minutes: No new round starts after this (a cap on the run's time).
        workers: Self-play worker processes (or Ray tasks).
        backend: "local" or "ray".
        address: A Ray cluster's address, for backend "ray" (None: a local Ray).
        mix: The configurations (board, players, variant, share of the games).
    """

    rounds: int = 12
    games: int = 800                 # per round
    iterations: int = 400            # best's iterations per decision in self-play
    opening: int = 8                 # random actions at most before the search plays
    max_actions: int = 600           # a self-play game stops there
    blend: float = 0.5               # the search's value's share of a label
    distil: bool = True              # rounds after the first searched with the new network
    window: int = 3                  # rounds whose positions are trained on
    epochs: int = 1
    batch: int = 256
    learning_rate: float = 1e-3
    weight_decay: float = 1.0        # AdamW's, per unit of learning rate
    hidden: int = 32
    hidden2: int = 16
    seed: int = 0
    minutes: float = 55.0            # no new round starts after this (a cap: reaching it
                                     # ends the run on the clock, not on its seed)
    workers: int = 1
    backend: str = "local"
    address: str | None = None       # a Ray cluster's, for backend "ray"
    mix: tuple[tuple[str, int, str, int], ...] = field(default=MIX)

    def check(self) -> "Settings":
        """Check every setting.

        Returns:
            These settings.

        Raises:
            ConfigError: If a setting is out of its range or a configuration of ``mix``
                is not accepted.
        """
        check_int("rounds", self.rounds, 1, 10_000)
        check_int("games", self.games, 1, 1_000_000)
        check_int("iterations", self.iterations, 1, 1_000_000)
        check_int("opening", self.opening, 0, 1000)
        check_int("max_actions", self.max_actions, 1, 100_000)
        check_int("window", self.window, 1, 1000)
        check_int("epochs", self.epochs, 0, 1000)
        check_int("batch", self.batch, 1, 1 << 20)
        check_int("workers", self.workers, 1, 1024)
        check_seed(self.seed)
        for name, low, high in (("blend", 0.0, 1.0), ("learning_rate", 1e-9, 1.0),
                                ("weight_decay", 0.0, 1e3),
                                ("minutes", 0.0, 1e6)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) \
                    or not low <= value <= high:
                raise ConfigError(f"{name} must be a number from {low:g} to {high:g}, "
                                  f"got {shown(value, 60)}")
        if self.learning_rate * self.weight_decay >= 1:
            raise ConfigError(f"learning_rate x weight_decay must be below 1 (each step keeps "
                              f"that share of the weights), got {self.learning_rate:g} x "
                              f"{self.weight_decay:g}")
        if not isinstance(self.distil, bool):
            raise ConfigError(f"distil must be True or False, got {shown(self.distil, 60)}")
        if self.backend not in BACKENDS:
            raise ConfigError(f"backend must be one of {BACKENDS}, got {shown(self.backend, 60)}")
        for config in self.mix:
            Game(config[0], players=config[1], variant=config[2])
        return self


# -- self-play ---------------------------------------------------------------------------

def game_tasks(settings: Settings, round_number: int) -> list[tuple[str, int, str, int]]:
    """The round's games: (board, players, variant, seed), dealt over the mix by its
    shares, each with its own seed drawn from the run's.

    Args:
        settings: The run's settings.
        round_number: The round, from 0.

    Returns:
        One (board, players, variant, seed) per game.
    """
    rng = random.Random(f"{settings.seed}/{round_number}")
    deck = [config[:3] for config in settings.mix for _ in range(config[3])]
    return [(*deck[i % len(deck)], rng.getrandbits(64)) for i in range(settings.games)]


def play_game(task: tuple[str, int, str, int], network: Network | bytes | None, iterations: int,
              opening: int, max_actions: int, blend: float) -> list[Sample]:
    """One self-play game: its positions' inputs and labels. ``network``: the one searching
    (a Network or a file's bytes; None: the heuristic).

    Args:
        task: The game: (board, players, variant, seed).
        network: The network searching, or a file's bytes (None: the heuristic).
        iterations: The search's iterations per decision.
        opening: Random actions at most before the search plays.
        max_actions: The game stops there.
        blend: The search's value's share of a label.

    Returns:
        One sample per searched position: its inputs and label.
    """
    from .search.registry import best_heuristic_agent, best_net_agent
    board, players, variant, seed = task
    rng = random.Random(seed)
    if isinstance(network, bytes):
        network = Network.from_bytes(network)
    agent = (best_heuristic_agent(rng.getrandbits(64), iterations) if network is None
             else best_net_agent(rng.getrandbits(64), iterations, network=network))
    game = Game(board, players=players, variant=variant)
    for _ in range(rng.randint(0, opening)):
        if game.is_over:
            break
        game.play(rng.choice(game.legal_actions()))
    positions: list[tuple[Inputs, NDArray[np.float32], int]] = []
    while not game.is_over and game.ply < max_actions:
        legal = game.legal_actions()
        if len(legal) == 1:
            game.play(legal[0])
            continue
        result = agent.search(game)
        seat = game.to_move
        values = np.array([result.seat_values[(seat + i) % 6] for i in range(6)], np.float32)
        positions.append((inputs(game), values, seat))
        game.play(result.action)
    returns = game.returns() if game.is_over else None
    samples: list[Sample] = []
    for features, values, seat in positions:
        if returns is None:
            target = values
        else:
            final = np.array([returns[(seat + i) % 6] for i in range(6)], np.float32)
            target = blend * values + (1 - blend) * final
        samples.append((*features, target * (features[4] >= 0)))
    return samples


#: Games per unit of work sent to a worker: fixed, so that the games and their order do
#: not depend on the workers.
CHUNK = 16


def _play_chunk(network_bytes: bytes | None,
                jobs: list[tuple[tuple[str, int, str, int], int, int, int, float]]) -> list[list[Sample]]:
    """A worker's unit: several games with one copy of the network."""
    network = None if network_bytes is None else Network.from_bytes(network_bytes)
    return [play_game(task, network, iterations, opening, max_actions, blend)
            for task, iterations, opening, max_actions, blend in jobs]


def self_play(settings: Settings, round_number: int, network: Network | None,
              progress: bool | None = None) -> list[list[Sample]]:
    """The round's games, played by the workers (`process_map`, `ray_map`); their
    positions, game by game, in the order of `game_tasks` (the same whatever the
    workers). A worker that dies raises `WorkerLost`: the round is not kept.

    Args:
        settings: The run's settings.
        round_number: The round, from 0.
        network: The network searching (None: the heuristic).
        progress: A progress bar on stderr: True always, None on a terminal, False never.

    Returns:
        Each game's samples, in the order of `game_tasks`.

    Raises:
        WorkerLost: If a worker dies.
    """
    payload = None if network is None else network.to_bytes()
    jobs = [(task, settings.iterations, settings.opening, settings.max_actions, settings.blend)
            for task in game_tasks(settings, round_number)]
    chunks = [jobs[i:i + CHUNK] for i in range(0, len(jobs), CHUNK)]
    starts = {id(chunk): i for i, chunk in zip(range(0, len(jobs), CHUNK), chunks)}

    def describe(chunk: list[tuple[tuple[str, int, str, int], int, int, int, float]]) -> str:
        first = starts[id(chunk)]
        return (f"playing self-play games {first}-{first + len(chunk) - 1} of round "
                f"{round_number}")

    results: list[list[list[Sample]] | None] = [None] * len(chunks)
    mapped: Generator[tuple[int, list[list[Sample]]], None, None]
    with Progress(len(jobs), f"round {round_number} self-play", progress) as bar:
        if settings.backend == "local" and settings.workers == 1:
            mapped = ((i, _play_chunk(payload, chunk)) for i, chunk in enumerate(chunks))
        elif settings.backend == "ray":
            mapped = ray_map(_play_chunk, payload, chunks, settings.workers, settings.address,
                             describe)
        else:
            mapped = process_map(_play_chunk, payload, chunks, settings.workers, describe)
        try:
            for index, part in mapped:
                results[index] = part
                bar.advance(len(part))
        finally:
            mapped.close()                   # a stop here stops every worker at once
    return [game for part in cast(list[list[list[Sample]]], results) for game in part]   # all filled


# -- training ------------------------------------------------------------------------------

class Adam:
    """Adam over a network's arrays, with decoupled weight decay (AdamW) on the weights
    (not the biases, not ``skip``); the first layer's rows lazily (only the rows a batch
    touches are updated and decayed, with their own step counts).

    Args:
        arrays: The arrays it will update, by name.
        rate: The learning rate.
        decay: The weight decay, per unit of learning rate.
    """

    DECAYED = ("w1", "wd", "w2", "w3")

    def __init__(self, arrays: Mapping[str, NDArray[np.float32]], rate: float, decay: float = 0.0) -> None:
        self.rate, self.decay = rate, decay
        self.m = {k: np.zeros_like(v, dtype=np.float32) for k, v in arrays.items()}
        self.v = {k: np.zeros_like(v, dtype=np.float32) for k, v in arrays.items()}
        self.t = {k: 0 for k in arrays if k != "w1"}
        self.row_t = np.zeros(len(arrays["w1"]), dtype=np.int64)

    def step(self, arrays: dict[str, NDArray[np.float32]], grads: Gradients) -> None:
        """One step of AdamW: ``arrays`` updated in place.

        Args:
            arrays: The arrays, by name.
            grads: Their gradients (`loss_and_gradients`).
        """
        b1, b2, eps = 0.9, 0.999, 1e-8
        for name, gradient in grads.items():
            if name == "w1":
                rows, g = cast(tuple[NDArray[np.intp], NDArray[np.float64]], gradient)
                self.row_t[rows] += 1
                steps = self.row_t[rows][:, None]
                arrays[name][rows] *= 1 - self.rate * self.decay
                m = self.m[name][rows] = b1 * self.m[name][rows] + (1 - b1) * g
                v = self.v[name][rows] = b2 * self.v[name][rows] + (1 - b2) * g * g
                arrays[name][rows] -= (self.rate * (m / (1 - b1 ** steps))
                                       / (np.sqrt(v / (1 - b2 ** steps)) + eps))
                continue
            grad = cast(NDArray[np.floating], gradient)
            self.t[name] += 1
            t = self.t[name]
            if name in self.DECAYED:
                arrays[name] *= 1 - self.rate * self.decay
            self.m[name] = b1 * self.m[name] + (1 - b1) * grad
            self.v[name] = b2 * self.v[name] + (1 - b2) * grad * grad
            arrays[name] -= self.rate * (self.m[name] / (1 - b1 ** t)) / \
                (np.sqrt(self.v[name] / (1 - b2 ** t)) + eps)


def stack(samples: list[Sample]) -> tuple[Batch, NDArray[np.float32]]:
    """Samples as a Batch and their targets.

    Args:
        samples: The samples.

    Returns:
        Their inputs as a Batch, and their targets [B, 6].
    """
    return Batch.of([s[:5] for s in samples]), np.stack([s[5] for s in samples])


def evaluate_loss(network: Network | Mapping[str, NDArray[np.floating]], batch: Batch,
                  targets: NDArray[np.floating]) -> float:
    """The mean squared error of a network's values (or arrays') on a batch.

    Args:
        network: A network, or its arrays by name.
        batch: The positions.
        targets: Their target values, [B, 6].

    Returns:
        The loss.
    """
    arrays = network.arrays if isinstance(network, Network) else network
    return loss_and_gradients(arrays, batch, targets)[0]


def fit(network: Network, batch: Batch, targets: NDArray[np.floating], settings: Settings,
        rng: np.random.Generator, progress: bool | None = None,
        label: str = "training") -> tuple[Network, list[float]]:
    """``settings.epochs`` passes of Adam over the positions; the new network and the
    mean loss of each epoch.

    Args:
        network: The network trained from.
        batch: The positions.
        targets: Their target values, [B, 6].
        settings: The run's settings (epochs, batch, learning rate, weight decay).
        rng: Draws the order of each epoch.
        progress: A progress bar on stderr: True always, None on a terminal, False never.
        label: The progress bar's and the errors' label.

    Returns:
        The new network and each epoch's mean loss.

    Raises:
        ConfigError: If the training diverged.
    """
    arrays = {k: np.array(v, dtype=np.float32) for k, v in network.arrays.items()}
    optimiser = Adam(arrays, settings.learning_rate, settings.weight_decay)
    steps = math.ceil(len(batch) / settings.batch)
    losses: list[float] = []
    with Progress(settings.epochs * steps, label, progress) as bar:
        for _ in range(settings.epochs):
            order = rng.permutation(len(batch))
            total = 0.0
            for k in range(steps):
                index = order[k * settings.batch:(k + 1) * settings.batch]
                loss, grads = loss_and_gradients(arrays, batch.take(index), targets[index])
                optimiser.step(arrays, grads)
                total += loss * len(index)
                bar.advance()
            losses.append(total / len(batch))
    if not all(np.isfinite(a).all() for a in arrays.values()):
        raise ConfigError(f"{label}: training diverged (weights are no longer finite): lower "
                          f"the learning rate ({settings.learning_rate:g})")
    return Network(arrays, network.trained, network.info), losses


@dataclass
class Point:
    """One round of the curve.

    Args:
        round: The round, from 0.
        minutes: Minutes since the run began (resumed runs: all their time).
        games: The round's self-play games.
        positions: The positions trained on (the window).
        train_loss: The mean training loss of each epoch.
        validation_loss: The loss on the round's held-out games.
        heuristic_loss: The heuristic evaluation's loss on the same.
    """

    round: int
    minutes: float                   # since the run began (resumed runs: all their time)
    games: int
    positions: int                   # trained on (the window)
    train_loss: list[float]          # per epoch
    validation_loss: float           # on the round's held-out games
    heuristic_loss: float            # the heuristic evaluation's, on the same


def train(out: str, settings: Settings | None = None, resume: bool = False,
          progress: bool | None = None, report: Callable[[Point], None] | None = None,
          overwrite: bool = False) -> Network:
    """Train a network into the folder ``out`` (the module's docstring) and return it.
    ``resume``: go on from ``out``'s last checkpoint (same settings, more rounds), every
    file read checked first. A folder that holds a run is refused without ``resume`` or
    ``overwrite`` (which removes that run's files, and only those), and so is a folder
    another run is training into now.

    Args:
        out: The run's folder (made if missing).
        settings: The run's settings (None: the defaults).
        resume: Go on from ``out``'s last checkpoint.
        progress: Progress bars on stderr: True always, None on a terminal, False never.
        report: Called with each round's curve point as it is saved.
        overwrite: Remove a run already in ``out`` first.

    Returns:
        The last round's network.

    Raises:
        ConfigError: If a setting is out of its range, ``out`` holds a run (without
            ``resume`` or ``overwrite``) or another run trains into it, a checkpoint
            cannot be resumed, or the training diverged.
        WorkerLost: If a self-play worker dies (the rounds finished are saved).
    """
    settings = (settings or Settings()).check()
    if resume and overwrite:
        raise ConfigError("give resume or overwrite, not both")
    os.makedirs(out, exist_ok=True)
    with _run_lock(out):
        return _train(out, settings, resume, progress, report, overwrite)


def run_files(out: str) -> list[str]:
    """The files of a training run in the folder ``out``, sorted (none: no run there).

    Args:
        out: The folder.

    Returns:
        The names of the run's files in it.
    """
    try:
        names = os.listdir(out)
    except FileNotFoundError:
        return []
    return sorted(name for name in names if _RUN_FILE.match(name))


_RUN_FILE = re.compile(r"^(curve\.json|network\.vnet|round-\d+\.vnet|window-\d+\.npz)$")


@contextmanager
def _run_lock(out: str) -> Iterator[None]:
    """The folder held by this run (an exclusive flock on it), so that a second run into
    it is refused, not interleaved. Where no such lock can be had (Windows; NFS, whose
    locks need a file open for writing; a file system without locks) the run goes on
    unlocked, with a warning."""
    try:
        import fcntl
    except ImportError:                        # Windows
        yield
        return
    fd = os.open(out, os.O_RDONLY)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise ConfigError(f"cannot train into {shown(out, 200)}: another run is training "
                              f"into it now; wait for it to end, or give another folder") from None
        except OSError as exc:
            log.warning("%s cannot be locked (%s): a second run into it would not be refused",
                        out, exc.strerror)
        yield
    finally:
        os.close(fd)


def _train(out: str, settings: Settings, resume: bool, progress: bool | None,
           report: Callable[[Point], None] | None, overwrite: bool) -> Network:
    existing = run_files(out)
    replaced = existing if overwrite else [n for n in existing if n.startswith("window-")]
    for name in {"network.vnet", "curve.json", *replaced}:   # before anything is removed
        check_writable(os.path.join(out, name))               # or written
    for path in remove_stale_temporaries(out, lambda name: _RUN_FILE.match(name) is not None):
        log.info("removed %s, left by a write that was killed", path)
    if existing and not resume:
        if not overwrite:
            rounds = sum(name.startswith("round-") for name in existing)
            raise ConfigError(f"{shown(out, 200)} holds a training run ({rounds} round file"
                              f"{'' if rounds == 1 else 's'}: {', '.join(existing[:4])}"
                              f"{', ...' if len(existing) > 4 else ''}): go on with resume "
                              f"(--resume), replace it with overwrite (--overwrite), or give "
                              f"another folder")
        for name in existing:
            os.unlink(os.path.join(out, name))
    points: list[Point] = []
    first_round, spent = 0, 0.0
    network = Network.fresh(settings.hidden, settings.hidden2, settings.seed,
                            {"boards": sorted({c[0] for c in settings.mix}),
                             "players": sorted({c[1] for c in settings.mix})})
    windows: list[list[Sample]] = []
    if resume:
        network, points, windows, spent = _resume(out, settings, network)
        first_round = len(points)
    start = time.perf_counter() - spent * 60
    for number in range(first_round, settings.rounds):
        if number > first_round and (time.perf_counter() - start) / 60 >= settings.minutes:
            log.info("the time is spent: no round %d", number)
            break
        searcher = network if number and settings.distil else None
        try:
            games = self_play(settings, number, searcher, progress)
        except WorkerLost as lost:
            saved = ("no round was finished" if number == 0 else
                     f"round{'s 0-' if number > 1 else ' '}{number - 1} "
                     f"{'are' if number > 1 else 'is'} saved in {shown(out, 200)}: --resume goes "
                     f"on from there")
            raise WorkerLost(f"{lost}; round {number} is lost, {saved}") from None
        held_out = len(games) // 10 if len(games) >= 10 else int(len(games) >= 2)
        windows.append([s for game in games[held_out:] for s in game])
        windows = windows[-settings.window:]
        valid = [s for game in games[:held_out] for s in game]
        samples = [s for window in windows for s in window]
        if not samples:
            raise ConfigError("self-play gave no position to learn from (games too short?)")
        batch, targets = stack(samples)
        network, losses = fit(network, batch, targets, settings,
                              np.random.default_rng([settings.seed, number]), progress,
                              f"round {number} training")
        heuristic = Network.fresh(settings.hidden, settings.hidden2, 0, network.trained)
        if valid:
            vbatch, vtargets = stack(valid)
            validation = evaluate_loss(network, vbatch, vtargets)
            baseline = evaluate_loss(heuristic, vbatch, vtargets)
        else:
            validation = baseline = float("nan")
        point = Point(number, round((time.perf_counter() - start) / 60, 2), len(games),
                      len(samples), [round(x, 5) for x in losses], round(validation, 5),
                      round(baseline, 5))
        points.append(point)
        network = Network(network.arrays, network.trained,
                          {"made": "victorus train", "settings": _settings_json(settings),
                           "rounds": number + 1, "minutes": point.minutes})
        _checkpoint(out, network, points, windows, settings)
        if report is not None:
            report(point)
    return network


def _settings_json(settings: Settings) -> dict[str, Any]:
    data = asdict(settings)
    data["mix"] = [list(c) for c in settings.mix]
    return data


def _checkpoint(out: str, network: Network, points: list[Point], windows: list[list[Sample]],
                settings: Settings) -> None:
    """The round's files, each replaced at once: its network and the positions of its
    window (for --resume, numpy arrays only), the latest network, then the curve, which
    commits the round (a run stopped before it resumes from the round before)."""
    number = points[-1].round
    network.save(os.path.join(out, f"round-{number}.vnet"))
    write_atomic(os.path.join(out, f"window-{number}.npz"), window_bytes(windows))
    network.save(os.path.join(out, "network.vnet"))
    write_atomic(os.path.join(out, "curve.json"), json.dumps(
        {"settings": _settings_json(settings), "points": [asdict(p) for p in points]},
        indent=1) + "\n")
    try:
        os.unlink(os.path.join(out, f"window-{number - 1}.npz"))
    except FileNotFoundError:
        pass


#: The settings a resumed run must share with the run it continues (the others say how
#: long and where it runs).
RESUMED_AS_IS = ("workers", "backend", "address", "rounds", "minutes")


def _resume(out: str, settings: Settings,
            fresh: Network) -> tuple[Network, list[Point], list[list[Sample]], float]:
    """The last committed round of ``out``: its network, the curve, the window and the
    minutes spent, each file checked (victorus.checkpoint); ConfigError if one fails, or
    if it was trained with other settings or another network's shape than ``fresh``'s."""
    try:
        before, saved = read_curve(os.path.join(out, "curve.json"))
        points = [Point(**p) for p in saved]
        last = points[-1].round
        now = _settings_json(settings)
        changed = [name for name in now
                   if name not in RESUMED_AS_IS and before.get(name) != now[name]]
        if changed:
            name = changed[0]
            raise ConfigError(f"it was trained with {name} {shown(before.get(name))}, not "
                              f"{shown(now[name])} (only {', '.join(RESUMED_AS_IS)} may change)")
        windows = read_window(os.path.join(out, f"window-{last}.npz"), settings.window)
        network = network_from(os.path.join(out, f"round-{last}.vnet"))
        if (network.hidden, network.hidden2, network.trained) != \
                (fresh.hidden, fresh.hidden2, fresh.trained):
            raise ConfigError(f"round-{last}.vnet has hidden sizes {network.hidden}, "
                              f"{network.hidden2} for {network.trained}, not this run's "
                              f"{fresh.hidden}, {fresh.hidden2} for {fresh.trained}")
    except ConfigError as exc:
        raise ConfigError(f"cannot resume from {shown(out, 200)}: {exc}") from None
    return network, points, windows, points[-1].minutes


def format_point(point: Point) -> str:
    """A curve point as one line.

    Args:
        point: The point.

    Returns:
        Its round, minutes, games, positions and losses.
    """
    return (f"round {point.round}: {point.minutes:6.1f} min, {point.games} games, "
            f"{point.positions} positions, train loss "
            f"{point.train_loss[-1] if point.train_loss else float('nan'):.4f}, "
            f"validation {point.validation_loss:.4f} (heuristic {point.heuristic_loss:.4f})")


__all__ = ["BACKENDS", "MIX", "Point", "Settings", "default_network", "fit", "format_point",
           "game_tasks", "play_game", "self_play", "train"]
