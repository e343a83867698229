"""The training loop (victorus.training): the learned evaluation
([`Network`][victorus.evaluation.network.Network]), its value and its policy head, trained from
the engine's own deeper search, ``victorus train`` or `train`. A loop that only moves forward,
as AlphaGo Zero's and KataGo's do. The searches get the Evaluator of a network
(victorus.evaluation.registry.network), never the network itself.

**Round 0** is the network the run starts from (``start``: a network file, or None for a
fresh one, which is the heuristic evaluation with the capture priors). Each later round:

1. **Self-play** (victorus.training.selfplay). ``games`` games, spread over the
   configurations of ``mix`` (victorus.training.settings.MIX: both boards, 2-6 players,
   the allied and quick variants), each from a seeded random opening, searched by
   ``best-net`` with the best network so far (``distil``; else always with round 0's). A
   share ``label_share`` of the decisions gets a search of ``label_iterations`` (with
   ``label_noise`` at its root) and is kept, labelled with ``blend`` x its root value +
   the rest x the game's result (on the share scale), and its visit distribution as the
   policy's target; the others get ``iterations`` (with ``noise``) and only move the game
   on. The round's games are kept whole in ``OUT/positions-<n>.npz``
   (victorus.training.dataset), the held-out set's in ``OUT/positions-holdout.npz``.
2. **Training.** The positions of the last ``window`` rounds (a replay window; by default
   3: each position is read in three rounds, once in each), ``epochs`` passes of AdamW in
   numpy (victorus.training.step) on the value's squared error plus ``policy_weight`` x
   the policy's cross-entropy, continuing
   from the last round's network, the weights decayed toward the best network so far
   (``decay_toward``). The losses are measured on a fixed held-out set, the same every
   round: ``holdout_games`` games played once by round 0's network, searched as above; the
   labels on the fixed label set, whose outcomes were estimated from many continuations
   (victorus.training.labels: is the teacher ahead of its student?).
3. **Acceptance.** The candidate plays the best network so far on the gate's mix (2, 3 and
   6 armies) at ``match_iterations`` a decision until a sequential probability ratio test
   (``elo0``, ``elo1``, ``alpha``, ``beta``) decides, ``gate_games`` games at most; accepted,
   it plays the anchors (round 0 and the first accepted round, ``anchor_games`` each) and
   becomes the best only if it loses to none (victorus.training.gating). An accepted round
   also plays round 0 and ``best-heuristic`` (``curve_games`` each, compact board, two
   players). Every round's network is rated from all these matches (the ladder,
   victorus.training.ladder).
4. **Checkpoint.** ``OUT/round-<n>.vnet`` (the candidate), ``OUT/network.vnet`` (the best
   so far), ``OUT/window-<n>.npz`` (the positions, for ``--resume``), ``OUT/curve.json``:
   every round's positions, losses (per configuration too), acceptance test, matches and
   rating, and ``OUT/curve.svg``, the curve drawn (victorus.training.plot).
   ``--resume`` goes on from the last checkpoint; `read_run` reads them back
   (victorus.training.checkpoint checks every file). The run holds its folder (a lock)
   while it trains.

Everything is drawn from ``seed``: the same command plays the same games and makes the
same updates, whatever ``workers`` (games are dealt to workers and gathered in order); a
large run's weights agree to float rounding (the BLAS library's threads), so its later,
network-searched rounds may part. Workers are processes (``workers``), or Ray tasks
(``backend="ray"``, ``pip install ray``).
"""

from __future__ import annotations

import json
import logging
import os
import random
import re
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, replace
from typing import Any

import numpy as np

from ..checks import shown, shown_path
from ..errors import ConfigError, WorkerLost
from ..evaluation import Evaluator
from ..evaluation.network import Network, network_file, network_from
from ..evaluation.registry import network as network_evaluator
from ..evaluation.twin import losses
from ..files import make_folder, preflight, remove_stale_temporaries, write_atomic
from .checkpoint import (
    CURVE_FORMAT,
    arrays_bytes,
    optimiser_layout,
    read_arrays,
    read_curve,
    read_window,
    window_bytes,
)
from .dataset import write_dataset
from .gating import MatchScore, Source, acceptance, anchor, match_source, passes, score
from .labels import measure
from .ladder import ladder
from .plot import curve_svg
from .selfplay import Task, self_play
from .settings import Settings
from .sprt import ACCEPT, Sprt, score_elo
from .step import Adam, Sample, fit, stack

