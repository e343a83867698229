"""PUCT search (AlphaZero's) in C, guided by an evaluator: one of victorus.evaluation's C
evaluators (no Python per leaf), or your own function.

The tree work (selection with virtual loss, expansion, backup, the proof of decided
positions) runs in C without the GIL (``victorus.search._puct``); the evaluator is called with a
batch of up to ``batch_size`` leaves (`victorus.search._puct.LeafBatch`: observations in
each leaf's mover's frame, legal action ids, the army to act) and returns priors over
each leaf's legal actions and a value per seat (or for the army to act). Values are per
seat, so it plays for 2-6 armies and teams (R33: team mates share their values): the army
to act at a node picks the child best for its own seat.

For self-play: root Dirichlet noise (``noise_fraction``, ``dirichlet_alpha``), a
``temperature`` for the choice, [`SearchResult.policy`][victorus.search.results.SearchResult.policy]
as the training target, and tree reuse (the subtree of the actions played since the last
search is kept).
"""

from __future__ import annotations

import math
import random
import threading
from collections.abc import Callable, Iterable
from dataclasses import replace

from numpy.typing import ArrayLike

from .._engine import StopToken
from ..checks import check_int, check_seed, shown
from ..errors import ConfigError
from ..evaluation import Evaluator, make_evaluator
from ..game import Game, check_stop
from ..notation import Action
from . import _puct, _puct_opponent
from .agent import SearchAgent
from .budgets import budget_name, check_budget, deadline
from .results import SearchResult

OBSERVATIONS = ("uint8", "float32", "none")
"""The observations a search gives its evaluator (``observation``)."""
MIN_NODES = 1 + _puct.MAX_LEGAL_ACTIONS
"""The smallest tree: room for the root and all its children in any position."""
ID_FRAMES = ("absolute", "observer")
"""The frames of the legal action ids a search gives its evaluator (``id_frame``)."""
DEFAULT_EVALUATOR = "rollouts(10, material)"
"""PUCT's leaves unless told: priors from the points an action captures, values from a random
rollout of up to 10 actions scored by material."""
BatchEvaluator = Callable[[_puct.LeafBatch], tuple[ArrayLike | None, ArrayLike]]
"""A Python evaluator of a batch of leaves (AlphaZero's seam): priors [size, width] or None, values
[size, 6] or [size]."""


def uniform_evaluator(batch: _puct.LeafBatch) -> tuple[None, list[float]]:
    """Uniform priors and a value of 0 for every leaf, in Python: the same search as
    ``evaluator="uniform"`` in C (the difference is the cost of the Python boundary).

    Args:
        batch: The leaves to evaluate.

    Returns:
        No priors (uniform) and a value of 0 per leaf.
    """
    return None, [0.0] * batch.size


def _check_number(name: str, value: float, low: float, high: float = math.inf) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
        raise ConfigError(f"{name} must be a number in [{low}, {high}], got {shown(value, 60)}")
    return float(value)


