"""Statistics of a tournament: Wilson intervals of win rates and Bradley-Terry ratings
on the Elo scale with 95% intervals (numpy only)."""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from .checks import as_int, check_int, shown
from .errors import ConfigError

ELO_PER_NATURAL_UNIT = 400 / math.log(10)
"""Elo points per natural-log unit of the odds: P(i beats j) = 1 / (1 + 10 ** ((r_j - r_i) / 400))."""
Z95 = 1.959963984540054
"""The standard errors either side of a 95% interval."""
MAX_COUNT = 2**53
"""The most games one count may hold: exact in a float64, so no rating overflows."""


def _number(value: object) -> float | None:
    """``value`` as a float if it is a real number (Python's or numpy's; an integer
    through checks.as_int), not a bool; else None."""
    number = as_int(value)
    if number is not None:
        return float(number)
    if isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_)):
        return float(value)
    return None


def _check_z(z: float) -> float:
    """``z`` (standard errors either side of an interval) if it is a finite number > 0."""
    number = _number(z)
    if number is None or not 0 < number < math.inf:
        raise ConfigError(f"z (standard errors either side) must be a finite number > 0, "
                          f"got {shown(z)}")
    return number


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a rate (95% by default); (0, 1) for no trials.
    ``successes`` is a number from 0 to ``trials`` (a draw may count half), ``trials``
    an integer >= 0, ``z`` a number > 0: anything else is a ConfigError.

    Args:
        successes: The successes, 0 to ``trials``.
        trials: The trials, >= 0.
        z: Standard errors either side (Z95: 95%).

    Returns:
        The interval's low and high ends.

    Raises:
        ConfigError: If an argument is out of its range.
    """
    trials = check_int("trials", trials, 0, MAX_COUNT)
    z = _check_z(z)
    number = _number(successes)
    if number is None or not 0 <= number <= trials:
        raise ConfigError(f"successes must be a number from 0 to trials ({trials}), "
                          f"got {shown(successes)}")
    successes = number
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class PairScore:
    """What two agents scored against each other: ``wins_a``, ``wins_b`` and ``draws``
    (a drawn or unfinished game), over ``wins_a + wins_b + draws`` games.

    Args:
        a: The first agent's name.
        b: The second agent's name.
        wins_a: The first's wins, an integer >= 0.
        wins_b: The second's wins, an integer >= 0.
        draws: The draws (and unfinished games), an integer >= 0.

    Raises:
        ConfigError: If a count is not an integer from 0 to MAX_COUNT.
    """

    a: str
    b: str
    wins_a: int
    wins_b: int
    draws: int

    def __post_init__(self) -> None:
        for name in ("wins_a", "wins_b", "draws"):     # counts: no negative, no fraction
            object.__setattr__(self, name, check_int(
                f"{name} of {shown(self.a, 60)} vs {shown(self.b, 60)}", getattr(self, name), 0, MAX_COUNT))

    @property
    def games(self) -> int:
        """The games played: wins either way and draws."""
        return self.wins_a + self.wins_b + self.draws

    @property
    def score_a(self) -> float:
        """``a``'s share of the points, a draw counting half."""
        return (self.wins_a + self.draws / 2) / self.games if self.games else 0.5

    def interval(self) -> tuple[float, float]:
        """95% Wilson interval of ``a``'s score (a draw as half a success).

        Returns:
            The interval's low and high ends.
        """
        return wilson(self.wins_a + self.draws / 2, self.games)


@dataclass(frozen=True)
class Rating:
    """An agent's Bradley-Terry rating on the Elo scale with its 95% interval
    (relative to the anchor, whose rating is 0 by definition), over ``games`` games.

    Args:
        agent: The agent's name.
        rating: Its rating, Elo points.
        low: Its interval's low end.
        high: Its interval's high end.
        games: The games it played.
    """

    agent: str
    rating: float
    low: float
    high: float
    games: int

    def as_dict(self) -> dict[str, object]:
        """The rating for JSON.

        Returns:
            ``agent``, ``rating``, ``interval_95`` ([low, high]) and ``games``.
        """
        return {"agent": self.agent, "rating": self.rating, "interval_95": [self.low, self.high],
                "games": self.games}


