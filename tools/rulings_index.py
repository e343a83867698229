"""Write tests/RULINGS.md: for every ruling of RULES.md (R1-R40), the tests that cite it.

A test cites a ruling in its name (``..._r17``, ``..._r20_r33``) or in its docstring
(``R37(c)``). The suite checks that the file is current (tests/test_architecture.py).
Usage: python tools/rulings_index.py
"""

import ast
import re
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1] / "tests"
OUT = TESTS / "RULINGS.md"
RULINGS = range(1, 41)


def citations() -> dict[int, list[str]]:
    found: dict[int, list[str]] = {n: [] for n in RULINGS}
    for path in sorted(TESTS.glob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.FunctionDef) or not node.name.startswith("test_"):
                continue
            cited = {int(n) for n in re.findall(r"_r(\d+)(?=_|$)", node.name)}
            cited |= {int(n) for n in re.findall(r"\bR(\d+)\b", ast.get_docstring(node) or "")}
            for n in sorted(cited & set(RULINGS)):
                found[n].append(f"{path.name}::{node.name}")
    return found


def ruling_sections(header: list[str], found: dict[int, list[str]], empty: str) -> str:
    """A page of ``header`` lines, then a section per ruling listing what cites it."""
    lines = list(header)
    for n, items in found.items():
        lines.append(f"## R{n}")
        lines += [f"- {item}" for item in items] or [f"- ({empty})"]
        lines.append("")
    return "\n".join(lines)


def text() -> str:
    header = ["# Rulings and their tests", "",
              "Written by `python tools/rulings_index.py` from the tests' names and docstrings;",
              "the suite checks it is current. Perft (R40) and the mid-game perft positions",
              "exercise every ruling at once (`test_perft.py`).", ""]
    found = {n: [f"`{t}`" for t in tests] for n, tests in citations().items()}
    return ruling_sections(header, found, "no test cites it by number")


if __name__ == "__main__":
    OUT.write_text(text())
    missing = [n for n, tests in citations().items() if not tests]
    print(f"wrote {OUT}; rulings no test names: {missing or 'none'}")
    sys.exit(0)
