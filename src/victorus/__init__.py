"""VICTORUS game engine: a Cython bitboard core and C game engine under a small Python API.

>>> import victorus
>>> g = victorus.Game()
>>> victorus.perft(g, 1)
31
"""

import logging as _logging

from .checks import shown
from .errors import (
    AgentError,
    Cancelled,
    ConfigError,
    IllegalActionError,
    MissingDependencyError,
    NotationError,
    RecordError,
    StateError,
    VictorusError,
    WorkerLost,
)
from .geometry import Board
from .notation import Action

try:
    from . import _core, _engine, _vector  # noqa: F401  (compiled)
except ImportError as _exc:      # a broken build: the pure-Python reference still works
    _BUILD_ERROR: ImportError | None = _exc
else:
    _BUILD_ERROR = None
    from . import record
    from .game import Game, StopToken, perft, play_random
    from .render import show_in_notebooks
    from .simulate import SimulatedGame, simulate
    show_in_notebooks(Board, Game)          # Jupyter draws boards and games (victorus.render)
    from ._gym_hook import install as _install_gym_ids
    _install_gym_ids()                      # the gymnasium ids, whichever is imported first

__all__ = ["Action", "AgentError", "Board", "Cancelled", "ConfigError", "Game", "IllegalActionError",
           "MissingDependencyError", "NotationError", "RecordError", "record",
           "SimulatedGame", "StateError", "StopToken", "VictorusError", "WorkerLost", "perft",
           "play_random", "simulate"]
__version__ = "0.1.0"

# The package's records go to the "victorus" logger (and its children, one per module);
# shown only where the application configures logging (victorus's commands: --log-level, -v).
_logging.getLogger(__name__).addHandler(_logging.NullHandler())


def __getattr__(name: str) -> object:
    if _BUILD_ERROR is not None and name in __all__:
        raise ImportError(f"victorus.{name} needs the compiled engine, which does not import "
                          f"({_BUILD_ERROR}); reinstall with 'pip install .'. The pure-Python "
                          f"rules (victorus._reference_game) work without it.") from _BUILD_ERROR
    raise AttributeError(f"module 'victorus' has no attribute {shown(name, 60)}")
