"""The ladder of a training run (victorus.training): every round's network rated on one Elo
scale from all the matches played between the run's networks, round 0 at 0.

The matches are those the curve keeps: each round's acceptance test (its network against the
best after the round before), its anchors (against round 0 and the first accepted round) and
its match against round 0 (``vs_start``). Each is counted by its groups
(victorus.training.sprt: an opening played once per team, the unit the test samples; a
two-team match's pair of games), a group scoring its mean pairwise score, so a match of
``g`` groups scoring ``s`` gives its first network ``s g`` points of ``g``.

The ratings are the maximum of the Bradley-Terry likelihood with those fractional points
(victorus.ratings.bradley_terry's model: P(i beats j) = 1 / (1 + 10 ** ((r_j - r_i) / 400)),
with its one virtual draw per pair that played, so that a clean sweep still rates finitely),
found by Newton's method; each interval is 95%, ``rating +- 1.96`` standard errors from the
inverse of the likelihood's information, round 0 held at 0. A group is treated as one game
won with probability its score: its real variance is smaller (a group of six games, or a pair
of games of one opening), so the intervals err wide. A round whose network is linked to round
0 by no match is not rated.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..ratings import ELO_PER_NATURAL_UNIT, Z95, maximum_likelihood, reached

PRIOR = 1.0
"""Virtual draws added to every pair of networks that played (victorus.ratings.bradley_terry's)."""
DECIMALS = 1
"""The places a rating keeps in the curve."""

Comparison = tuple[int, int, float, float]
"""A match between two rounds' networks: (round a, round b, groups, a's points)."""


def comparisons(points: Sequence[Mapping[str, Any]]) -> list[Comparison]:
    """The matches between the run's networks that a curve's points record (the module's
    docstring).

    Args:
        points: The curve's points, as JSON objects (victorus.training.run.Point's fields).

    Returns:
        One comparison per match.
    """
    found: list[Comparison] = []
    for before, point in zip(points, points[1:]):
        number, gate = point["round"], point["gate"]
        if gate is not None:
            found.append((number, before["best"], gate["groups"], gate["score"] * gate["groups"]))
        for match in point.get("anchors") or []:
            found.append((number, match["round"], match["groups"], match["score"] * match["groups"]))
        start = point["vs_start"]
        if start is not None and start["games"]:
            pairs = start["games"] / 2
            found.append((number, 0, pairs, start["score"] * pairs))
    return found


def ratings(rounds: int, found: Sequence[Comparison], z: float = Z95) \
        -> list[tuple[float, float, float] | None]:
    """Each round's rating with its interval (the module's docstring).

    Args:
        rounds: The rounds, round 0 included.
        found: The matches (`comparisons`).
        z: Standard errors either side of an interval.

    Returns:
        Per round (elo, low, high), rounded to `DECIMALS` places, or None (not linked to
        round 0).
    """
    points = np.zeros((rounds, rounds))
    games = np.zeros((rounds, rounds))
    for a, b, count, scored in found:
        if count <= 0 or a == b:
            continue
        points[a, b] += scored
        points[b, a] += count - scored
        games[a, b] += count
        games[b, a] += count
    played = games > 0
    points += PRIOR / 2 * played
    games += PRIOR * played
    linked = reached(games, 0)              # the rounds linked to round 0 by matches
    rated: list[tuple[float, float, float] | None] = [None] * rounds
    rated[0] = (0.0, 0.0, 0.0)
    free = [i for i in sorted(linked) if i != 0]
    if not free:
        return rated
    theta, covariance = maximum_likelihood(points, games, free)
    spread = z * np.sqrt(np.maximum(np.diag(covariance), 0))
    for k, i in enumerate(free):
        centre, half = theta[i] * ELO_PER_NATURAL_UNIT, spread[k] * ELO_PER_NATURAL_UNIT
        rated[i] = (round(float(centre), DECIMALS), round(float(centre - half), DECIMALS),
                    round(float(centre + half), DECIMALS))
    return rated


def ladder(points: Sequence[Mapping[str, Any]]) -> list[dict[str, float] | None]:
    """The rating of every round of a curve, as the curve keeps it.

    Args:
        points: The curve's points, as JSON objects.

    Returns:
        Per round ``{"elo", "low", "high"}`` or None (not rated).
    """
    return [None if r is None else {"elo": r[0], "low": r[1], "high": r[2]}
            for r in ratings(len(points), comparisons(points))]


__all__ = ["DECIMALS", "PRIOR", "Comparison", "comparisons", "ladder", "ratings"]
