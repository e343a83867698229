"""Is the teacher ahead of its student? A fixed set of positions whose outcome was estimated
from many continuations (`LabelSet`), and the squared error, against those outcomes, of the
network alone (the student) and of the labelling search over it (the teacher): labels teach
only what they know better than the network (`label_errors`).

A position's outcome is the mean, over ``continuations`` games played on from it by the
continuation agent (each with a seed of its own), of `Game.share_returns` per seat: the
share scale of every value (+1 a win, -1 a loss, a draw shared). The mean carries its own
sampling noise: ``floor`` is the mean variance of the estimates, the part of every error that
no evaluation can remove (subtracted in ``excess``). The set ships with the package
(``label_set.json``, written by ``tools/label_set.py``), so every round of every run is
measured on the same positions.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from importlib import resources
from typing import Any

from ..checks import check_int, shown
from ..errors import ConfigError
from ..evaluation.network import Network
from ..game import Game
from ..progress import Progress
from ..workers import process_map

FORMAT = "victorus-label-set-1"
"""The label set file's format name."""
MAX_ACTIONS = 600
"""A continuation stops there (as self-play's games do): unfinished, it counts as shared."""


@dataclass(frozen=True)
class Labelled:
    """A position and its estimated outcome.

    Args:
        vpn: The position (`Game.vpn`).
        outcome: Per seat, the mean share return of its continuations.
        variance: The variance of that mean (the sample variance over the continuations,
            divided by their number), averaged over the present seats.
        continuations: The games played on from it.
    """

    vpn: str
    outcome: tuple[float, ...]
    variance: float
    continuations: int


def _share(game: Game) -> tuple[float, ...]:
    """A continuation's result: its share returns, or for a game stopped at MAX_ACTIONS the
    win shared among the teams still in it (as a draw would share it)."""
    if game.is_over:
        return game.share_returns()
    return tuple(game._engine.live_shares())


def _continue(spec: str, task: tuple[str, int]) -> tuple[float, ...]:
    """One continuation of a position (a worker's task): ``spec`` in every seat."""
    from ..agents import make_agent
    vpn, seed = task
    game = Game.from_vpn(vpn)
    rng = random.Random(seed)
    agents = [make_agent(spec, seed=rng.getrandbits(63)) for _ in range(6)]
    while not game.is_over and game.ply < MAX_ACTIONS:
        game.play(agents[game.to_move].choose(game))
    return _share(game)


def estimate(positions: Sequence[str], continuations: int, spec: str, seed: int,
             workers: int = 1, progress: bool | None = None) -> list[Labelled]:
    """Each position's outcome, estimated from ``continuations`` games of ``spec`` (an
    agent spec of victorus.agents.make_agent) played on from it.

    Args:
        positions: The positions' VPNs.
        continuations: Games per position, at least 2.
        spec: The continuation agent, in every seat.
        seed: Seeds the continuations.
        workers: Worker processes.
        progress: A progress bar (victorus.progress.Progress's ``enabled``).

    Returns:
        The positions with their outcomes, in order.
    """
    check_int("continuations", continuations, 2, 1_000_000)
    rng = random.Random(seed)
    tasks = [(vpn, rng.getrandbits(63)) for vpn in positions for _ in range(continuations)]
    results: list[tuple[float, ...]] = [()] * len(tasks)
    with Progress(len(tasks), "continuations", progress) as bar:
        for index, result in process_map(_continue, spec, tasks, workers,
                                         lambda task: f"a continuation of {task[0]}"):
            results[index] = result
            bar.advance()
    out = []
    for k, vpn in enumerate(positions):
        games = results[k * continuations:(k + 1) * continuations]
        present = Game.from_vpn(vpn).config.present
        mean = tuple(sum(g[s] for g in games) / continuations for s in range(6))
        spread = [sum((g[s] - mean[s]) ** 2 for g in games) / (continuations - 1) / continuations
                  for s in present]
        out.append(Labelled(vpn, tuple(round(x, 5) for x in mean),
                            round(sum(spread) / len(spread), 6), continuations))
    return out


def sample_positions(configurations: Iterable[tuple[str, int, int]], spec: str, seed: int,
                     opening: int = 8) -> list[str]:
    """Positions worth labelling, as self-play meets them: for each (board, players, count),
    ``count`` games of ``spec`` from up to ``opening`` random actions, each cut at the start
    of a turn at a random point of its course where the army to act has a choice.

    Args:
        configurations: (board, players, positions wanted).
        spec: The agent that plays the games.
        seed: Seeds the games and the cuts.
        opening: Random actions at most at the start.

    Returns:
        The positions' VPNs.
    """
    from ..agents import make_agent
    rng = random.Random(seed)
    out: list[str] = []
    for board, players, count in configurations:
        found = 0
        while found < count:
            game = Game(board, players=players)
            agents = [make_agent(spec, seed=rng.getrandbits(63)) for _ in range(6)]
            for _ in range(rng.randint(0, opening)):
                game.play(rng.choice(game.legal_actions()))
            cut = rng.randint(0, 120)
            while not game.is_over and (game.ply < cut or game.phase != "start"):
                game.play(agents[game.to_move].choose(game))
            if not game.is_over and len(game.legal_actions()) > 1:
                out.append(game.vpn())
                found += 1
    return out


