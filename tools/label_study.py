"""The label study: on the fixed label set (victorus.training.labels), the squared error to
the estimated outcomes of a network alone (the student) and of its labelling search at
several depths (the teacher), the part no evaluation removes (the estimates' own noise), and
the blend of search value and game result that a value label should use given those errors.

    python tools/label_study.py                      # the shipped network, 200 800 8000
    python tools/label_study.py --network run/round-003.vnet --iterations 800

A label ``b x search + (1 - b) x result`` has the expected squared error
``b^2 e + (1 - b)^2 v`` against the true expected outcome, where ``e`` is the search's excess
error and ``v`` one game's result variance (from the continuations); it is least at
``b = v / (e + v)``.
"""

from __future__ import annotations

import argparse
import hashlib
import time

from victorus.evaluation.network import network_from
from victorus.evaluation.registry import network as network_evaluator
from victorus.game import Game
from victorus.training.labels import LabelSet, errors, label_errors
from victorus.training.selfplay import search_agent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--network", default="default", help="a network's name or path")
    parser.add_argument("--iterations", type=int, nargs="+", default=[200, 800, 8000])
    parser.add_argument("--set", default=None, help="a label set file (default: the shipped one)")
    args = parser.parse_args()
    labels = LabelSet.read(args.set)
    network = network_from(args.network)
    evaluator = network_evaluator(network)
    continuations = labels.positions[0].continuations
    # one game's result variance: the estimates' variance times their continuations
    result_variance = sum(p.variance * p.continuations for p in labels.positions) / len(labels.positions)
    student = errors(network.evaluate, labels)
    floor = sum(p.variance for p in labels.positions) / len(labels.positions)
    print(f"{len(labels.positions)} positions, {continuations} continuations each by "
          f"{labels.agent}; floor (the estimates' noise) {floor:.4f}; one game's result "
          f"variance {result_variance:.3f}")
    print(f"student ({args.network}): {student:.4f} (excess {max(student - floor, 0):.4f})")
    for iterations in args.iterations:
        began = time.perf_counter()

        def teacher(game: Game, iterations: int = iterations) -> tuple[float, ...]:
            seed = int.from_bytes(hashlib.sha256(game.vpn().encode()).digest()[:8], "little")
            return search_agent(evaluator, iterations, seed).search(game).seat_values

        found = label_errors(network.evaluate, teacher, labels)
        excess = found["excess"]["teacher"]
        blend = result_variance / (excess + result_variance) if excess + result_variance else 1.0
        label = blend ** 2 * excess + (1 - blend) ** 2 * result_variance
        half = 0.25 * excess + 0.25 * result_variance
        print(f"teacher {iterations:>6} iterations: {found['teacher']:.4f} (excess {excess:.4f}; "
              f"{100 * found['ahead']:.0f}% of the student's excess removed); best blend "
              f"{blend:.2f} (label error {label:.4f}; at 0.5: {half:.4f}); "
              f"{time.perf_counter() - began:.0f} s")


if __name__ == "__main__":
    main()