def bradley_terry(agents: Iterable[str], scores: Sequence[PairScore], anchor: str | None = None,
                  prior: float = 1.0, z: float = Z95) -> tuple[Rating, ...]:
    """Ratings of ``agents`` from their pairwise ``scores`` (PairScore), best first.

    The maximum of the Bradley-Terry likelihood, a draw counting as half a win and half
    a loss, found by Newton's method; the intervals are ``rating +- z`` standard errors
    from the inverse of the likelihood's Hessian (the anchor held at 0). ``anchor``
    (default: ``random`` if it plays, else the first agent) is rated 0. ``prior``
    virtual draws are added to every pair that played, so that a clean sweep still
    gives a finite rating (0: the plain maximum likelihood, which exists only when
    every split of the agents into two groups has each group scoring against the other;
    else a ConfigError names who never scored). ``z`` is a number > 0.

    Args:
        agents: The agents' names, two or more, distinct.
        scores: What pairs of them scored (PairScore).
        anchor: The agent rated 0 (None: ``random`` if it plays, else the first).
        prior: Virtual draws added to every pair that played, >= 0.
        z: Standard errors either side of each interval, > 0.

    Returns:
        The ratings, best first.

    Raises:
        ConfigError: If an argument is malformed, the agents are not all linked by games,
            or (``prior`` 0) no maximum-likelihood rating exists.
    """
    agents = tuple(agents)
    index = {name: i for i, name in enumerate(agents)}
    if len(index) != len(agents) or len(agents) < 2:
        raise ConfigError(f"ratings need two or more distinct agents, got {shown(agents, 60)}")
    anchor = default_anchor(agents) if anchor is None else anchor
    if anchor not in index:
        raise ConfigError(f"the anchor {shown(anchor, 60)} is not one of the agents {shown(agents, 60)}")
    number = _number(prior)
    if number is None or not 0 <= number < math.inf:
        raise ConfigError(f"prior (virtual draws per pair) must be a number >= 0, got {shown(prior)}")
    prior = number
    z = _check_z(z)
    n = len(agents)
    points = np.zeros((n, n))                 # points[i, j]: what i scored against j
    for pair in scores:
        if not isinstance(pair, PairScore):
            raise ConfigError(f"scores must be PairScore objects, got {shown(pair)}")
        if pair.a not in index or pair.b not in index or pair.a == pair.b:
            raise ConfigError(f"a score between {shown(pair.a, 60)} and {shown(pair.b, 60)}: both must be "
                              f"distinct agents of {shown(agents, 60)}")
        i, j = index[pair.a], index[pair.b]
        played = pair.games + (prior if pair.games else 0)
        points[i, j] += pair.wins_a + (played - pair.wins_a - pair.wins_b) / 2
        points[j, i] += pair.wins_b + (played - pair.wins_a - pair.wins_b) / 2
    games = points + points.T
    _check_connected(agents, games)
    _check_scored(agents, points)
    free = [i for i in range(n) if agents[i] != anchor]
    theta, covariance = maximum_likelihood(points, games, free)
    spread = z * np.sqrt(np.maximum(np.diag(covariance), 0.0))
    counts = [sum(p.games for p in scores if name in (p.a, p.b)) for name in agents]
    ratings = []
    for i, name in enumerate(agents):
        half = float(spread[free.index(i)]) if i in free else 0.0
        centre = float(theta[i])
        ratings.append(Rating(name, centre * ELO_PER_NATURAL_UNIT,
                              (centre - half) * ELO_PER_NATURAL_UNIT,
                              (centre + half) * ELO_PER_NATURAL_UNIT, counts[i]))
    return tuple(sorted(ratings, key=lambda r: -r.rating))


def default_anchor(agents: Sequence[str]) -> str:
    """The agent rated 0 unless told otherwise: ``random`` if it plays, else the first.

    Args:
        agents: The agents' names.

    Returns:
        The anchor's name.
    """
    return "random" if "random" in agents else agents[0]


def reached(links: NDArray[np.float64], start: int) -> set[int]:
    """The agents reached from ``start`` along the nonzero entries of ``links`` (a pair
    that played each other is linked): those a Bradley-Terry rating can place against it.

    Args:
        links: A square matrix, nonzero where two agents are linked.
        start: The agent to start from.

    Returns:
        The indices reached, ``start`` included.
    """
    found, frontier = {start}, [start]
    while frontier:
        for j in np.nonzero(links[frontier.pop()])[0]:
            if int(j) not in found:
                found.add(int(j))
                frontier.append(int(j))
    return found


def _check_connected(agents: Sequence[str], games: NDArray[np.float64]) -> None:
    """Ratings compare agents only through games: every agent must be linked to all."""
    linked = reached(games, 0)
    if len(linked) != len(agents):
        missing = [agents[i] for i in range(len(agents)) if i not in linked]
        raise ConfigError(f"ratings need every agent linked by games: {shown(missing, 60)} never "
                          f"met {shown(agents[0], 60)} even through others")


def _check_scored(agents: Sequence[str], points: NDArray[np.float64]) -> None:
    """The maximum likelihood exists only if no group of agents scored nothing against
    all the others (it would be rated infinitely far below them): every agent must reach
    every other along 'scored against' links (a draw scores both ways)."""
    n = len(agents)
    for start in range(n):
        linked = reached(points, start)
        if len(linked) != n:
            never = [agents[i] for i in range(n) if i not in linked]
            losers = [agents[i] for i in sorted(linked)]
            raise ConfigError(
                f"no maximum-likelihood rating exists: {shown(losers, 60)} never scored a point "
                f"against {shown(never, 60)} (a clean sweep: the gap would be infinite); give "
                f"prior > 0 (virtual draws per pair) for finite ratings")


def maximum_likelihood(points: NDArray[np.float64], games: NDArray[np.float64], free: list[int],
                       iterations: int = 100) -> tuple[NDArray[np.float64], NDArray[np.floating]]:
    """The Bradley-Terry strengths that make the results likeliest, by Newton's method on the
    log-likelihood over the ``free`` strengths (natural units; the others stay at 0).

    Args:
        points: ``points[i, j]``: what agent ``i`` scored against ``j`` (a win 1, a draw
            one half).
        games: ``games[i, j]``: the games ``i`` and ``j`` played.
        free: The agents whose strength is fitted (each linked to a fixed one by games).
        iterations: The most Newton steps.

    Returns:
        The strengths, and the covariance of the free ones (their order).
    """
    theta = np.zeros(len(points))
    for _ in range(iterations):
        expected = 1 / (1 + np.exp(theta[None, :] - theta[:, None]))   # P(i beats j)
        gradient = (points - games * expected).sum(axis=1)[free]
        weights = games * expected * expected.T
        hessian = weights - np.diag(weights.sum(axis=1))
        step = np.linalg.solve(hessian[np.ix_(free, free)], -gradient)
        step = np.clip(step, -2.0, 2.0)          # no overshoot from a flat start
        theta[free] += step
        if np.max(np.abs(step)) < 1e-10:
            break
    expected = 1 / (1 + np.exp(theta[None, :] - theta[:, None]))
    weights = games * expected * expected.T
    information = np.diag(weights.sum(axis=1)) - weights
    return theta, np.linalg.inv(information[np.ix_(free, free)])
