"""The agents without a search: uniformly random, and greedy (in C). Both also play
inside the step of `victorus.vector.VectorGames` (``native_opponent()``)."""

from __future__ import annotations

import random

from .._engine import StopToken
from ..checks import check_seed
from ..game import Game
from ..notation import Action
from . import _greedy, _policy
from .agent import AgentBase


class RandomAgent(AgentBase):
    """Uniformly random legal actions.

    Args:
        seed: The random generator's seed (None: fresh entropy).

    Raises:
        ConfigError: If ``seed`` is neither None nor an integer.
    """

    def __init__(self, seed: int | None = None) -> None:
        super().__init__("random")
        self.rng = random.Random(check_seed(seed))

    def _choose(self, game: Game, actions: list[Action], stop: StopToken | None,
                start: float) -> Action:
        """One draw."""
        return self.rng.choice(actions)

    def native_opponent(self) -> _policy.RandomOpponent:
        """This agent inside the step of `victorus.vector.VectorGames`: one draw
        from the game's agent random state per decision.

        Returns:
            The native opponent.
        """
        return _policy.RandomOpponent()


class GreedyAgent(AgentBase):
    """Prefers captures by piece value and avoids leaving pieces en prise (R37 points).

    Each legal action is played on a copy and scored: the value it captures (+100 for a
    win at once), minus the most valuable piece the next army to act could then capture
    when it is of another team. Ties are broken at random. Runs in C
    (``victorus.search._greedy``), the very agent that plays ``opponents={seat: "greedy"}``
    inside [`victorus.vector.VectorGames`][victorus.vector.VectorGames]; ``rng_state`` is its 64-bit random
    state (one draw per decision).

    Args:
        seed: Seeds the random state (None: fresh entropy).

    Raises:
        ConfigError: If ``seed`` is neither None nor an integer.
    """

    def __init__(self, seed: int | None = None) -> None:
        super().__init__("greedy")
        self.rng_state = random.Random(check_seed(seed)).getrandbits(64)

    def _choose(self, game: Game, actions: list[Action], stop: StopToken | None,
                start: float) -> Action:
        """The best-scored action (one draw for ties)."""
        index, self.rng_state = _greedy.choose(game._engine, self.rng_state)
        return actions[index]

    def native_opponent(self) -> _greedy.GreedyOpponent:
        """This agent inside the step of `victorus.vector.VectorGames` (the same C
        function, drawing from the game's agent random state).

        Returns:
            The native opponent.
        """
        return _greedy.GreedyOpponent()


__all__ = ["GreedyAgent", "RandomAgent"]
