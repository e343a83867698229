"""The turn clock of ``victorus play`` and ``victorus serve`` (the rulebook's Time Management,
docs/rules.md interpretation 11): the army to act must start its turn within the limit, or
forfeit it ([`victorus.Game.forfeit`][victorus.game.Game.forfeit]).

An unattended game does not forfeit turns forever: once every live army's turn has been
forfeited on time, one after the other (a whole round in which nobody acted), the clock
pauses until the army to act plays (`TurnClock.paused`; docs/serve.md, An unattended timed game).

The time source is a parameter, so tests drive the clock by hand (`ManualTime`)
instead of sleeping and hoping the machine keeps up.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import Game


class TurnClock:
    """Deadlines for starting turns; ``limit`` None means no clock.

    A turn is timed from the first look at it (`deadline`) until its first action:
    the limit is to *initiate* the move, so the clock stops once the turn has started.
    It also stops while the game is `paused` (a whole round forfeited on time): its
    owner tells it of each forfeit (`forfeited`).
    """

    def __init__(self, limit: float | None, now: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.now = now
        self._turn: tuple[int, int] | None = None   # (actions played, seat) of the timed turn
        self._started = 0.0
        self._lapsed = 0            # turns forfeited on time in a row, no action between them
        self._lapsed_at = -1        # the game's length after the last of them

    def restart(self) -> None:
        """The turn to act gets its whole time again (a new game, an undo, a load); the
        forfeits counted toward a pause are forgotten."""
        self._turn = None
        self._lapsed, self._lapsed_at = 0, -1

    def forfeited(self, game: Game) -> None:
        """Count the turn ``game`` has just forfeited on time (after `Game.forfeit`)."""
        in_row = self._lapsed_at == game.ply - 1
        self._lapsed = self._lapsed + 1 if in_row else 1
        self._lapsed_at = game.ply

    def paused(self, game: Game) -> bool:
        """True when the last turns of ``game`` were all forfeited on time, one for each
        live army (a whole round in which nobody acted), and no action came since: the
        clock waits for the army to act's first action (an agent's, or a person's)."""
        return (self.limit is not None and self._lapsed_at == game.ply and not game.is_over
                and self._lapsed >= sum(state == "active" for state in game.view().states))

    def deadline(self, game: Game) -> float | None:
        """When the army to act forfeits its turn; None off the clock, once the turn has
        started, while the game is `paused`, or when the game is over."""
        if self.limit is None or game.is_over or game.phase != "start" or self.paused(game):
            return None
        turn = (game.ply, game.to_move)
        if turn != self._turn:
            self._turn, self._started = turn, self.now()
        return self._started + self.limit

    def remaining(self, game: Game) -> float | None:
        """Seconds left to start the turn, or None (see `deadline`)."""
        deadline = self.deadline(game)
        return None if deadline is None else max(0.0, deadline - self.now())

    def expired(self, game: Game) -> bool:
        """True when the army to act has let its time to start the turn pass."""
        deadline = self.deadline(game)
        return deadline is not None and self.now() >= deadline


class ManualTime:
    """A time source that moves only when told (for tests and reproducible demos).

    >>> t = ManualTime(); t.advance(1.5); t()
    1.5
    """

    def __init__(self, start: float = 0.0) -> None:
        self.value = start

    def __call__(self) -> float:
        return self.value

    def advance(self, seconds: float) -> None:
        self.value += seconds


__all__ = ["ManualTime", "TurnClock"]
