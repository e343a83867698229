"""Agents behind one small interface (tournaments between them: victorus.tournament).

An agent has a ``name`` and ``choose(game) -> Action`` (a legal action of the
army to act). ``make_agent("mcts:200", seed=1)`` builds one from a spec:
``random``, ``greedy``, ``mcts[:budget][@threads]`` (UCT in C) and ``mcts-py[:budget]``
(the same UCT in Python, an example of the public API).
"""

from __future__ import annotations

import math
import random
import re
import time
from dataclasses import dataclass, field

from . import _engine, _mcts
from .checks import check_int, parse_int
from .constants import NUM_SEATS
from .errors import ConfigError
from .game import Game, play_random
from .notation import piece_from_code


class RandomAgent:
    """Uniformly random legal actions."""

    def __init__(self, seed=None):
        self.name = "random"
        self.rng = random.Random(seed)

    def choose(self, game: Game):
        return self.rng.choice(game.legal_actions())


class GreedyAgent:
    """Prefers captures by piece value and avoids leaving pieces en prise.

    Each legal action is played on a copy and scored: the value it captures,
    minus the most valuable own piece the next army to act could then capture.
    Ties are broken at random.
    """

    def __init__(self, seed=None):
        self.name = "greedy"
        self.rng = random.Random(seed)

    def choose(self, game: Game):
        me = game.to_move
        team = game.config.teams[me]
        best, best_score = [], -math.inf
        for action in game.legal_actions():
            trial = game.copy(history=False)
            before = trial.piece_at(game.board.labels[action.target]) if action.is_leg else None
            gained = 0
            if action.capture and before is not None:
                gained = _value_of_code(before)
            trial.play(action)
            score = gained + (100 if trial.is_over and me in (trial.winners or ()) else 0)
            if not trial.is_over and game.config.teams[trial.to_move] != team:
                score -= max((_value_of_code(trial.piece_at(trial.board.labels[a.target]))
                              for a in trial.legal_actions() if a.capture), default=0)
            if score > best_score:
                best, best_score = [action], score
            elif score == best_score:
                best.append(action)
        return self.rng.choice(best)


def _value_of_code(code: str | None) -> int:
    """R37 points of a piece given by its '<seat><piece>' code (R39); 0 for no piece."""
    return 0 if code is None else piece_from_code(int(code[0]), code[1:]).points


def _check_budget(iterations, seconds, threads) -> None:
    if iterations is None and seconds is None:
        raise ConfigError("give an MCTS budget: iterations, seconds or both")
    if iterations is not None:
        check_int("iterations", iterations, 1, MAX_ITERATIONS)
    if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, (int, float))
                                or not 0 < seconds <= MAX_SECONDS):
        raise ConfigError(f"seconds must be a number in (0, {MAX_SECONDS}], got {seconds!r}")
    check_int("threads", threads, 1, MAX_THREADS)


def _budget_name(kind: str, iterations, seconds, threads: int) -> str:
    budget = f"{seconds:g}s" if iterations is None else str(iterations)
    return f"{kind}:{budget}" + (f"@{threads}" if threads > 1 else "")


#: Bounds of an MCTS budget: seconds per decision, search threads, iterations (a node's
#: visits are 32-bit counters in the engine).
MAX_SECONDS, MAX_THREADS, MAX_ITERATIONS = 3600.0, _mcts.MAX_WORKER_THREADS, 2**31 - 1


def _decisive(game: Game, actions):
    """The only legal action, or one that wins at once; None if there is neither."""
    if len(actions) == 1:
        return actions[0]
    for action in actions:
        trial = game.copy(history=False)
        trial.play(action)
        if trial.is_over and game.to_move in (trial.winners or ()):
            return action
    return None


@dataclass(frozen=True)
class SearchResult:
    """What an MCTS search found: the root's legal ``actions`` (legal_actions() order),
    the ``visits`` and mean ``values`` (for the army to act) of each, and the chosen
    ``action`` (most visits, first of equals)."""

    action: object
    actions: tuple
    visits: tuple
    values: tuple
    iterations: int
    nodes: int


