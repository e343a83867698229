"""Measure the review's targets (docs/serve.md, "The review's figures") on seeded games of two
teams where one team plays random legal actions against ``best``.

The figures:

- recall: of the random actions (not forced) that lose at least 0.1 of calibrated chance
  by a search 20 times deeper than the review's, the share the review marks;
- precision: of all the review's marks, the share that deeper search confirms (its loss
  reaches the inaccuracy threshold too);
- repeat: a second review of the same record gives identical points and marks;
- calibration error: the shipped curve's mean |predicted - observed| over its deciles;
- time: the review's seconds per position (the machine's load average beside it).

The deeper search judges an action as the review does (the mover's team's chance after
the best action minus after the action played, the position after it searched too), only
with 20 times the iterations and a larger tree. Each threshold set given by
``--thresholds`` is scored on the same searches, so that the marks' thresholds can be
chosen on the figures:

    nice -n 10 python tools/review_targets.py --seeds 1 --out targets.json
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time

import victorus
from victorus import record
from victorus.agents import REGISTRY, PUCTAgent, make_agent
from victorus.page import calibration
from victorus.page.analysis import (
    MARKS,
    REVIEW_AGENT,
    REVIEW_ITERATIONS,
    Review,
    _teams,
    describe,
    over,
    position_seed,
)

DEEPER = 20
"""How many times the review's iterations the confirming search spends."""
DEEP_NODES = 2_000_000
"""The confirming search's tree bound (176 MB)."""
LOSING = 0.1
"""The loss of calibrated chance from which a random action should be marked."""


def play(seed: int, best: str) -> victorus.Game:
    """A game of two teams on the standard board: the first team (seats 0, 2, 4) plays
    random legal actions (seeded), the other ``best``."""
    game = victorus.Game("standard", players=2)
    rng = random.Random(seed)
    agent = make_agent(best, seed=seed)
    while not game.is_over:
        legal = game.legal_actions()
        action = rng.choice(legal) if game.config.teams[game.to_move] == 0 else agent.choose(game)
        game.play(action)
    return game


def deep_search(position: victorus.Game, seed: int, iterations: int) -> victorus.agents.SearchResult:
    kind = REGISTRY[REVIEW_AGENT]
    assert kind.evaluator is not None
    agent = PUCTAgent(iterations, evaluator=kind.evaluator, seed=seed, max_nodes=DEEP_NODES,
                      reuse_tree=False, **kind.settings)
    return agent.search(position.copy(history=False))


def deep_losses(game: victorus.Game, wanted: set[int], iterations: int) -> dict[int, float]:
    """The deeper search's loss of each wanted action (by its position's index)."""
    start = record.starting_game(game)
    history = [a.text for a in game.history()]
    positions = [start.copy()]
    for text in history:
        positions.append(positions[-1].copy(history=False))
        positions[-1].play(text)
    cache: dict[int, tuple[list[float | None], str | None]] = {}

    def valued(index: int) -> tuple[list[float | None], str | None]:
        at = index
        while at < len(history) and len(positions[at].legal_actions()) == 1:
            at += 1
        if at not in cache:
            position = positions[at]
            if position.is_over:
                cache[at] = (over(position)["chances"], None)
            else:
                found = describe(position, deep_search(position, position_seed(start, history[:at]),
                                                       iterations))
                cache[at] = (found["chances"], found["best"])
        return cache[at]

    out = {}
    for index in sorted(wanted):
        seat = positions[index].to_move
        chances, best = valued(index)
        if best == history[index]:
            out[index] = 0.0
        else:
            out[index] = round(max(0.0, chances[seat] - valued(index + 1)[0][seat]), 3)
    return out


def reviewed(game: victorus.Game, iterations: int) -> tuple[dict[str, object], float, float]:
    """A review of ``game``, its wall-clock seconds and the CPU seconds this process spent
    meanwhile (the review's thread: the machine's other work left out)."""
    review = Review(iterations=iterations)
    began, cpu = time.perf_counter(), time.process_time()
    review.start(game, "targets")
    assert review.thread is not None
    review.thread.join()
    state = review.state()
    assert state["status"] == "done", state.get("error")
    return state, time.perf_counter() - began, time.process_time() - cpu


def measure(seed: int, best: str, threshold_sets: list[tuple[float, float, float]],
            iterations: int) -> dict[str, object]:
    game = play(seed, best)
    load_before = os.getloadavg()[0]
    first, seconds, cpu = reviewed(game, iterations)
    second, _, _ = reviewed(record.loads(record.dumps(game)), iterations)
    points = first["points"]
    assert isinstance(points, list)
    searched = sum(1 for p in points if p["kind"] != "end" and not p["forced"])
    random_points = {p["index"] for p in points
                     if p["kind"] == "played" and not p["forced"] and game.config.teams[p["seat"]] == 0}
    losses = {p["index"]: p["loss"] for p in points if p["kind"] == "played" and not p["forced"]}
    deep = deep_losses(game, set(losses), iterations * DEEPER)
    teams = len(_teams(game))
    scored = []
    for base in threshold_sets:
        thresholds = {m: round(t * 2 / teams, 4) for m, t in zip(MARKS, base)}
        marked = {i for i, loss in losses.items() if loss is not None and loss >= thresholds["?!"]}
        losing = {i for i in random_points if deep[i] >= LOSING}
        confirmed = {i for i in marked if deep[i] >= thresholds["?!"]}
        scored.append({"thresholds": thresholds, "marks": len(marked),
                       "random_losing": len(losing), "random_losing_marked": len(losing & marked),
                       "recall": round(len(losing & marked) / len(losing), 3) if losing else None,
                       "confirmed": len(confirmed),
                       "precision": round(len(confirmed) / len(marked), 3) if marked else None})
    return {"seed": seed, "best": best, "actions": game.ply, "winners": list(game.winners or ()),
            "positions": len(points), "searched": searched, "review_seconds": round(seconds, 2),
            "seconds_per_position": round(seconds / len(points), 4),
            "seconds_per_searched_position": round(seconds / max(1, searched), 4),
            "cpu_seconds_per_position": round(cpu / len(points), 4),
            "load_average": [round(load_before, 2), round(os.getloadavg()[0], 2)],
            "identical": all(first[k] == second[k] for k in ("points", "marks", "counts", "accuracy")),
            "review_thresholds": first["thresholds"], "review_marks": len(first["marks"]),
            "accuracy": first["accuracy"], "scores": scored}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1])
    parser.add_argument("--best", default=f"best:{REVIEW_ITERATIONS}",
                        help="the spec of the agent the random team plays against")
    parser.add_argument("--thresholds", default="0.05,0.1,0.15;0.1,0.2,0.3",
                        help="two-team threshold sets to score, ';'-separated (each '?!,?,??')")
    parser.add_argument("--iterations", type=int, default=REVIEW_ITERATIONS,
                        help="the review's iterations (the shipped review's unless given)")
    parser.add_argument("--out", help="a JSON file for the figures")
    args = parser.parse_args(argv)
    sets = [tuple(float(x) for x in part.split(",")) for part in args.thresholds.split(";")]
    curve = calibration.CALIBRATION.curves.get(2)
    figures = {"review_iterations": args.iterations, "deeper": DEEPER,
               "calibration_error_2_teams": None if curve is None else curve.error,
               "games": []}
    for seed in args.seeds:
        found = measure(seed, args.best, sets, args.iterations)     # type: ignore[arg-type]
        figures["games"].append(found)                # type: ignore[attr-defined]
        print(json.dumps(found), file=sys.stderr)
    text = json.dumps(figures, indent=1)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as out:
            out.write(text + "\n")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
