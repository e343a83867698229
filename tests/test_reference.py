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
import html
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
from victorus.search.alphabeta import AlphaBetaAgent
from victorus.search.puct import PUCTAgent
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


#: The modules users import, each on the reference page (docs/api.md) whole: every public
#: name, each class with its constructor, every parameter described.
PUBLIC_MODULES = (
    "victorus.game", "victorus.geometry", "victorus.notation", "victorus.errors",
    "victorus.record", "victorus.simulate", "victorus.workers", "victorus.search.registry",
    "victorus.search.simple", "victorus.search.mcts", "victorus.search.protocols",
    "victorus.search.budgets", "victorus.search.results", "victorus.search.choice",
    "victorus.search.rng", "victorus.search.agent",
    "victorus.search.puct", "victorus.search.alphabeta", "victorus.evaluation.heuristic",
    "victorus.evaluation.network", "victorus.evaluation.twin", "victorus.evaluation.compare",
    "victorus.evaluation.registry",
    "victorus.tournament", "victorus.match",
    "victorus.ratings", "victorus.tensors",
    "victorus.vector", "victorus.gym_env", "victorus.vector_env", "victorus.env",
    "victorus.openspiel", "victorus.training.run", "victorus.training.settings",
    "victorus.training.selfplay", "victorus.training.step", "victorus.training.gating",
    "victorus.training.checkpoint", "victorus.training.sprt", "victorus.training.ladder",
    "victorus.training.dataset", "victorus.training.labels", "victorus.render",
    "victorus.page.analysis", "victorus.view", "victorus.files")
#: The package's other modules, and why they are not on the reference page.
NOT_ON_THE_SITE = {
    "victorus.agents": "the search wing's public face: its names are documented where they "
                       "are defined (search.registry, search.simple, search.mcts, ...)",
    "victorus.evaluation": "the evaluation floor's package: its modules are on the page",
    "victorus.search": "the search wing's package: its modules are on the page",
    "victorus.training": "the training folder's package: its modules are on the page",
    "victorus.cli": "the command line (victorus --help)",
    "victorus.bench": "victorus bench (docs/performance.md)",
    "victorus.timing": "victorus bench's decisions timed against their budgets (docs/performance.md)",
    "victorus.play": "victorus play, the terminal game",
    "victorus.page": "victorus serve's package: the page's Python beside its JS",
    "victorus.page.server": "victorus serve (docs/serve.md)",
    "victorus.page.table": "victorus serve's game table",
    "victorus.session": "victorus serve's seats and agents",
    "victorus.page.page_state": "victorus serve's JSON state",
    "victorus.clock": "victorus serve's turn clock",
    "victorus.page.narration": "victorus serve's narration of the moves",
    "victorus.page.calibration": "victorus serve's review: its win-chance curves (docs/serve.md)",
    "victorus.training.plot": "the curve's picture, drawn by victorus curve --plot (docs/training.md)",
    "victorus.progress": "the commands' progress bars",
    "victorus.playthrough": "the golden playthrough files of the tests",
    "victorus.constants": "the rules' tables, generated into the C build (docs/rules.md)",
    "victorus.variants": "read through Game(variant=...) and Game.config",
    "victorus.pieces": "read through Game.piece_at and Game.view",
    "victorus.checks": "the argument checks behind every entry point",
    "victorus": "the package's face: each name it hands on is on the page at its home",
}


def package_modules() -> set[str]:
    """Every Python module of the package, dotted (``victorus.evaluation.network``), private
    ones (a leading underscore) left out."""
    names = set()
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if parts and not any(part.startswith("_") for part in parts):
            names.add(".".join(("victorus", *parts)))
    return names


def test_every_public_module_is_on_the_site_or_said_why_not():
    page = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    shown_whole = set(re.findall(r"^::: ([\w.]+)$", page, re.M))
    assert sorted(set(PUBLIC_MODULES) - shown_whole) == [], "not on docs/api.md"
    assert sorted((package_modules() | {"victorus"}) - set(PUBLIC_MODULES)
                  - set(NOT_ON_THE_SITE)) == [], \
        "neither on the site nor said why not"


def public_names(module: str) -> list[str]:
    """What a module offers: its ``__all__``, else the names it defines (not those it
    imports, nor its logger ``log``) without a leading underscore."""
    names = getattr(importlib.import_module(module), "__all__", None)
    if names is None:
        node = griffe_package()[module.removeprefix("victorus.")]
        names = [name for name, member in node.members.items()
                 if not name.startswith("_") and not member.is_alias and name != "log"]
    return sorted(names)


