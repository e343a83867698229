"""Choosing before any search: the legal actions of a game that is not over (every agent
refuses a finished one), and the decisive action (the only one, or one that wins at once)
that every search agent plays without searching."""

from __future__ import annotations

from ..errors import ConfigError
from ..game import Game
from ..notation import Action
from . import _policy


def legal_now(game: Game, name: str) -> list[Action]:
    """The legal actions; ConfigError on a finished game, as every agent refuses one.

    Args:
        game: The position.
        name: The agent's name, for the error.

    Returns:
        ``game.legal_actions()``.

    Raises:
        ConfigError: If the game is over.
    """
    if game.is_over:
        raise ConfigError(f"the game is over: {name} has nothing to choose")
    return game.legal_actions()


def decisive(game: Game, actions: list[Action]) -> Action | None:
    """The only legal action, or the first that wins at once (``actions``: the game's
    legal_actions()); None if there is neither. In C (``victorus.search._policy``), as the
    search opponents inside [`victorus.vector.VectorGames`][victorus.vector.VectorGames] take it.

    Args:
        game: The position.
        actions: Its legal actions, in legal_actions() order.

    Returns:
        The decisive action, or None.
    """
    index = _policy.decisive(game._engine)
    return None if index < 0 else actions[index]
