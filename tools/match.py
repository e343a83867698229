"""Paired matches between two agents from random openings, colours swapped, with the
Wilson 95% interval of the first agent's win rate (two teams, R33).

Each opening is ``--plies`` uniformly random actions from the start (seeded); it is played
twice, the first agent taking each team once, so neither side nor opening favours it.
A game past ``--max-actions`` (R36) is unfinished and counts as neither win nor loss.

Usage: python tools/match.py alphabeta:0.05s greedy --openings 20 [--board compact]
Prints one line: wins, losses, draws, unfinished, the win rate and its interval.
"""

from __future__ import annotations

import argparse
import math
import random
import sys

import victorus
from victorus.agents import make_agent
from victorus.progress import Progress


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


def play(game: victorus.Game, agents: dict, max_actions: int) -> victorus.Game:
    """Play ``game`` on: ``agents`` maps a team number to its agent."""
    teams = game.config.teams
    for _ in range(max_actions):
        if game.is_over:
            break
        game.play(agents[teams[game.to_move]].choose(game))
    return game


def match(first, second, openings: int, seed: int = 0, plies: int = 8, board: str = "compact",
          max_actions: int = 1500, progress=None) -> MatchResult:
    """``first`` and ``second``: factories ``seed -> agent``. Each opening twice, colours
    swapped."""
    result = MatchResult()
    rng = random.Random(seed)
    with Progress(2 * openings, "games", progress) as bar:
        for _ in range(openings):
            start = opening(rng.getrandbits(32), plies, board, 2)
            team_ids = sorted(set(start.config.teams))
            for side in (0, 1):
                ours, theirs = team_ids[side], team_ids[1 - side]
                game = play(start.copy(), {ours: first(rng.getrandbits(32)),
                                           theirs: second(rng.getrandbits(32))}, max_actions)
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
    args = parser.parse_args(argv)
    result = match(lambda s: make_agent(args.first, seed=s), lambda s: make_agent(args.second, seed=s),
                   args.openings, args.seed, args.plies, args.board, args.max_actions)
    print(f"{args.first} vs {args.second}, {args.board} 2 players: {result.line()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
