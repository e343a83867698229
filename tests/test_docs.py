"""The docs stand alone: no citation of a file outside the repository or of an issue
number, every relative link resolves, the performance table is a whole bench run and
the README quotes it."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md")])

OUTSIDE = re.compile(r"RULES\.md|API\.md|shared/spec|shared spec|\.\./shared|/work/")
ISSUE = re.compile(r"\bissues? \d+|\bissue #?\d+|(?<![\w/])#\d+\b", re.IGNORECASE)
LINK = re.compile(r"\]\(([^)\s]+)\)")


def ids(path: Path) -> str:
    return str(path.relative_to(ROOT))


@pytest.mark.parametrize("path", DOCS, ids=ids)
def test_no_citation_outside_the_repository(path):
    text = path.read_text()
    assert not OUTSIDE.findall(text), f"{ids(path)} cites a file outside the repository"
    assert not ISSUE.findall(text), f"{ids(path)} cites an issue number: {ISSUE.findall(text)}"


@pytest.mark.parametrize("path", DOCS, ids=ids)
def test_relative_links_resolve(path):
    for target in LINK.findall(path.read_text()):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        file = (path.parent / target.split("#")[0]).resolve()
        assert file.exists(), f"{ids(path)} links to {target}, which does not exist"


def table_rows(text: str) -> dict[str, list[str]]:
    """The bench table of docs/performance.md: case -> the other columns."""
    block = text.split("<!-- bench table: begin -->")[1].split("<!-- bench table: end -->")[0]
    lines = [line for line in block.splitlines() if line and not line.startswith("```")]
    widths = [len(dashes) for dashes in lines[1].split("  ")]
    rows = {}
    for line in lines[2:]:
        cells, start = [], 0
        for width in widths:
            cells.append(line[start:start + width].strip())
            start += width + 2
        rows[cells[0]] = cells[1:]
    return rows


def test_performance_table_is_a_whole_bench_run_and_the_readme_quotes_it():
    sys.path.insert(0, str(ROOT / "tools"))
    from bench_table import LOOP_ROW, PERFT_ROW

    from victorus.bench import run
    rows = table_rows((ROOT / "docs" / "performance.md").read_text())
    def shape(case):                     # --quick runs smaller depths and fewer positions
        return re.sub(r"\d+", "N", case.strip())
    quick = {shape(row.case) for row in run(quick=True, progress=False)}   # rows, not speeds
    full = {shape(case) for case in rows}
    assert quick <= full
    assert full - quick <= {shape("OpenSpiel random_sim_test, one compact 2-player game")}
    perft = next(v for k, v in rows.items() if k.startswith(PERFT_ROW))
    loop = rows[LOOP_ROW]
    figures = (f"perft {float(perft[1].replace(',', '')) / 1e6:.0f}M leaves/s, "
               f"{float(loop[1].replace(',', '')) / 1e3:.0f}k random actions/s")
    assert figures in (ROOT / "README.md").read_text()


def test_pictures_are_what_victorus_draws():
    """docs/img's boards and move pictures are current (python tools/rules_pictures.py)."""
    sys.path.insert(0, str(ROOT / "tools"))
    from rules_pictures import pictures
    for name, svg in pictures().items():
        assert (ROOT / "docs" / "img" / name).read_text() == svg, f"redraw docs/img/{name}"


def test_rules_page_has_every_ruling():
    text = (ROOT / "docs" / "rules.md").read_text()
    for n in range(1, 41):
        assert re.search(rf"^\*\*R{n} [A-Z]", text, re.M), f"docs/rules.md lacks R{n}"


def test_every_page_is_on_the_site():
    """mkdocs.yml's nav lists every page of docs/ (CI builds the site with --strict)."""
    nav = (ROOT / "mkdocs.yml").read_text()
    for page in (ROOT / "docs").glob("*.md"):
        assert f": {page.name}" in nav, f"mkdocs.yml's nav lacks {page.name}"


def test_the_state_layout_table_is_the_compiled_struct():
    """docs/performance.md's StateC table: every field, offset and size as compiled, and
    the total size stated above it."""
    from victorus._engine import STATE_BYTES, STATE_LAYOUT

    text = (ROOT / "docs" / "performance.md").read_text()
    block = text.split("<!-- state layout: begin -->")[1].split("<!-- state layout: end -->")[0]
    documented = {}
    for line in block.strip().splitlines()[2:]:            # below the header and its rule
        if line.startswith("|"):
            field, offset, size = (cell.strip() for cell in line.split("|")[1:4])
            documented[field.strip("`").split("[")[0]] = (int(offset.replace(",", "")),
                                                         int(size.replace(",", "")))
    assert documented == dict(STATE_LAYOUT)
    assert f"`StateC` (`_engine.pxd`) is {STATE_BYTES:,} bytes" in text
    assert sum(size for _, size in STATE_LAYOUT.values()) == STATE_BYTES   # no padding
