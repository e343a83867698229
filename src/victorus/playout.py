"""Random playouts through the public API, with the R36 action cap."""

from __future__ import annotations

import random

from .errors import ConfigError
from .game import Game


def play_random(game: Game, seed=None, max_actions: int | None = None) -> int:
    """Play uniformly random legal actions until the game ends; return how many were played.

    ``max_actions`` is R36's cap: when it is reached the game stays unfinished
    (``game.is_over`` is False). ``seed`` is an int, a ``random.Random`` or None.
    """
    if max_actions is not None and (isinstance(max_actions, bool) or not isinstance(max_actions, int)
                                    or max_actions < 0):
        raise ConfigError(f"max_actions must be a non-negative integer or None, got {max_actions!r}")
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    played = 0
    while not game.is_over and (max_actions is None or played < max_actions):
        game.play(rng.choice(game.legal_actions()))
        played += 1
    return played
