"""VICTORUS game engine: a Cython bitboard core and C game engine under a small Python API.

>>> import victorus
>>> g = victorus.Game()
>>> victorus.perft(g, 1)
31
"""

from . import record
from .errors import (ConfigError, IllegalActionError, NotationError, RecordError, StateError,
                     VictorusError)
from .game import Game, perft, play_random
from .simulate import SimulatedGame, simulate
from .geometry import Board
from .notation import Action

__all__ = ["Action", "Board", "ConfigError", "Game", "IllegalActionError", "NotationError",
           "RecordError", "record",
           "SimulatedGame", "StateError", "VictorusError", "perft", "play_random", "simulate"]
__version__ = "0.1.0"
