"""The ladder of every built-in agent (LADDER_SPECS) at two or more budgets: one round
robin, Bradley-Terry ratings (Elo scale, random = 0) with 95% intervals, written as the
markdown table of docs/agents.md (``--anchor``, default greedy, is rated 0).

    python tools/ladder.py --budgets 0.01s,0.05s --games 20 --openings 4 --write docs/agents.md

Without ``--write`` the table goes to standard output. The command and the machine are
written under the table, so the page says how to reproduce it. An agent that fails (it
raises, or answers an action the game refuses) stops the run: the games finished before
it are printed to standard error with the error naming the agent, the game and the
position (VPN), nothing is written, and the exit status is 1.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import sys
import time
from pathlib import Path

from victorus.errors import AgentError
from victorus.tournament import calibrate, ladder_agents, tournament

BEGIN, END = "<!-- ladder: begin -->", "<!-- ladder: end -->"


def machine() -> str:
    """The CPU model and the cores this run could use."""
    model = platform.machine() or "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} cores, Python {platform.python_version()}"


def _cpu_seconds() -> float:
    """CPU time of this process and of its finished worker processes."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def markdown(result, anchor: str, command: str, wall: float, cpu: float,
             calibration=None) -> str:
    """The ratings as a markdown table, then the command, the machine and the time taken."""
    lines = [f"| agent | rating (Elo, {anchor} = 0) | 95% interval | games | wins | draws or unfinished |",
             "|---|---|---|---|---|---|"]
    pairs = result.pairs()
    for r in result.ratings(anchor):
        draws = sum(p.draws for p in pairs if r.agent in (p.a, p.b))
        lines.append(f"| {r.agent} | {r.rating:.0f} | [{r.low:.0f}, {r.high:.0f}] | {r.games} | "
                     f"{result.wins[r.agent]} | {draws} |")
    lines += ["", f"Measured with `{command}` on {machine()}: {wall / 60:.1f} minutes, "
                  f"{cpu / 60:.1f} minutes of CPU ({cpu / wall:.0%} of a core: the machine was "
                  f"shared, so the time budgets searched less than on an idle core)."]
    if calibration is not None:
        lines[-1] = (f"Measured with `{command}` on {machine()}: {wall / 60:.1f} minutes. Equal "
                     f"CPU: each time budget was played as the count its agent searched in that "
                     f"time on this machine first (median of {calibration.positions} positions): "
                     f"{calibration.line()}.")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budgets", default="0.01s,0.05s",
                        help="comma-separated budgets per decision, like 0.05s or 500 (default "
                             "0.01s,0.05s)")
    parser.add_argument("--games", type=int, default=20,
                        help="games per pair of agents, a multiple of 2 (default 20)")
    parser.add_argument("--openings", type=int, default=4,
                        help="random plies per opening, each opening played with the sides swapped")
    parser.add_argument("--board", choices=("standard", "compact"), default="compact")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--anchor", default="greedy",
                        help="the agent rated 0 (default greedy: random loses nearly every game, "
                             "so ratings against it say little)")
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--equal-cpu", action="store_true",
                        help="play each time budget as the iterations or nodes its agent "
                             "searches in that time here, measured first (victorus.tournament."
                             "calibrate): ratings that do not move with the load")
    parser.add_argument("--write", metavar="DOC", default=None,
                        help=f"replace the table between {BEGIN} and {END} in DOC")
    args = parser.parse_args(argv)
    agents = ladder_agents(budget.strip() for budget in args.budgets.split(","))
    if args.write is not None and Path(args.write).read_text().count(BEGIN) != 1:
        parser.error(f"{args.write} must hold one {BEGIN} ... {END} block")
    if args.anchor not in agents:
        parser.error(f"--anchor must be one of {', '.join(agents)}")
    wall, cpu = time.perf_counter(), _cpu_seconds()
    calibration = None
    if args.equal_cpu:
        calibration = calibrate(agents, args.board, 2, seed=args.seed)
        agents = tuple(calibration.budgets[spec] for spec in agents)
        print(f"equal CPU: {calibration.line()}", file=sys.stderr)
    anchor = calibration.budgets[args.anchor] if calibration is not None else args.anchor
    try:
        result = tournament(agents, args.games, seed=args.seed, board=args.board, players=2,
                            openings=args.openings, workers=args.workers)
    except AgentError as error:          # a part of a ladder is no ladder: nothing written
        if error.result is not None:
            print(error.result.table(), file=sys.stderr)
        print(f"ladder.py: error: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:           # as victorus's commands: one line, the shell's 130
        print("ladder: interrupted; nothing written", file=sys.stderr)
        return 130
    wall, cpu = time.perf_counter() - wall, _cpu_seconds() - cpu
    command = (f"python tools/ladder.py --budgets {args.budgets} --games {args.games} "
               f"--openings {args.openings} --board {args.board} --seed {args.seed} "
               f"--anchor {args.anchor} --workers {args.workers}"
               + (" --equal-cpu" if args.equal_cpu else ""))
    table = markdown(result, anchor, command, wall, cpu, calibration)
    print(result.table(), file=sys.stderr)
    if args.write is None:
        print(table)
        return 0
    doc = Path(args.write)
    head, rest = doc.read_text().split(BEGIN)
    _, tail = rest.split(END)
    doc.write_text(f"{head}{BEGIN}\n{table}\n{END}{tail}")
    print(f"wrote the ladder into {doc}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
