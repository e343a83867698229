"""Write tests/MAP.md: for every floor of docs/architecture.md's table, the test files that
import its modules.

A test file's imports of ``victorus`` modules are read from its source (``import
victorus.x``, ``from victorus.x import y``, lazy ones inside functions too); importing
``victorus`` itself counts for floor 0, the API. The floors are read as
tests/test_architecture.py reads them. The suite checks that the file is current.
Usage: python tools/tests_map.py
"""

import ast
import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"
OUT = TESTS / "MAP.md"


def house_map() -> dict[str, tuple[float, str]]:
    """docs/architecture.md's floors, module -> (floor, room): test_architecture's reader."""
    spec = importlib.util.spec_from_file_location("test_architecture",
                                                  TESTS / "test_architecture.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.house_map()


def imported(tree: ast.Module, modules: set[str]) -> set[str]:
    """The package's modules (names below ``victorus``; ``""``: the package itself) that
    ``tree`` imports: ``from victorus.a import b`` is ``a.b`` when that is a module, else
    ``a``."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.removeprefix("victorus").removeprefix(".")
                         for alias in node.names
                         if alias.name == "victorus" or alias.name.startswith("victorus."))
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and (
                node.module == "victorus" or node.module.startswith("victorus.")):
            stem = node.module.removeprefix("victorus").removeprefix(".")
            for alias in node.names:
                name = f"{stem}.{alias.name}".lstrip(".")
                found.add(name if name in modules else stem)
    return found


def text() -> str:
    floors = house_map()
    api = next(place for place in floors.values() if place[0] == 0)
    rooms: dict[tuple[float, str], dict[str, set[str]]] = {place: {} for place in floors.values()}
    for path in sorted(TESTS.glob("test_*.py")):
        for module in imported(ast.parse(path.read_text()), set(floors)):
            place = floors.get(module, api if module == "" else None)
            if place is not None:
                rooms[place].setdefault(path.name, set()).add(module or "victorus")
    lines = ["# Tests by floor", "",
             "Written by `python tools/tests_map.py` from the test files' imports and the floors",
             "of `docs/architecture.md`; the suite checks it is current. Importing `victorus`",
             "itself counts for floor 0, the API.", ""]
    for (floor, room), files in rooms.items():
        inside = any(other != floor and int(other) == floor for other, _ in rooms)  # 4.0, 4.1
        lines.append(f"## {floor:.1f}: {room}" if inside else f"## {floor:g}: {room}")
        lines += [f"- `{name}`: " + ", ".join(f"`{m}`" for m in sorted(used))
                  for name, used in sorted(files.items())] or ["- (no test file imports it)"]
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    OUT.write_text(text())
    print(f"wrote {OUT}")
    sys.exit(0)
