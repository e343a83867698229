"""Optional packages: each import of one that is missing says, in one form, what to pip
install (victorus.errors.install_hint), and victorus bench says which rows it skipped
and why instead of printing a rate of 0 or dropping them."""

import subprocess
import sys
from pathlib import Path

import pytest

from victorus import bench
from victorus.errors import OPTIONAL_PACKAGES, MissingDependencyError, install_hint

ROOT = Path(__file__).resolve().parents[1]

#: Runs ``code`` with the named top-level modules unimportable, as on a plain install.
WITHOUT = """
import importlib.abc, sys
blocked = set(sys.argv[1].split(","))
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.partition(".")[0] in blocked:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
sys.meta_path.insert(0, Block())
exec(sys.argv[2])
"""


def run_without(modules: str, code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", WITHOUT, modules, code],
                          capture_output=True, text=True, timeout=120)


def test_each_hint_names_an_extra_that_brings_the_package():
    tomllib = pytest.importorskip("tomllib")
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]
    for module, (pip_name, extra) in OPTIONAL_PACKAGES.items():
        names = {req.split(">")[0].split("=")[0].split("[")[0] for req in extras[extra]}
        assert pip_name in names, f"{module}: {pip_name} is not in victorus[{extra}]"


@pytest.mark.parametrize("module, blocked, hint", [
    ("victorus.env", "gymnasium,pettingzoo", "victorus.env (PettingZoo) needs gymnasium: "
                                             'pip install "victorus[pettingzoo]"'),
    ("victorus.env", "pettingzoo", "victorus.env (PettingZoo) needs pettingzoo: "
                                   'pip install "victorus[pettingzoo]"'),
    ("victorus.gym_env", "gymnasium", "victorus.gym_env (gymnasium) needs gymnasium: "
                                      'pip install "victorus[pettingzoo]"'),
    ("victorus.vector_env", "gymnasium", "victorus.vector_env (gymnasium) needs gymnasium: "
                                         'pip install "victorus[pettingzoo]"'),
    ("victorus.openspiel", "pyspiel", "victorus.openspiel needs open_spiel: "
                                      'pip install "victorus[openspiel]"'),
])
def test_importing_an_adapter_without_its_package_says_what_to_install(module, blocked, hint):
    result = run_without(blocked, f"import {module}")
    assert result.stderr.strip().splitlines()[-1] == \
        f"victorus.errors.MissingDependencyError: {hint}"


def test_pictures_and_ray_say_what_to_install():
    result = run_without("cairosvg", "import victorus, victorus.render as r\n"
                                     "r.render_png(victorus.Game())")
    assert result.stderr.strip().splitlines()[-1].endswith(
        'a PNG picture needs cairosvg: pip install "victorus[render]" '
        "(or write .svg, which needs nothing)")
    result = run_without("ray", "import victorus\nvictorus.simulate(1, backend='ray')")
    assert result.stderr.strip().splitlines()[-1].endswith(
        "backend='ray' needs ray: pip install \"victorus[ray]\"")


def test_an_rgb_picture_says_what_to_install():
    result = run_without("PIL", "import victorus, victorus.render as r\n"
                                "r.render_rgb(victorus.Game())")
    assert result.stderr.strip().splitlines()[-1].endswith(
        'an RGB picture needs pillow: pip install "victorus[render]"')


def test_every_optional_import_says_what_to_install():
    """One helper for every extra: each import of an optional package in the package is
    inside ``with optional_imports(...)`` (a typing-only import under TYPE_CHECKING aside),
    so a missing one is a MissingDependencyError naming the extra, never a bare
    ModuleNotFoundError."""
    import ast
    package = Path(__import__("victorus").__file__).parent
    bare = []
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text())
        guarded: set[int] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.With) and any(
                    "optional_imports" in ast.unparse(item.context_expr) for item in node.items):
                guarded.update(range(node.lineno, node.end_lineno + 1))
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                guarded.update(range(node.lineno, node.end_lineno + 1))
        for node in ast.walk(tree):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else []
            for name in names:
                if name.partition(".")[0] in OPTIONAL_PACKAGES and node.lineno not in guarded:
                    bare.append(f"{path.name}:{node.lineno}: {name}")
    assert bare == []


def test_an_import_error_of_another_package_is_not_hidden():
    """Only the optional packages get a hint; any other missing module is reported as it is."""
    result = run_without("numpy", "import victorus.env")
    assert "MissingDependencyError" not in result.stderr
    assert "No module named 'numpy'" in result.stderr


def test_bench_rows_of_a_missing_package_are_skipped_with_the_hint(monkeypatch):
    def missing():
        raise MissingDependencyError(install_hint("victorus.env (PettingZoo)", "pettingzoo"))
    row = bench.optional_row("PettingZoo AEC", "steps/s", missing, 1000.0, "C playout")
    assert row.fast is None and row.ratio is None and "pip install" in row.skipped
    line = bench.format_table([row]).splitlines()[-1]
    assert "0.00" not in line and line.endswith(
        'skipped: victorus.env (PettingZoo) needs pettingzoo: pip install "victorus[pettingzoo]"')
    assert row.as_dict()["skipped"] == row.skipped and row.as_dict()["victorus"] is None


def test_bench_names_the_openspiel_rows_it_cannot_measure():
    result = run_without("pyspiel,open_spiel", """
from victorus import bench
for quick in (True, False):
    for row in bench._openspiel_rows(0.01, 1.0, quick):
        print(quick, row.case.strip(), "|", row.skipped)
""")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 2 + 3                     # the quick run has no random_sim_test row
    assert all(line.endswith('| the OpenSpiel game needs open_spiel: '
                             'pip install "victorus[openspiel]"') for line in lines)
