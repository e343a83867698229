"""The learning calls' own costs in instructions, which a loaded machine does not move.

The bench's "its own cost" rows are differences of two timings, and swing 2-3x when
another process shares the machine. Here valgrind's callgrind counts the instructions of
rounds over the positions of fresh games that the bench uses
(victorus.bench.position_corpus): a round is play() + undo() of a position's first legal
action (so the legal actions are new), then the call. Each case makes ``P1`` and then
``P2`` passes over all the positions, and ``(I(P2) - I(P1)) / ((P2 - P1) * positions)``
is one round's count, averaged over every position (their costs differ: a crowded middle
game has more legal actions than the start), the loop's set-up cancelling; a call's own
cost is its round's count minus that of play() + undo() alone. Each case first makes one
pass of its own, unmeasured, so that its measured passes start from the state its own
rounds leave (the game's cached legal actions above all: a case that computes them leaves
the next case's first play() nothing to generate), and what is made once (the Action
objects, numpy's first buffers) is not counted. callgrind dumps its counters at each
call of getppid(), which marks where each run starts. The whole measurement is repeated
(``--repeats``, one valgrind process each) and each figure given as its median and range.

valgrind counts every iteration of a ``rep stosb`` or ``rep movsb`` as one instruction, so
glibc's memset and memcpy, which use them from 2 KiB on processors with fast string
instructions, would count one instruction a byte: a mask's 32,764 bytes zeroed would be
32,764 instructions, where the processor writes 32 bytes or more a cycle. The runs set
glibc's tunables (REP_THRESHOLDS) so that memset and memcpy take their vector loops (32
bytes a store, about 18 bytes an instruction with the loop's own) at every size, and the
stores count as the processor makes them.

    python tools/own_cost.py [--passes 1,3] [--repeats 3] [--write docs/performance.md]

With ``--write`` the table replaces the one between the markers of docs/performance.md.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BEGIN, END = "<!-- own cost table: begin -->", "<!-- own cost table: end -->"
BASE = "play() + undo()"
#: glibc tunables for the measured process: memset and memcpy never use rep stosb/movsb.
REP_THRESHOLDS = ("glibc.cpu.x86_rep_stosb_threshold=0xffffffffffff:"
                  "glibc.cpu.x86_rep_movsb_threshold=0xffffffffffff")


#: The label of a case's unmeasured warm-up pass in the order of runs.
WARM = "(warm-up)"


def drive(passes: tuple[int, ...]) -> tuple[int, list[str]]:
    """The measured program (run under callgrind): for the base and every call, one
    unmeasured pass and then each count of passes, a getppid() mark before the first and
    after each. The positions' count and the runs in order (WARM for a warm-up)."""
    from victorus.bench import own_cost_calls, position_corpus
    corpus = position_corpus(4)
    calls = {BASE: None, **own_cost_calls(len(corpus[0].board))}
    pairs = [(game, game.legal_actions()[0]) for game in corpus]

    def run(call, count: int) -> None:
        for _ in range(count):
            for game, action in pairs:
                game.play(action)
                game.undo()
                if call is not None:
                    call(game)
    order = []
    os.getppid()
    for name, call in calls.items():
        for k, n in enumerate((1, *passes)):
            run(call, n)
            os.getppid()
            order.append(name if k else WARM)
    return len(pairs), order


def segments(folder: Path, marks: int) -> list[int]:
    """The instructions between consecutive marks: the last ``marks - 1`` numbered dumps
    (callgrind writes out.N at each mark, and Python may call getppid() itself first)."""
    dumps = sorted(folder.glob("out.*"), key=lambda p: int(p.suffix[1:]))
    totals = [int(re.search(r"^totals: (\d+)", p.read_text(), re.M).group(1)) for p in dumps]
    return totals[-(marks - 1):]


def per_round(order: list[str], counts: list[int], passes: tuple[int, ...],
              positions: int) -> dict[str, float]:
    """Instructions of one round of each case, from the runs of ``passes[0]`` and
    ``passes[-1]`` passes over ``positions`` positions."""
    out = {}
    for i in range(0, len(order), len(passes)):
        first, last = counts[i], counts[i + len(passes) - 1]
        out[order[i]] = (last - first) / ((passes[-1] - passes[0]) * positions)
    return out


