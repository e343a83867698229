"""The API reference site and the types users see: the site (mkdocs.yml) builds with
every public member of the main classes documented, the compiled modules' stubs (.pyi)
match the compiled modules, and a user's script type-checks with ``mypy --strict``
against the installed package. Without mkdocs or mypy (the docs and dev dependency
groups) those tests are skipped, unless ``VICTORUS_REQUIRE_DOCS=1`` (as in CI) makes that
a failure."""

import array
import ast
import doctest
import importlib
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
import victorus._engine as compiled
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


#: The compiled modules with a stub (.pyi) beside them. The search modules (_mcts, _puct,
#: _alphabeta, _greedy, _evaluate, _vector) have none yet: type checkers see Any there.
STUBBED = ("_engine", "_core", "_probe")


def stub_tree(module: str) -> ast.Module:
    path = Path(victorus.__file__).with_name(f"{module}.pyi")
    return ast.parse(path.read_text(encoding="utf-8"))


def stub_classes(module: str) -> dict[str, ast.ClassDef]:
    return {node.name: node for node in stub_tree(module).body if isinstance(node, ast.ClassDef)}


def stub_names(module: str) -> set[str]:
    names = set(stub_classes(module))
    for node in stub_tree(module).body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return {n for n in names if not n.startswith("_")}


def compiled_names(module: str) -> set[str]:
    """The public names the compiled module defines (not those it imports)."""
    imported = [constants, errors, types, array]
    values = vars(importlib.import_module(f"victorus.{module}"))
    return {name for name, value in values.items() if not name.startswith("_")
            and not any(getattr(m, name, None) is value for m in imported)
            and not (isinstance(value, types.ModuleType))}


@pytest.mark.parametrize("module", STUBBED)
def test_the_stub_names_what_the_compiled_module_defines(module):
    assert stub_names(module) == compiled_names(module)


@pytest.mark.parametrize("module, name", [(m, c) for m in STUBBED for c in sorted(stub_classes(m))])
def test_each_stub_class_has_the_compiled_members(module, name):
    node = stub_classes(module)[name]
    in_stub = {n.name for n in node.body if isinstance(n, ast.FunctionDef)} | {
        n.target.id for n in node.body if isinstance(n, ast.AnnAssign)}
    cls = getattr(importlib.import_module(f"victorus.{module}"), name)
    in_module = {n for n in vars(cls) if not n.startswith("__")}
    assert in_stub - {"__init__"} == in_module


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


def test_the_stub_docstrings_are_the_compiled_ones():
    """One text: the stub repeats the compiled docstrings (the site reads the stub, help()
    the module) and a change to one fails here until the other follows."""
    documented = docstrings(stub_tree("_engine"))
    for public in ("StopToken", "GameCore"):       # what users meet: victorus.StopToken, Game
        cls = getattr(compiled, public)
        for member in [public] + [f"{public}.{n}" for n in vars(cls) if not n.startswith("_")]:
            assert member in documented, f"{member} has no docstring in _engine.pyi"
    for name, doc in documented.items():
        obj = compiled
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
