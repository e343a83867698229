"""The API reference site and the types users see: the site (mkdocs.yml) builds with
every public member of the main classes documented, the compiled modules' stubs (.pyi)
match the compiled modules, and a user's script type-checks with ``mypy --strict``
against the installed package. Without mkdocs or mypy (the docs and dev dependency
groups) those tests are skipped, unless ``VICTORUS_REQUIRE_DOCS=1`` (as in CI) makes that
a failure."""

import array
import ast
import doctest
import functools
import importlib
import importlib.machinery
import importlib.util
import inspect
import os
import re
import subprocess
import sys
import textwrap
import types
from pathlib import Path

import pytest

import victorus
import victorus._engine as compiled_engine
from victorus import Game, constants, errors
from victorus.agents import GreedyAgent, MCTSAgent, PythonMCTSAgent, RandomAgent
from victorus.puct import PUCTAgent
from victorus.search_agents import AlphaBetaAgent
from victorus.vector import VectorGames

ROOT = Path(__file__).resolve().parents[1]

#: The classes whose every public member the reference must show with its docstring.
DOCUMENTED = (Game, VectorGames, RandomAgent, GreedyAgent, MCTSAgent, PythonMCTSAgent,
              AlphaBetaAgent, PUCTAgent)


def public_members(cls) -> list[str]:
    return sorted(name for name in dir(cls) if not name.startswith("_"))


def need(module: str, group: str) -> None:
    """Skip without ``module``, or fail when CI requires the tools."""
    if importlib.util.find_spec(module) is None:
        if os.environ.get("VICTORUS_REQUIRE_DOCS") == "1":
            pytest.fail(f"VICTORUS_REQUIRE_DOCS=1 but {module} is missing "
                        f"(pip install $(python tools/extra.py {group}))")
        pytest.skip(f"{module} is not installed (the {group} dependency group)")


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> str:
    need("mkdocs", "docs")
    need("mkdocstrings_handlers.python", "docs")
    out = tmp_path_factory.mktemp("site")
    run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q",
                          "-f", str(ROOT / "mkdocs.yml"), "-d", str(out)],
                         capture_output=True, text=True,
                         env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert run.returncode == 0, run.stderr
    return (out / "api" / "index.html").read_text(encoding="utf-8")


def documented_ids(page: str) -> dict[str, bool]:
    """Each object's anchor on the page -> whether a docstring follows it (text before the
    next object's anchor)."""
    anchors = list(re.finditer(r'id="(victorus\.[\w.]+)"', page))
    out = {}
    for here, after in zip(anchors, anchors[1:] + [None]):
        part = page[here.end():after.start() if after else len(page)]
        out[here.group(1)] = bool(re.search(r'doc-contents[^>]*>.*?<p>', part, re.DOTALL))
    return out


@pytest.mark.parametrize("cls", DOCUMENTED, ids=lambda c: c.__name__)
def test_the_site_documents_every_public_member(site, cls):
    ids = documented_ids(site)
    path = f"{cls.__module__}.{cls.__qualname__}"
    assert ids.get(path), f"{path} is not on the API reference page with a docstring"
    missing = [name for name in public_members(cls) if not ids.get(f"{path}.{name}")]
    assert not missing, f"{path}: on the reference without a docstring, or not at all: {missing}"


def test_the_site_has_no_sphinx_roles(site):
    """Docstrings use Markdown cross-references ([`Game`][victorus.game.Game]), which the
    site turns into links; a Sphinx role would show as literal text."""
    text = re.sub(r"<[^>]+>", "", site)
    assert not re.findall(r":(?:meth|class|func|mod|attr|data|exc|obj):", text)


#: The compiled modules, dotted below the package, each with a stub (.pyi) beside it: what
#: type checkers and the API reference read in its place (a stub is the only source of its
#: types). test_every_compiled_module_has_a_stub holds this list to the modules built.
STUBBED = ("_engine", "_core", "_probe", "_vector", "search._policy", "search._greedy",
           "search._evaluate", "search._network", "search._mcts", "search._alphabeta",
           "search._puct", "search._puct_opponent")

#: The package's folder: the stubs and the Cython sources (in a wheel, the compiled
#: modules too; an editable install has those in the build's folder).
PACKAGE = Path(victorus.__file__).parent


def stub_path(module: str) -> Path:
    return PACKAGE.joinpath(*module.split(".")).with_suffix(".pyi")


@functools.cache
def stub_tree(module: str) -> ast.Module:
    return ast.parse(stub_path(module).read_text(encoding="utf-8"))


def stub_classes(module: str) -> dict[str, ast.ClassDef]:
    return {node.name: node for node in stub_tree(module).body if isinstance(node, ast.ClassDef)}


def stub_functions(node: ast.Module | ast.ClassDef) -> dict[str, ast.FunctionDef]:
    """The functions (methods) defined under node, properties left out."""
    return {child.name: child for child in node.body if isinstance(child, ast.FunctionDef)
            and not any(ast.unparse(d) == "property" for d in child.decorator_list)}


