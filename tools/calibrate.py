"""Fit the review's win-chance curves (victorus.page.calibration) on self-play games of the
review's own search.

Each game starts with a few seeded random actions (its opening), then every army plays
the review's search (`victorus.page.analysis.review_search`: ``best``'s search at
REVIEW_ITERATIONS, seeded from the position), which is also what is recorded: at every
position with more than one legal action, the search's value for the army to act (its
best action's, as the review reads it) and whether that army's team won (a shared result
counts as the share). A game that reaches ``--max-actions`` unfinished is dropped.

Play games for one number of teams, appending them to a samples file (one JSON line a
game, so runs add up and can be stopped at any time):

    nice -n 10 python tools/calibrate.py play --teams 2 --games 60 --samples cal-2.jsonl

Then fit a logistic of value per number of teams (one with at least ``--min-games`` games)
on every game of the samples files, write src/victorus/page/calibration.json (curves of
other numbers of teams already there are kept) and docs/serve.md's reliability table:

    python tools/calibrate.py fit cal-2.jsonl cal-3.jsonl --docs docs/serve.md
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import replace
from pathlib import Path

import victorus
from victorus.errors import ConfigError
from victorus.page import calibration
from victorus.page.analysis import REVIEW_AGENT, REVIEW_ITERATIONS, _teams, review_network, review_search

PLAYERS = {2: 2, 3: 3, 4: 4, 6: 6}
"""The players of a game of each number of teams (players=2 is two teams of three armies)."""
BEGIN = "<!-- calibration: tools/calibrate.py writes this table -->"
END = "<!-- end of calibration -->"


def outcome(game: victorus.Game, seat: int) -> float:
    """What ``seat``'s team got from the finished ``game``: 1 a win, 0 a loss, ``1/k``
    for a result shared by ``k`` teams, the fair share for a game nobody won."""
    teams = _teams(game)
    won = [t for t in teams if set(t) & set(game.winners or ())]
    if not won:
        return 1 / len(teams)
    return 1 / len(won) if any(seat in t for t in won) else 0.0


def play(board: str, teams: int, seed: int, opening: int, max_actions: int,
         iterations: int) -> dict[str, object] | None:
    """One self-play game's samples, or None if it reached ``max_actions`` unfinished."""
    game = victorus.Game(board, players=PLAYERS[teams])
    start = game.copy()
    rng = random.Random(seed)
    moves: list[str] = []
    for _ in range(rng.randint(0, opening)):
        if game.is_over:
            break
        action = rng.choice(game.legal_actions())
        moves.append(action.text)
        game.play(action)
    values: list[float] = []
    seats: list[int] = []
    while not game.is_over and len(moves) < max_actions:
        legal = game.legal_actions()
        if len(legal) == 1:
            action = legal[0]
        else:
            result = review_search(game, start, moves, iterations)
            action = result.action
            values.append(round(result.values[result.actions.index(action)], 5))
            seats.append(game.to_move)
        moves.append(action.text)
        game.play(action)
    if not game.is_over:
        return None
    return {"board": board, "teams": teams, "seed": seed, "iterations": iterations,
            "network": review_network(), "actions": len(moves), "values": values,
            "outcomes": [round(outcome(game, s), 5) for s in seats]}


def command_play(args: argparse.Namespace) -> int:
    path = Path(args.samples)
    done = 0
    began = time.perf_counter()
    for k in range(args.games):
        if time.process_time() > 60 * args.cpu_minutes:
            print(f"stopped after {time.process_time() / 60:.1f} CPU minutes", file=sys.stderr)
            break
        seed = args.seed + k
        found = play(args.board, args.teams, seed, args.opening, args.max_actions, args.iterations)
        if found is None:
            print(f"game {seed}: unfinished after {args.max_actions} actions, dropped", file=sys.stderr)
            continue
        with path.open("a", encoding="utf-8") as out:
            out.write(json.dumps(found) + "\n")
        done += 1
        print(f"game {seed}: {found['actions']} actions, {len(found['values'])} positions "
              f"({time.perf_counter() - began:.0f} s)", file=sys.stderr)
    return 0 if done else 1


