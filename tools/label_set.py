"""Write the fixed label set training measures its labels on
(src/victorus/training/label_set.json): positions met in games of a strong agent, each with
its outcome estimated from many continuations (victorus.training.labels).

    python tools/label_set.py --workers 2            # the shipped set (about 15 CPU-minutes)
"""

from __future__ import annotations

import argparse
import os
import time

from victorus.files import write_atomic
from victorus.training.labels import LabelSet, estimate, sample_positions

CONFIGURATIONS = (("compact", 2, 100), ("compact", 3, 40))
"""(board, players, positions) of the shipped set."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--agent", default="best-net:64", help="plays the games and their continuations")
    parser.add_argument("--continuations", type=int, default=48)
    parser.add_argument("--seed", type=int, default=20261129)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", default=os.path.normpath(os.path.join(
        os.path.dirname(__file__), "..", "src", "victorus", "training", "label_set.json")))
    args = parser.parse_args()
    began = time.perf_counter()
    positions = sample_positions(CONFIGURATIONS, args.agent, args.seed)
    labelled = estimate(positions, args.continuations, args.agent, args.seed + 1, args.workers)
    write_atomic(args.out, LabelSet(tuple(labelled), args.agent, args.seed).as_json().encode())
    print(f"{len(labelled)} positions, {args.continuations} continuations each, "
          f"{time.perf_counter() - began:.0f} s: {args.out}")


if __name__ == "__main__":
    main()
