"""The search agents' random state as the vector games' opponents draw it:
[`SplitMix64`][victorus.search.rng.SplitMix64]."""

from __future__ import annotations

from ..checks import check_int, shown
from ..errors import ConfigError
from . import _policy


class SplitMix64:
    """A 64-bit splitmix64 random state as a search agent's ``rng``: ``getrandbits(64)``
    draws a search's seed as the C agents do. Given the state of
    [`victorus.vector.VectorGames.agent_rng`][victorus.vector.VectorGames.agent_rng], an
    [`MCTSAgent`][victorus.search.mcts.MCTSAgent],
    [`AlphaBetaAgent`][victorus.search.alphabeta.AlphaBetaAgent]
    or [`PUCTAgent`][victorus.search.puct.PUCTAgent] plays as that game's opponents of the same spec (one
    draw per searched decision); ``state`` is then theirs again.

    Args:
        state: The 64-bit state, 0 to 2**64 - 1.

    Raises:
        ConfigError: If ``state`` is not such an integer.
    """

    def __init__(self, state: int) -> None:
        check_int("state", state, 0, 2**64 - 1)
        self.state = state

    def getrandbits(self, k: int) -> int:
        """The next draw, as ``random.Random.getrandbits(64)``.

        Args:
            k: The bits drawn: 64 only.

        Returns:
            A 64-bit integer.

        Raises:
            ConfigError: If ``k`` is not 64.
        """
        if k != 64:
            raise ConfigError(f"SplitMix64 draws 64 bits at a time, got {shown(k, 60)}")
        drawn, self.state = _policy.splitmix_draw(self.state)
        return drawn
