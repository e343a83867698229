"""Search agents built on an evaluator of [`victorus.evaluation`][victorus.evaluation] (the heuristic
by default):
[`AlphaBetaAgent`][victorus.search.alphabeta.AlphaBetaAgent], ``make_agent("alphabeta:0.1s")``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .._engine import StopToken
from ..checks import check_int, check_seed
from ..evaluation import Evaluator, make_evaluator
from ..game import Game
from ..notation import Action
from . import _alphabeta
from .agent import SearchAgent
from .budgets import check_budget, deadline

#: Bounds of an alpha-beta budget (seconds: search.MAX_SECONDS): nodes, depth in actions.
MAX_NODES, MAX_DEPTH = 2**62, _alphabeta.MAX_DEPTH


@dataclass(frozen=True)
class AlphaBetaResult:
    """What an alpha-beta search found: the chosen ``action``, its ``value`` for the team
    of the army to act, the ``depth`` (in actions) of the last complete iteration and
    the ``nodes`` searched.

    Args:
        action: The chosen action.
        value: Its value for the team of the army to act.
        depth: The depth (in actions) of the last complete iteration.
        nodes: The nodes searched.
    """

    action: Action
    value: float
    depth: int
    nodes: int


class AlphaBetaAgent(SearchAgent[AlphaBetaResult]):
    """Alpha-beta in C over an evaluator (``victorus.search._alphabeta``), the GIL
    released.

    Two teams: negamax on the team value; three or more: paranoid (the team of the army
    to act against all others together, R33). Depth counts actions (a turn is several
    actions). Iterative deepening to ``depth`` actions, stopped by the budget: ``nodes``
    (deterministic for a seed) and/or ``seconds`` (wall time); depth 1 always completes.
    A transposition table of ``2**table_bits`` entries (24 bytes each) keyed by the
    position key; the table's action first, then by the evaluator's priors (captures by
    the points they take when it has none). The seed orders quiet actions (and so breaks
    ties between equal actions). ``evaluator``: the leaves' C evaluator of
    victorus.evaluation (an Evaluator or its spec): the hand-written ``heuristic`` by
    default, ``heuristic(weights)`` (`victorus.evaluation.registry.heuristic`) for other
    weights, ``network(default)`` for the learned evaluation. An action that wins at once
    is taken without search.

    Args:
        nodes: Nodes per decision, 1 to MAX_NODES (None: ``seconds`` alone).
        seed: Seeds the order of quiet actions (None: fresh entropy).
        seconds: Seconds per decision (None: ``nodes`` alone).
        depth: The deepest iteration, in actions, 1 to MAX_DEPTH.
        table_bits: log2 of the transposition table's entries.
        evaluator: The leaves' C evaluator: an Evaluator or its spec.

    Raises:
        ConfigError: If neither budget is given, a setting is out of its range, or the
            evaluator is unknown.
    """

    def __init__(self, nodes: int | None = None, seed: int | None = None, *,
                 seconds: float | None = None,
                 depth: int = MAX_DEPTH, table_bits: int = 16,
                 evaluator: Evaluator | str = "heuristic") -> None:
        check_budget(nodes, seconds, 1, unit="nodes", most=MAX_NODES)
        check_int("depth", depth, 1, MAX_DEPTH)
        check_int("table_bits", table_bits, _alphabeta.MIN_TABLE_BITS, _alphabeta.MAX_TABLE_BITS)
        super().__init__("alphabeta:" + (f"{seconds:g}s" if nodes is None else str(nodes)),
                         make_evaluator(evaluator))
        self.evaluator: Evaluator
        self.nodes, self.seconds, self.depth = nodes, seconds, depth
        self.table_bits = table_bits
        self.rng = random.Random(check_seed(seed))

    def _search(self, game: Game, stop: StopToken | None, start: float) -> AlphaBetaResult:
        game, actions = self._searched(game, stop)
        best, value, depth, nodes = _alphabeta.alphabeta(
            game._engine, self.depth, -1 if self.nodes is None else self.nodes,
            deadline(self.seconds, start), self.rng.getrandbits(64), self.table_bits, self.evaluator,
            stop)
        return AlphaBetaResult(actions[best], value, depth, nodes)

    def native_opponent(self) -> _alphabeta.AlphaBetaOpponent:
        """These settings as an opponent played in C inside the step of
        [`victorus.vector.VectorGames`][victorus.vector.VectorGames] (``opponents={seat: "alphabeta:2000"}``):
        the same choice, the search seeded by one draw from the game's agent random
        state.

        Returns:
            The native opponent.
        """
        return _alphabeta.AlphaBetaOpponent(self.depth, -1 if self.nodes is None else self.nodes,
                                            self.seconds or 0.0, self.table_bits, self.evaluator)


__all__ = ["AlphaBetaAgent", "AlphaBetaResult"]
