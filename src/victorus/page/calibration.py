"""Win chances that mean what they say: the review's search value (+1 a win, -1 a loss, for
the army to act) read as the chance that its team wins, by a logistic curve per number of
teams fitted on the results of self-play games of that very search (``tools/calibrate.py``),
as lichess reads a win chance from Stockfish's centipawns by a curve fitted to real games;
and lichess's accuracy of an army from its actions' losses of that chance (`accuracy`).

The curves are in one file, ``calibration.json`` beside this module (the one source of the
fitted numbers: docs/serve.md's reliability table is checked against it). A number of
teams without a fitted curve is read on the values' own scale (`linear_chance`: a value
is ``2 x share - 1``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from ..checks import shown
from ..errors import ConfigError

DATA = Path(__file__).with_name("calibration.json")
"""The fitted curves (written by ``tools/calibrate.py``)."""
DECILES = 10
"""The reliability table's groups: the positions sorted by predicted chance, cut in ten
groups of equal size."""


def linear_chance(value: float) -> float:
    """The uncalibrated reading of a value: the searches value a position for a team as
    ``2 x (its share of the win) - 1`` (+1 a win, -1 a loss; with T teams, the fair share
    1/T is ``2/T - 1``), so the share is ``(value + 1) / 2``.

    Args:
        value: A value for the army to act, from -1 to +1 (clipped).

    Returns:
        The chance of the army to act's team, 0 to 1.
    """
    return (max(-1.0, min(1.0, value)) + 1) / 2


def _logistic(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x)) if x >= 0 else math.exp(x) / (1.0 + math.exp(x))


@dataclass(frozen=True)
class Decile:
    """One group of the reliability table: the mean predicted chance of its positions, the
    share of them whose team won (a draw counts as the fair share), and their number."""

    predicted: float
    observed: float
    positions: int


@dataclass(frozen=True)
class Curve:
    """The fitted curve of one number of teams: ``chance = 1 / (1 + exp(-(slope * value +
    intercept)))``, fitted on ``positions`` positions of ``games`` self-play games on
    ``board``, with its reliability table (``deciles``, on the same positions)."""

    teams: int
    slope: float
    intercept: float
    board: str
    games: int
    positions: int
    deciles: tuple[Decile, ...]

    def chance(self, value: float) -> float:
        """The calibrated chance of a value (clipped to -1..+1) for the army to act's team."""
        return _logistic(self.slope * max(-1.0, min(1.0, value)) + self.intercept)

    @property
    def error(self) -> float:
        """The calibration error: the mean of |predicted - observed| over the deciles."""
        return calibration_error(self.deciles)


@dataclass(frozen=True)
class Calibration:
    """The curves per number of teams (``curves``), fitted for the search ``agent`` at
    ``iterations`` iterations a position, its evaluation reading the network whose content
    name is ``network`` (`Network.content`: another network's values need curves of
    their own)."""

    agent: str
    iterations: int
    network: str
    curves: Mapping[int, Curve]

    def chance(self, value: float, teams: int) -> float:
        """The chance that the army to act's team wins, read from the search's ``value``
        for it: by the fitted curve of ``teams`` teams, or `linear_chance` where none is
        fitted.

        Args:
            value: The search's value for the army to act, -1 to +1 (clipped).
            teams: How many teams play.

        Returns:
            A chance from 0 to 1.
        """
        curve = self.curves.get(teams)
        return linear_chance(value) if curve is None else curve.chance(value)


def fit(samples: Sequence[tuple[float, float]], iterations: int = 50) -> tuple[float, float]:
    """The logistic curve of outcome on value, by maximum likelihood (Newton's method, a
    tiny ridge on the slope so that perfectly separated data stays finite).

    Args:
        samples: (value, outcome) pairs: the value for the army to act (-1 to +1) and its
            team's result (1 a win, 0 a loss, between for a shared result).
        iterations: Newton steps.

    Returns:
        (slope, intercept).

    Raises:
        ConfigError: If there are fewer than two samples.
    """
    if len(samples) < 2:
        raise ConfigError(f"a curve needs at least 2 samples, got {len(samples)}")
    slope = intercept = 0.0
    ridge = 1e-3
    for _ in range(iterations):
        g0 = g1 = h00 = h01 = h11 = 0.0
        for value, outcome in samples:
            p = _logistic(slope * value + intercept)
            w = p * (1 - p)
            g0 += p - outcome
            g1 += (p - outcome) * value
            h00 += w
            h01 += w * value
            h11 += w * value * value
        g1 += ridge * slope
        h11 += ridge
        det = h00 * h11 - h01 * h01
        if det <= 0:
            break
        d_intercept = (h11 * g0 - h01 * g1) / det
        d_slope = (h00 * g1 - h01 * g0) / det
        intercept -= d_intercept
        slope -= d_slope
        if abs(d_intercept) + abs(d_slope) < 1e-10:
            break
    return slope, intercept


