"""A game at a table: who plays each seat (a person or an agent), the turn clock, and undo
back to a person's last action. ``victorus play`` (terminal) and ``victorus serve`` (the
web page) each run one; they add only their input and output.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from .agents import AGENT_SPECS, make_agent
from .checks import shown
from .clock import TurnClock
from .errors import ConfigError, VictorusError
from .game import Game
from .geometry import SEAT_NAMES
from .record import check_time_limit

if TYPE_CHECKING:
    from .search.protocols import Agent

PERSON = "person"
ABSENT = "-"                 # the controller shown for a seat not in the game (R33)
CONTROLLERS = f"'person' or an agent spec ({AGENT_SPECS})"


class Session:
    """``game`` with a controller per seat: `PERSON` or an agent spec (absent seats
    show `ABSENT`); agents are seeded ``seed + seat``. ``time_limit``: seconds to
    start a turn (None: no clock); ``now``: the clock's time source; ``make``: how an
    agent is made from its spec and seed (``victorus serve`` passes the page's
    ``make_page_agent``, which holds each kind to its limits)."""

    def __init__(self, game: Game, controllers: Sequence[object], time_limit: float | None = None,
                 seed: int = 0, now: Callable[[], float] = time.monotonic,
                 make: Callable[..., Agent] = make_agent) -> None:
        self.game = game
        self.make = make
        self.seed = seed
        self.forfeit_ply = 0                 # the game's length after its last forfeit
        self.clock = TurnClock(check_time_limit(time_limit), now)
        self.set_controllers(controllers)

    @property
    def time_limit(self) -> float | None:
        return self.clock.limit

    def set_controllers(self, controllers: Sequence[object]) -> None:
        """Six controllers, one per seat ('person' or an agent spec; anything for a seat
        that is not in the game). ConfigError names the first bad seat; nothing changes."""
        if not isinstance(controllers, (list, tuple)) or len(controllers) != 6:
            raise ConfigError(f"seats: six controllers are needed, one per seat ({CONTROLLERS}), "
                              f"got {shown(controllers, 60)}")
        present = self.game.config.present
        for seat, spec in enumerate(controllers):
            if spec == PERSON and seat not in present:
                raise ConfigError(
                    f"{SEAT_NAMES[seat]} (seat {seat}) is not in this game; a person can play "
                    + ", ".join(SEAT_NAMES[s] for s in present))
        checked: list[str] = []
        agents: dict[int, Agent] = {}
        for seat, spec in enumerate(controllers):
            if seat not in present:
                checked.append(ABSENT)
            elif spec == PERSON:
                checked.append(PERSON)
            elif not isinstance(spec, str):
                raise ConfigError(f"seat {seat}: {CONTROLLERS}, got {shown(spec, 60)}")
            else:
                agents[seat] = self._agent(seat, spec)
                checked.append(spec)
        self.controllers, self.agents = checked, agents

    def _agent(self, seat: int, spec: str) -> Agent:
        """The agent of ``seat``'s spec, built once (seeded ``seed + seat``); ConfigError
        names the seat."""
        try:
            return self.make(spec, seed=self.seed + seat)
        except ConfigError as exc:
            raise ConfigError(f"seat {seat}: {exc}") from None

    def replace_game(self, game: Game) -> None:
        """Continue with another game (a loaded record): its turn gets its whole time."""
        self.game = game
        self.forfeit_ply = 0
        self.clock.restart()

    def person_to_act(self) -> bool:
        return not self.game.is_over and self.controllers[self.game.to_move] == PERSON

    def agent_to_act(self) -> Agent | None:
        """The agent of the army to act, or None (a person's turn, or the game is over)."""
        return None if self.game.is_over else self.agents.get(self.game.to_move)

    def forfeit(self) -> None:
        """The army to act forfeits its turn on time (Game.forfeit); undo never takes a
        forfeit back (the turn would get its whole time again). Once a whole round is
        forfeited so, the clock pauses until the army to act plays (TurnClock.paused)."""
        self.game.forfeit()
        self.forfeit_ply = self.game.ply
        self.clock.forfeited(self.game)

    def _undo_plies(self) -> int:
        """How many actions undo() takes back; VictorusError says why it cannot."""
        if PERSON not in self.controllers:
            raise VictorusError("undo needs a seat played by a person; every seat is an agent")
        if self.game.is_over:
            raise VictorusError(f"the game is over ({self.game.result_reason}): start a new game")
        if not self.game.ply:
            raise VictorusError("nothing to undo: no action has been played")
        trial = self.game.copy()
        while trial.ply:
            trial.undo()
            if self.controllers[trial.to_move] == PERSON:
                break
        if trial.ply < self.forfeit_ply:
            raise VictorusError("a turn forfeited on time cannot be undone")
        return self.game.ply - trial.ply

    def can_undo(self) -> bool:
        try:
            return self._undo_plies() > 0
        except VictorusError:
            return False

    def undo(self) -> None:
        """Take back actions until a person's last action is undone; the turn then gets
        its whole time again. Not after the game's end, nor past a forfeit on time."""
        for _ in range(self._undo_plies()):
            self.game.undo()
        self.clock.restart()


__all__ = ["ABSENT", "PERSON", "Session"]
