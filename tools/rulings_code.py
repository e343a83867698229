"""Write docs/rulings-code.md: for every ruling R1-R40, where the code carries it.

A function cites a ruling in a comment or docstring inside it (``# R22``, ``R37(c)``);
the index lists, per ruling, each implementation's functions that cite it, so "where
is R22?" has one answer per implementation. The suite checks that the file is current
(tests/test_architecture.py), beside tests/RULINGS.md (the tests per ruling).
Usage: python tools/rulings_code.py
"""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "victorus"
OUT = ROOT / "docs" / "rulings-code.md"
RULINGS = range(1, 41)
sys.path.insert(0, str(Path(__file__).resolve().parent))
from rulings_index import ruling_sections  # noqa: E402  (a script beside this one)

#: The files searched, in the order they are listed (the rules' implementations first).
SOURCES = ("_core.pyx", "_engine.pxd", "engine/*.pxi", "_vector.pyx", "search/_mcts.pyx",
           "_reference.py", "_reference_game.py", "geometry.py", "constants.py", "variants.py",
           "notation.py", "pieces.py", "game.py", "record.py", "tensors.py", "search/*.py",
           "evaluation/*.py", "evaluation/*.pyx")
#: A function, class or struct header (a declaration like ``cdef int n = f(x)`` is not one).
DEF = re.compile(r"^\s*(?:cpdef|cdef|def|class|ctypedef)\b(?:[^(:=]*?\s)?([A-Za-z_]\w*)\s*[(:]")
RULING = re.compile(r"\bR(\d+)\b")


def citations() -> dict[int, list[str]]:
    found: dict[int, list[str]] = {n: [] for n in RULINGS}
    for pattern in SOURCES:
        for path in sorted(PACKAGE.glob(pattern)):
            name = path.relative_to(PACKAGE.parents[1]).as_posix()
            where = "(module)"
            for line in path.read_text().splitlines():
                match = DEF.match(line)
                if match:
                    where = match.group(1)
                elif line[:1].strip() and not line.startswith((")", "]", "}", '"""')):
                    where = "(module)"            # code at column 0 after a function
                for n in {int(r) for r in RULING.findall(line)} & set(RULINGS):
                    entry = f"`{name}`: `{where}`"
                    if entry not in found[n]:
                        found[n].append(entry)
    return found


def text() -> str:
    header = ["# Rulings in the code", "",
              "Written by `python tools/rulings_code.py` from the rulings cited in the code's",
              "comments and docstrings; the suite checks it is current. For each ruling, the",
              "functions (or `(module)` for module-level code) that carry it, file by file;",
              "the tests of each ruling are listed in `tests/RULINGS.md`.", ""]
    return ruling_sections(header, citations(), "no code cites it by number")


if __name__ == "__main__":
    OUT.write_text(text())
    missing = [n for n, places in citations().items() if not places]
    print(f"wrote {OUT}; rulings no code cites: {missing or 'none'}")
    sys.exit(0)
