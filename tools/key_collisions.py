"""Measure position-key collisions: play random games in C, take the key of every position
met with two independent salts, and count keys shared by positions whose second key
differs (a collision of the 64-bit key; the chance that both keys collide is ~2^-128).

Usage: python tools/key_collisions.py [--positions 10000000] [--board standard]
"""

import argparse
import time

import numpy as np

import victorus


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=10_000_000)
    parser.add_argument("--board", default="standard")
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    keys = np.zeros((args.positions, 2), np.uint64)
    start = time.perf_counter()
    victorus.Game(args.board, players=args.players)._engine.random_keys(args.seed, keys, 20_000)
    played = time.perf_counter() - start
    pairs = np.unique(keys, axis=0)                      # distinct (key, second key) pairs
    distinct_positions = len(pairs)
    distinct_keys = len(np.unique(pairs[:, 0]))
    print(f"{args.positions:,} positions met in {played:.1f} s; {distinct_positions:,} distinct "
          f"(by both keys); {distinct_keys:,} distinct keys: "
          f"{distinct_positions - distinct_keys} collisions")


if __name__ == "__main__":
    main()
