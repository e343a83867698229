"""Write the table of docs/performance.md from a ``victorus bench --json`` run, and the
README's speed figures from that table.

    victorus bench --json bench.json && python tools/bench_table.py bench.json

Every row of the run goes in; nothing is typed by hand, so the docs quote one run.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

from victorus.bench import Row, format_table

ROOT = Path(__file__).resolve().parent.parent
BEGIN, END = "<!-- bench table: begin -->", "<!-- bench table: end -->"
#: The README quotes these two rows (the main job and the Python API loop).
PERFT_ROW = "perft, standard start"
LOOP_ROW = "random playout, public API loop, fresh games"


def rows_of(data: dict) -> list[Row]:
    return [Row(r["case"], r["unit"], r["victorus"], r["baseline"], r["higher_is_better"],
                r["baseline_is"], r.get("skipped")) for r in data["rows"]]


def readme_figures(rows: list[Row]) -> str:
    """The README's sentence: perft leaves/s and the API loop's actions/s."""
    perft = next(r for r in rows if r.case.startswith(PERFT_ROW))
    loop = next(r for r in rows if r.case == LOOP_ROW)
    return f"perft {perft.fast / 1e6:.0f}M leaves/s, {loop.fast / 1e3:.0f}k random actions/s"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("json", help="the output of victorus bench --json (the full run)")
    args = parser.parse_args(argv)
    data = json.loads(Path(args.json).read_text())
    if data.get("quick"):
        parser.error("give a full run (victorus bench --json FILE), not --quick")
    rows = rows_of(data)
    doc = ROOT / "docs" / "performance.md"
    text = doc.read_text()
    head, rest = text.split(BEGIN)
    _, tail = rest.split(END)
    doc.write_text(f"{head}{BEGIN}\n```\n{format_table(rows)}\n```\n{END}{tail}")
    readme = ROOT / "README.md"
    text, n = re.subn(r"perft \d+M leaves/s, \d+k random actions/s", readme_figures(rows),
                      readme.read_text())
    if n != 1:
        raise SystemExit("README.md: the speed figures' sentence was not found once")
    readme.write_text(text)
    print(f"wrote {doc.relative_to(ROOT)} ({len(rows)} rows) and the README's figures")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
