"""Training the learned evaluation ([`Network`][victorus.evaluation.network.Network]), its
value and its policy head, from the engine's own deeper search: ``victorus train`` or
`train`. A loop that only moves forward, as AlphaGo Zero's and KataGo's do.

**Round 0** is the network the run starts from (``start``: a network file, or None for a
fresh one, which is the heuristic evaluation with the capture priors). Each later round:

1. **Self-play** (victorus.selfplay). ``games`` games, spread over the configurations of
   `MIX` (both boards, 2-6 players, the allied and quick variants), each from a seeded
   random opening, searched by ``best-net`` with the best network so far (``distil``;
   else always with round 0's) and root noise. A share ``label_share`` of the decisions
   gets a search of ``label_iterations`` and is kept, labelled with ``blend`` x its root
   value + the rest x the game's result, and its visit distribution as the policy's
   target; the others get ``iterations`` and only move the game on.
2. **Training.** The positions of the last ``window`` rounds (by default 1: each position
   is read once), ``epochs`` passes of AdamW in numpy on the value's squared error plus
   ``policy_weight`` x the policy's cross-entropy, continuing from the last round's
   network. The losses are measured on a fixed held-out set, the same every round:
   ``holdout_games`` games played once by round 0's network, searched as above.
3. **Gating.** The candidate plays the best network so far, ``gate_games`` games at
   ``match_iterations`` each (victorus.gating); it becomes the best only if it scores at
   least ``gate_threshold``. An accepted round also plays round 0 and ``best-heuristic``
   (``curve_games`` each): the curve's strength.
4. **Checkpoint.** ``OUT/round-<n>.vnet`` (the candidate), ``OUT/network.vnet`` (the best
   so far), ``OUT/window-<n>.npz`` (the positions, for ``--resume``) and
   ``OUT/curve.json``: every round's positions, losses, gate and matches.
   ``--resume`` goes on from the last checkpoint; `read_run` reads them back.

Everything is drawn from ``seed``: the same command plays the same games and makes the
same updates, whatever ``workers`` (games are dealt to workers and gathered in order); a
large run's weights agree to float rounding (the BLAS library's threads), so its later,
network-searched rounds may part. Workers are processes (``workers``), or Ray tasks
(``backend="ray"``, ``pip install ray``).
"""

from __future__ import annotations

import json
import logging
import math
import os
import random
import re
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from typing import Any, cast

import numpy as np
from numpy.typing import NDArray

