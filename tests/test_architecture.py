"""Architecture rules: no import cycles, and the pure-Python reference runs
without the compiled extensions."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "victorus"


def module_name(path: Path) -> str:
    """A package file's module name below ``victorus``: ``game``, ``search.mcts``,
    ``search`` (a package's __init__.py)."""
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" and len(parts) > 1 else parts)


def without_type_checking(tree: ast.Module) -> ast.Module:
    """``tree`` less its ``if TYPE_CHECKING:`` blocks: imports for the type checker only,
    never run, so no arrow between rooms (a type may name a room above)."""
    class Strip(ast.NodeTransformer):
        def visit_If(self, node: ast.If) -> ast.AST | None:
            if ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
                return None if not node.orelse else ast.If(
                    test=ast.Constant(False), body=[ast.Pass()], orelse=node.orelse)
            return self.generic_visit(node)
    return Strip().visit(tree)


def import_graph() -> dict[str, set[str]]:
    """Module -> the package modules it imports, at any depth of the file (lazy imports
    inside functions count too); names are below ``victorus`` (``search.mcts``), the
    package's own face is ``__init__``."""
    graph = {}
    modules = {module_name(p) for p in [*PACKAGE.rglob("*.py"), *PACKAGE.rglob("*.pyx"),
                                        *PACKAGE.rglob("*.pxd")]}
    for path in PACKAGE.rglob("*.py"):
        name = module_name(path)
        package = name.rpartition(".")[0] if path.name != "__init__.py" or name == "__init__" \
            else name
        package = "" if name == "__init__" else package
        deps = set()
        for node in ast.walk(without_type_checking(ast.parse(path.read_text()))):
            if isinstance(node, ast.ImportFrom) and node.level >= 1:
                base = package.split(".") if package else []
                base = base[:len(base) - (node.level - 1)] if node.level > 1 else base
                stem = ".".join(base + ([node.module] if node.module else []))
                targets = [stem] if node.module else [
                    ".".join(base + [alias.name]) for alias in node.names]
                if node.module:
                    targets += [f"{stem}.{alias.name}" for alias in node.names]
                deps.update(t for t in targets if t in modules)
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("victorus."):
                stem = node.module[len("victorus."):]
                deps.update(t for t in [stem, *(f"{stem}.{a.name}" for a in node.names)]
                            if t in modules)
        graph[name] = deps - {name}
    return graph


def cimport_graph() -> dict[str, set[str]]:
    """Compiled module (a .pyx with its .pxd, and the engine's .pxi parts) -> the package
    modules it cimports or imports."""
    import re
    graph: dict[str, set[str]] = {}
    for path in [*PACKAGE.rglob("*.pyx"), *PACKAGE.rglob("*.pxd"), *PACKAGE.glob("engine/*.pxi")]:
        name = "_engine" if path.suffix == ".pxi" else module_name(path)
        text = path.read_text()
        deps = set(re.findall(r"^\s*from victorus\.([\w.]+) c?import", text, re.M))
        graph.setdefault(name, set()).update(deps - {name})
    return graph


def house_map() -> dict[str, tuple[float, str]]:
    """docs/architecture.md's floors: module -> (floor, room); a floor inside a folder's
    room is numbered below it (4.1, 4.2: floors of the search wing)."""
    import re
    text = (PACKAGE.parents[1] / "docs" / "architecture.md").read_text()
    table = text[text.index("<!-- floors:"):text.index("<!-- end of floors -->")]
    floors: dict[str, tuple[float, str]] = {}
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or not re.fullmatch(r"-?\d+(\.\d)?", cells[0]):
            continue
        for file in re.findall(r"`([^`]+)`", cells[2]):
            name = file.rsplit(".", 1)[0].replace("/", ".").removesuffix(".__init__")
            assert name not in floors, f"{file} is on two floors"
            floors[name] = (float(cells[0]), cells[1])
    return floors


def test_the_architecture_map_is_the_code():
    """docs/architecture.md: every module on exactly one floor, and no module using one
    on a floor above its own (imports and cimports, lazy ones too)."""
    floors = house_map()
    modules = {module_name(p) for p in [*PACKAGE.rglob("*.py"), *PACKAGE.rglob("*.pyx"),
                                        *PACKAGE.rglob("*.pxd")]} - {"__init__"}
    assert sorted(modules - set(floors)) == [], "modules the map leaves out"
    assert sorted(set(floors) - modules) == [], "files the map names that do not exist"
    uses = import_graph()
    for name, deps in cimport_graph().items():
        uses.setdefault(name, set()).update(deps)
    upward = sorted(f"{a} (floor {floors[a][0]}) uses {b} (floor {floors[b][0]})"
                    for a, deps in uses.items() if a in floors
                    for b in deps if b in floors and floors[b][0] > floors[a][0])
    assert upward == []


def test_the_folders_are_floors_ordered_inside():
    """Each folder (the search wing, the evaluation floor, training, the page) is several
    floors inside one floor of the house (so the map orders the rooms inside it, and the
    test above holds every arrow there to point down), and evaluation is below every
    search."""
    floors = house_map()
    folders = sorted(p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file())
    assert folders == ["evaluation", "page", "search", "training"]
    for folder, whole in (("search", 4), ("evaluation", 3), ("training", 6), ("page", 7)):
        inside = {floor for name, (floor, _) in floors.items()
                  if name == folder or name.startswith(folder + ".")}
        assert len(inside) >= 3 and all(whole <= floor < whole + 1 for floor in inside), folder
    assert max(f for n, (f, _) in floors.items() if n.startswith("evaluation")) < \
        min(f for n, (f, _) in floors.items() if n.startswith("search"))


def test_the_searches_cimport_only_the_evaluator_interface():
    """A C search values its leaves through the evaluator interface
    (evaluation/_evaluator.pxd), never an evaluator's own module: a new evaluator edits no
    search."""
    graph = cimport_graph()
    searches = [name for name in graph if name.startswith("search._")]
    assert {"search._mcts", "search._puct", "search._alphabeta"} <= set(searches)
    wrong = sorted(f"{name} cimports {dep}" for name in searches for dep in graph[name]
                   if dep.startswith("evaluation") and dep != "evaluation._evaluator")
    assert wrong == []


def test_the_search_agents_import_only_the_evaluation_face():
    """The Python twin of the test above: a search module takes an Evaluator (or its
    spec) through the evaluation floor's face and registry, never the network's module
    or an evaluator's compiled one, so the network's form never reaches a search."""
    graph = import_graph()
    searches = [name for name in graph if name.startswith("search.") or name == "search"]
    assert {"search.puct", "search.mcts", "search.alphabeta", "search.registry"} <= set(searches)
    wrong = sorted(f"{name} imports {dep}" for name in searches for dep in graph[name]
                   if dep == "evaluation.network" or dep.startswith("evaluation._"))
    assert wrong == []


def test_the_vector_pool_cimports_no_search():
    """The vector pool plays any C agent through its Opponent (search/_policy.pxd): it
    cimports the interface, never a search."""
    deps = cimport_graph()["_vector"]
    assert "search._policy" in deps
    assert sorted(d for d in deps if d.startswith("search.") and d != "search._policy") == []


def test_no_import_cycles():
    graph = import_graph()
    assert "render" in graph["__init__"] and "geometry" in graph["render"]
    seen, stack, cycles = set(), [], []

    def visit(module):
        if module in stack:
            cycles.append(stack[stack.index(module):] + [module])
            return
        if module in seen or module not in graph:
            return
        seen.add(module)
        stack.append(module)
        for dep in sorted(graph[module] - {"__init__"}):
            visit(dep)
        stack.pop()
    for module in sorted(graph):
        visit(module)
    assert cycles == []


def test_the_reference_rules_run_without_the_compiled_extensions():
    code = """
import sys
sys.modules["victorus._core"] = sys.modules["victorus._engine"] = None    # a broken build
from victorus._reference_game import ReferenceGame, reference_perft
print(reference_perft(ReferenceGame("compact", players=2), 2))
import victorus
try:
    victorus.Game
except ImportError as exc:
    print(exc)
"""
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    count, message = result.stdout.splitlines()[:2]
    assert count == "165"                                  # PERFT.md, compact 2 players
    assert "needs the compiled engine" in message and "pip install ." in message


def load_tool(name: str):
    """The module tools/<name>.py (the tools are scripts, not a package)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(name, PACKAGE.parents[1] / "tools" / f"{name}.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    return tool


def test_rulings_index_is_current():
    """tests/RULINGS.md maps every ruling to the tests citing it (tools/rulings_index.py)."""
    root = PACKAGE.parents[1]
    tool = load_tool("rulings_index")
    assert (root / "tests" / "RULINGS.md").read_text() == tool.text(), \
        "python tools/rulings_index.py rewrites it"
    assert all(tool.citations()[n] for n in range(1, 41))       # every ruling has a test


def test_the_readme_layout_lists_every_module():
    readme = (PACKAGE.parents[1] / "README.md").read_text()
    layout = readme[readme.index("## Layout"):readme.index("## Development")]
    files = [p for p in [*PACKAGE.rglob("*.py"), *PACKAGE.rglob("*.pyx")] if p.stem != "__init__"]
    missing = sorted(p.name for p in files if f"`{p.name}`" not in layout
                     and f"/{p.name}`" not in layout and f"`{p.stem}.py" not in layout)
    assert missing == []
    assert "`src/victorus/search/`" in layout          # the wing's room, one row


def test_rulings_code_index_is_current():
    """docs/rulings-code.md maps every ruling to the code citing it (tools/rulings_code.py)."""
    root = PACKAGE.parents[1]
    tool = load_tool("rulings_code")
    assert (root / "docs" / "rulings-code.md").read_text() == tool.text(), \
        "python tools/rulings_code.py rewrites it"
    assert "(no code cites it by number)" not in tool.text()


def cython_functions(path: Path) -> list[tuple[str, int]]:
    """Each function defined in a Cython file (``def``, ``cdef``, ``cpdef``; declarations
    without a body left out): its name and its lines, its docstring left out."""
    import re
    head = re.compile(r"^(\s*)c?p?def\s[^=]*?(\w+)\s*\(")
    lines = path.read_text().splitlines()
    found = []
    for i, line in enumerate(lines):
        match = head.match(line)
        if not match or re.match(r"\s*(cdef|ctypedef)\s+(class|struct|enum|extern)\b", line):
            continue
        end = i
        while end < len(lines) and not lines[end].rstrip().endswith(":"):
            if end > i and head.match(lines[end]):
                break
            end += 1
        if end >= len(lines) or not lines[end].rstrip().endswith(":"):
            continue                                 # a declaration (.pxd, forward)
        indent, last = len(match.group(1)), end + 1
        while last < len(lines) and (not lines[last].strip()
                                     or len(lines[last]) - len(lines[last].lstrip()) > indent):
            last += 1
        while last > end + 1 and not lines[last - 1].strip():
            last -= 1
        body = [text.strip() for text in lines[end + 1:last]]
        doc = 0
        if body and body[0][:3] in ('"""', "'''"):
            quote = body[0][:3]
            doc = 1 if body[0].count(quote) >= 2 and len(body[0]) > 3 else next(
                (k + 1 for k in range(1, len(body)) if quote in body[k]), len(body))
        found.append((match.group(2), last - i - doc))
    return found


def test_cython_functions_are_read_whole():
    """The function reader of test_rooms_stay_small on a known file: every function of
    _material.pyx found, with its length."""
    found = dict(cython_functions(PACKAGE / "evaluation" / "_material.pyx"))
    assert set(found) == {"material_value", "__init__"}
    assert 25 <= found["material_value"] <= 32 and found["__init__"] == 2


def test_rooms_stay_small():
    """No source file of the package over 1,000 lines and no function over 80 lines,
    Python or Cython: a room that grows past them is split along its seams
    (docs/architecture.md)."""
    sources = [*PACKAGE.rglob("*.py"), *PACKAGE.rglob("*.pyx"), *PACKAGE.rglob("*.pxd"),
               *PACKAGE.glob("engine/*.pxi"), *PACKAGE.glob("page/web/*")]
    assert [p.name for p in sources if len(p.read_text().splitlines()) > 1000] == []
    long = [f"{path.name}:{node.name}" for path in PACKAGE.rglob("*.py")
            for node in ast.walk(ast.parse(path.read_text()))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and code_lines(node) > 80]
    long += [f"{path.name}:{name}" for path in [*PACKAGE.rglob("*.pyx"),
                                                *PACKAGE.glob("engine/*.pxi")]
             for name, length in cython_functions(path) if length > 80]
    assert long == []


def code_lines(function: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """A function's lines, its docstring left out (the reference's Args, Returns and
    Raises sections document it; they do not make the room bigger)."""
    lines = function.end_lineno - function.lineno + 1
    first = function.body[0]
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
            and isinstance(first.value.value, str):
        lines -= first.end_lineno - first.lineno + 1
    return lines


def test_ci_reads_each_extra_the_same_without_a_toml_library(monkeypatch):
    """tools/extra.py (CI installs the pinned linters and the docs tools with it) reads
    the dependency groups and extras alike with tomllib and with its own reader (Python
    3.10 without tomli)."""
    import sys
    tool = load_tool("extra")
    names = ("dev", "docs", "test", "render", "rl")
    with_toml = [tool.extra(name) for name in names]
    monkeypatch.setitem(sys.modules, "tomllib", None)
    monkeypatch.setitem(sys.modules, "tomli", None)
    assert [tool.extra(name) for name in names] == with_toml and all(with_toml)


def pyproject() -> dict:
    tomllib = pytest.importorskip("tomllib")
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_the_project_tools_are_groups_not_published_extras():
    """The lint gate and the site's tools are PEP 735 dependency groups: a user installing
    victorus[...] is never offered them."""
    data = pyproject()
    assert {"dev", "docs"} <= set(data["dependency-groups"])
    assert not {"dev", "docs"} & set(data["project"]["optional-dependencies"])


def test_the_python_versions_agree():
    """requires-python, the version classifiers and the wheels built (cibuildwheel) name
    the same CPythons."""
    data = pyproject()
    classified = {c.rsplit(" ", 1)[1] for c in data["project"]["classifiers"]
                  if c.startswith("Programming Language :: Python :: 3.")}
    built = {f"3.{tag[3:-2]}" for tag in data["tool"]["cibuildwheel"]["build"].split()}
    assert classified == built
    oldest = min(classified, key=lambda version: int(version.split(".")[1]))
    assert data["project"]["requires-python"] == f">={oldest}"


def test_the_license_is_declared_once_and_shipped():
    """PEP 639: an SPDX expression and the file it names; no license classifier beside it."""
    project = pyproject()["project"]
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")
    assert not [c for c in project["classifiers"] if c.startswith("License ::")]


def test_the_installed_metadata_carries_the_license_and_no_project_tools():
    """What pip installed (the wheel built from this tree in CI) says what pyproject.toml
    says: the SPDX license with its file shipped in the dist-info (PEP 639), every Python
    version classifier, and the extras without the project's own tool groups."""
    from importlib import metadata
    project = pyproject()["project"]
    found = metadata.metadata("victorus")
    assert found["License-Expression"] == project["license"]
    assert found.get_all("License-File") == project["license-files"]
    shipped = metadata.distribution("victorus").read_text("licenses/LICENSE")
    assert shipped == (ROOT / "LICENSE").read_text()
    assert set(found.get_all("Classifier")) == set(project["classifiers"])
    assert found["Requires-Python"] == project["requires-python"]
    assert set(found.get_all("Provides-Extra")) == set(project["optional-dependencies"])


def test_the_scripts_help_opens_with_whole_sentences():
    """A tool's or example's --help description is its docstring's first paragraph, whole
    sentences, not its first line cut mid-sentence."""
    scripts = [*(ROOT / "tools").glob("*.py"), *(ROOT / "examples").glob("*.py")]
    using = [path for path in scripts if "description=__doc__" in path.read_text()]
    assert len(using) >= 10
    for path in using:
        text = path.read_text()
        assert 'description=__doc__.split("\\n\\n")[0]' in text, path.name
        first = ast.get_docstring(ast.parse(text), clean=False).split("\n\n")[0]
        assert first.rstrip().endswith("."), (path.name, first[-60:])


def test_tests_map_is_current():
    """tests/MAP.md lists, floor by floor of docs/architecture.md, the test files importing
    its modules (tools/tests_map.py)."""
    tool = load_tool("tests_map")
    assert (ROOT / "tests" / "MAP.md").read_text() == tool.text(), \
        "python tools/tests_map.py rewrites it"