class PUCTAgent(SearchAgent[SearchResult]):
    """PUCT with an evaluator: a C evaluator of victorus.evaluation (an Evaluator or its
    spec, no Python per leaf) or a Python callable given batches of leaves.

    Budget per decision: ``iterations`` (deterministic for a seed and ``batch_size``),
    ``seconds``, or both. An iteration is one backup: a leaf evaluated, or a finished
    or proven position reached again. Selection maximises Q + c_puct P sqrt(N)/(1 + n);
    an unvisited child's Q is its parent's minus ``fpu_reduction``. The chosen action
    is a proven win if there is one, else the most visited (``temperature`` 0) or a
    draw from the visit counts raised to 1/temperature. The tree is kept between calls
    (``reuse_tree``) and grows to at most ``max_nodes`` nodes (88 bytes each, per
    position searched; once full, leaves are evaluated without growing it).
    Calls on one agent are serialised by a lock of its own.

    Args:
        iterations: Iterations (backups) per decision (None: ``seconds`` alone).
        seconds: Seconds per decision (None: ``iterations`` alone).
        evaluator: A C evaluator of victorus.evaluation (an Evaluator or its spec, such as
            ``"rollouts(3, network(default))"``; DEFAULT_EVALUATOR unless given), or a
            callable given a `LeafBatch` returning (priors [size, width] or None, values
            [size, 6] or [size]).
        batch_size: The most leaves per call of the evaluator, 1 to 4096.
        c_puct: The exploration constant, >= 0.
        fpu_reduction: An unvisited child's Q below its parent's, 0 to 2.
        dirichlet_alpha: The root noise's Dirichlet alpha, 0.01 to 100.
        noise_fraction: The root noise's share of the priors, 0 to 1 (0: no noise).
        temperature: The choice's temperature, 0 to 100 (0: the most visited).
        observation: The leaves' observations: one of OBSERVATIONS.
        id_frame: The legal ids' frame: one of ID_FRAMES.
        reuse_tree: Keep the tree between calls.
        max_nodes: The most nodes a tree grows to, at least MIN_NODES.
        seed: Seeds the searches (None: fresh entropy).

    Raises:
        ConfigError: If a setting is out of its range or the evaluator spec is unknown.
    """

    def __init__(self, iterations: int | None = 800, *, seconds: float | None = None,
                 evaluator: BatchEvaluator | Evaluator | str = DEFAULT_EVALUATOR,
                 batch_size: int = 16, c_puct: float = 1.5,
                 fpu_reduction: float = 0.0, dirichlet_alpha: float = 0.3,
                 noise_fraction: float = 0.0, temperature: float = 0.0,
                 observation: str = "uint8", id_frame: str = "absolute",
                 reuse_tree: bool = True, max_nodes: int = 2_000_000,
                 seed: int | None = None) -> None:
        check_budget(iterations, seconds, 1)
        if not (callable(evaluator) or isinstance(evaluator, (str, Evaluator))):
            raise ConfigError(f"evaluator must be a victorus.evaluation Evaluator or spec, or a "
                              f"callable(batch) -> (priors, values), got {shown(evaluator, 60)}")
        check_int("batch_size", batch_size, 1, 4096)
        check_int("max_nodes", max_nodes, MIN_NODES, 2**31 - 1)
        if observation not in OBSERVATIONS or id_frame not in ID_FRAMES:
            raise ConfigError(f"observation must be one of {OBSERVATIONS} and id_frame one of "
                              f"{ID_FRAMES}, got {shown(observation, 60)} and {shown(id_frame, 60)}")
        self.c_puct = _check_number("c_puct", c_puct, 0.0)
        self.fpu_reduction = _check_number("fpu_reduction", fpu_reduction, 0.0, 2.0)
        self.dirichlet_alpha = _check_number("dirichlet_alpha", dirichlet_alpha, 0.01, 100.0)
        self.noise_fraction = _check_number("noise_fraction", noise_fraction, 0.0, 1.0)
        self.temperature = _check_number("temperature", temperature, 0.0, 100.0)
        python = callable(evaluator) and not isinstance(evaluator, Evaluator)
        super().__init__(budget_name("puct", iterations, seconds, 1), None)
        self.evaluator: BatchEvaluator | Evaluator = (
            evaluator if python else make_evaluator(evaluator))  # type: ignore[assignment,arg-type]
        self.iterations, self.seconds = iterations, seconds
        self.batch_size, self.max_nodes, self.reuse_tree = batch_size, max_nodes, reuse_tree
        self.observation, self.id_frame = observation, id_frame
        self.rng = random.Random(check_seed(seed))
        self._lock = threading.Lock()
        self._trees: list[tuple[_puct.PuctTree, int]] = []   # per position searched: (tree, its ply)
        self._searching: int | None = None       # the thread searching, while it does

    def _tree_for(self, game: Game, slot: int) -> _puct.PuctTree:
        """Slot ``slot``'s kept tree advanced to ``game``'s position, or a new one."""
        engine = game._engine
        tree: _puct.PuctTree | None
        tree, root_ply = self._trees[slot] if slot < len(self._trees) else (None, 0)
        if tree is not None and self.reuse_tree and tree.rules is engine.rules \
                and game.ply >= root_ply:
            tree.advance(engine, engine.history_keys()[root_ply:])
        elif tree is not None and tree.rules is engine.rules:
            tree.reset(engine)
        else:
            board, config = game.board, game.config
            tree = _puct.PuctTree(engine, self.batch_size, self.max_nodes, self.c_puct,
                                  self.fpu_reduction, self.observation, self.id_frame == "observer",
                                  lambda e: Game._from_engine(board, config, e),
                                  self.evaluator if isinstance(self.evaluator, Evaluator) else None)
        if slot == len(self._trees):
            self._trees.append((tree, game.ply))
        self._trees[slot] = (tree, game.ply)
        return tree

    def _search(self, game: Game, stop: StopToken | None, start: float) -> SearchResult:
        return self._search_from(start, [game], stop)[0]

    def search_many(self, games: Iterable[Game], stop: StopToken | None = None) -> list[SearchResult]:
        """Search several positions together, each with its own tree and budget: every
        call of the evaluator holds leaves of all of them (one forward pass for many
        self-play games). Trees are kept per position in the list (tree reuse when the
        same list of games is searched again after their moves).

        Args:
            games: One or more games on one board, none over.
            stop: A cancellation token, or None.

        Returns:
            One result per game, in their order.

        Raises:
            ConfigError: If ``games`` is empty, holds anything but Games, spans
                boards, or a game is over.
            RuntimeError: If called from this agent's own evaluator.
            Cancelled: If ``stop`` is already stopped.
        """
        return self._search_from(self._clock(), games, stop)

    def _search_from(self, start: float, games: Iterable[Game],
                     stop: StopToken | None) -> list[SearchResult]:
        """search_many, its time budget counted from ``start`` (the caller's entry)."""
        check_stop(stop, self.name)
        games = list(games)
        if not games or not all(isinstance(game, Game) for game in games):
            raise ConfigError(f"give a list of one or more victorus.Game, got {shown(games, 60)}")
        if len({game.board.name for game in games}) > 1:
            raise ConfigError("games searched together must be on one board (their "
                              "observations share a batch)")
        legal = [game.legal_actions() for game in games]
        if not all(legal):
            raise ConfigError("a game is over: there is nothing to search")
        for game in games:
            self.check(game)
        if self._searching == threading.get_ident():
            raise RuntimeError("PUCTAgent.search called from its own evaluator: use another "
                               "agent for a search inside an evaluation")
        with self._lock:
            self._searching = threading.get_ident()
            try:
                return self._search_locked(games, legal, stop, deadline(self.seconds, start))
            finally:
                self._searching = None

    def _search_locked(self, games: list[Game], legal: list[list[Action]],
                       stop: StopToken | None, until: float) -> list[SearchResult]:
        """The search under the lock, until ``until`` (on budgets.now's clock; 0: none): the
        trees' reuse counts in it."""
        del self._trees[len(games):]
        trees = [self._tree_for(game, slot) for slot, game in enumerate(games)]
        done = _puct.run_trees(trees, None if isinstance(self.evaluator, Evaluator) else self.evaluator,
                               -1 if self.iterations is None else self.iterations,
                               until, self.dirichlet_alpha, self.noise_fraction,
                               [self.rng.getrandbits(64) for _ in trees], stop)
        found = [(tree.root_children(), tree.proven_child, tree.pick(), tree.nodes_used,
                  tree.root_values()) for tree in trees]
        if not self.reuse_tree:
            self._trees.clear()
        return [self._result(actions, n, *seen) for actions, n, seen in zip(legal, done, found)]

    def _result(self, actions: list[Action], done: int,
                children: list[tuple[int, float, float, float | None]], proven: int, pick: int,
                nodes: int, seat_values: tuple[float, ...]) -> SearchResult:
        if not children:                         # stopped before the root was evaluated
            children = [(0, 0.0, 1.0 / len(actions), None)] * len(actions)
        visits = tuple(c[0] for c in children)
        values = tuple(c[3] if c[3] is not None else c[1] for c in children)
        result = SearchResult(actions[0], tuple(actions), visits, values, done, nodes,
                              tuple(c[2] for c in children), seat_values)   # action: below
        return replace(result, action=actions[self._pick(result, proven, pick)])

    def _pick(self, result: SearchResult, proven: int, pick: int) -> int:
        """The proven child; at a temperature, a draw from the visits; else ``pick``, the
        tree's own choice in C (as the opponent in the vector step makes it)."""
        if proven >= 0:
            return proven
        if self.temperature > 0 and sum(result.visits) != 0:
            return self.rng.choices(range(len(result.visits)), result.policy(self.temperature))[0]
        return pick

    def verify(self) -> None:
        """Check the kept tree's invariants (ValueError if one fails): for tests and
        debugging.

        Raises:
            ValueError: If an invariant fails.
        """
        with self._lock:
            for tree, _ in self._trees:
                _puct.verify_tree(tree)

    def native_opponent(self) -> _puct_opponent.PuctOpponent:
        """These settings as an opponent played in C inside the step of
        [`victorus.vector.VectorGames`][victorus.vector.VectorGames] (``opponents={seat: "puct:200"}``): the
        same choice, the search seeded by one draw from the game's agent random state, the tree
        kept per game between decisions (``reuse_tree``). Needs a C evaluator and
        temperature 0.

        Returns:
            The native opponent.

        Raises:
            ConfigError: If the evaluator is a callable or the temperature above 0.
        """
        if not isinstance(self.evaluator, Evaluator) or self.temperature > 0:
            raise ConfigError(f"{self.name}: an opponent inside the step needs a C evaluator "
                              f"(victorus.evaluation) and temperature 0, got "
                              f"{shown(self.evaluator, 60)} and {shown(self.temperature, 60)}")
        return _puct_opponent.PuctOpponent(-1 if self.iterations is None else self.iterations,
                                  self.seconds or 0.0, self.batch_size, self.max_nodes,
                                  self.c_puct, self.fpu_reduction, self.dirichlet_alpha,
                                  self.noise_fraction, self.reuse_tree, self.evaluator)
