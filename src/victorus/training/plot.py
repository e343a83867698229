"""A training run's curve as a picture (victorus.training): an SVG written by hand, no plotting
library, by the run after every round (``OUT/curve.svg``) and by ``victorus curve RUN --plot
FILE`` for any run folder.

Four panels, each over the rounds:

1. **Training loss** per epoch of each round (an epoch is a step of the curve: round ``n``'s
   ``e``-th of ``E`` epochs at ``n - 1 + e / E``);
2. **Held-out value loss**: the network's (a thick line), the heuristic evaluation's (dashed)
   and the network's per configuration (board, teams) of the held-out set (thin lines);
3. **Held-out policy loss**: the network's, and per configuration;
4. **The ladder**: each round's rating (Elo, round 0 at 0) with its 95% interval, an
   accepted round's network filled and joined, a refused one's hollow, and above each round the
   acceptance decision: ``A`` accepted, ``R`` refused by the test, ``C`` the test's cap
   reached, ``X`` refused by an anchor, ``-`` not tested.

Every mark carries a ``<title>`` with its round and value (a tooltip in a browser, and what
the tests read back).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any
from xml.sax.saxutils import escape

WIDTH = 860
"""The picture's width, pixels."""
PANEL = 230
"""Each panel's height, pixels, its title and axes included."""
LEFT, RIGHT, TOP, BOTTOM = 70, 190, 28, 34
"""The margins of a panel's plot area: the axis labels left, the legend right."""
COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
           "#7f7f7f", "#bcbd22", "#17becf")
"""The series' colours, in turn."""
DECISIONS = {"accept": ("A", "#2ca02c"), "reject": ("R", "#d62728"), "cap": ("C", "#7f7f7f"),
             "anchor": ("X", "#9467bd"), None: ("-", "#7f7f7f")}
"""Each acceptance decision's letter and colour."""

Series = tuple[str, str, list[tuple[float, float]], bool]
"""A line of a panel: its name, colour, points (x, y) and whether it is dashed."""


