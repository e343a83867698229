"""Tune the heuristic evaluation's weights by self-play (docs/agents.md, "The heuristic
evaluation"): coordinate descent, one term at a time, each candidate weight set playing
the current one in paired matches (tools/match.py: random openings, colours swapped) on
the 2-player compact board, both sides a depth-limited alpha-beta.

A candidate replaces the current weights when its score ((wins + half the other games) /
games) is above ``--accept``. Prints every match and the final weights.
Usage: python tools/tune_evaluation.py [--openings 30] [--depth 2] [--rounds 2]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from match import match  # noqa: E402

from victorus.agents import AlphaBetaAgent  # noqa: E402
from victorus.evaluation import DEFAULT_WEIGHTS, TERMS  # noqa: E402
from victorus.evaluation.registry import heuristic  # noqa: E402

#: Multipliers tried per term (a weight at 0 tries these values instead).
FACTORS = (0.0, 0.5, 2.0)
FROM_ZERO = (0.1, 0.3, 1.0)


def score(weights: dict, against: dict, openings: int, depth: int, seed: int) -> float:
    def player(w):
        return lambda s: AlphaBetaAgent(10**12, s, depth=depth, evaluator=heuristic(w))
    result = match(player(weights), player(against), openings, seed=seed, progress=False)
    value = (result.wins + 0.5 * (result.draws + result.unfinished)) / result.games
    print(f"  {weights} vs {against}: {result.line()} score {value:.3f}", flush=True)
    return value


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--openings", type=int, default=30)
    parser.add_argument("--depth", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--accept", type=float, default=0.55)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    current = dict(DEFAULT_WEIGHTS)
    started = time.process_time()
    for round_number in range(args.rounds):
        for term in TERMS:
            tries = ([current[term] * f for f in FACTORS] if current[term]
                     else list(FROM_ZERO))
            for value in tries:
                candidate = {**current, term: round(value, 4)}
                print(f"round {round_number + 1}, {term} = {candidate[term]}", flush=True)
                if score(candidate, current, args.openings, args.depth, args.seed) > args.accept:
                    current = candidate
                    print(f"  accepted: {current}", flush=True)
    print(f"final weights: {current} (CPU {time.process_time() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
