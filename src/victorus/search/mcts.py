"""UCT: `MCTSAgent` in C (root parallelism, a native opponent of the vector games)
and `PythonMCTSAgent`, the same search in Python over the public API."""

from __future__ import annotations

import math
import random

from .._engine import StopToken
from ..checks import check_int, check_seed, shown
from ..constants import NUM_SEATS
from ..errors import ConfigError
from ..evaluation import Evaluator, make_evaluator
from ..game import Game, play_random
from ..notation import Action
from . import _mcts
from .agent import AgentBase, SearchAgent
from .budgets import budget_name, check_budget, deadline
from .choice import decisive
from .results import SearchResult

DEFAULT_EVALUATOR = "rollouts(10, material)"
"""The UCT's leaves: a random rollout of up to 10 actions, its end scored by material."""


class MCTSAgent(SearchAgent[SearchResult]):
    """UCT in C: selection, expansion, leaf evaluation and backup run in the engine
    without the GIL (``victorus.search._mcts.mcts``).

    Each node keeps a value per seat and the army to act at a node picks the child
    best for its own seat, so it plays for 2-6 armies and teams (R33: team mates share
    their returns). A new leaf is valued by ``evaluator``, any C evaluator of
    [`victorus.evaluation`][victorus.evaluation]; the UCT's own is
    ``rollouts(10, material)``: at most 10 uniformly random actions, an unfinished
    rollout scored by R37 material (on the board and held, per team) squashed about each
    live team's fair share of the win (two teams: into (-0.5, 0.5) about 0), so that a real
    win (+1) counts for more. An action that wins at once is
    taken without search.

    Budget per decision: ``iterations`` (deterministic for a seed and ``threads``),
    ``seconds`` (wall time), or both (whichever ends first). ``threads`` > 1 grows one
    tree per thread (root parallelism) and sums the root's visits. A tree stops
    growing at ``max_nodes`` nodes (56 bytes each); the search goes on evaluating leaves.

    Args:
        iterations: Iterations per decision (None: ``seconds`` alone).
        c: The UCT exploration constant, >= 0.
        seed: Seeds the searches (None: fresh entropy).
        seconds: Seconds per decision (None: ``iterations`` alone).
        threads: Search threads (root parallelism).
        max_nodes: The most nodes a tree grows to.
        evaluator: The C evaluator of new leaves: an Evaluator or its spec.

    Raises:
        ConfigError: If a setting is out of its range, neither budget is given, or the
            evaluator is unknown.
    """

    def __init__(self, iterations: int | None = 1000, c: float = 1.4, seed: int | None = None, *,
                 seconds: float | None = None, threads: int = 1, max_nodes: int = 1_000_000,
                 evaluator: Evaluator | str = DEFAULT_EVALUATOR) -> None:
        check_budget(iterations, seconds, threads)
        check_int("max_nodes", max_nodes, 1, 2**31 - 1)
        if isinstance(c, bool) or not isinstance(c, (int, float)) or not 0 <= c < math.inf:
            raise ConfigError(f"c (UCT exploration) must be a number >= 0, got {shown(c, 60)}")
        super().__init__(budget_name("mcts", iterations, seconds, threads), make_evaluator(evaluator))
        self.evaluator: Evaluator
        self.iterations, self.seconds, self.threads = iterations, seconds, threads
        self.c, self.max_nodes = float(c), max_nodes
        self.rng = random.Random(check_seed(seed))

    def _search(self, game: Game, stop: StopToken | None, start: float) -> SearchResult:
        game, actions = self._searched(game, stop)
        if len(actions) == 1:
            return SearchResult(actions[0], tuple(actions), (0,), (0.0,), 0, 0)
        visits, values, done, nodes, best = _mcts.mcts(
            game._engine, -1 if self.iterations is None else self.iterations,
            deadline(self.seconds, start), self.threads, self.rng.getrandbits(64), self.c, self.max_nodes,
            self.evaluator, stop)
        return SearchResult(actions[best], tuple(actions), tuple(visits),
                            tuple(v / n if n else 0.0 for v, n in zip(values, visits)),
                            done, nodes)

    def native_opponent(self) -> _mcts.MctsOpponent:
        """These settings as an opponent played in C inside the step of
        [`victorus.vector.VectorGames`][victorus.vector.VectorGames] (``opponents={seat: "mcts:200"}``): the
        same choice, the search seeded by one draw from the game's agent random state.

        Returns:
            The native opponent.

        Raises:
            ConfigError: If the agent searches on more than one thread.
        """
        if self.threads > 1:
            raise ConfigError(f"{self.name}: an opponent inside the step searches on one "
                              f"thread (the vector's threads share out the games): drop "
                              f"'@{self.threads}'")
        return _mcts.MctsOpponent(-1 if self.iterations is None else self.iterations,
                                  self.seconds or 0.0, self.c, self.max_nodes, self.evaluator)


_NO_RETURNS = (0.0,) * NUM_SEATS


