"""Paired matches between two agents from random openings, colours swapped, with the
Wilson 95% interval of the first agent's win rate (two teams, R33).

Each opening is ``--plies`` uniformly random actions from the start (seeded); it is played
twice, the first agent taking each team once, so neither side nor opening favours it.
A game past ``--max-actions`` (R36) is unfinished and counts as neither win nor loss.

Usage: python tools/match.py alphabeta:0.05s greedy --openings 20 [--board compact]
Prints one line: wins, losses, draws, unfinished, the win rate and its interval.

Agents are asked on a copy of the game (victorus.tournament.play_agent). An agent that
raises or answers an action the game refuses stops the match: the line of the games
finished before it is printed, then the error naming the agent, the game (0 is the
first) and the position (VPN); the exit status is 1.
"""

from __future__ import annotations

import argparse
import math
import random
import sys

import victorus
from victorus.agents import make_agent
from victorus.errors import AgentError
from victorus.progress import Progress
from victorus.tournament import play_agent


class MatchResult:
    """Games of the first agent: wins, losses, draws and unfinished games."""

    def __init__(self) -> None:
        self.wins = self.losses = self.draws = self.unfinished = 0

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws + self.unfinished

    def interval(self, z: float = 1.96) -> tuple[float, float]:
        """Wilson score interval of the win rate (wins / games)."""
        n, p = self.games, self.wins / max(1, self.games)
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return max(0.0, centre - half), min(1.0, centre + half)

    def line(self) -> str:
        if not self.games:
            return "no game finished"
        low, high = self.interval()
        return (f"wins {self.wins} losses {self.losses} draws {self.draws} unfinished "
                f"{self.unfinished} of {self.games}: win rate {self.wins / self.games:.3f} "
                f"[{low:.3f}, {high:.3f}]")


def opening(seed: int, plies: int, board: str, players: int) -> victorus.Game:
    """``plies`` random actions from the start (another seed if the game ends)."""
    while True:
        game = victorus.Game(board, players=players)
        victorus.play_random(game, seed=seed, max_actions=plies)
        if not game.is_over:
            return game
        seed += 1_000_003


def play(game: victorus.Game, agents: dict, max_actions: int, where: str = "") -> victorus.Game:
    """Play ``game`` on: ``agents`` maps a team number to its agent (AgentError if one
    fails, naming ``where``)."""
    teams = game.config.teams
    for _ in range(max_actions):
        if game.is_over:
            break
        play_agent(agents[teams[game.to_move]], game, where)
    return game


def match(first, second, openings: int, seed: int = 0, plies: int = 8, board: str = "compact",
          max_actions: int = 1500, progress=None) -> MatchResult:
    """``first`` and ``second``: factories ``seed -> agent``. Each opening twice, colours
    swapped. AgentError if an agent fails; its ``result`` is the games finished before."""
    result = MatchResult()
    rng = random.Random(seed)
    with Progress(2 * openings, "games", progress) as bar:
        for _ in range(openings):
            start = opening(rng.getrandbits(32), plies, board, 2)
            team_ids = sorted(set(start.config.teams))
            for side in (0, 1):
                ours, theirs = team_ids[side], team_ids[1 - side]
                agents = {ours: first(rng.getrandbits(32)), theirs: second(rng.getrandbits(32))}
                try:
                    game = play(start.copy(), agents, max_actions, f"game {result.games}")
                except AgentError as error:
                    raise AgentError(str(error), result) from error
                if not game.is_over:
                    result.unfinished += 1
                elif not game.winners:
                    result.draws += 1
                elif game.config.teams[game.winners[0]] == ours:
                    result.wins += 1
                else:
                    result.losses += 1
                bar.advance()
    return result


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("first")
    parser.add_argument("second")
    parser.add_argument("--openings", type=int, default=20)
    parser.add_argument("--plies", type=int, default=8)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--board", default="compact")
    parser.add_argument("--max-actions", type=int, default=1500)
    parser.add_argument("--network", default=None,
                        help="the .vnet file of the agents on the learned evaluation (*-net "
                             "kinds; default: the shipped network)")
    args = parser.parse_args(argv)

    def agent(spec: str, seed: int):
        learned = args.network is not None and spec.partition(":")[0].endswith("-net")
        return make_agent(spec, seed=seed, **({"network": args.network} if learned else {}))
    try:
        result = match(lambda s: agent(args.first, s), lambda s: agent(args.second, s),
                       args.openings, args.seed, args.plies, args.board, args.max_actions)
    except AgentError as error:
        print(f"{args.first} vs {args.second}, {args.board} 2 players, stopped: "
              f"{error.result.line()}")
        print(f"match.py: error: {error}", file=sys.stderr)
        return 1
    print(f"{args.first} vs {args.second}, {args.board} 2 players: {result.line()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