class MCTSAgent:
    """UCT in C: selection, expansion, random rollouts and backup run in the engine
    without the GIL (``victorus._mcts.mcts``).

    Each node keeps a value per seat and the army to act at a node picks the child
    best for its own seat, so it plays for 2-6 armies and teams (R33: team mates share
    their returns). Rollouts are uniformly random actions, at most ``rollout_actions``;
    an unfinished rollout is scored by R37 material (on the board and held, per team)
    squashed into (-0.5, 0.5), so that a real win (+1) counts for more. An action that
    wins at once is taken without search.

    Budget per decision: ``iterations`` (deterministic for a seed and ``threads``),
    ``seconds`` (wall time), or both (whichever ends first). ``threads`` > 1 grows one
    tree per thread (root parallelism) and sums the root's visits. A tree stops
    growing at ``max_nodes`` nodes (56 bytes each); the search goes on with rollouts.
    """

    def __init__(self, iterations: int | None = 1000, rollout_actions: int = 10,
                 c: float = 1.4, seed=None, *, seconds: float | None = None,
                 threads: int = 1, max_nodes: int = 1_000_000):
        _check_budget(iterations, seconds, threads)
        for name, value, low in (("rollout_actions", rollout_actions, 0),
                                 ("max_nodes", max_nodes, 1)):
            check_int(name, value, low, 2**31 - 1)
        if isinstance(c, bool) or not isinstance(c, (int, float)) or not 0 <= c < math.inf:
            raise ConfigError(f"c (UCT exploration) must be a number >= 0, got {c!r}")
        self.name = _budget_name("mcts", iterations, seconds, threads)
        self.iterations, self.seconds, self.threads = iterations, seconds, threads
        self.rollout_actions, self.c, self.max_nodes = rollout_actions, float(c), max_nodes
        self.rng = random.Random(seed)

    def search(self, game: Game, stop=None) -> SearchResult:
        """Search the position (it must not be over) and report every root action.

        The search reads a copy of the position; ``stop`` (a :class:`victorus.StopToken`)
        set from another thread ends it early, as its budget would."""
        if stop is not None and not isinstance(stop, _engine.StopToken):
            raise ConfigError(f"stop must be a victorus.StopToken or None, got {stop!r}")
        game = game.copy(history=False)      # one position for the actions and the search
        actions = game.legal_actions()
        if not actions:
            raise ConfigError("the game is over: there is nothing to search")
        if len(actions) == 1:
            return SearchResult(actions[0], tuple(actions), (0,), (0.0,), 0, 0)
        visits, values, done, nodes = _mcts.mcts(
            game._engine, -1 if self.iterations is None else self.iterations,
            self.seconds or 0.0, self.threads, self.rng.getrandbits(64), self.rollout_actions,
            self.c, self.max_nodes, stop)
        best = max(range(len(actions)), key=lambda i: (visits[i], -i))
        return SearchResult(actions[best], tuple(actions), tuple(visits),
                            tuple(v / n if n else 0.0 for v, n in zip(values, visits)),
                            done, nodes)

    def choose(self, game: Game):
        actions = game.legal_actions()
        return _decisive(game, actions) or self.search(game).action


@dataclass
class _Node:
    seat: int                                   # the army to act here
    actions: list
    children: dict = field(default_factory=dict)
    visits: int = 0
    value: list = field(default_factory=lambda: [0.0] * NUM_SEATS)   # summed returns per seat