from .checkpoint import arrays_bytes, optimiser_layout, read_arrays, read_curve, read_window, window_bytes
from .checks import check_int, shown
from .errors import ConfigError, WorkerLost
from .evaluation.network import (
    SIZES,
    Batch,
    Gradients,
    Network,
    Sample,
    default_network,
    loss_and_gradients,
    losses,
    network_from,
)
from .files import check_writable, remove_stale_temporaries, write_atomic
from .game import Game
from .gating import MatchScore, match
from .progress import Progress
from .selfplay import Play, Task, play_game, self_play

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
        rounds: Rounds of self-play, training and gating after round 0.
        games: Self-play games per round.
        iterations: The fast search's iterations per self-play decision.
        label_iterations: The deep search's iterations (the labelled decisions).
        label_share: The share of self-play decisions searched deep and kept, 0 to 1.
        noise: The root Dirichlet noise's share of self-play's priors, 0 to 1.
        opening: Random actions at most before the search plays.
        max_actions: A self-play game stops there.
        blend: The deep search's value's share of a value label, 0 to 1.
        distil: Self-play searched with the best network so far (else round 0's).
        window: Rounds whose positions are trained on.
        epochs: Passes of Adam over the window per round.
        batch: Positions per step of Adam.
        learning_rate: Adam's learning rate.
        weight_decay: AdamW's decay, per unit of learning rate.
        policy_weight: The policy's cross-entropy's weight in the loss.
        hidden: The first hidden layer's size (a fresh start).
        hidden2: The second hidden layer's size (a fresh start).
        start: The network round 0 is: "default", a shipped network's name, a file's
            path, or None (a fresh one).
        holdout_games: Games of the fixed held-out set.
        gate_games: Games of each gate match (0: every candidate is accepted).
        gate_threshold: The score a candidate needs against the best so far.
        match_iterations: Iterations a decision in the gate and curve matches.
        curve_games: Games of an accepted round against round 0 and best-heuristic (0:
            none).
        seed: Seeds everything drawn.
        minutes: No new round starts after this (a cap on the run's time).
        workers: Self-play and match worker processes (or Ray tasks).
        backend: "local" or "ray".
        address: A Ray cluster's address, for backend "ray" (None: a local Ray).
        mix: The configurations (board, players, variant, share of the games).
    """

    rounds: int = 6
    games: int = 500                 # per round
    iterations: int = 200            # the fast search's, per self-play decision
    label_iterations: int = 800      # the deep search's (the kept decisions)
    label_share: float = 0.25        # of the decisions, searched deep and kept
    noise: float = 0.25              # root Dirichlet noise's share of the priors
    opening: int = 8                 # random actions at most before the search plays
    max_actions: int = 600           # a self-play game stops there
    blend: float = 0.5               # the deep search's value's share of a label
    distil: bool = True              # self-play searched with the best network so far
    window: int = 1                  # rounds whose positions are trained on
    epochs: int = 1
    batch: int = 64
    learning_rate: float = 3e-3
    weight_decay: float = 1.0        # AdamW's, per unit of learning rate
    policy_weight: float = 1.0
    hidden: int = 32
    hidden2: int = 16
    start: str | None = None         # round 0: a network ("default", a name, a path); None: fresh
    holdout_games: int = 40
    gate_games: int = 200
    gate_threshold: float = 0.55
    match_iterations: int = 200
    curve_games: int = 100
    seed: int = 0
    minutes: float = 120.0           # no new round starts after this (a cap: reaching it
                                     # ends the run on the clock, not on its seed)
    workers: int = 1
    backend: str = "local"
    address: str | None = None       # a Ray cluster's address, for backend "ray"
    mix: tuple[tuple[str, int, str, int], ...] = field(default=MIX)

    def check(self) -> "Settings":
        """Check every setting.

        Returns:
            These settings.

        Raises:
            ConfigError: If a setting is out of its range or a configuration of ``mix``
                is not accepted.
        """
        counts: tuple[tuple[str, int, int], ...] = (
            ("rounds", 0, 10_000), ("games", 1, 1_000_000), ("iterations", 1, 1_000_000),
            ("label_iterations", 1, 1_000_000), ("opening", 0, 1000), ("max_actions", 1, 100_000),
            ("window", 1, 1000), ("epochs", 0, 1000), ("batch", 1, 1 << 20),
            ("holdout_games", 0, 100_000), ("gate_games", 0, 100_000),
            ("match_iterations", 1, 1_000_000), ("curve_games", 0, 100_000), ("workers", 1, 1024),
            ("hidden", 1, SIZES["max_hidden"]), ("hidden2", 1, SIZES["max_hidden"]),
            ("seed", 0, 2**64 - 1))
        for name, least, most in counts:
            check_int(name, getattr(self, name), least, most)
        for name in ("gate_games", "curve_games"):
            if getattr(self, name) % 2:
                raise ConfigError(f"{name} must be even (each opening is played from both "
                                  f"sides), got {getattr(self, name)}")
        bounds: tuple[tuple[str, float, float], ...] = (
            ("blend", 0.0, 1.0), ("label_share", 0.0, 1.0), ("noise", 0.0, 1.0),
            ("learning_rate", 1e-9, 1.0), ("weight_decay", 0.0, 1e3),
            ("policy_weight", 0.0, 1e3), ("gate_threshold", 0.0, 1.0), ("minutes", 0.0, 1e6))
        for name, low, high in bounds:
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
        if self.start is not None and not isinstance(self.start, str):
            raise ConfigError(f"start must be a network's name or path, or None, got "
                              f"{shown(self.start, 60)}")
        if self.label_share <= 0:
            raise ConfigError("label_share must be above 0: with none of the decisions kept, "
                              "self-play gives nothing to learn from")
        if self.backend not in BACKENDS:
            raise ConfigError(f"backend must be one of {BACKENDS}, got {shown(self.backend, 60)}")
        if self.address is not None and not isinstance(self.address, str):
            raise ConfigError(f"address must be a Ray cluster's address or None, got "
                              f"{shown(self.address, 60)}")
        self._check_mix()
        return self

    def _check_mix(self) -> None:
        """ConfigError unless ``mix`` holds configurations that Game accepts, each with a
        share of the games from 1 (an integer)."""
        if not isinstance(self.mix, (tuple, list)) or not self.mix:
            raise ConfigError(f"mix must be a non-empty sequence of (board, players, variant, "
                              f"share), got {shown(self.mix, 60)}")
        for config in self.mix:
            if not isinstance(config, (tuple, list)) or len(config) != 4:
                raise ConfigError(f"a configuration of mix is (board, players, variant, share), "
                                  f"got {shown(config, 60)}")
            Game(config[0], players=config[1], variant=config[2])
            check_int("a configuration's share of the games", config[3], 1, 1_000_000)

    def trained(self) -> dict[str, list[Any]]:
        """What a network trained on ``mix`` is for: its boards and players.

        Returns:
            ``{"boards": [...], "players": [...]}``.
        """
        return {"boards": sorted({c[0] for c in self.mix}),
                "players": sorted({c[1] for c in self.mix})}

    def play(self) -> Play:
        """How self-play searches and labels, from these settings.

        Returns:
            Self-play's settings.
        """
        return Play(self.iterations, self.opening, self.max_actions, self.blend,
                    self.label_iterations, self.label_share, self.noise)


def game_tasks(settings: Settings, round_number: int) -> list[Task]:
    """The round's games: (board, players, variant, seed), dealt over the mix by its
    shares, each with its own seed drawn from the run's.

    Args:
        settings: The run's settings.
        round_number: The round, from 0 (-1: the held-out set's games).

    Returns:
        One (board, players, variant, seed) per game.
    """
    rng = random.Random(f"{settings.seed}/{round_number}")
    count = settings.holdout_games if round_number < 0 else settings.games
    deck = [config[:3] for config in settings.mix for _ in range(config[3])]
    return [(*deck[i % len(deck)], rng.getrandbits(64)) for i in range(count)]


class Adam:
    """Adam over a network's arrays, with decoupled weight decay (AdamW) on the weights
    (not the biases, not ``skip`` nor ``policy_capture``); the first layer's rows lazily
    (only the rows a batch touches are updated and decayed, with their own step counts).
    A run keeps one from round to round (`state`, `restored`): a fresh one's first steps
    move every weight a batch touches by about the learning rate, whatever its gradient,
    which would shake the network at the start of every round.

    Args:
        arrays: The arrays it will update, by name.
        rate: The learning rate.
        decay: The weight decay, per unit of learning rate.
    """

    DECAYED = ("w1", "wd", "w2", "w3", "policy_from", "policy_to", "policy_word")

    def __init__(self, arrays: Mapping[str, NDArray[np.float32]], rate: float, decay: float = 0.0) -> None:
        self.rate, self.decay = rate, decay
        # float64 moments (the gradients' type), but the first layer's float32 (its size)
        self.m: dict[str, NDArray[np.floating]] = {
            k: np.zeros_like(v, dtype=np.float32 if k == "w1" else np.float64)
            for k, v in arrays.items()}
        self.v: dict[str, NDArray[np.floating]] = {
            k: np.zeros_like(v, dtype=np.float32 if k == "w1" else np.float64)
            for k, v in arrays.items()}
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

    def state(self) -> dict[str, NDArray[Any]]:
        """Its moments and step counts as arrays (victorus.checkpoint writes and checks them).

        Returns:
            ``m.<name>``, ``v.<name>`` and ``t.<name>`` per array, and ``row_t``.
        """
        state: dict[str, NDArray[Any]] = {"row_t": self.row_t}
        for name in self.m:
            state[f"m.{name}"], state[f"v.{name}"] = self.m[name], self.v[name]
            if name in self.t:
                state[f"t.{name}"] = np.array([self.t[name]], np.int64)
        return state

    @classmethod
    def restored(cls, arrays: Mapping[str, NDArray[np.float32]], rate: float, decay: float,
                 state: Mapping[str, NDArray[Any]]) -> "Adam":
        """An optimiser going on from a `state` (checked against ``arrays`` first).

        Args:
            arrays: The arrays it will update, by name.
            rate: The learning rate.
            decay: The weight decay, per unit of learning rate.
            state: A `state` of an optimiser over arrays of the same shapes.

        Returns:
            The optimiser.
        """
        optimiser = cls(arrays, rate, decay)
        optimiser.row_t = np.array(state["row_t"], np.int64)
        for name in optimiser.m:
            optimiser.m[name] = np.array(state[f"m.{name}"], optimiser.m[name].dtype)
            optimiser.v[name] = np.array(state[f"v.{name}"], optimiser.v[name].dtype)
            if name in optimiser.t:
                optimiser.t[name] = int(state[f"t.{name}"][0])
        return optimiser


def stack(samples: list[Sample]) -> tuple[Batch, NDArray[np.float32], NDArray[np.float32]]:
    """Samples as a Batch (their legal actions included), their value targets and their
    policy targets.

    Args:
        samples: The samples.

    Returns:
        Their inputs as a Batch, their value targets [B, 6] and their actions' policy
        targets [A].
    """
    batch = Batch.of([s[:5] for s in samples], [s[6:9] for s in samples])
    policy = (np.concatenate([s[9] for s in samples]).astype(np.float32) if samples
              else np.zeros(0, np.float32))
    return batch, np.stack([s[5] for s in samples]), policy


def fit(network: Network, batch: Batch, targets: NDArray[np.floating], settings: Settings,
        rng: np.random.Generator, progress: bool | None = None,
        label: str = "training", policy: NDArray[np.floating] | None = None,
        optimiser: Adam | None = None) -> tuple[Network, list[float]]:
    """``settings.epochs`` passes of Adam over the positions; the new network and the
    mean loss of each epoch (the value's, plus ``policy_weight`` x the policy's where
    ``policy`` and a policy head are given).

    Args:
        network: The network trained from.
        batch: The positions.
        targets: Their target values, [B, 6].
        settings: The run's settings (epochs, batch, learning rate, weight decay, policy
            weight).
        rng: Draws the order of each epoch.
        progress: A progress bar on stderr: True always, None on a terminal, False never.
        label: The progress bar's and the errors' label.
        policy: The policy targets of ``batch``'s actions, [A] (None: the value alone).
        optimiser: The optimiser to go on with (updated in place; None: a fresh one).

    Returns:
        The new network and each epoch's mean loss.

    Raises:
        ConfigError: If the training diverged.
    """
    arrays = {k: np.array(v, dtype=np.float32) for k, v in network.arrays.items()}
    if optimiser is None:
        optimiser = Adam(arrays, settings.learning_rate, settings.weight_decay)
    steps = math.ceil(len(batch) / settings.batch)
    epoch_losses: list[float] = []
    with Progress(settings.epochs * steps, label, progress) as bar:
        for _ in range(settings.epochs):
            order = rng.permutation(len(batch))
            total = 0.0
            for k in range(steps):
                index = order[k * settings.batch:(k + 1) * settings.batch]
                part = batch.take(index)
                loss, grads = loss_and_gradients(
                    arrays, part, targets[index],
                    None if policy is None else policy[batch.action_index(index)],
                    settings.policy_weight)
                optimiser.step(arrays, grads)
                total += loss * len(index)
                bar.advance()
            epoch_losses.append(total / len(batch))
    if not all(np.isfinite(a).all() for a in arrays.values()):
        raise ConfigError(f"{label}: training diverged (weights are no longer finite): lower "
                          f"the learning rate ({settings.learning_rate:g})")
    return Network(arrays, network.trained, network.info), epoch_losses


@dataclass
class Point:
    """One round of the curve.

    Args:
        round: The round, from 0 (round 0: the network the run starts from).
        minutes: Minutes since the run began (resumed runs: all their time).
        games: The round's self-play games.
        positions: The positions trained on (the window).
        train_loss: The mean training loss of each epoch.
        validation_loss: The value's loss on the fixed held-out set.
        heuristic_loss: The heuristic evaluation's value loss on the same.
        policy_loss: The policy's cross-entropy on the held-out set (NaN: none).
        searched_by: The round whose network searched the round's games (-1: none).
        gate: The candidate's score against the best so far (None: not gated).
        accepted: Whether the candidate became the best network.
        best: The round of the best network after this round.
        vs_start: An accepted round's score against round 0 (None: not played).
        vs_heuristic: An accepted round's score against best-heuristic (None: not played).
        labelled_per_second: Positions labelled a second per worker in self-play.
    """

    round: int
    minutes: float                   # since the run began (resumed runs: all their time)
    games: int
    positions: int                   # trained on (the window)
    train_loss: list[float]          # per epoch
    validation_loss: float           # the value's, on the fixed held-out set
    heuristic_loss: float            # the heuristic evaluation's, on the same
    policy_loss: float = float("nan")
    searched_by: int = -1
    gate: dict[str, float | int] | None = None
    accepted: bool = True
    best: int = 0
    vs_start: dict[str, float | int] | None = None
    vs_heuristic: dict[str, float | int] | None = None
    labelled_per_second: float = 0.0


def train(out: str, settings: Settings | None = None, resume: bool = False,
          progress: bool | None = None, report: Callable[[Point], None] | None = None,
          overwrite: bool = False) -> Network:
    """Train a network into the folder ``out`` (the module's docstring) and return the
    best one. ``resume``: go on from ``out``'s last checkpoint (same settings, more
    rounds), every file read checked first. A folder that holds a run is refused without
    ``resume`` or ``overwrite`` (which removes that run's files, and only those), and so
    is a folder another run is training into now.

    Args:
        out: The run's folder (made if missing).
        settings: The run's settings (None: the defaults).
        resume: Go on from ``out``'s last checkpoint.
        progress: Progress bars on stderr: True always, None on a terminal, False never.
        report: Called with each round's curve point as it is saved.
        overwrite: Remove a run already in ``out`` first.

    Returns:
        The best network (the gates'), as saved in ``out/network.vnet``.

    Raises:
        ConfigError: If a setting is out of its range, ``out`` holds a run (without
            ``resume`` or ``overwrite``) or another run trains into it, a checkpoint
            cannot be resumed, or the training diverged.
        WorkerLost: If a worker dies (the rounds finished are saved).
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


_RUN_FILE = re.compile(r"^(curve\.json|network\.vnet|round-\d+\.vnet|(window|optimiser)-\d+\.npz)$")


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


@dataclass
class _Run:
    """A run in progress: its folder, settings, the networks of its rounds that it
    needs, its points and window, and when it began."""

    out: str
    settings: Settings
    progress: bool | None
    start: Network                   # round 0's
    network: Network                 # the last round's (training goes on from it)
    best: Network                    # the best so far (self-play searches with it)
    points: list[Point]
    windows: list[list[Sample]]
    began: float                     # perf_counter at the run's minute 0
    holdout: tuple[Batch, NDArray[np.float32], NDArray[np.float32]] | None = None
    optimiser: Adam | None = None    # kept from round to round (None: made at round 1)

    def minutes(self) -> float:
        return round((time.perf_counter() - self.began) / 60, 2)

    def match(self, first: Network | None, second: Network | None, games: int,
              seed: int) -> MatchScore:
        s = self.settings
        return match(first, second, games, s.match_iterations, seed, s.workers, s.backend,
                     s.address, self.progress)


def _prepare(out: str, resume: bool, overwrite: bool) -> None:
    """The run's files in ``out`` checked writable; a run there removed (``overwrite``)
    or refused (neither ``resume`` nor ``overwrite``)."""
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


def _start_network(settings: Settings) -> Network:
    """Round 0's network, with a policy head."""
    if settings.start is None:
        network = Network.fresh(settings.hidden, settings.hidden2, settings.seed,
                                settings.trained())
    else:
        network = network_from(settings.start)
    return network.with_policy()


def _train(out: str, settings: Settings, resume: bool, progress: bool | None,
           report: Callable[[Point], None] | None, overwrite: bool) -> Network:
    start = None if resume else _start_network(settings)     # before anything is removed
    _prepare(out, resume, overwrite)
    if start is None:
        run = _resume(out, settings, progress)
    else:
        run = _Run(out, settings, progress, start, start, start, [], [], time.perf_counter())
    if not run.points:
        _holdout(run)
        point = _round_zero(run)
        _record(run, point, report)
    for number in range(len(run.points), settings.rounds + 1):
        if number > 1 and run.minutes() >= settings.minutes:
            log.info("the time is spent: no round %d", number)
            break
        try:
            point = _round(run, number)
        except WorkerLost as lost:
            saved = (f"round{'s 0-' if number > 1 else ' '}{number - 1} "
                     f"{'are' if number > 1 else 'is'} saved in {shown(out, 200)}: --resume goes "
                     f"on from there")
            raise WorkerLost(f"{lost}; round {number} is lost, {saved}") from None
        _record(run, point, report)
    return run.best


def _holdout(run: _Run) -> None:
    """The fixed held-out set: its games played by round 0's network (the same every
    round, and on resume)."""
    s = run.settings
    if run.holdout is not None or not s.holdout_games:
        return
    played = self_play(game_tasks(s, -1), s.play(), run.start, s.workers, s.backend,
                       s.address, run.progress, "held-out games")
    samples = [sample for game in played.games for sample in game]
    run.holdout = stack(samples) if samples else None


def _validation(run: _Run, network: Network) -> tuple[float, float, float]:
    """The value loss, the heuristic's and the policy loss on the held-out set."""
    if run.holdout is None:
        return float("nan"), float("nan"), float("nan")
    batch, targets, policy = run.holdout
    value, policy_loss = losses(network.arrays, batch, targets, policy)
    heuristic = Network.fresh(network.hidden, network.hidden2, 0, network.trained)
    return value, losses(heuristic.arrays, batch, targets)[0], policy_loss


def _round_zero(run: _Run) -> Point:
    """Round 0: the network the run starts from, measured on the held-out set."""
    value, heuristic, policy = _validation(run, run.start)
    return Point(0, run.minutes(), 0, 0, [], round(value, 5), round(heuristic, 5),
                 round(policy, 5), -1, None, True, 0)


def _round(run: _Run, number: int) -> Point:
    """One round: self-play, training, the gate and the curve's matches."""
    s = run.settings
    searcher = run.best if s.distil else run.start
    searched_by = run.points[-1].best if s.distil else 0
    played = self_play(game_tasks(s, number), s.play(), searcher, s.workers, s.backend,
                       s.address, run.progress, f"round {number} self-play")
    run.windows = (run.windows + [[x for game in played.games for x in game]])[-s.window:]
    samples = [x for window in run.windows for x in window]
    if not samples:
        raise ConfigError("self-play gave no position to learn from (games too short, or "
                          "label_share 0?)")
    batch, targets, policy = stack(samples)
    if run.optimiser is None:
        run.optimiser = Adam(run.network.arrays, s.learning_rate, s.weight_decay)
    candidate, epoch_losses = fit(run.network, batch, targets, s,
                                  np.random.default_rng([s.seed, number]), run.progress,
                                  f"round {number} training", policy, run.optimiser)
    run.network = candidate
    gate = (run.match(candidate, run.best, s.gate_games, s.seed + number)
            if s.gate_games else None)
    accepted = gate is None or gate.score >= s.gate_threshold
    vs_start = vs_heuristic = None
    if accepted:
        run.best = candidate
        if s.curve_games:
            vs_start = run.match(candidate, run.start, s.curve_games, s.seed + 10_000 + number)
            vs_heuristic = run.match(candidate, None, s.curve_games, s.seed + 20_000 + number)
    value, heuristic, policy_loss = _validation(run, candidate)
    rate = played.positions / max(played.seconds * s.workers, 1e-9)
    return Point(number, run.minutes(), len(played.games), len(samples),
                 [round(x, 5) for x in epoch_losses], round(value, 5), round(heuristic, 5),
                 round(policy_loss, 5), searched_by, None if gate is None else gate.as_dict(),
                 accepted, number if accepted else run.points[-1].best,
                 None if vs_start is None else vs_start.as_dict(),
                 None if vs_heuristic is None else vs_heuristic.as_dict(), round(rate, 2))


def _record(run: _Run, point: Point, report: Callable[[Point], None] | None) -> None:
    """The round's point kept and its files written; ``report`` told."""
    run.points.append(point)
    info = {"made": "victorus train", "settings": _settings_json(run.settings),
            "round": point.round, "minutes": point.minutes}
    network = Network(run.network.arrays, run.network.trained, info)
    if point.accepted:
        run.best = network
    run.network = network
    if point.round == 0:
        run.start = network
    _checkpoint(run.out, network, run.best, run.points, run.windows, run.settings,
                run.optimiser)
    if report is not None:
        report(point)


def _settings_json(settings: Settings) -> dict[str, Any]:
    data = asdict(settings)
    data["mix"] = [list(c) for c in settings.mix]
    return data


def _checkpoint(out: str, network: Network, best: Network, points: list[Point],
                windows: list[list[Sample]], settings: Settings, optimiser: Adam | None) -> None:
    """The round's files, each replaced at once: its network, the positions of its
    window and the optimiser's state (for --resume, numpy arrays only), the best network,
    then the curve, which commits the round (a run stopped before it resumes from the
    round before)."""
    number = points[-1].round
    network.save(os.path.join(out, f"round-{number}.vnet"))
    write_atomic(os.path.join(out, f"window-{number}.npz"), window_bytes(windows))
    if optimiser is not None:
        write_atomic(os.path.join(out, f"optimiser-{number}.npz"), arrays_bytes(optimiser.state()))
    best.save(os.path.join(out, "network.vnet"))
    write_atomic(os.path.join(out, "curve.json"), json.dumps(
        {"settings": _settings_json(settings), "points": [asdict(p) for p in points]},
        indent=1) + "\n")
    for name in (f"window-{number - 1}.npz", f"optimiser-{number - 1}.npz"):
        try:
            os.unlink(os.path.join(out, name))
        except FileNotFoundError:
            pass


#: The settings a resumed run may change (the others say what its rounds are): how long
#: and where it runs, and how the rounds to come are searched (``distil``).
RESUMED_AS_IS = ("workers", "backend", "address", "rounds", "minutes", "distil")


def _resume(out: str, settings: Settings, progress: bool | None) -> _Run:
    """The last committed round of ``out``: its networks, the curve, the window and the
    minutes spent, each file checked (victorus.checkpoint); ConfigError if one fails, or
    if it was trained with other settings."""
    try:
        before, saved = read_curve(os.path.join(out, "curve.json"))
        points = [Point(**p) for p in saved]
        now = _settings_json(settings)
        changed = [name for name in now
                   if name not in RESUMED_AS_IS and before.get(name) != now[name]]
        if changed:
            name = changed[0]
            raise ConfigError(f"it was trained with {name} {shown(before.get(name))}, not "
                              f"{shown(now[name])} (only {', '.join(RESUMED_AS_IS)} may change)")
        last = points[-1]
        windows = read_window(os.path.join(out, f"window-{last.round}.npz"), settings.window) \
            if last.round else []
        start, network, best = (network_from(os.path.join(out, f"round-{n}.vnet"))
                                for n in (0, last.round, last.best))
        if not (start.policy and network.policy and best.policy):
            raise ConfigError("its networks have no policy head (a run of an earlier victorus)")
        _check_shapes(settings, {0: start, last.round: network, last.best: best})
        optimiser = None
        if last.round:
            layout = optimiser_layout(network.arrays)
            state = read_arrays(os.path.join(out, f"optimiser-{last.round}.npz"), layout,
                                "an optimiser's state",
                                frozenset(name for name in layout if name.startswith("v.")))
            optimiser = Adam.restored(network.arrays, settings.learning_rate,
                                      settings.weight_decay, state)
    except ConfigError as exc:
        raise ConfigError(f"cannot resume from {shown(out, 200)}: {exc}") from None
    run = _Run(out, settings, progress, start, network, best, points, windows,
               time.perf_counter() - last.minutes * 60, optimiser=optimiser)
    if len(points) <= settings.rounds:
        _holdout(run)
    return run


def _check_shapes(settings: Settings, networks: Mapping[int, Network]) -> None:
    """ConfigError unless every round's network has the run's shape: a fresh start's (the
    settings' hidden sizes, trained for the mix), else round 0's."""
    shape: tuple[int, int, Mapping[str, object]]
    if settings.start is None:
        shape = (settings.hidden, settings.hidden2, settings.trained())
    else:
        shape = (networks[0].hidden, networks[0].hidden2, networks[0].trained)
    for number, network in sorted(networks.items()):
        if (network.hidden, network.hidden2, network.trained) != shape:
            raise ConfigError(f"round-{number}.vnet has hidden sizes {network.hidden}, "
                              f"{network.hidden2} for {network.trained}, not this run's "
                              f"{shape[0]}, {shape[1]} for {shape[2]}")


def read_run(out: str) -> tuple[dict[str, Any], list[Point], list[list[Sample]]]:
    """A training run's data, every file checked (victorus.checkpoint): its settings (as
    saved), its curve's points and the positions of its last window (each round's
    samples: `Sample` tuples).

    Args:
        out: The run's folder.

    Returns:
        The settings, the points and the window's rounds of samples.

    Raises:
        ConfigError: If a file is missing or is not one a run wrote.
    """
    settings, saved = read_curve(os.path.join(out, "curve.json"))
    points = [Point(**p) for p in saved]
    last = points[-1].round
    windows = read_window(os.path.join(out, f"window-{last}.npz"), 1000) if last else []
    return settings, points, windows


def _score(score: dict[str, float | int] | None) -> str:
    return "-" if score is None else f"{score['score']:.3f} [{score['low']:.3f}, {score['high']:.3f}]"


def format_point(point: Point) -> str:
    """A curve point as one line.

    Args:
        point: The point.

    Returns:
        Its round, minutes, games, positions, losses, gate and matches.
    """
    if point.round == 0:
        return (f"round 0: the start; held-out value loss {point.validation_loss:.4f} "
                f"(heuristic {point.heuristic_loss:.4f}), policy {point.policy_loss:.4f}")
    verdict = "accepted" if point.accepted else f"refused (best: round {point.best})"
    return (f"round {point.round}: {point.minutes:6.1f} min, {point.games} games, "
            f"{point.positions} positions ({point.labelled_per_second:.1f}/s a worker), "
            f"train loss {point.train_loss[-1] if point.train_loss else float('nan'):.4f}, "
            f"held-out value {point.validation_loss:.4f} (heuristic "
            f"{point.heuristic_loss:.4f}), policy {point.policy_loss:.4f}; gate "
            f"{_score(point.gate)}: {verdict}; vs round 0 {_score(point.vs_start)}, vs "
            f"best-heuristic {_score(point.vs_heuristic)}")


__all__ = ["BACKENDS", "MIX", "Point", "Settings", "default_network", "fit", "format_point",
           "game_tasks", "play_game", "read_run", "run_files", "stack", "train"]
