"""VICTORUS game engine: Cython bitboard core under a small rules layer.

>>> import victorus
>>> g = victorus.Game()
>>> victorus.perft(g, 1)
31
"""

from .errors import ConfigError, IllegalActionError, NotationError, StateError, VictorusError
from .game import Game, perft
from .geometry import Board
from .notation import Action
from .playout import play_random

__all__ = ["Action", "Board", "ConfigError", "Game", "IllegalActionError", "NotationError",
           "StateError", "VictorusError", "perft", "play_random"]
__version__ = "0.1.0"