class _Tree:
    """PythonMCTSAgent's tree in flat lists of numbers, no Python object per node: node ``n``'s army
    to act ``seat[n]``, its ``visits[n]``, its summed returns per seat from
    ``value[NUM_SEATS * n]``, ``expanded[n]`` of its ``width[n]`` legal actions with a
    child and, from ``first[n]``, per legal action (legal_actions() order) its id in
    ``action`` and its child in ``child`` (-1: not expanded yet). Numbers are no objects
    the garbage collector counts, so growing the tree sets off no collection (a full one
    takes milliseconds in a process holding many objects, and one beginning near the
    deadline would run past it), as a tree of node objects would."""

    def __init__(self) -> None:
        self.seat: list[int] = []
        self.visits: list[int] = []
        self.value: list[float] = []
        self.first: list[int] = []
        self.width: list[int] = []
        self.expanded: list[int] = []
        self.action: list[int] = []
        self.child: list[int] = []

    def add(self, game: Game) -> int:
        """A new node for ``game``'s position; its index."""
        ids = game.legal_action_ids().tolist()
        self.seat.append(game.to_move)
        self.visits.append(0)
        self.value.extend(_NO_RETURNS)
        self.first.append(len(self.child))
        self.width.append(len(ids))
        self.expanded.append(0)
        self.action.extend(ids)
        self.child.extend([-1] * len(ids))
        return len(self.visits) - 1

    def untried(self, node: int) -> list[int]:
        """The node's legal actions with no child yet, by their place among its actions."""
        if self.expanded[node] == self.width[node]:
            return []
        first, child = self.first[node], self.child
        return [slot for slot in range(self.width[node]) if child[first + slot] < 0]

    def expand(self, node: int, slot: int, game: Game) -> int:
        """The child of ``node`` by its action ``slot``, a new node at ``game`` (that
        action played); its index."""
        child = self.add(game)
        self.child[self.first[node] + slot] = child
        self.expanded[node] += 1
        return child

    def backup(self, path: list[int], returns: list[float]) -> None:
        """One more visit and ``returns`` (per seat) on each node of ``path``."""
        visits, value = self.visits, self.value
        for node in path:
            visits[node] += 1
            for seat, share in enumerate(returns, NUM_SEATS * node):
                if share:                                        # (absent seats: 0)
                    value[seat] += share


class PythonMCTSAgent(AgentBase):
    """The same UCT as [`MCTSAgent`][victorus.search.mcts.MCTSAgent], in Python over the public API only: an
    example to start from (docs/search.md). The tree, selection and backup are Python (the
    tree in flat arrays, so that the garbage collector never stops a search); rollouts
    run in C (``play_random(..., history=False)``); the evaluation reads
    ``Game.material()``. Budget: ``iterations`` and/or ``seconds`` per decision.

    Args:
        iterations: Iterations per decision (None: ``seconds`` alone).
        rollout_actions: The most actions of a rollout.
        c: The UCT exploration constant.
        seed: Seeds the search (None: fresh entropy).
        seconds: Seconds per decision (None: ``iterations`` alone).

    Raises:
        ConfigError: If neither budget is given, or one is out of its range.
    """

    def __init__(self, iterations: int | None = 200, rollout_actions: int = 10,
                 c: float = 1.4, seed: int | None = None, *,
                 seconds: float | None = None) -> None:
        check_budget(iterations, seconds, 1)
        super().__init__(budget_name("mcts-py", iterations, seconds, 1))
        self.iterations, self.seconds = iterations, seconds
        self.rollout_actions = rollout_actions
        self.c = c
        self.rng = random.Random(check_seed(seed))

    def _returns(self, game: Game) -> list[float]:
        teams = game.config.teams
        if game.is_over:
            return list(game.share_returns())
        material = game.material()
        by_team: dict[int, float] = {}
        for seat in game.config.present:
            by_team[teams[seat]] = by_team.get(teams[seat], 0.0) + material[seat]
        total = sum(by_team.values()) or 1.0
        mean = total / len(by_team)
        fair = game._engine.live_shares()        # a live team's fair share, -1 for the others
        return [fair[s] + math.tanh(4 * (by_team[teams[s]] - mean) / total) / len(by_team)
                if s in game.config.present and fair[s] > -1 else fair[s]
                for s in range(NUM_SEATS)]

    def _choose(self, game: Game, actions: list[Action], stop: StopToken | None,
                start: float) -> Action:
        """The most visited action (an action that wins at once without search)."""
        until = deadline(self.seconds, start)
        winning = decisive(game, actions)
        if winning is not None:
            return winning
        tree = _Tree()
        tree.add(game)
        done = 0
        while ((self.iterations is None or done < self.iterations)
               and not (until and done and self._clock() >= until)    # one iteration at least
               and not (stop is not None and stop.stopped)):
            done += 1
            sim = game.copy(history=False)
            path = self._descend(tree, sim)
            play_random(sim, self.rng.getrandbits(64), self.rollout_actions, history=False)
            tree.backup(path, self._returns(sim))         # multi-player backup
        first = tree.first[0]
        visits = [tree.visits[child] if child >= 0 else -1
                  for child in tree.child[first:first + len(actions)]]
        if max(visits) < 0:
            return self.rng.choice(actions)
        return actions[visits.index(max(visits))]

    def _descend(self, tree: _Tree, sim: Game) -> list[int]:
        """Selection from the root, then the expansion of one untried action (at random),
        played on ``sim``; the nodes on the way."""
        node, path = 0, [0]
        while not sim.is_over:
            untried = tree.untried(node)
            if untried:
                slot = self.rng.choice(untried)
                sim.play_id(tree.action[tree.first[node] + slot])
                path.append(tree.expand(node, slot, sim))
                break
            node = self._select(tree, node, sim)
            path.append(node)
        return path

    def _select(self, tree: _Tree, node: int, sim: Game) -> int:
        """UCT: the child best for the army to act at ``node`` (all expanded), played on
        ``sim``."""
        log_n, c, sqrt = math.log(tree.visits[node]), self.c, math.sqrt
        seat, first, visits, value = tree.seat[node], tree.first[node], tree.visits, tree.value
        children = tree.child[first:first + tree.width[node]]
        ucts = [value[NUM_SEATS * child + seat] / visits[child] + c * sqrt(log_n / visits[child])
                for child in children]
        best = ucts.index(max(ucts))                                 # the first of equals
        sim.play_id(tree.action[first + best])
        return children[best]


__all__ = ["MCTSAgent", "PythonMCTSAgent"]
