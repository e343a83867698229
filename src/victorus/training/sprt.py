"""The acceptance test's statistics (victorus.training): a game's score in a match of any
number of teams, mapped so that the fair share is a half, and the generalized sequential
probability ratio test (GSPRT) that fishtest runs on Stockfish's patches, on the scores of
groups of games.

**A game's score** (`game_score`) is the candidate's pairwise score against the other teams
of the game: for each other team, 1 if the candidate's team finished above it, 0 below, a
half level. A game has one winner or none, so the candidate scores 1 when its team won,
``(T - 2) / (2 (T - 1))`` when one of the other ``T - 1`` teams won (it lost to that team and
drew with the others), and a half for a draw or an unfinished game. Two teams: win 1, draw a
half, loss 0. Whatever the number of teams, an agent as strong as its opponents (winning
its fair share, one game in ``T``) expects exactly a half, so games of 2, 3 and 6 armies
test one hypothesis on one scale.

**A group** is one opening played once with the candidate on each team (the match's
rotations: 2 games with 2 teams, 6 with 6); its score is the mean of its games'. The group is
the test's sample, as fishtest's pentanomial model takes the pair of games of one opening
played from both sides as its sample: an opening that favours one side moves both games of
it, so the games of a group are not independent, and the group's score counts that
correctly where scoring the games one by one (the trinomial model) would not. With two teams
the group's score takes the pentanomial's five values (0, 1/4, 1/2, 3/4, 1).

**The test** (`llr`) is the GSPRT as fishtest computes it (Michel Van den Bergh's
"computeLLR"): H0 is an expected score of ``s0 = L(elo0)``, H1 of ``s1 = L(elo1)`` (``L``
the logistic Elo curve, `elo_score`); the log-likelihood ratio is ``N`` (the groups) times the
mean log ratio of the two distributions, each the maximum-likelihood distribution with that
expectation on the values observed (the empirical likelihood: no model of draws or of the
number of teams is assumed). The values 0 and 1 are always in the support, with a count of
`EPSILON` when unseen, as fishtest regularises its counts. The test stops when the ratio
leaves ``(log(beta / (1 - alpha)), log((1 - beta) / alpha))`` (`bounds`): above, H1 is
accepted; below, H0; Wald's bounds keep the errors at most ``alpha`` (accepting an equal
candidate) and ``beta`` (refusing one ``elo1`` stronger), up to the overshoot.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

EPSILON = 1e-3
"""The count given to the values 0 and 1 when no group scored them (fishtest's regularisation)."""
ACCEPT = "accept"
"""The test's verdict when H1 is accepted: the candidate is stronger."""
REJECT = "reject"
"""The test's verdict when H0 is accepted: the candidate is not stronger."""
CAP = "cap"
"""The test's verdict when the games' cap came first: refused (nothing was shown)."""
VERDICTS = (ACCEPT, REJECT, CAP)
"""Every verdict."""
Z95 = 1.959963984540054
"""Standard errors either side of a 95% interval."""


def elo_score(elo: float) -> float:
    """The expected score of a side ``elo`` Elo points stronger (the logistic curve).

    Args:
        elo: Elo points.

    Returns:
        ``1 / (1 + 10 ** (-elo / 400))``.
    """
    return 1 / (1 + 10 ** (-elo / 400))


def score_elo(score: float) -> float:
    """The Elo difference of an expected score (`elo_score`'s inverse), ±inf at 0 and 1.

    Args:
        score: An expected score from 0 to 1.

    Returns:
        Elo points.
    """
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def game_score(winner: int | None, teams: int) -> float:
    """The candidate's pairwise score of one game (the module's docstring).

    Args:
        winner: 0 if the candidate's team won, 1 if another team won, None for a draw or
            an unfinished game (victorus.tournament.GameOutcome.winner of a one-vs-rest match,
            the candidate agent 0).
        teams: The teams of the game, 2 or more.

    Returns:
        1, ``(teams - 2) / (2 (teams - 1))`` or a half.
    """
    if winner is None:
        return 0.5
    return 1.0 if winner == 0 else (teams - 2) / (2 * (teams - 1))


def bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's bounds on the log-likelihood ratio.

    Args:
        alpha: The most probability of accepting a candidate no stronger (H0 true).
        beta: The most probability of refusing a candidate ``elo1`` stronger (H1 true).

    Returns:
        The lower bound (H0 accepted at or below it) and the upper (H1 at or above it).
    """
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def _distribution(values: Iterable[float]) -> tuple[list[tuple[float, float]], int]:
    """The empirical distribution of ``values`` (value, probability), 0 and 1 always in it
    (`EPSILON` where unseen), and the number of values."""
    counts: Counter[float] = Counter(values)
    n = sum(counts.values())
    weights = {value: float(count) for value, count in counts.items()}
    for edge in (0.0, 1.0):
        weights.setdefault(edge, EPSILON)
    total = sum(weights.values())
    return sorted((value, weight / total) for value, weight in weights.items()), n


def _log_ratio_terms(pdf: Sequence[tuple[float, float]], s: float) -> float:
    """The mean of ``log(p_i / q_i)`` under the empirical ``pdf`` (p), where q is the
    maximum-likelihood distribution on the same values with expectation ``s``:
    ``q_i = p_i / (1 + x (a_i - s))``, ``x`` the root of ``sum p_i (a_i - s) / (1 + x (a_i -
    s)) = 0`` (decreasing in ``x`` on the interval where every ``q_i`` is positive; found by
    bisection)."""
    low, high = -1 / (pdf[-1][0] - s), 1 / (s - pdf[0][0])

    def slope(x: float) -> float:
        return sum(p * (a - s) / (1 + x * (a - s)) for a, p in pdf)
    for _ in range(200):
        middle = (low + high) / 2
        if middle in (low, high):
            break
        if slope(middle) > 0:
            low = middle
        else:
            high = middle
    x = (low + high) / 2
    return sum(p * math.log1p(x * (a - s)) for a, p in pdf)


def llr(values: Sequence[float], elo0: float, elo1: float) -> float:
    """The generalized log-likelihood ratio of H1 (expected score ``L(elo1)``) against H0
    (``L(elo0)``) from the groups' scores ``values`` (the module's docstring).

    Args:
        values: The groups' scores, each from 0 to 1.
        elo0: H0's Elo.
        elo1: H1's Elo, above ``elo0``.

    Returns:
        The log-likelihood ratio (0 for no values).
    """
    if not values:
        return 0.0
    pdf, n = _distribution(values)
    s0, s1 = elo_score(elo0), elo_score(elo1)
    return n * (_log_ratio_terms(pdf, s0) - _log_ratio_terms(pdf, s1))


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """The mean of scores and its interval (``z`` standard errors either side, from the
    scores' own spread, clipped to 0-1; 0-1 with fewer than two scores).

    Args:
        values: The scores.
        z: Standard errors either side (Z95: 95%).

    Returns:
        The mean, the interval's low and its high end (a half and 0-1 for no scores).
    """
    n = len(values)
    if n == 0:
        return 0.5, 0.0, 1.0
    mean = sum(values) / n
    if n < 2:
        return mean, 0.0, 1.0
    spread = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)
    return mean, max(0.0, mean - z * spread), min(1.0, mean + z * spread)


@dataclass(frozen=True)
class Sprt:
    """A sequential test of H0 (``elo0``) against H1 (``elo1``) with error bounds ``alpha``
    and ``beta``, stopped at ``cap`` games at most.

    Args:
        elo0: H0's Elo (the candidate no stronger).
        elo1: H1's Elo (the candidate stronger by this much).
        alpha: The most probability of accepting under H0.
        beta: The most probability of refusing under H1.
        cap: Games after which no more are played (the test then refuses).
    """

    elo0: float
    elo1: float
    alpha: float
    beta: float
    cap: int

    def verdict(self, value: float, games: int) -> str | None:
        """The test's verdict at a log-likelihood ratio and a number of games played.

        Args:
            value: The log-likelihood ratio so far (`llr`).
            games: The games played so far.

        Returns:
            ACCEPT, REJECT, CAP, or None (play on).
        """
        lower, upper = bounds(self.alpha, self.beta)
        if value >= upper:
            return ACCEPT
        if value <= lower:
            return REJECT
        return CAP if games >= self.cap else None


__all__ = ["ACCEPT", "CAP", "EPSILON", "REJECT", "VERDICTS", "Z95", "Sprt", "bounds", "elo_score",
           "game_score", "llr", "mean_interval", "score_elo"]
