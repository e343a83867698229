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


def test_asking_whether_gymnasium_is_installed_does_not_spend_the_hook():
    done = run("import importlib.util, victorus\nassert importlib.util.find_spec('gymnasium')\n"
               "import gymnasium\nprint('victorus/Compact2p-v0' in gymnasium.registry)")
    assert done.stdout.strip() == "True", done.stderr


def test_a_failed_import_of_gymnasium_then_a_retry_registers():
    done = run("""
import builtins, sys, victorus
real, failed = builtins.__import__, []
def once(name, *args, **kwargs):
    if name == "gymnasium.core" and not failed:
        failed.append(name)
        raise ImportError("transient")
    return real(name, *args, **kwargs)
builtins.__import__ = once
try:
    import gymnasium
except ImportError:
    pass
builtins.__import__ = real
import gymnasium
print(failed == ["gymnasium.core"], "victorus/Compact2p-v0" in gymnasium.registry)
""")
    assert done.stdout.strip() == "True True", done.stderr


def test_importing_victorus_imports_no_gymnasium():
    done = run("import sys, victorus\nprint('gymnasium' in sys.modules)")
    assert done.stdout.strip() == "False", done.stderr


def test_gymnasium_is_loaded_as_gymnasium_loads_itself():
    """The hook wraps gymnasium's loader only while it runs: the module keeps its own."""
    done = run("import victorus, gymnasium\nprint(type(gymnasium.__loader__).__name__, "
               "type(gymnasium.__spec__.loader).__name__)")
    assert done.stdout.strip() == "SourceFileLoader SourceFileLoader", done.stderr


def test_the_public_classes_annotations_resolve_at_run_time():
    """typing.get_type_hints (typeguard, pydantic, cattrs read it) works on every public
    class on Python 3.10 and 3.11 too: no annotation that only a type checker can read."""
    import inspect
    import typing

    import victorus.page.narration
    import victorus.view
    for module in (victorus.view, victorus.page.narration):
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == module.__name__:
                typing.get_type_hints(cls)


def test_marking_a_pieces_moves_needs_a_game():
    import victorus
    from victorus.render import render_svg
    with pytest.raises(victorus.ConfigError, match="needs a Game, not a Board"):
        render_svg(victorus.Board("compact"), moves_from="h3")
    assert "<svg" in render_svg(victorus.Game("compact", players=2), moves_from="h3")