def home_path(module: str, name: str) -> str:
    """Where the site shows ``module.name``: at home, for a name handed on from another
    module on the site; here, for one defined here or in a module not on the site (a
    compiled module, victorus.constants)."""
    member = griffe_package()[module.removeprefix("victorus.")].members.get(name)
    if member is None or not member.is_alias:
        return f"{module}.{name}"
    try:
        home = member.final_target
    except Exception:                            # an alias griffe cannot follow: here
        return f"{module}.{name}"
    return home.path if home.module.path in PUBLIC_MODULES else f"{module}.{name}"


@pytest.mark.parametrize("module", PUBLIC_MODULES)
def test_the_site_shows_every_public_name(site, module):
    """Each name of the module's ``__all__`` (or each it defines) is on the page: where it
    is defined, for a name handed on from another module."""
    ids = documented_ids(site)
    missing = [path for path in (home_path(module, name) for name in public_names(module))
               if not ids.get(path)]
    assert missing == [], "public names missing from the reference page"


def signature_block(page: str, path: str) -> str:
    """The HTML between an object's anchor and the next object's."""
    at = page.find(f'id="{path}"')
    if at < 0:
        return ""
    after = re.search(r'id="victorus\.[\w.]+"', page[at + 10:])
    return page[at:at + 10 + after.start()] if after else page[at:]


@pytest.mark.parametrize("module", PUBLIC_MODULES)
def test_each_class_on_the_site_shows_its_constructor(site, module):
    """merge_init_into_class: ``Game(board, players, variant)`` on the class itself."""
    mod = importlib.import_module(module)
    for name in public_names(module):
        cls = getattr(mod, name)
        if not isinstance(cls, type) or cls.__module__ != module or issubclass(cls, Exception) \
                or issubclass(cls, tuple):     # a NamedTuple: its fields are its attributes
            continue
        try:
            params = [p for p in inspect.signature(cls).parameters if p not in ("args", "kwargs")]
        except (TypeError, ValueError):
            continue
        block = signature_block(site, f"{module}.{name}")
        at = block.find("doc-signature")
        head = html.unescape(re.sub(r"<[^>]+>", "", block[at:block.find("</pre>", at)])) \
            if at >= 0 else ""
        missing = [p for p in params if not re.search(rf"\b{p}\b", head)]
        assert missing == [], f"{module}.{name}'s signature on the site lacks {missing}"


@functools.cache
def griffe_package():
    """The package as griffe (the site's reader) sees it, from the sources."""
    need("griffe", "docs")
    import griffe
    return griffe.load("victorus", search_paths=[str(ROOT / "src")],
                       docstring_parser="google")


#: A function that takes another's arguments says so after the other's link, as
#: "[`render_svg`][victorus.render.render_svg] (same arguments)": those parameters are
#: described once, on the page the link leads to (they must be the other's, described there).
SAME_ARGUMENTS = re.compile(r"\]\[(victorus\.[\w.]+)\]\s+\((?:the\s+)?same\s+arguments")


def undocumented_parameters(obj, path: str) -> list[str]:
    """``path: name`` for each parameter of a function (or a class's constructor) that
    its docstring's Args section does not describe, nor the function whose arguments it
    says it takes (SAME_ARGUMENTS)."""
    def described(owner) -> set[str]:
        names: set[str] = set()
        if owner.docstring is not None:
            for section in owner.docstring.parsed:
                if section.kind.value in ("parameters", "other parameters"):
                    names.update(p.name.lstrip("*") for p in section.value)
            for target in SAME_ARGUMENTS.findall(owner.docstring.value):
                other = griffe_package()[target.removeprefix("victorus.")]
                names.update(described(other) & {p.name.lstrip("*") for p in other.parameters})
        return names
    if obj.is_class:
        if any("NamedTuple" in str(base) for base in obj.bases):    # its fields construct it
            fields = [n for n, m in obj.members.items() if m.is_attribute and not n.startswith("_")]
            return [f"{path}: {name}" for name in fields if name not in described(obj)]
        init = obj.all_members.get("__init__")
        if init is None or init.is_alias and init.target_path.startswith("builtins"):
            return []
        have = described(obj) | described(init)
        params = init.parameters
    else:
        have, params = described(obj), obj.parameters
    return [f"{path}: {p.name}" for p in params if p.name not in ("self", "cls")
            and p.name.lstrip("*") not in have]


