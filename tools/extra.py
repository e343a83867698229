"""Print the requirements of one of pyproject.toml's dependency groups (PEP 735: dev,
docs) or extras (rl, test...), space-separated, so that CI can install a tool's pinned
versions without building the package and with any pip (``pip install --group`` needs
pip 25.1):
    pip install $(python tools/extra.py dev)
Reads the file with tomllib (Python 3.11+) or tomli; on Python 3.10 without tomli, with a
small reader of the one-line lists this project writes. A name is either a group or an
extra, never both; groups here list requirements only (no ``include-group``)."""

import ast
import re
import sys
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"


def extra(name: str) -> list[str]:
    text = PYPROJECT.read_text()
    try:
        import tomllib as toml
    except ImportError:
        try:
            import tomli as toml  # type: ignore[no-redef]
        except ImportError:
            toml = None
    if toml is not None:
        data = toml.loads(text)
        found = [table[name] for table in (data.get("dependency-groups", {}),
                                           data["project"].get("optional-dependencies", {}))
                 if name in table]
    else:
        found = [ast.literal_eval(m.group(1)) for m in re.finditer(
            rf'^{re.escape(name)} = (\[(?:\s*"[^"]*"\s*,?)*\s*\])', text, re.M)]
    if len(found) != 1:
        raise SystemExit(f"pyproject.toml has {len(found) or 'no'} dependency group or extra "
                         f"named {name!r}; one is needed")
    return list(found[0])


if __name__ == "__main__":
    print(" ".join(extra(sys.argv[1])))
