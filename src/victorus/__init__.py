"""VICTORUS game engine: Cython bitboard core under a small rules layer."""

from .errors import ConfigError, IllegalActionError, NotationError, StateError, VictorusError
from .geometry import Board

__all__ = ["Board", "ConfigError", "IllegalActionError", "NotationError", "StateError",
           "VictorusError"]