log = logging.getLogger("victorus.training")


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
        gate: The acceptance test against the best so far (None: not gated):
            ``verdict`` ("accept", "reject" or "cap"), ``llr`` and its bounds ``lower`` and
            ``upper``, ``games``, ``groups``, and the groups' mean ``score`` (a half: as
            strong) with its 95% interval ``low``-``high``
            (victorus.training.gating.acceptance).
        accepted: Whether the candidate became the best network.
        best: The round of the best network after this round.
        vs_start: An accepted round's score against round 0 (None: not played).
        vs_heuristic: An accepted round's score against best-heuristic (None: not played).
        labelled_per_second: Positions labelled a second per worker in self-play.
        network: The content name of the round's network (``round-<n>.vnet``:
            `Network.content`), so the gate's two networks (this round's and the best
            after the round before) are named.
        anchors: The accepted candidate's matches against the anchors, each ``round`` (the
            anchor's), ``games``, ``groups``, ``score``, ``low`` and ``high``
            (victorus.training.gating.anchor); empty when none was played.
        rating: The round's network on the ladder: ``elo``, ``low`` and ``high`` (its 95%
            interval), round 0 at 0 (victorus.training.ladder); None: not linked to round 0
            by any match.
        labels: The round's label study on the fixed label set (victorus.training.labels
            `measure`): the squared error to the estimated outcomes of the network that
            searched the round (``student``), of its labelling search (``teacher``) and of
            the network trained (``trained``), the set's own noise (``floor``), the errors
            less it (``excess``), the share of the student's the teacher removes
            (``ahead``) and the ``positions`` (None: none of the set's games served).
        holdout_by_config: The held-out losses per configuration, each ``board``,
            ``teams`` (the players', but for the allied variant), ``positions``,
            ``value_loss`` and ``policy_loss``.
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
    network: str = ""
    anchors: list[dict[str, Any]] = field(default_factory=list)
    rating: dict[str, float] | None = None
    holdout_by_config: list[dict[str, Any]] = field(default_factory=list)
    labels: dict[str, Any] | None = None


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
    out = make_folder(out)
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


_RUN_FILE = re.compile(r"^(curve\.(json|svg)|network\.vnet|round-\d+\.vnet|(window|optimiser)-\d+\.npz"
                       r"|positions-(\d+|holdout)\.npz)$")


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
            raise ConfigError(f"cannot train into {shown_path(out)}: another run is training "
                              f"into it now; wait for it to end, or give another folder") from None
        except OSError as exc:
            log.warning("%s cannot be locked (%s): a second run into it would not be refused",
                        shown_path(out), exc.strerror)
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
    holdout: list[Sample] | None = None     # the fixed held-out set's positions
    optimiser: Adam | None = None    # kept from round to round (None: made at round 1)

    def minutes(self) -> float:
        return round((time.perf_counter() - self.began) / 60, 2)

    def match(self, first: Evaluator, second: Evaluator | None, games: int,
              seed: int) -> MatchScore:
        s = self.settings
        return score(first, second, games, s.match_iterations, seed, s.workers, s.backend,
                     s.address, self.progress)

    def source(self, first: Evaluator, second: Evaluator) -> Source:
        s = self.settings
        return match_source(first, second, s.match_iterations, s.workers, s.backend, s.address,
                            self.progress)


def _preflight(out: str, settings: Settings, resume: bool, overwrite: bool) -> None:
    """Everything that can refuse the run, checked before anything in ``out`` is removed or
    written (victorus.files.preflight): the backend installed, the run's files that it will
    replace or remove writable and none of them the start network, the folder writable."""
    existing = run_files(out)
    replaced = existing if overwrite else [n for n in existing if n.startswith("window-")]
    label = "--overwrite" if overwrite else "OUT"
    preflight(outputs=[(label, os.path.join(out, name))
                       for name in sorted({"network.vnet", "curve.json", *replaced})],
              inputs=[] if resume else [("the start network (--start)", network_file(settings.start))],
              folders=[("OUT", out)],
              needs=[("backend 'ray' (--backend ray)", "ray")] if settings.backend == "ray" else [])


def _prepare(out: str, resume: bool, overwrite: bool) -> None:
    """A run in ``out`` removed (``overwrite``) or refused (neither ``resume`` nor
    ``overwrite``), once `_preflight` has passed."""
    existing = run_files(out)
    for path in remove_stale_temporaries(out, lambda name: _RUN_FILE.match(name) is not None):
        log.info("removed %s, left by a write that was killed", shown_path(path))
    if existing and not resume:
        if not overwrite:
            rounds = sum(name.startswith("round-") for name in existing)
            raise ConfigError(f"{shown_path(out)} holds a training run ({rounds} round file"
                              f"{'' if rounds == 1 else 's'}: {', '.join(existing[:4])}"
                              f"{', ...' if len(existing) > 4 else ''}): go on with resume "
                              f"(--resume), replace it with overwrite (--overwrite), or give "
                              f"another folder")
        for name in existing:
            os.unlink(os.path.join(out, name))


def _start_network(settings: Settings) -> Network:
    """Round 0's network, with a policy head; a start network is read and must have been
    trained for every game of the run's mix (its boards and players)."""
    if settings.start is None:
        network = Network.fresh(settings.hidden, settings.hidden2, settings.seed,
                                settings.trained())
        return network.with_policy()
    try:
        network = network_from(settings.start)
    except ConfigError as error:
        raise ConfigError(f"the start network (--start): {error}") from None
    boards, players = network.trained["boards"], network.trained["players"]
    for board, count, variant, _ in settings.mix:
        if board not in boards or count not in players:
            raise ConfigError(f"the start network (--start) {shown_path(settings.start)} was trained "
                              f"for boards {boards} and players {players}, not the run's {board} "
                              f"with {count} players ({variant}, in its mix): give a start trained "
                              f"for the mix, or a mix of its games")
    return network.with_policy()


def _train(out: str, settings: Settings, resume: bool, progress: bool | None,
           report: Callable[[Point], None] | None, overwrite: bool) -> Network:
    start = None if resume else _start_network(settings)     # before anything is removed
    _preflight(out, settings, resume, overwrite)
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
                     f"{'are' if number > 1 else 'is'} saved in {shown_path(out)}: --resume goes "
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
    played = self_play(game_tasks(s, -1), s.play(), network_evaluator(run.start), s.workers,
                       s.backend, s.address, run.progress, "held-out games")
    write_dataset(os.path.join(run.out, "positions-holdout.npz"), played.played)
    samples = [sample for game in played.games for sample in game]
    run.holdout = samples or None


def _validation(run: _Run, network: Network) -> tuple[float, float, float, list[dict[str, Any]]]:
    """The value loss, the heuristic's and the policy loss on the held-out set, and the
    network's value and policy losses per configuration of it: its board and its number of
    teams (the players', but for the allied variant's 6 players in 2 teams)."""
    if run.holdout is None:
        return float("nan"), float("nan"), float("nan"), []
    batch, targets, policy = stack(run.holdout)
    value, policy_loss = losses(network.arrays, batch, targets, policy)
    heuristic = Network.fresh(network.hidden, network.hidden2, 0, network.trained)
    configs: dict[tuple[str, int], list[Sample]] = {}
    for sample in run.holdout:
        teams = len({int(t) for t in sample[4] if t >= 0})
        configs.setdefault((sample[0], teams), []).append(sample)
    split = []
    for (board, teams), samples in sorted(configs.items()):
        each = losses(network.arrays, *stack(samples))
        split.append({"board": board, "teams": teams, "positions": len(samples),
                      "value_loss": round(each[0], 5), "policy_loss": round(each[1], 5)})
    return value, losses(heuristic.arrays, batch, targets)[0], policy_loss, split


def _round_zero(run: _Run) -> Point:
    """Round 0: the network the run starts from, measured on the held-out set."""
    value, heuristic, policy, split = _validation(run, run.start)
    return Point(0, run.minutes(), 0, 0, [], round(value, 5), round(heuristic, 5),
                 round(policy, 5), -1, None, True, 0, holdout_by_config=split)


def _anchor_rounds(run: _Run) -> list[int]:
    """The anchors a candidate accepted by the test plays: round 0 and the first accepted
    round, but not the best so far (the test has just beaten it)."""
    first = next((p.round for p in run.points[1:] if p.accepted), None)
    return [n for n in (0, first) if n is not None and n != run.points[-1].best]


def _anchor_network(run: _Run, number: int) -> Network:
    """An anchor's network: round 0's, or an earlier round's file, which must be the network
    its point names."""
    if number == 0:
        return run.start
    network = network_from(os.path.join(run.out, f"round-{number}.vnet"))
    if network.content != run.points[number].network:
        raise ConfigError(f"round-{number}.vnet holds the network {network.content}, not the "
                          f"network {run.points[number].network} that round {number} recorded "
                          f"(replaced since?)")
    return network


def _gate(run: _Run, number: int, judged: Evaluator) -> tuple[dict[str, Any] | None,
                                                              list[dict[str, Any]]]:
    """The acceptance test of the round's candidate and, if it passes, its anchors."""
    s = run.settings
    if not s.gate_games:
        return None, []
    configurations = s.gate_configurations()
    gate = acceptance(run.source(judged, network_evaluator(run.best)),
                      Sprt(s.elo0, s.elo1, s.alpha, s.beta, s.gate_games), configurations,
                      s.seed + number)
    anchors: list[dict[str, Any]] = []
    if gate["verdict"] == ACCEPT and s.anchor_games:
        for anchor_round in _anchor_rounds(run):
            opponent = network_evaluator(_anchor_network(run, anchor_round))
            anchors.append(anchor(run.source(judged, opponent), s.anchor_games, configurations,
                                  s.seed + 30_000 + 100 * number + anchor_round, anchor_round))
    return gate, anchors


def _round(run: _Run, number: int) -> Point:
    """One round: self-play, training, the gate and the curve's matches."""
    s = run.settings
    searcher = run.best if s.distil else run.start
    searched_by = run.points[-1].best if s.distil else 0
    played = self_play(game_tasks(s, number), s.play(), network_evaluator(searcher), s.workers,
                       s.backend, s.address, run.progress, f"round {number} self-play")
    write_dataset(os.path.join(run.out, f"positions-{number}.npz"), played.played)
    run.windows = (run.windows + [[x for game in played.games for x in game]])[-s.window:]
    samples = [x for window in run.windows for x in window]
    if not samples:
        raise ConfigError("self-play gave no position to learn from (games too short, or "
                          "label_share 0?)")
    batch, targets, policy = stack(samples)
    if run.optimiser is None:
        run.optimiser = Adam(run.network.arrays, s.learning_rate, s.weight_decay)
    run.optimiser.anchor = run.best.arrays if s.decay_toward == "best" else None
    candidate, epoch_losses = fit(run.network, batch, targets, s,
                                  np.random.default_rng([s.seed, number]), run.progress,
                                  f"round {number} training", policy, run.optimiser)
    run.network = candidate
    judged = network_evaluator(candidate)
    gate, anchors = _gate(run, number, judged)
    accepted = passes(gate, anchors)
    vs_start = vs_heuristic = None
    if accepted:
        run.best = candidate
        if s.curve_games:
            vs_start = run.match(judged, network_evaluator(run.start), s.curve_games,
                                 s.seed + 10_000 + number)
            vs_heuristic = run.match(judged, None, s.curve_games, s.seed + 20_000 + number)
    value, heuristic, policy_loss, split = _validation(run, candidate)
    labels = measure(searcher, candidate, s.label_iterations, s.label_noise)
    rate = played.positions / max(played.seconds * s.workers, 1e-9)
    return Point(number, run.minutes(), len(played.games), len(samples),
                 [round(x, 5) for x in epoch_losses], round(value, 5), round(heuristic, 5),
                 round(policy_loss, 5), searched_by, gate, accepted,
                 number if accepted else run.points[-1].best,
                 None if vs_start is None else vs_start.as_dict(),
                 None if vs_heuristic is None else vs_heuristic.as_dict(), round(rate, 2),
                 anchors=anchors, holdout_by_config=split, labels=labels)


def _record(run: _Run, point: Point, report: Callable[[Point], None] | None) -> None:
    """The round's point kept and its files written; ``report`` told."""
    info = {"made": "victorus train", "settings": _settings_json(run.settings),
            "round": point.round, "minutes": point.minutes}
    network = Network(run.network.arrays, run.network.trained, info)
    point = replace(point, network=network.content)        # the file round-<n>.vnet's
    run.points.append(point)
    rated = ladder([asdict(p) for p in run.points])        # every round, refitted
    run.points[:] = [replace(p, rating=r) for p, r in zip(run.points, rated)]
    point = run.points[-1]
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
    if settings.gate_mix is not None:
        data["gate_mix"] = [list(c) for c in settings.gate_mix]
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
    saved = _settings_json(settings)
    data = [asdict(p) for p in points]
    write_atomic(os.path.join(out, "curve.svg"), curve_svg(saved, data).encode())
    write_atomic(os.path.join(out, "curve.json"), json.dumps(
        {"format": CURVE_FORMAT, "settings": saved, "points": data}, indent=1) + "\n")
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
    minutes spent, each file checked (victorus.training.checkpoint); ConfigError if one fails, or
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
        _check_contents(points, {0: start, last.round: network, last.best: best})
        optimiser = None
        if last.round:
            layout = optimiser_layout(network.arrays)
            state = read_arrays(os.path.join(out, f"optimiser-{last.round}.npz"), layout,
                                "an optimiser's state",
                                frozenset(name for name in layout if name.startswith("v.")))
            optimiser = Adam.restored(network.arrays, settings.learning_rate,
                                      settings.weight_decay, state)
    except ConfigError as exc:
        raise ConfigError(f"cannot resume from {shown_path(out)}: {exc}") from None
    run = _Run(out, settings, progress, start, network, best, points, windows,
               time.perf_counter() - last.minutes * 60, optimiser=optimiser)
    if len(points) <= settings.rounds:
        _holdout(run)
    return run


def _check_contents(points: list[Point], networks: Mapping[int, Network]) -> None:
    """ConfigError unless each round's network file is the one its point names (replaced
    since, the run would go on from a network its curve never measured)."""
    for number, network in sorted(networks.items()):
        recorded = points[number].network
        if recorded and network.content != recorded:
            raise ConfigError(f"round-{number}.vnet holds the network {network.content}, not the "
                              f"network {recorded} that round {number} recorded (replaced since?)")


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
    """A training run's data, every file checked (victorus.training.checkpoint): its settings (as
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


def _score(score: dict[str, Any] | None) -> str:
    return "-" if score is None else f"{score['score']:.3f} [{score['low']:.3f}, {score['high']:.3f}]"


def _gate_text(gate: dict[str, Any] | None) -> str:
    if gate is None:
        return "none"
    return (f"{gate['verdict']} at LLR {gate['llr']:.2f} [{gate['lower']:.2f}, {gate['upper']:.2f}] "
            f"after {gate['games']} games, score {_score(gate)} ({score_elo(gate['score']):+.0f} Elo)")


def _rating_text(rating: dict[str, float] | None) -> str:
    return "-" if rating is None else f"{rating['elo']:+.0f} [{rating['low']:+.0f}, {rating['high']:+.0f}]"


def format_point(point: Point) -> str:
    """A curve point as one line.

    Args:
        point: The point.

    Returns:
        Its round, minutes, games, positions, losses, gate, matches and network.
    """
    named = f"; network {point.network}" if point.network else ""
    if point.round == 0:
        return (f"round 0: the start; held-out value loss {point.validation_loss:.4f} "
                f"(heuristic {point.heuristic_loss:.4f}), policy {point.policy_loss:.4f}{named}")
    verdict = "accepted" if point.accepted else f"refused (best: round {point.best})"
    anchors = "".join(f"; vs anchor round {a['round']} {_score(a)}" for a in point.anchors)
    return (f"round {point.round}: {point.minutes:6.1f} min, {point.games} games, "
            f"{point.positions} positions ({point.labelled_per_second:.1f}/s a worker), "
            f"train loss {point.train_loss[-1] if point.train_loss else float('nan'):.4f}, "
            f"held-out value {point.validation_loss:.4f} (heuristic "
            f"{point.heuristic_loss:.4f}), policy {point.policy_loss:.4f}; gate "
            f"{_gate_text(point.gate)}{anchors}: {verdict}; Elo {_rating_text(point.rating)}; vs "
            f"round 0 {_score(point.vs_start)}, vs best-heuristic {_score(point.vs_heuristic)}{named}")



__all__ = ["Point", "format_point", "game_tasks", "read_run", "run_files", "train"]