@dataclass(frozen=True)
class LabelSet:
    """The fixed positions with estimated outcomes, and how they were made.

    Args:
        positions: The positions and their outcomes.
        agent: The agent spec that played the games and their continuations.
        seed: The seed the positions were drawn from.
    """

    positions: tuple[Labelled, ...]
    agent: str
    seed: int

    @classmethod
    def read(cls, path: str | None = None) -> "LabelSet":
        """The set in ``path``, or the one the package ships (None).

        Args:
            path: A label set file, or None.

        Returns:
            The set.

        Raises:
            ConfigError: If the file is not a label set.
        """
        if path is None:
            text = resources.files(__package__).joinpath("label_set.json").read_text()
            where = "the shipped label set"
        else:
            with open(path, encoding="utf-8") as f:
                text = f.read()
            where = path
        try:
            data = json.loads(text)
            if data.get("format") != FORMAT:
                raise ValueError(f"format {shown(data.get('format'), 40)}, not '{FORMAT}'")
            positions = tuple(Labelled(p["vpn"], tuple(float(x) for x in p["outcome"]),
                                       float(p["variance"]), int(p["continuations"]))
                              for p in data["positions"])
            for p in positions:
                if len(p.outcome) != 6 or any(not -1 <= x <= 1 for x in p.outcome):
                    raise ValueError(f"the outcome of {shown(p.vpn, 40)} is not 6 numbers "
                                     f"from -1 to 1")
            return cls(positions, str(data["agent"]), int(data["seed"]))
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise ConfigError(f"{where} is not a label set ({FORMAT}): {exc}") from None

    def as_json(self) -> str:
        """The set as its file's text.

        Returns:
            JSON.
        """
        return json.dumps({"format": FORMAT, "agent": self.agent, "seed": self.seed,
                           "positions": [asdict(p) for p in self.positions]}, indent=1) + "\n"


def errors(evaluate: Callable[[Game], Sequence[float]], label_set: LabelSet) -> float:
    """The mean squared error, over the set's positions and their present seats, of
    ``evaluate``'s values against the estimated outcomes.

    Args:
        evaluate: A position's value per seat (6).
        label_set: The positions.

    Returns:
        The mean squared error.
    """
    total = count = 0.0
    for p in label_set.positions:
        game = Game.from_vpn(p.vpn)
        values = evaluate(game)
        for seat in game.config.present:
            total += (values[seat] - p.outcome[seat]) ** 2
            count += 1
    return total / max(count, 1)


def label_errors(student: Callable[[Game], Sequence[float]],
                 teacher: Callable[[Game], Sequence[float]],
                 label_set: LabelSet) -> dict[str, Any]:
    """The student's and the teacher's squared errors on the set, and what the set's own
    noise explains of them.

    Args:
        student: The network alone (a position's value per seat).
        teacher: The labelling search over it (its root values per seat).
        label_set: The positions.

    Returns:
        ``student`` and ``teacher`` (mean squared errors), ``floor`` (the estimates' mean
        variance), ``excess`` of each (the error less the floor), ``ahead`` (1 - the
        teacher's excess over the student's: the share of the student's error the teacher
        removes) and ``positions``.
    """
    floor = sum(p.variance for p in label_set.positions) / max(len(label_set.positions), 1)
    s, t = errors(student, label_set), errors(teacher, label_set)
    excess = {"student": max(s - floor, 0.0), "teacher": max(t - floor, 0.0)}
    ahead = 1 - excess["teacher"] / excess["student"] if excess["student"] > 0 else 0.0
    return {"student": round(s, 5), "teacher": round(t, 5), "floor": round(floor, 5),
            "excess": {k: round(v, 5) for k, v in excess.items()}, "ahead": round(ahead, 4),
            "positions": len(label_set.positions)}


def measure(searcher: Network, trained: Network, iterations: int, noise: float = 0.0,
            label_set: LabelSet | None = None) -> dict[str, Any] | None:
    """A round's label study on the fixed set (the positions ``searcher`` serves): the
    searcher network alone (the student), its labelling search at ``iterations`` (the
    teacher, seeded per position) and the network trained on those labels (``trained``).

    Args:
        searcher: The network whose search labelled the round.
        trained: The network trained from the labels.
        iterations: The labelling search's iterations.
        noise: Its root noise (self-play's ``label_noise``).
        label_set: The positions (None: the shipped set).

    Returns:
        `label_errors`' fields and ``trained`` (that network's squared error), or None if
        ``searcher`` serves none of the set's positions.
    """
    from ..evaluation.registry import network as network_evaluator
    from .selfplay import search_agent
    label_set = label_set or LabelSet.read()
    served = []
    for p in label_set.positions:
        try:
            searcher.check(Game.from_vpn(p.vpn))
        except ConfigError:
            continue
        served.append(p)
    if not served:
        return None
    kept = LabelSet(tuple(served), label_set.agent, label_set.seed)
    evaluator = network_evaluator(searcher)

    def teacher(game: Game) -> tuple[float, ...]:
        seed = int.from_bytes(hashlib.sha256(game.vpn().encode()).digest()[:8], "little")
        return search_agent(evaluator, iterations, seed, noise_fraction=noise).search(game).seat_values

    found = label_errors(searcher.evaluate, teacher, kept)
    found["trained"] = round(errors(trained.evaluate, kept), 5)
    return found


__all__ = ["FORMAT", "LabelSet", "Labelled", "errors", "estimate", "label_errors", "measure",
           "sample_positions"]