def stub_names(module: str) -> set[str]:
    names = set(stub_classes(module))
    for node in stub_tree(module).body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.FunctionDef):
            names.add(node.name)
    return {n for n in names if not n.startswith("_")}


def compiled(module: str) -> types.ModuleType:
    return importlib.import_module(f"victorus.{module}")


def compiled_names(module: str) -> set[str]:
    """The public names the compiled module defines (not those it imports)."""
    imported = [constants, errors, types, array]
    values = vars(compiled(module))
    return {name for name, value in values.items() if not name.startswith("_")
            and not any(getattr(m, name, None) is value for m in imported)
            and not (isinstance(value, types.ModuleType))}


def compiled_modules() -> set[str]:
    """Every extension module in the package's folders, dotted below the package."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    found = set()
    for root in map(Path, victorus.__path__):
        for path in root.rglob("*"):
            if path.name.endswith(suffixes):
                found.add(".".join(path.relative_to(root).with_name(path.name.partition(".")[0]).parts))
    return found


def test_every_compiled_module_has_a_stub():
    """A new compiled module fails here until it has a stub beside it and a place in
    STUBBED (which the tests below go through)."""
    built = compiled_modules()
    assert "_engine" in built and "search._mcts" in built, built   # the walk finds them
    assert not [m for m in sorted(built) if not stub_path(m).is_file()], "compiled without a stub"
    assert built == set(STUBBED)


@pytest.mark.parametrize("module", STUBBED)
def test_the_stub_names_what_the_compiled_module_defines(module):
    assert stub_names(module) == compiled_names(module)


CLASSES = [(m, c) for m in STUBBED for c in sorted(stub_classes(m))]


@pytest.mark.parametrize("module, name", CLASSES)
def test_each_stub_class_has_the_compiled_members(module, name):
    node = stub_classes(module)[name]
    in_stub = {n.name for n in node.body if isinstance(n, ast.FunctionDef)} | {
        n.target.id for n in node.body if isinstance(n, ast.AnnAssign)}
    cls = getattr(compiled(module), name)
    in_module = {n for n in vars(cls) if not n.startswith("__")}
    assert in_stub - {"__init__"} == in_module


@pytest.mark.parametrize("module, name", CLASSES)
def test_each_stub_class_has_the_compiled_bases(module, name):
    bases = [ast.unparse(base).rpartition(".")[2] for base in stub_classes(module)[name].bases]
    cls = getattr(compiled(module), name)
    assert bases == [base.__name__ for base in cls.__bases__ if base is not object]


NO_DEFAULT = object()


def stub_parameters(node: ast.FunctionDef) -> list[tuple[str, object]]:
    """(name, default) of each parameter; NO_DEFAULT for none, ``...`` for one the stub
    leaves unsaid."""
    args = node.args
    assert not (args.vararg or args.kwarg or args.kwonlyargs), \
        f"{node.name}: the compiled functions take no *args, **kwargs or keyword-only parameter"
    positional = args.posonlyargs + args.args
    defaults = [NO_DEFAULT] * (len(positional) - len(args.defaults)) + [
        ast.literal_eval(default) for default in args.defaults]
    return [(arg.arg, default) for arg, default in zip(positional, defaults)]


def same_parameters(stub: list[tuple[str, object]], actual: list[tuple[str, object]]) -> bool:
    """The same names in the same order, with the same defaults (of one left unsaid,
    ``...``, only that there is one)."""
    def same(mine: object, theirs: object) -> bool:
        if mine is ... or theirs is ...:
            return (mine is NO_DEFAULT) == (theirs is NO_DEFAULT)
        return type(mine) is type(theirs) and mine == theirs
    return [name for name, _ in stub] == [name for name, _ in actual] and all(
        same(mine, theirs) for (_, mine), (_, theirs) in zip(stub, actual))


def signature_parameters(function) -> list[tuple[str, object]]:
    return [(p.name, NO_DEFAULT if p.default is inspect.Parameter.empty else p.default)
            for p in inspect.signature(function).parameters.values()]


@pytest.mark.parametrize("module", STUBBED)
def test_the_stub_signatures_are_the_compiled_ones(module):
    """Parameter names and defaults of every function and method, read from the compiled
    functions themselves (Cython's binding gives them a signature). A class's
    ``__init__`` has none (a slot of its C type): see the test below."""
    functions = {name: (getattr(compiled(module), name), node)
                 for name, node in stub_functions(stub_tree(module)).items()}
    for cls, node in stub_classes(module).items():
        functions.update({f"{cls}.{name}": (getattr(getattr(compiled(module), cls), name), method)
                          for name, method in stub_functions(node).items() if name != "__init__"})
    wrong = [name for name, (function, node) in functions.items()
             if not same_parameters(stub_parameters(node), signature_parameters(function))]
    assert not wrong, f"{module}.pyi: parameters not the compiled ones: {wrong}"


def cython_source(module: str) -> str:
    """The module's .pyx with the files it includes (the engine's parts)."""
    pyx = stub_path(module).with_suffix(".pyx")
    text = pyx.read_text(encoding="utf-8")
    return text + "".join((pyx.parent / name).read_text(encoding="utf-8")
                          for name in re.findall(r'^include "([^"]+)"', text, re.MULTILINE))


def source_init(module: str, cls: str) -> list[tuple[str, object]] | None:
    """(name, default) of each parameter of the class's ``__init__`` (else its
    ``__cinit__``) in the Cython source, ``self`` included; None if it has neither. A
    default that is not a literal is ``...``."""
    source = cython_source(module)
    body = re.search(rf"^cdef class {cls}\b.*?(?=^[^\s#]|\Z)", source, re.MULTILINE | re.DOTALL)
    assert body, f"cdef class {cls} is not in the source of {module}"
    found = [re.search(rf"^\s+def {name}\((.*?)\):[ \t]*(?:#.*)?$", body.group(),
                       re.MULTILINE | re.DOTALL) for name in ("__init__", "__cinit__")]
    match = found[0] or found[1]
    if match is None:
        return None
    parameters, depth, start, text = [], 0, 0, match.group(1) + ","
    for i, char in enumerate(text):
        depth += (char in "([{") - (char in ")]}")
        if char == "," and depth == 0:
            declaration, equals, default = text[start:i].partition("=")
            value: object = NO_DEFAULT
            if equals:
                try:
                    value = ast.literal_eval(default.strip())
                except (ValueError, SyntaxError):
                    value = ...
            parameters.append((re.findall(r"\w+", declaration)[-1], value))
            start = i + 1
    return parameters


@pytest.mark.parametrize("module, name", CLASSES)
def test_each_stub_init_is_the_sources(module, name):
    """A compiled class's ``__init__`` has no signature to read: its parameters are held
    to the Cython source's ``__init__`` (or ``__cinit__``) instead."""
    init = stub_functions(stub_classes(module)[name]).get("__init__")
    actual = source_init(module, name)
    if init is None or actual is None:
        assert init is None and actual is None, f"{name}.__init__: in one of stub and source only"
    else:
        assert same_parameters(stub_parameters(init), actual), (stub_parameters(init), actual)


