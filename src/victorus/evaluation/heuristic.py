"""The heuristic evaluation of a position (R37 material, royals in danger, the race to the
centre, captures, mobility), computed in C (``victorus.evaluation._heuristic``), and a slow reference
of every term over the public API (``reference_terms``), which the tests compare it with.

    >>> import victorus
    >>> from victorus.evaluation import evaluate
    >>> evaluate(victorus.Game("compact", players=2))      # the start: even
    (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)

Each term is a number per team (R33); a team's score is the weighted sum of its terms minus
their mean over the present teams, and its value its share of the win on the scale of a
finished game (`share_values`: ``0.99 (2 p - 1)``, ``p`` the softmax of the scores), so with
two teams one team's value is the other's negated (``0.99 tanh(score)``) and with ``k``
even teams each is worth ``0.99 (2/k - 1)``. A finished game is worth its
``Game.share_returns`` exactly (+1 a win, -1 a loss, a draw shared).
docs/agents.md ("The heuristic evaluation") gives the terms and the tuned weights.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from ..constants import KING, NUM_SEATS, QUEEN
from ..game import Game
from ..geometry import hex_distance, winding_base
from . import _heuristic, _terms

TERMS: tuple[str, ...] = _heuristic.TERMS
"""The terms, in the order of the weights."""
DEFAULT_WEIGHTS: dict[str, float] = _heuristic.default_weight_values()
"""The default (tuned) weights."""
VALUE_BOUND: float = _terms.VALUE_BOUND_VALUE
"""An unfinished position's value stays within (-VALUE_BOUND, VALUE_BOUND)."""


def evaluate(game: Game, weights: Mapping[str, float] | None = None) -> tuple[float, ...]:
    """Per seat (6 floats in [-1, 1]): the evaluation of ``game``'s position in C.
    ``weights``: a mapping of TERMS names to numbers (missing ones: DEFAULT_WEIGHTS).

    Args:
        game: The position.
        weights: TERMS names to numbers, or None (DEFAULT_WEIGHTS).

    Returns:
        The value of each seat (6 floats).

    Raises:
        ConfigError: If ``weights`` names an unknown term or a weight is not a finite number.
    """
    return _heuristic.evaluate_engine(game._engine, weights)


def terms(game: Game) -> dict[str, tuple[float, ...]]:
    """Per term, the raw value of each team number (a team is numbered by its lowest seat,
    ``game.config.teams``; numbers of no team stay 0), computed in C.

    Args:
        game: The position.

    Returns:
        TERMS names to a value per team number (6 floats).
    """
    return _heuristic.engine_terms(game._engine)


def _capture_targets(game: Game) -> list[int]:
    return [a.target for a in game.legal_actions() if a.capture]


def _at_turn_start(game: Game, seat: int) -> Game:
    """The position with ``seat`` to act at the start of its turn (a turn-start VPN)."""
    fields = game.vpn().split()
    fields[2] = str(seat)
    return Game.from_vpn(" ".join(fields))


def reference_terms(game: Game) -> dict[str, tuple[float, ...]]:
    """The raw terms of [`terms`][victorus.evaluation.heuristic.terms] in Python over the public API
    (slow; for tests).
    ``danger`` and ``mobility`` read every live army's actions at the start of its turn,
    so the position must be at the start of a turn (R39).

    Args:
        game: The position, at the start of a turn.

    Returns:
        TERMS names to a value per team number (6 floats).
    """
    teams, present = game.config.teams, game.config.present
    view = game.view()
    out = {name: [0.0] * NUM_SEATS for name in TERMS}
    for seat, points in enumerate(game.material()):
        out["material"][teams[seat]] += points / 10
    rim = max(hex_distance(q, r) for q, r in game.board.coords)
    for cell, (army, kind) in enumerate(zip(view.army, view.kind)):
        if army >= 0 and kind in (KING, QUEEN):
            q, r = game.board.coords[cell]
            lap = (winding_base(q, r, army, kind == KING) + 360 * view.laps[cell]) / 360
            closeness = (rim - hex_distance(q, r)) / (rim - 1)
            progress = min(1.0, max(0.0, lap)) * (1 + closeness) / 2
            out["progress"][teams[army]] = max(out["progress"][teams[army]], progress)
    taken = [view.pieces()[cell] for cell in _capture_targets(game)]
    out["captures"][teams[game.to_move]] = max((p.points for p in taken if p), default=0) / 10
    attacked: set[int] = set()
    for seat in present:
        if view.states[seat] != "active":
            continue
        start = _at_turn_start(game, seat)
        out["mobility"][teams[seat]] += len(start.legal_actions()) / 100
        attacked.update(c for c in _capture_targets(start) if view.kind[c] in (KING, QUEEN))
    for cell in attacked:
        out["danger"][teams[view.army[cell]]] += 1
    return {name: tuple(values) for name, values in out.items()}


def reference_evaluate(game: Game, weights: Mapping[str, float] | None = None) -> tuple[float, ...]:
    """[`evaluate`][victorus.evaluation.heuristic.evaluate] in Python from
    [`reference_terms`][victorus.evaluation.heuristic.reference_terms] (slow; for tests).

    Args:
        game: The position, at the start of a turn.
        weights: TERMS names to numbers, or None (DEFAULT_WEIGHTS).

    Returns:
        The value of each seat (6 floats).
    """
    if game.is_over:
        return tuple(game.share_returns())
    weights = {**DEFAULT_WEIGHTS, **(weights or {})}
    teams, present = game.config.teams, game.config.present
    team_ids = sorted({teams[s] for s in present})
    raw = reference_terms(game)
    score = dict.fromkeys(team_ids, 0.0)
    for name in TERMS:
        sign = -1 if name == "danger" else 1
        mean = sum(raw[name][t] for t in team_ids) / len(team_ids)
        for t in team_ids:
            score[t] += sign * weights[name] * (raw[name][t] - mean)
    value = share_values(score)
    return tuple(value[teams[s]] if s in present else 0.0 for s in range(NUM_SEATS))


def share_values(scores: Mapping[int, float]) -> dict[int, float]:
    """Each team's value from its score, on the share scale of a finished game (in Python,
    as the C evaluations compute it): ``VALUE_BOUND (2 p - 1)``, ``p`` the team's share of
    the win, the softmax of the scores over the teams given.

    Args:
        scores: Each present team's score.

    Returns:
        Each team's value, in (-VALUE_BOUND, VALUE_BOUND).
    """
    top = max(scores.values())
    weight = {t: math.exp(x - top) for t, x in scores.items()}
    total = sum(weight.values())
    return {t: VALUE_BOUND * (2 * w / total - 1) for t, w in weight.items()}