def reliability(predicted: Sequence[float], outcomes: Sequence[float],
                groups: int = DECILES) -> tuple[Decile, ...]:
    """The reliability table: the positions sorted by predicted chance and cut into
    ``groups`` groups of (nearly) equal size, each with its mean prediction and its mean
    outcome.

    Args:
        predicted: Each position's predicted chance.
        outcomes: Each position's outcome (1 its team won, 0 it lost).
        groups: How many groups.

    Returns:
        One Decile per non-empty group, from the least predicted to the most.
    """
    order = sorted(range(len(predicted)), key=lambda i: predicted[i])
    out = []
    for g in range(groups):
        part = order[g * len(order) // groups:(g + 1) * len(order) // groups]
        if part:
            out.append(Decile(round(sum(predicted[i] for i in part) / len(part), 4),
                              round(sum(outcomes[i] for i in part) / len(part), 4), len(part)))
    return tuple(out)


def calibration_error(deciles: Iterable[Decile]) -> float:
    """The mean |predicted - observed| over the groups of a reliability table (0 if none).

    Args:
        deciles: The table's groups.

    Returns:
        The error, rounded to 4 places.
    """
    rows = list(deciles)
    return round(sum(abs(d.predicted - d.observed) for d in rows) / len(rows), 4) if rows else 0.0


ACCURACY_CURVE = (103.1668100711649, 0.04354415386753951, -3.166924740191411)
"""lichess's accuracy of a move from the mover's drop in win percentage ``d`` (0 to 100):
``a * exp(-k * d) + b``, (a, k, b), plus 1 (its allowance for an imperfect analysis),
within 0 to 100."""


def move_accuracy(loss: float) -> float:
    """lichess's accuracy of one action from its loss (a drop in win chance, 0 to 1): 100
    for no loss, else ``103.1668 * exp(-0.04354 * 100 * loss) - 3.1669 + 1`` within 0 to
    100.

    Args:
        loss: The mover's team's drop in win chance.

    Returns:
        The accuracy, 0 to 100.
    """
    if loss <= 0:
        return 100.0
    a, k, b = ACCURACY_CURVE
    return max(0.0, min(100.0, a * math.exp(-k * 100 * loss) + b + 1))


def accuracy(points: Sequence[Mapping[str, Any]]) -> list[float | None]:
    """Each army's accuracy over its judged actions (a review's points of kind
    ``played``, not ``forced``), as lichess computes a game's: the mean of a weighted
    mean and a harmonic mean of its actions' `move_accuracy`. An action's weight is the
    volatility around it: the standard deviation (population) of its team's win
    percentage over a window of points (a tenth of the judged actions, 2 to 8 points)
    that ends at the point after it, within 0.5 to 12 (a team's chance carried on from
    the last point that valued it); the harmonic mean counts an accuracy below 1 as 1.

    Args:
        points: A review's points, in order (``kind``, ``forced``, ``seat``, ``loss``
            and ``chances`` per seat).

    Returns:
        Per seat (6), its accuracy rounded to one place, or None (no judged action).
    """
    judged = [i for i, p in enumerate(points)
              if p["kind"] == "played" and not p["forced"] and p["loss"] is not None]
    size = max(2, min(8, len(judged) // 10))
    series: list[list[float | None]] = []
    last: list[float | None] = [None] * 6
    for point in points:
        last = [c if c is not None else last[s] for s, c in enumerate(point["chances"])]
        series.append(last)
    per_seat: list[list[tuple[float, float]]] = [[] for _ in range(6)]
    for i in judged:
        seat = points[i]["seat"]
        low = max(0, min(i + 2, len(points)) - size)
        window = [100 * c for row in series[low:low + size] if (c := row[seat]) is not None]
        mean = sum(window) / len(window) if window else 0.0
        spread = math.sqrt(sum((w - mean) ** 2 for w in window) / len(window)) if window else 0.0
        per_seat[seat].append((move_accuracy(points[i]["loss"]), max(0.5, min(12.0, spread))))
    out: list[float | None] = []
    for moves in per_seat:
        if not moves:
            out.append(None)
            continue
        weighted = sum(a * w for a, w in moves) / sum(w for _, w in moves)
        harmonic = len(moves) / sum(1 / max(1.0, a) for a, _ in moves)
        out.append(round((weighted + harmonic) / 2, 1))
    return out


def _number(data: Mapping[str, object], name: str, where: str) -> float:
    value = data.get(name)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ConfigError(f"{where}: '{name}' must be a finite number, got {shown(value, 40)}")
    return float(value)


def _curve(data: object, where: str) -> Curve:
    if not isinstance(data, dict):
        raise ConfigError(f"{where} must be an object, got {shown(data, 40)}")
    rows = data.get("deciles")
    if not isinstance(rows, list):
        raise ConfigError(f"{where}: 'deciles' must be a list, got {shown(rows, 40)}")
    deciles = []
    for row in rows:
        if not isinstance(row, dict):
            raise ConfigError(f"{where}: a decile must be an object, got {shown(row, 40)}")
        deciles.append(Decile(_number(row, "predicted", where), _number(row, "observed", where),
                              int(_number(row, "positions", where))))
    board = data.get("board")
    if not isinstance(board, str):
        raise ConfigError(f"{where}: 'board' must be a board's name, got {shown(board, 40)}")
    return Curve(int(_number(data, "teams", where)), _number(data, "slope", where),
                 _number(data, "intercept", where), board, int(_number(data, "games", where)),
                 int(_number(data, "positions", where)), tuple(deciles))


def load(path: Path = DATA) -> Calibration:
    """The calibration file at ``path``.

    Args:
        path: A file written by ``tools/calibrate.py``.

    Returns:
        Its curves.

    Raises:
        ConfigError: If the file is not such a file (what was wrong named in one line).
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ConfigError(f"cannot read the calibration {path}: {shown(exc, 120)}") from None
    if not isinstance(data, dict) or not isinstance(data.get("curves"), list) \
            or not isinstance(data.get("agent"), str) or not isinstance(data.get("network"), str):
        raise ConfigError(f"the calibration {path} must be an object with 'agent', 'network' "
                          f"and a list of 'curves'")
    curves = [_curve(c, f"{path}: curve {i + 1}") for i, c in enumerate(data["curves"])]
    return Calibration(data["agent"], int(_number(data, "iterations", str(path))),
                       data["network"], MappingProxyType({c.teams: c for c in curves}))


def dump(calibration: Calibration) -> str:
    """The calibration file's text (`load` reads it back).

    Args:
        calibration: The curves.

    Returns:
        JSON text, one curve's decile per line.
    """
    curves = [{"teams": c.teams, "board": c.board, "games": c.games, "positions": c.positions,
               "slope": round(c.slope, 6), "intercept": round(c.intercept, 6), "error": c.error,
               "deciles": [{"predicted": d.predicted, "observed": d.observed,
                            "positions": d.positions} for d in c.deciles]}
              for c in sorted(calibration.curves.values(), key=lambda c: c.teams)]
    return json.dumps({"agent": calibration.agent, "iterations": calibration.iterations,
                       "network": calibration.network, "curves": curves}, indent=1) + "\n"


def markdown(calibration: Calibration) -> str:
    """docs/serve.md's reliability table: per number of teams, each decile's predicted and
    observed chance, and the curve and its error below.

    Args:
        calibration: The curves.

    Returns:
        Markdown text.
    """
    lines = []
    for c in sorted(calibration.curves.values(), key=lambda c: c.teams):
        lines += [f"{c.teams} teams ({c.board} board, {c.games} games, {c.positions} positions): "
                  f"chance = 1 / (1 + exp(-({c.slope:.3f} * value "
                  f"{'-' if c.intercept < 0 else '+'} {abs(c.intercept):.3f}))), "
                  f"calibration error {c.error:.3f}.", "",
                  "| decile | predicted | observed | positions |", "|---|---|---|---|"]
        lines += [f"| {i + 1} | {d.predicted:.3f} | {d.observed:.3f} | {d.positions} |"
                  for i, d in enumerate(c.deciles)]
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


CALIBRATION = load()
"""The shipped curves (read once; immutable)."""

__all__ = ["ACCURACY_CURVE", "CALIBRATION", "DATA", "Calibration", "Curve", "Decile", "accuracy",
           "calibration_error", "dump", "fit", "linear_chance", "load", "markdown", "move_accuracy",
           "reliability"]