def docstrings(node) -> dict[str, str]:
    """Qualified name -> docstring of every documented class and function under node."""
    out = {}
    for child in node.body:
        if isinstance(child, (ast.ClassDef, ast.FunctionDef)):
            doc = ast.get_docstring(child)
            if doc:
                out[child.name] = doc
            if isinstance(child, ast.ClassDef):
                out.update({f"{child.name}.{k}": v for k, v in docstrings(child).items()})
    return out


def test_the_engine_stub_documents_what_users_meet():
    """victorus.StopToken and Game's compiled base: the site reads their docstrings from
    the stub."""
    documented = docstrings(stub_tree("_engine"))
    for public in ("StopToken", "GameCore"):       # what users meet: victorus.StopToken, Game
        cls = getattr(compiled_engine, public)
        for member in [public] + [f"{public}.{n}" for n in vars(cls) if not n.startswith("_")]:
            assert member in documented, f"{member} has no docstring in _engine.pyi"


@pytest.mark.parametrize("module", STUBBED)
def test_the_stub_docstrings_are_the_compiled_ones(module):
    """One text: a stub repeats the compiled docstrings (the site and editors read the
    stub, help() the module) and a change to one fails here until the other follows."""
    for name, doc in docstrings(stub_tree(module)).items():
        obj: object = compiled(module)
        for part in name.split("."):
            obj = getattr(obj, part)
        assert inspect.cleandoc(obj.__doc__ or "") == doc, name


USER_SCRIPT = """
from victorus import Game, IllegalActionError, StopToken, perft
from victorus.agents import GreedyAgent
from victorus.vector import VectorGames

game: Game = Game("compact", players=2)
actions = game.legal_actions()
game.play(actions[0])
over: bool = game.is_over
seat: int = game.to_move
round_: int = game.round
text: str = game.vpn()
try:
    game.play("not a move")
except IllegalActionError as error:
    message: str = str(error)
nodes: int = perft(Game(), 1)
token = StopToken()
token.stop()
stopped: bool = token.stopped
agent = GreedyAgent(seed=1)
games = VectorGames(2, "compact", players=2)
games.reset(seed=3)
"""


def test_a_users_script_type_checks_strictly(tmp_path):
    """py.typed and the stub: a user's ``mypy --strict`` sees the package's types."""
    need("mypy", "dev")
    script = tmp_path / "user.py"
    script.write_text(textwrap.dedent(USER_SCRIPT), encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental",
                          "--python-executable", sys.executable, str(script)],
                         capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    bad = script.read_text(encoding="utf-8") + "wrong: str = game.is_over\n"
    script.write_text(bad, encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental",
                          "--python-executable", sys.executable, str(script)],
                         capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 1 and 'type "bool", variable has type "str"' in run.stdout, \
        run.stdout



@pytest.mark.parametrize("module", ["victorus", "victorus.game", "victorus.evaluation",
                                    "victorus.vector"])
def test_the_docstring_examples_run(module):
    """The examples the reference shows (indented ``>>>`` blocks, code on the site)."""
    pytest.importorskip("numpy")
    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted and not result.failed
