"""The gymnasium ids (victorus.gym_env) registered whenever victorus and gymnasium are both
imported, in either order, as ale_py and minigrid register theirs, without importing
gymnasium (or numpy's adapters) for a program that never does.

gymnasium 1.x loads no plugins: ``import victorus`` registers the ids at once when gymnasium
is imported already, and otherwise leaves a finder on ``sys.meta_path`` that, when gymnasium
is imported, lets gymnasium's own loader run and then registers them (and removes itself
once an import of gymnasium has succeeded). ``gymnasium.register_envs(victorus)`` works in
both orders. An import hook placed before it that loads gymnasium itself hides the import
from it: ``import victorus.gym_env`` registers the ids then.
"""

from __future__ import annotations

import logging
import sys
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:                                # typing only: importlib.abc costs 12 ms
    import types
    from importlib.abc import Loader
    from importlib.machinery import ModuleSpec

log = logging.getLogger(__name__)


def register_now() -> None:
    """Register the ids (importing victorus.gym_env); a failure is logged, never raised
    into gymnasium's import."""
    try:
        from . import gym_env  # noqa: F401  (registers at import)
    except Exception as exc:                     # e.g. an old gymnasium: the ids are missing
        log.warning("victorus could not register its gymnasium environments: %s", exc)


class _Loader:
    """gymnasium's own loader, then the registration, and the finder's removal once
    gymnasium is whole (the import system's loader protocol)."""

    def __init__(self, loader: Any, finder: _Finder):
        self.loader, self.finder = loader, finder

    def create_module(self, spec: ModuleSpec) -> types.ModuleType | None:
        module: types.ModuleType | None = self.loader.create_module(spec)
        return module

    def exec_module(self, module: types.ModuleType) -> None:
        module.__loader__ = self.loader          # the module is gymnasium's, as if loaded plainly
        if module.__spec__ is not None:
            module.__spec__.loader = self.loader
        self.loader.exec_module(module)          # a failed import leaves the finder in place
        self.finder.remove()
        register_now()


class _Finder:
    """Watches for gymnasium's import (the import system's meta path finder protocol),
    until one succeeds: a ``find_spec`` that only asks whether gymnasium is installed, or
    an import that fails, leaves it watching."""

    def __init__(self) -> None:
        self.asking = threading.local()          # our own look-up of the real spec

    def remove(self) -> None:
        try:
            sys.meta_path.remove(self)
        except ValueError:
            pass

    def find_spec(self, name: str, path: Sequence[str] | None = None,
                  target: types.ModuleType | None = None) -> ModuleSpec | None:
        if name != "gymnasium" or getattr(self.asking, "now", False):
            return None
        self.asking.now = True
        try:
            import importlib.util
            spec = importlib.util.find_spec(name)    # the real one, by the other finders
        finally:
            self.asking.now = False
        if spec is not None and spec.loader is not None:
            spec.loader = cast("Loader", _Loader(spec.loader, self))
        return spec


def install() -> None:
    """Register now if gymnasium is imported, else when it is."""
    if "gymnasium" in sys.modules:
        register_now()
    elif not any(isinstance(finder, _Finder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _Finder())