def kept_curves(out: Path, network: str) -> dict[int, calibration.Curve]:
    """The curves of ``out`` that a fit keeps for the numbers of teams it does not fit:
    those of the same network only (another network's values need curves of their own)."""
    if not out.exists():
        return {}
    try:
        existing = calibration.load(out)
    except ConfigError as error:
        print(f"{out}: not read ({error}); no curve of it kept")
        return {}
    if existing.network != network:
        print(f"{out}: its curves are the network {existing.network}'s, the review reads "
              f"{network}: none of them kept")
        return {}
    return dict(existing.curves)


def command_fit(args: argparse.Namespace) -> int:
    games: dict[int, list[dict[str, object]]] = {}
    network = review_network()
    for name in args.samples:
        for line in Path(name).read_text(encoding="utf-8").splitlines():
            if line.strip():
                game = json.loads(line)
                if game["iterations"] != REVIEW_ITERATIONS:
                    raise SystemExit(f"{name}: a game searched at {game['iterations']} iterations, "
                                     f"the review searches {REVIEW_ITERATIONS}")
                if "network" not in game:
                    raise SystemExit(f"{name}: a game without 'network' (the content name of the "
                                     f"network its search read); play it again with this tool")
                if game["network"] != network:
                    raise SystemExit(f"{name}: a game searched with the network "
                                     f"{game['network']}, the review reads {network}")
                games.setdefault(int(game["teams"]), []).append(game)
    out = Path(args.out)
    curves = kept_curves(out, network)
    for teams, played in sorted(games.items()):
        if len(played) < args.min_games:
            print(f"{teams} teams: {len(played)} games, fewer than {args.min_games}: not fitted "
                  f"(read on the values' share scale)")
            continue
        samples = [(v, o) for g in played for v, o in zip(g["values"], g["outcomes"])]
        slope, intercept = calibration.fit(samples)
        curve = calibration.Curve(teams, slope, intercept, str(played[0]["board"]), len(played),
                                  len(samples), ())
        deciles = calibration.reliability([curve.chance(v) for v, _ in samples],
                                          [o for _, o in samples])
        curves[teams] = replace(curve, deciles=deciles)
        print(f"{teams} teams: {len(played)} games, {len(samples)} positions, slope {slope:.3f}, "
              f"intercept {intercept:.3f}, calibration error {curves[teams].error:.3f}")
    fitted = calibration.Calibration(REVIEW_AGENT, REVIEW_ITERATIONS, network, curves)
    out.write_text(calibration.dump(fitted), encoding="utf-8")
    if args.docs:
        docs = Path(args.docs)
        text = docs.read_text(encoding="utf-8")
        head, rest = text.split(BEGIN, 1)
        tail = rest.split(END, 1)[1]
        docs.write_text(f"{head}{BEGIN}\n{calibration.markdown(fitted)}{END}{tail}", encoding="utf-8")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    playing = commands.add_parser("play", help="play self-play games, appending their samples")
    playing.add_argument("--teams", type=int, choices=sorted(PLAYERS), required=True)
    playing.add_argument("--games", type=int, default=20)
    playing.add_argument("--samples", required=True, help="the JSON-lines file the games are added to")
    playing.add_argument("--board", default="standard")
    playing.add_argument("--seed", type=int, default=1, help="the first game's seed (then +1 a game)")
    playing.add_argument("--opening", type=int, default=8, help="the most random opening actions")
    playing.add_argument("--max-actions", type=int, default=1000)
    playing.add_argument("--cpu-minutes", type=float, default=15.0,
                         help="no new game once this process has spent this much CPU time")
    playing.add_argument("--iterations", type=int, default=REVIEW_ITERATIONS,
                         help="the search's iterations (the fit refuses any but the review's)")
    fitting = commands.add_parser("fit", help="fit the curves on samples files")
    fitting.add_argument("samples", nargs="+")
    fitting.add_argument("--out", default=str(calibration.DATA))
    fitting.add_argument("--docs", help="docs/serve.md: its reliability table is rewritten")
    fitting.add_argument("--min-games", type=int, default=20,
                         help="a number of teams with fewer games is left unfitted")
    args = parser.parse_args(argv)
    return command_play(args) if args.command == "play" else command_fit(args)


if __name__ == "__main__":
    sys.exit(main())