@pytest.mark.parametrize("module", PUBLIC_MODULES)
def test_every_parameter_on_the_site_is_described(module):
    """Each public function, method and constructor of the module (a class's inherited
    methods too: Game's compiled base) describes every parameter in an Args section."""
    package = griffe_package()
    node = package[module.removeprefix("victorus.")]
    names = set(public_names(module)) | {   # and all the page shows: every public member
        name for name, member in node.members.items()
        if not name.startswith("_") and not member.is_alias}
    missing: list[str] = []
    for name, member in node.members.items():
        if name not in names or member.is_alias:
            continue
        path = f"{module}.{name}"
        if member.is_function:
            missing += undocumented_parameters(member, path)
        elif member.is_class:
            missing += undocumented_parameters(member, path)
            for method_name, method in member.all_members.items():
                target = method.final_target if method.is_alias else method
                if method_name.startswith("_") or not target.is_function:
                    continue
                missing += undocumented_parameters(target, f"{path}.{method_name}")
    assert missing == [], "parameters without a description"


#: The compiled modules, dotted below the package, each with a stub (.pyi) beside it: what
#: type checkers and the API reference read in its place (a stub is the only source of its
#: types). test_every_compiled_module_has_a_stub holds this list to the modules built.
STUBBED = ("_engine", "_core", "_probe", "_vector", "search._policy", "search._greedy",
           "evaluation._evaluator", "evaluation._terms", "evaluation._heuristic",
           "evaluation._material", "evaluation._network", "evaluation._uniform",
           "evaluation._rollouts", "evaluation._lookahead", "search._mcts", "search._alphabeta",
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
import numpy as np
from numpy.typing import NDArray

from victorus import Game, IllegalActionError, NotationError, SimulatedGame, StopToken, perft, simulate
from victorus.agents import GreedyAgent, MCTSAgent, RandomAgent, make_agent
from victorus.env import env as aec_env
from victorus.gym_env import LearnerEnv
from victorus.openspiel import VictorusSpielGame
from victorus.record import dumps, loads
from victorus.evaluation.network import Network
from victorus.tournament import TournamentResult, tournament
from victorus.training import Settings
from victorus.vector import VectorGames
from victorus.vector_env import VictorusVectorEnv

game: Game = Game("compact", players=2)
actions = game.legal_actions()
game.play(actions[0])
over: bool = game.is_over
seat: int = game.to_move
round_: int = game.round
text: str = game.vpn()
try:
    game.play("not a move")
except (IllegalActionError, NotationError) as error:
    message: str = str(error)
nodes: int = perft(Game(), 1)
mask: NDArray[np.bool_] = game.legal_action_mask()
ident: int = game.action_id(actions[0])
observation: NDArray[np.float32] = game.observation(game.to_move)
token = StopToken()
token.stop()
stopped: bool = token.stopped
games_played: list[SimulatedGame] = simulate(2, seed=1, board="compact", players=2)
record_text: str = dumps(game)
replayed: Game = loads(record_text)

greedy = GreedyAgent(seed=1)
choice = greedy.choose(game)
searcher = MCTSAgent(iterations=20, seed=1)
spec_agent = make_agent("mcts:20")
result: TournamentResult = tournament([RandomAgent(seed=1), "greedy"], 2)
rate: float = result.win_rate(result.agents[0])
settings = Settings(rounds=1, games=2)
network: Network = Network.fresh(8, 4)

games = VectorGames(2, "compact", players=2)
games.reset(seed=3)
legal: NDArray[np.bool_] | None = games.masks
sampled: NDArray[np.int32] = games.sample()
stepped: VectorGames = games.step(sampled)
rewards: NDArray[np.float32] = games.rewards

learner = LearnerEnv("compact", 2, opponent="greedy")
obs, info = learner.reset(seed=0)
obs, reward, terminated, truncated, info = learner.step(int(learner.action_masks().argmax()))
vector_env = VictorusVectorEnv(2, "compact", players=2)
vobs, vinfo = vector_env.reset(seed=0)
vobs, vrewards, vterminated, vtruncated, vinfo = vector_env.step(vector_env.sample_legal())
pz = aec_env(board="compact", players=2)
pz.reset(seed=0)
pz_obs, pz_reward, pz_term, pz_trunc, pz_info = pz.last()
pz.step(int(np.flatnonzero(pz_obs["action_mask"])[0]))
spiel_game = VictorusSpielGame()
spiel_state = spiel_game.new_initial_state()
spiel_state.apply_action(spiel_state.legal_actions()[0])
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
                                    "victorus.vector", "victorus.gym_env",
                                    "victorus.vector_env"])
def test_the_docstring_examples_run(module):
    """The examples the reference shows (indented ``>>>`` blocks, code on the site)."""
    pytest.importorskip("numpy")
    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted and not result.failed
