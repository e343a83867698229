"""Search agents built on an evaluator of [`victorus.evaluation`][victorus.evaluation] (the heuristic
by default):
[`AlphaBetaAgent`][victorus.search.alphabeta.AlphaBetaAgent], ``make_agent("alphabeta:0.1s")``.
"""

from __future__ import annotations

import os
import random
from collections.abc import Mapping
from dataclasses import dataclass

from .._engine import StopToken
from ..checks import check_int, check_seed
from ..errors import ConfigError
from ..evaluation._evaluator import Evaluator
from ..evaluation.network import Network
from ..evaluation.registry import heuristic, make_evaluator
from ..evaluation.registry import network as network_evaluator
from ..game import Game, check_stop
from ..notation import Action
from . import _alphabeta
from .budgets import check_seconds, deadline, now
from .choice import decisive, legal_now

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


class AlphaBetaAgent:
    """Alpha-beta in C on the heuristic evaluation (``victorus.search._alphabeta``), the GIL
    released.

    Two teams: negamax on the team value; three or more: paranoid (the team of the army
    to act against all others together, R33). Depth counts actions (a turn is several
    actions). Iterative deepening to ``depth`` actions, stopped by the budget: ``nodes``
    (deterministic for a seed) and/or ``seconds`` (wall time); depth 1 always completes.
    A transposition table of ``2**table_bits`` entries (24 bytes each) keyed by the
    position key; the table's action first, then captures by the points they take. The
    seed orders quiet actions (and so breaks ties between equal actions). ``weights``:
    the evaluation's (`victorus.evaluation.TERMS` names; missing ones default).
    ``network``: a [`Network`][victorus.evaluation.network.Network], a ``.vnet`` file's path or
    ``"default"`` (the shipped one): the learned evaluation scores the leaves instead of
    the heuristic one (``weights`` then unused). ``evaluator``: any C evaluator of
    victorus.evaluation (an Evaluator or its spec) in place of both.
    An action that wins at once is taken without search.

    Args:
        nodes: Nodes per decision, 1 to MAX_NODES (None: ``seconds`` alone).
        seed: Seeds the order of quiet actions (None: fresh entropy).
        seconds: Seconds per decision (None: ``nodes`` alone).
        depth: The deepest iteration, in actions, 1 to MAX_DEPTH.
        table_bits: log2 of the transposition table's entries.
        weights: The evaluation's weights by TERMS name (None: the defaults).
        network: The learned evaluation of the leaves, or None (the heuristic one).
        evaluator: The leaves' C evaluator in place of ``weights`` and ``network``, or None.

    Raises:
        ConfigError: If neither budget is given, a setting is out of its range, or
            ``evaluator`` is given with ``weights`` or ``network``.
    """

    def __init__(self, nodes: int | None = None, seed: int | None = None, *,
                 seconds: float | None = None,
                 depth: int = MAX_DEPTH, table_bits: int = 16,
                 weights: Mapping[str, float] | None = None,
                 network: Network | str | os.PathLike[str] | None = None,
                 evaluator: Evaluator | str | None = None) -> None:
        if nodes is None and seconds is None:
            raise ConfigError("give an alpha-beta budget: nodes, seconds or both")
        if nodes is not None:
            check_int("nodes", nodes, 1, MAX_NODES)
        check_seconds(seconds)
        check_int("depth", depth, 1, MAX_DEPTH)
        check_int("table_bits", table_bits, _alphabeta.MIN_TABLE_BITS, _alphabeta.MAX_TABLE_BITS)
        if evaluator is not None and (weights is not None or network is not None):
            raise ConfigError("give the leaves' evaluator, or weights or a network, not both")
        self.evaluator = (make_evaluator(evaluator) if evaluator is not None
                          else heuristic(weights) if network is None else network_evaluator(network))
        self.network: Network | None = self.evaluator.network
        kind = "alphabeta-net:" if self.network is not None else "alphabeta:"
        self.name = kind + (f"{seconds:g}s" if nodes is None else str(nodes))
        self.nodes, self.seconds, self.depth = nodes, seconds, depth
        self.table_bits, self.weights = table_bits, dict(weights) if weights else None
        self.rng = random.Random(check_seed(seed))
        self._clock = now                        # a decision's start (budgets.now; tests fake it)

    def search(self, game: Game, stop: StopToken | None = None) -> AlphaBetaResult:
        """Search the position (it must not be over). ``stop`` (a
        [`victorus.StopToken`][victorus.game.StopToken]) set from another thread ends it early, as the
        budget would; the last complete iteration's action is returned. A time budget counts
        from this call (victorus.search.budgets).

        Args:
            game: The position (not over).
            stop: A cancellation token, or None.

        Returns:
            The chosen action, its value, the depth reached and the nodes searched.

        Raises:
            ConfigError: If the game is over, or the network was not trained for it.
            Cancelled: If ``stop`` is already stopped.
        """
        return self._search(game, stop, self._clock())

    def _search(self, game: Game, stop: StopToken | None, start: float) -> AlphaBetaResult:
        """search, its time budget counted from ``start`` (the caller's entry)."""
        check_stop(stop, self.name)
        if self.network is not None:
            self.network.check(game)
        game = game.copy(history=False)
        actions = game.legal_actions()
        if not actions:
            raise ConfigError("the game is over: there is nothing to search")
        best, value, depth, nodes = _alphabeta.alphabeta(
            game._engine, self.depth, -1 if self.nodes is None else self.nodes,
            deadline(self.seconds, start), self.rng.getrandbits(64), self.table_bits, self.evaluator,
            stop)
        return AlphaBetaResult(actions[best], value, depth, nodes)

    def choose(self, game: Game, stop: StopToken | None = None) -> Action:
        """The search's choice (an action that wins at once without search); ``stop`` as
        in `search`. A time budget counts from this call.

        Args:
            game: The position (not over).
            stop: A cancellation token, or None.

        Returns:
            The chosen legal action.

        Raises:
            ConfigError: If the game is over.
            Cancelled: If ``stop`` is already stopped.
        """
        start = self._clock()
        check_stop(stop, self.name)
        return (decisive(game, legal_now(game, self.name))
                or self._search(game, stop, start).action)

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
