"""Agents behind one small interface, and a seeded tournament runner.

An agent has a ``name`` and ``choose(game) -> Action`` (a legal action of the
army to act). ``make_agent("mcts:200", seed=1)`` builds one from a spec:
``random``, ``greedy``, ``mcts[:iterations]``.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

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


@dataclass
class _Node:
    seat: int                                   # the army to act here
    actions: list
    children: dict = field(default_factory=dict)
    visits: int = 0
    value: list = field(default_factory=lambda: [0.0] * 6)   # summed returns per seat


class MCTSAgent:
    """UCT with random rollouts and a value per seat backed up the tree.

    Rollouts run in the C engine for at most ``rollout_actions`` actions; an
    unfinished rollout is scored by material (R37 points on the board and
    held, per team) scaled into (-0.5, 0.5), so that a real win (+1) always
    counts for more. An action that wins at once is taken without search.
    Budget: ``iterations`` per decision.
    """

    def __init__(self, iterations: int = 200, rollout_actions: int = 200, c: float = 1.4,
                 seed=None):
        if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
            raise ConfigError(f"iterations must be a positive integer, got {iterations!r}")
        self.name = f"mcts:{iterations}"
        self.iterations = iterations
        self.rollout_actions = rollout_actions
        self.c = c
        self.rng = random.Random(seed)

    def _returns(self, game: Game) -> list[float]:
        teams = game.config.teams
        if game.is_over:
            winners = set(game.winners or ())
            if not winners:
                return [0.0] * 6
            return [1.0 if s in winners else -1.0 for s in range(6)]
        material = game.material()
        by_team: dict[int, float] = {}
        for seat in game.config.present:
            by_team[teams[seat]] = by_team.get(teams[seat], 0.0) + material[seat]
        total = sum(by_team.values()) or 1.0
        mean = total / len(by_team)
        return [0.5 * math.tanh(4 * (by_team.get(teams[s], 0.0) - mean) / total)
                for s in range(6)]

    def choose(self, game: Game):
        root = _Node(game.to_move, game.legal_actions())
        if len(root.actions) == 1:
            return root.actions[0]
        for action in root.actions:                 # a decisive action needs no search
            trial = game.copy(history=False)
            trial.play(action)
            if trial.is_over and game.to_move in (trial.winners or ()):
                return action
        for _ in range(self.iterations):
            sim = game.copy(history=False)
            node, path = root, [root]
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
                for s in range(6):
                    visited.value[s] += returns[s]
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
AGENT_SPECS = "'random', 'greedy', 'mcts', 'mcts:<iterations>'"


def make_agent(spec: str, seed=None):
    """An agent from a spec (AGENT_SPECS)."""
    if not isinstance(spec, str):
        raise ConfigError(f"agent spec must be a string, got {spec!r}")
    kind, _, arg = spec.partition(":")
    if kind == "random" and not arg:
        return RandomAgent(seed)
    if kind == "greedy" and not arg:
        return GreedyAgent(seed)
    if kind == "mcts":
        if arg and not (arg.isascii() and arg.isdigit() and int(arg) > 0):
            raise ConfigError(f"bad MCTS budget in {spec!r}: 'mcts:<iterations>' with a "
                              f"positive integer")
        return MCTSAgent(int(arg) if arg else 200, seed=seed)
    raise ConfigError(f"unknown agent {spec!r}: accepted are {AGENT_SPECS}")


@dataclass
class TournamentResult:
    """Per agent spec: games played, wins, draws, and the 95% Wilson interval of the win rate."""

    agents: tuple[str, ...]
    games: int
    wins: dict
    draws: int
    unfinished: int

    def win_rate(self, agent: str) -> float:
        return self.wins.get(agent, 0) / self.games if self.games else 0.0

    def interval(self, agent: str, z: float = 1.96) -> tuple[float, float]:
        """Wilson score interval of the win rate."""
        n = self.games
        if n == 0:
            return 0.0, 1.0
        p = self.win_rate(agent)
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return max(0.0, centre - half), min(1.0, centre + half)

    def table(self) -> str:
        lines = [f"games: {self.games}, draws: {self.draws}, unfinished: {self.unfinished}"]
        for agent in self.agents:
            low, high = self.interval(agent)
            lines.append(f"{agent:>12}: wins {self.wins.get(agent, 0):>4}  rate "
                         f"{self.win_rate(agent):.3f}  95% CI [{low:.3f}, {high:.3f}]")
        return "\n".join(lines)


def tournament(agents, games: int, seed: int = 0, board: str = "compact", players: int = 2,
               variant: str = "standard", max_actions: int = 3000, progress=False):
    """Play ``games`` seeded games between agent specs, one spec per team (R33).

    Specs rotate over the teams from game to game, so every agent plays every
    side equally often. A game past ``max_actions`` (R36) counts as unfinished.
    """
    from .progress import Progress
    agents = tuple(agents)
    if len(agents) < 2:
        raise ConfigError(f"a tournament needs at least two agents, got {agents!r}")
    prototype = Game(board, players=players, variant=variant)
    teams = sorted({prototype.config.teams[s] for s in prototype.config.present})
    if len(agents) != len(teams):
        raise ConfigError(f"{len(teams)} teams play with {players} players: give "
                          f"{len(teams)} agents, got {len(agents)}")
    for spec in agents:
        make_agent(spec)                                  # validate every spec first
    wins: dict[str, int] = {}
    draws = unfinished = 0
    with Progress(games, "games", progress) as bar:
        for g in range(games):
            rng = random.Random(seed * 1_000_003 + g)
            order = [agents[(i + g) % len(agents)] for i in range(len(agents))]
            players_by_team = {team: make_agent(order[i], seed=rng.getrandbits(32))
                               for i, team in enumerate(teams)}
            game = Game(board, players=players, variant=variant)
            n = 0
            while not game.is_over and n < max_actions:
                agent = players_by_team[game.config.teams[game.to_move]]
                game.play(agent.choose(game))
                n += 1
            if not game.is_over:
                unfinished += 1
            elif not game.winners:
                draws += 1
            else:
                team = game.config.teams[game.winners[0]]
                spec = order[teams.index(team)]
                wins[spec] = wins.get(spec, 0) + 1
            bar.advance()
    return TournamentResult(agents, games, wins, draws, unfinished)