class PythonMCTSAgent:
    """The same UCT as :class:`MCTSAgent`, in Python over the public API only: an
    example to start from (docs/search.md). The tree, selection and backup are Python;
    rollouts run in C (``play_random(..., history=False)``); the evaluation reads
    ``Game.material()``. Budget: ``iterations`` and/or ``seconds`` per decision.
    """

    def __init__(self, iterations: int | None = 200, rollout_actions: int = 10,
                 c: float = 1.4, seed=None, *, seconds: float | None = None):
        _check_budget(iterations, seconds, 1)
        self.name = _budget_name("mcts-py", iterations, seconds, 1)
        self.iterations, self.seconds = iterations, seconds
        self.rollout_actions = rollout_actions
        self.c = c
        self.rng = random.Random(seed)

    def _returns(self, game: Game) -> list[float]:
        teams = game.config.teams
        if game.is_over:
            return list(game.returns())
        material = game.material()
        by_team: dict[int, float] = {}
        for seat in game.config.present:
            by_team[teams[seat]] = by_team.get(teams[seat], 0.0) + material[seat]
        total = sum(by_team.values()) or 1.0
        mean = total / len(by_team)
        return [0.5 * math.tanh(4 * (by_team[teams[s]] - mean) / total)
                if s in game.config.present else 0.0 for s in range(NUM_SEATS)]

    def choose(self, game: Game):
        actions = game.legal_actions()
        decisive = _decisive(game, actions)
        if decisive is not None:
            return decisive
        root = _Node(game.to_move, actions)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        while ((self.iterations is None or done < self.iterations)
               and (deadline is None or time.perf_counter() < deadline)):
            done += 1
            sim = game.copy(history=False)
            node = root
            path = [root]
            while True:                          # selection and expansion
                untried = [a for a in node.actions if a.key not in node.children]
                if untried or sim.is_over:
                    break
                node = self._select(node, sim)
                path.append(node)
            if untried and not sim.is_over:
                action = self.rng.choice(untried)
                sim.play(action)
                child = _Node(sim.to_move, [] if sim.is_over else sim.legal_actions())
                node.children[action.key] = (action, child)
                path.append(child)
            play_random(sim, self.rng.getrandbits(64), self.rollout_actions, history=False)
            returns = self._returns(sim)
            for visited in path:                  # multi-player backup
                visited.visits += 1
                for s in range(NUM_SEATS):
                    visited.value[s] += returns[s]
        if not root.children:
            return self.rng.choice(actions)
        best = max(root.children.values(), key=lambda pair: pair[1].visits)
        return best[0]

    def _select(self, node: _Node, sim: Game) -> _Node:
        log_n = math.log(node.visits)
        seat = node.seat

        def uct(pair):
            child = pair[1]
            return child.value[seat] / child.visits + self.c * math.sqrt(log_n / child.visits)
        action, child = max(node.children.values(), key=uct)
        sim.play(action)
        return child


#: The agent specs make_agent accepts, for help texts and error messages.
AGENT_SPECS = ("'random', 'greedy', 'mcts[:BUDGET][@THREADS]', 'mcts-py[:BUDGET]' "
               "(BUDGET: iterations like 500, or seconds like 0.5s)")

_MCTS_KINDS = {"mcts": MCTSAgent, "mcts-py": PythonMCTSAgent}


_BUDGET = re.compile(r"(?:(?P<iterations>[0-9]+)|(?P<seconds>[0-9]+(?:\.[0-9]*)?|\.[0-9]+)s)"
                     r"(?:@(?P<threads>[0-9]+))?")


def _parse_mcts(kind: str, arg: str, spec: str) -> dict:
    """make_agent's keyword arguments for an MCTS spec's budget (empty: the default)."""
    match = _BUDGET.fullmatch(arg)
    if arg and (match is None or (match["threads"] and kind != "mcts")):
        threads = ", then optionally '@<threads>'" if kind == "mcts" else ""
        raise ConfigError(f"bad MCTS budget in {spec!r}: '{kind}:<iterations>' or "
                          f"'{kind}:<seconds>s' with a positive number{threads}")
    kwargs: dict = {}
    if match and match["iterations"]:
        kwargs.update(iterations=parse_int(f"MCTS spec {spec[:40]!r}: iterations", match["iterations"],
                                           1, MAX_ITERATIONS, canonical=False))
    elif match:
        kwargs.update(iterations=None, seconds=float(match["seconds"]))   # (no digit limit)
    if match and match["threads"]:
        kwargs.update(threads=parse_int(f"MCTS spec {spec[:40]!r}: threads", match["threads"], 1,
                                        MAX_THREADS, canonical=False))
    return kwargs


def make_agent(spec: str, seed=None):
    """An agent from a spec (AGENT_SPECS): ``mcts:2000``, ``mcts:0.5s@2``, ``mcts-py:200``."""
    if not isinstance(spec, str):
        raise ConfigError(f"agent spec must be a string, got {spec!r}")
    kind, _, arg = spec.partition(":")
    if kind == "random" and not arg:
        return RandomAgent(seed)
    if kind == "greedy" and not arg:
        return GreedyAgent(seed)
    if kind in _MCTS_KINDS:
        return _MCTS_KINDS[kind](seed=seed, **_parse_mcts(kind, arg, spec))
    raise ConfigError(f"unknown agent {spec!r}: accepted are {AGENT_SPECS}")


#: Every built-in agent, for the ladder (``tools/ladder.py``, victorus.tournament.ladder_agents):
#: ``{budget}`` is replaced by each budget of the ladder, a spec without it plays once.
#: Add a new agent here.
LADDER_SPECS = ("random", "greedy", "mcts:{budget}", "mcts-py:{budget}")
