"""Conventions users expect from the ecosystem: gymnasium's ids after ``import victorus``
in either order, without importing gymnasium for programs that never use it."""

import subprocess
import sys

import pytest

pytest.importorskip("gymnasium")


def run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)


@pytest.mark.parametrize("imports", [
    "import victorus, gymnasium",
    "import gymnasium, victorus",
    "import victorus\nimport gymnasium\ngymnasium.register_envs(victorus)",
    "import victorus\nimport gymnasium.spaces\nimport gymnasium",
])
def test_the_gymnasium_ids_work_whichever_is_imported_first(imports):
    done = run(f"{imports}\nenv = gymnasium.make('victorus/Compact2p-v0', opponent='greedy')\n"
               f"obs, info = env.reset(seed=0)\nprint(type(env.unwrapped).__name__, obs.shape)")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "LearnerEnv (88, 127)"


def test_importing_victorus_imports_no_gymnasium():
    done = run("import sys, victorus\nprint('gymnasium' in sys.modules)")
    assert done.stdout.strip() == "False", done.stderr


def test_gymnasium_is_loaded_as_gymnasium_loads_itself():
    """The hook wraps gymnasium's loader only while it runs: the module keeps its own."""
    done = run("import victorus, gymnasium\nprint(type(gymnasium.__loader__).__name__, "
               "type(gymnasium.__spec__.loader).__name__)")
    assert done.stdout.strip() == "SourceFileLoader SourceFileLoader", done.stderr
