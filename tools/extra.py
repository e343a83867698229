"""Print the requirements of one of pyproject.toml's extras, space-separated, so that CI can
install a tool's pinned versions without building the package:
    pip install $(python tools/extra.py dev)
Reads the file with tomllib (Python 3.11+) or tomli; on Python 3.10 without tomli, with a
small reader of the one-line lists this project writes."""

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
        return list(toml.loads(text)["project"]["optional-dependencies"][name])
    match = re.search(rf'^{re.escape(name)} = (\[(?:\s*"[^"]*"\s*,?)*\s*\])', text, re.M)
    if match is None:
        raise SystemExit(f"pyproject.toml has no extra {name!r}")
    return list(ast.literal_eval(match.group(1)))


if __name__ == "__main__":
    print(" ".join(extra(sys.argv[1])))