def measured_env() -> dict[str, str]:
    """The measured process's environment: this one, a fixed hash seed, and REP_THRESHOLDS
    after any glibc tunables already set."""
    tunables = ":".join(filter(None, (os.environ.get("GLIBC_TUNABLES"), REP_THRESHOLDS)))
    return {**os.environ, "PYTHONHASHSEED": "0", "GLIBC_TUNABLES": tunables}


def measure(passes: tuple[int, ...]) -> dict[str, float]:
    """One valgrind run: instructions per round of each case."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        code = (f"import sys; sys.path.insert(0, {str(ROOT / 'tools')!r}); import own_cost; "
                "positions, order = own_cost.drive("
                f"{passes!r}); print(positions, '|'.join(order))")
        run = subprocess.run(
            ["valgrind", "--tool=callgrind", "--dump-before=getppid",
             f"--callgrind-out-file={folder / 'out'}", sys.executable, "-c", code],
            capture_output=True, text=True, env=measured_env())
        if run.returncode != 0:
            raise SystemExit(f"valgrind failed: {run.stderr[-2000:]}")
        positions, names = run.stdout.strip().split(" ", 1)
        order = names.split("|")
        measured = [(name, count) for name, count in zip(order, segments(folder, len(order) + 1))
                    if name != WARM]
        return per_round([name for name, _ in measured], [count for _, count in measured],
                         passes, int(positions))


def table(runs: list[dict[str, float]]) -> str:
    """Markdown: each call's own cost (instructions per call beyond play() + undo()) and
    its share of play() + undo(), as the median and range over the runs."""
    def spread(values: list[float], fmt: str) -> str:
        low, mid, high = min(values), statistics.median(values), max(values)
        return fmt.format(mid) + ("" if fmt.format(low) == fmt.format(high) else
                                  f" ({fmt.format(low)}-{fmt.format(high)})")
    base = [run[BASE] for run in runs]
    lines = ["| call | instructions of its own | x play() + undo() |", "|---|---|---|",
             f"| {BASE} itself | {spread(base, '{:,.0f}')} | 1 |"]
    for name in runs[0]:
        if name != BASE:
            own = [run[name] - run[BASE] for run in runs]
            ratio = [o / b for o, b in zip(own, base)]
            lines.append(f"| `{name}` | {spread(own, '{:,.0f}')} | {spread(ratio, '{:.2f}x')} |")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--passes", default="1,3",
                        help="the two counts of passes over the positions per case "
                             "(default 1,3)")
    parser.add_argument("--repeats", type=int, default=3,
                        help="valgrind runs, each counting every case (default 3)")
    parser.add_argument("--write", metavar="DOC", default=None,
                        help=f"replace the table between {BEGIN} and {END} in DOC")
    args = parser.parse_args(argv)
    passes = tuple(int(n) for n in args.passes.split(",") if n.strip().isdigit())
    if len(passes) != 2 or len(args.passes.split(",")) != 2 or not passes[0] < passes[1]:
        parser.error(f"--passes must be two counts, the first smaller, got {args.passes!r}")
    try:
        runs = [measure(passes) for _ in range(args.repeats)]
    except KeyboardInterrupt:
        print("own_cost: interrupted; nothing written", file=sys.stderr)
        return 130
    shown = ("the same counts in each" if all(run == runs[0] for run in runs)
             else "the median (the range)")
    text = (f"{table(runs)}\n\n`python tools/own_cost.py --passes {args.passes} "
            f"--repeats {args.repeats}`: callgrind, {args.repeats} runs, {shown}.")
    if args.write is None:
        print(text)
        return 0
    doc = Path(args.write)
    head, rest = doc.read_text().split(BEGIN)
    _, tail = rest.split(END)
    doc.write_text(f"{head}{BEGIN}\n{text}\n{END}{tail}")
    print(f"wrote the own-cost table into {doc}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
