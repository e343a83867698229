"""What an agent is, as protocols (`typing.Protocol`, checked at run time too):
[`Agent`][victorus.search.protocols.Agent], a ``name`` and ``choose(game)``, and
[`NativeAgent`][victorus.search.protocols.NativeAgent], an agent that also plays inside
the step of [`VectorGames`][victorus.vector.VectorGames] (``native_opponent()``); and
`takes_stop`, whether an agent's ``choose`` takes a stop token."""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from ..game import Game
from ..notation import Action

if TYPE_CHECKING:
    from ._policy import Opponent


@runtime_checkable
class Agent(Protocol):
    """What every agent is (`victorus.agents`): a ``name`` and ``choose(game)``, a legal
    action of the army to act. An agent of one's own needs only these: any object that has
    them is an Agent (``isinstance(obj, Agent)``, and to a type checker), no base class.
    The built-in agents' ``choose(game, stop=None)`` also takes a stop token
    ([`victorus.StopToken`][victorus.game.StopToken]) that ends a search early; callers
    pass it only where `takes_stop` says the agent takes it, so ``choose(game)`` alone is
    enough."""

    name: str

    def choose(self, game: Game) -> Action:
        """The action to play.

        Args:
            game: The position (not over); the agent may play and undo on it.

        Returns:
            A legal action of the army to act.
        """


@runtime_checkable
class NativeAgent(Agent, Protocol):
    """An [`Agent`][victorus.search.protocols.Agent] that also plays inside the step of
    [`VectorGames`][victorus.vector.VectorGames]: ``native_opponent()`` gives the C
    opponent that plays as it does (every agent of a kind in
    [`VECTOR_KINDS`][victorus.search.registry.VECTOR_KINDS]). Such an agent, not only its
    spec, may be given as a vector opponent."""

    def native_opponent(self) -> Opponent:
        """The C opponent (``victorus.search._policy.Opponent``) that plays as this agent
        inside the vector step.

        Returns:
            The native opponent.
        """


def takes_stop(agent: Agent) -> bool:
    """Whether ``agent.choose`` takes a ``stop`` token (every built-in agent does; an
    agent of one's own needs only ``choose(game)``, and is then called without one).

    Args:
        agent: The agent.

    Returns:
        True if its ``choose`` has a ``stop`` parameter.
    """
    try:
        return "stop" in inspect.signature(agent.choose).parameters
    except (TypeError, ValueError):              # a builtin or C callable: no signature
        return False
