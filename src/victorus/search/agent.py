"""The built-in agents' common face, written once: `AgentBase` (``choose`` refuses a
stopped token and a finished game, then picks among the legal actions) and `SearchAgent`
(a search over an evaluator: its clock starts at the call, the evaluator is checked
against the game, a decisive action is taken without search, else the search chooses)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, Protocol, TypeVar

from .._engine import StopToken
from ..errors import ConfigError
from ..evaluation import Evaluator
from ..game import Game, check_stop
from ..notation import Action
from .budgets import now
from .choice import decisive, legal_now


class _Chosen(Protocol):
    """What a search returns: at least the action it chose."""

    @property
    def action(self) -> Action: ...


ResultT = TypeVar("ResultT", bound=_Chosen)


class AgentBase:
    """A built-in agent: a ``name``, a clock (``_clock``: budgets.now; tests fake it) and
    ``choose``.

    Args:
        name: The agent's name.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self._clock: Callable[[], float] = now       # a decision's start

    def choose(self, game: Game, stop: StopToken | None = None) -> Action:
        """The action to play in ``game`` (it must not be over). ``stop`` (a
        [`victorus.StopToken`][victorus.game.StopToken]) set from another thread ends a
        search early, as its budget would; one already stopped raises Cancelled. A time
        budget counts from this call.

        Args:
            game: The position (not over).
            stop: A cancellation token, or None.

        Returns:
            The chosen legal action.

        Raises:
            ConfigError: If the game is over, or the agent's evaluator does not serve it.
            Cancelled: If ``stop`` is already stopped.
        """
        start = self._clock()
        check_stop(stop, self.name)
        return self._choose(game, legal_now(game, self.name), stop, start)

    def _choose(self, game: Game, actions: list[Action], stop: StopToken | None,
                start: float) -> Action:
        """One of ``actions`` (the game's legal actions), deciding from ``start``."""
        raise NotImplementedError


class SearchAgent(AgentBase, Generic[ResultT]):
    """A search over an evaluator (``evaluator``: a victorus.evaluation Evaluator, or None
    for a search that has its own): ``choose`` checks the evaluator against the game
    (`Evaluator.check`), takes a decisive action (the only one, or one that wins at once)
    without search, else the search's; ``search`` reports the search.

    Args:
        name: The agent's name.
        evaluator: Its leaves' evaluator, or None.
    """

    def __init__(self, name: str, evaluator: Evaluator | None) -> None:
        super().__init__(name)
        self.evaluator = evaluator

    def check(self, game: Game) -> None:
        """ConfigError unless the agent's evaluator serves ``game`` (`Evaluator.check`).

        Args:
            game: The game it would search.

        Raises:
            ConfigError: If its network was not trained for the game's board and players.
        """
        if isinstance(self.evaluator, Evaluator):
            self.evaluator.check(game)

    def search(self, game: Game, stop: StopToken | None = None) -> ResultT:
        """Search the position (it must not be over). ``stop`` (a
        [`victorus.StopToken`][victorus.game.StopToken]) set from another thread ends the
        search early, as its budget would. A time budget counts from this call
        (victorus.search.budgets).

        Args:
            game: The position (not over).
            stop: A cancellation token, or None.

        Returns:
            What the search found, its chosen action among it.

        Raises:
            ConfigError: If the game is over, or the evaluator does not serve it.
            Cancelled: If ``stop`` is already stopped.
        """
        return self._search(game, stop, self._clock())

    def _choose(self, game: Game, actions: list[Action], stop: StopToken | None,
                start: float) -> Action:
        self.check(game)
        return decisive(game, actions) or self._search(game, stop, start).action

    def _search(self, game: Game, stop: StopToken | None, start: float) -> ResultT:
        """search, its time budget counted from ``start`` (the caller's entry)."""
        raise NotImplementedError

    def _searched(self, game: Game, stop: StopToken | None) -> tuple[Game, list[Action]]:
        """The checks every search makes first (the token, the evaluator, a game not over):
        a copy of the position without history, and its legal actions."""
        check_stop(stop, self.name)
        self.check(game)
        game = game.copy(history=False)      # one position for the actions and the search
        actions = game.legal_actions()
        if not actions:
            raise ConfigError("the game is over: there is nothing to search")
        return game, actions


__all__ = ["AgentBase", "SearchAgent"]