def _finite(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _ticks(low: float, high: float, count: int = 5) -> list[float]:
    """About ``count`` round values from ``low`` to ``high``."""
    if high <= low:
        return [low]
    raw = (high - low) / count
    unit = 10 ** math.floor(math.log10(raw))
    step = next(k * unit for k in (1, 2, 2.5, 5, 10) if k * unit >= raw)
    first = math.ceil(low / step) * step
    return [first + i * step for i in range(int((high - first) / step + 1e-9) + 1)]


def _label(value: float) -> str:
    return f"{value:.4g}"


class _Panel:
    """One panel: its place in the picture and its scales."""

    def __init__(self, index: int, title: str, rounds: int, values: Sequence[float]) -> None:
        self.top = index * PANEL
        self.title = title
        self.rounds = max(rounds, 1)
        finite = [v for v in values if _finite(v)] or [0.0, 1.0]
        low, high = min(finite), max(finite)
        pad = (high - low) * 0.08 or max(abs(high) * 0.1, 0.5)
        self.low, self.high = low - pad, high + pad
        self.parts: list[str] = []

    def x(self, value: float) -> float:
        return LEFT + (WIDTH - LEFT - RIGHT) * value / self.rounds

    def y(self, value: float) -> float:
        span = PANEL - TOP - BOTTOM
        return self.top + TOP + span * (self.high - value) / (self.high - self.low)

    def frame(self) -> None:
        bottom = self.top + PANEL - BOTTOM
        self.parts.append(f'<text x="{LEFT}" y="{self.top + 18}" font-weight="bold">'
                          f'{escape(self.title)}</text>')
        self.parts.append(f'<rect x="{LEFT}" y="{self.top + TOP}" width="{WIDTH - LEFT - RIGHT}" '
                          f'height="{PANEL - TOP - BOTTOM}" fill="none" stroke="#999"/>')
        for tick in _ticks(self.low, self.high):
            y = self.y(tick)
            self.parts.append(f'<line x1="{LEFT - 4}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}" '
                              f'stroke="#eee"/><text x="{LEFT - 6}" y="{y + 4:.1f}" '
                              f'text-anchor="end">{_label(tick)}</text>')
        step = max(1, math.ceil(self.rounds / 12))
        for number in range(0, self.rounds + 1, step):
            x = self.x(number)
            self.parts.append(f'<line x1="{x:.1f}" y1="{bottom}" x2="{x:.1f}" y2="{bottom + 4}" '
                              f'stroke="#999"/><text x="{x:.1f}" y="{bottom + 16}" '
                              f'text-anchor="middle">{number}</text>')
        self.parts.append(f'<text x="{WIDTH - RIGHT}" y="{bottom + 30}" text-anchor="end">'
                          f'round</text>')

    def lines(self, series: Sequence[Series], width: float = 2.0) -> None:
        for index, (name, colour, points, dashed) in enumerate(series):
            kept = [(x, y) for x, y in points if _finite(y)]
            dash = ' stroke-dasharray="5,3"' if dashed else ""
            if len(kept) > 1:
                path = " ".join(f"{self.x(x):.1f},{self.y(y):.1f}" for x, y in kept)
                self.parts.append(f'<polyline points="{path}" fill="none" stroke="{colour}" '
                                  f'stroke-width="{width if index == 0 else 1.2}"{dash}/>')
            for x, y in kept:
                self.parts.append(f'<circle cx="{self.x(x):.1f}" cy="{self.y(y):.1f}" r="2.5" '
                                  f'fill="{colour}"><title>{escape(name)}, round {x:g}: '
                                  f'{y:.5g}</title></circle>')
            legend = self.top + TOP + 12 + 15 * index
            self.parts.append(f'<line x1="{WIDTH - RIGHT + 10}" y1="{legend - 4}" '
                              f'x2="{WIDTH - RIGHT + 28}" y2="{legend - 4}" stroke="{colour}" '
                              f'stroke-width="2"{dash}/><text x="{WIDTH - RIGHT + 32}" '
                              f'y="{legend}">{escape(name)}</text>')


def _config_series(points: Sequence[Mapping[str, Any]], key: str) -> list[Series]:
    """A line per configuration of the held-out set: its ``key`` loss by round."""
    configs: dict[tuple[str, int], list[tuple[float, float]]] = {}
    for point in points:
        for entry in point.get("holdout_by_config") or []:
            configs.setdefault((entry["board"], entry["teams"]), []).append(
                (point["round"], entry[key]))
    return [(f"{board}, {teams} teams", COLOURS[(2 + i) % len(COLOURS)], values, False)
            for i, ((board, teams), values) in enumerate(sorted(configs.items()))]


def _decision(point: Mapping[str, Any]) -> str | None:
    """A round's acceptance decision (`DECISIONS`' key)."""
    gate = point["gate"]
    if gate is None:
        return None
    if gate["verdict"] == "accept" and not point["accepted"]:
        return "anchor"
    return str(gate["verdict"])


def curve_svg(settings: Mapping[str, Any], points: Sequence[Mapping[str, Any]]) -> str:
    """The curve of a run as an SVG document (the module's docstring).

    Args:
        settings: The run's settings, as its curve keeps them.
        points: The curve's points, as JSON objects (victorus.training.run.Point's fields).

    Returns:
        The SVG's text.
    """
    rounds = points[-1]["round"] if points else 0
    train = [(p["round"] - 1 + (e + 1) / len(p["train_loss"]), loss)
             for p in points for e, loss in enumerate(p["train_loss"])]
    value = [(p["round"], p["validation_loss"]) for p in points]
    heuristic = [(p["round"], p["heuristic_loss"]) for p in points]
    policy = [(p["round"], p["policy_loss"]) for p in points]
    by_value, by_policy = _config_series(points, "value_loss"), _config_series(points, "policy_loss")
    ratings = [(p["round"], p["rating"]) for p in points if p.get("rating")]
    panels = [
        _Panel(0, "Training loss by epoch (value + policy)", rounds, [y for _, y in train]),
        _Panel(1, "Held-out value loss", rounds,
               [y for s in ([value, heuristic] + [v for _, _, v, _ in by_value]) for _, y in s]),
        _Panel(2, "Held-out policy loss", rounds,
               [y for s in ([policy] + [v for _, _, v, _ in by_policy]) for _, y in s]),
        _Panel(3, "The ladder: Elo (95% interval) and the acceptance decisions", rounds,
               [y for _, r in ratings for y in (r["low"], r["high"])] or [0.0])]
    for panel in panels:
        panel.frame()
    panels[0].lines([("training loss", COLOURS[0], train, False)])
    panels[1].lines([("network", COLOURS[0], value, False), ("heuristic", COLOURS[1], heuristic, True),
                     *by_value])
    panels[2].lines([("network", COLOURS[0], policy, False), *by_policy])
    ladder = panels[3]
    accepted = {p["round"]: p["accepted"] for p in points}
    ladder.lines([("Elo, accepted", COLOURS[0], [(n, r["elo"]) for n, r in ratings if accepted[n]],
                   False)])
    for number, rating in ratings:
        x, fill = ladder.x(number), COLOURS[0] if accepted[number] else "white"
        ladder.parts.append(
            f'<line x1="{x:.1f}" y1="{ladder.y(rating["low"]):.1f}" x2="{x:.1f}" '
            f'y2="{ladder.y(rating["high"]):.1f}" stroke="{COLOURS[0]}"/><circle cx="{x:.1f}" '
            f'cy="{ladder.y(rating["elo"]):.1f}" r="4" fill="{fill}" stroke="{COLOURS[0]}">'
            f'<title>round {number}: Elo {rating["elo"]:+.1f} [{rating["low"]:+.1f}, '
            f'{rating["high"]:+.1f}], {"accepted" if accepted[number] else "refused"}</title>'
            f'</circle>')
    for point in points[1:]:
        letter, colour = DECISIONS[_decision(point)]
        gate = point["gate"]
        told = ("not tested" if gate is None else
                f"{gate['verdict']}, LLR {gate['llr']:.2f} after {gate['games']} games")
        ladder.parts.append(
            f'<text x="{ladder.x(point["round"]):.1f}" y="{ladder.top + TOP + 14}" '
            f'text-anchor="middle" fill="{colour}" font-weight="bold">{letter}<title>round '
            f'{point["round"]}: {escape(told)}</title></text>')
    for index, (name, (letter, colour)) in enumerate(
            (("accepted", DECISIONS["accept"]), ("refused by the test", DECISIONS["reject"]),
             ("the cap reached", DECISIONS["cap"]), ("an anchor lost", DECISIONS["anchor"]))):
        ladder.parts.append(f'<text x="{WIDTH - RIGHT + 10}" y="{ladder.top + TOP + 42 + 15 * index}" '
                            f'fill="{colour}">{letter}: {escape(name)}</text>')
    test = (f"test: H0 {settings.get('elo0', 0):g} Elo, H1 {settings.get('elo1', 0):g} Elo, "
            f"alpha {settings.get('alpha', 0):g}, beta {settings.get('beta', 0):g}, cap "
            f"{settings.get('gate_games', 0)} games")
    ladder.parts.append(f'<text x="{LEFT}" y="{ladder.top + PANEL - 4}">{escape(test)}</text>')
    body = "\n".join(part for panel in panels for part in panel.parts)
    height = PANEL * len(panels)
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
            f'viewBox="0 0 {WIDTH} {height}" font-family="sans-serif" font-size="11">\n'
            f'<rect width="{WIDTH}" height="{height}" fill="white"/>\n{body}\n</svg>\n')


__all__ = ["curve_svg"]
