"""Exception hierarchy of the public API."""


class VictorusError(Exception):
    """Base class of every error the engine raises on purpose."""


class NotationError(VictorusError, ValueError):
    """A cell label, action string or VPN string (R9, R38, R39) is malformed."""


class IllegalActionError(VictorusError, ValueError):
    """An action is well-formed but not legal in the current state."""


class StateError(VictorusError):
    """The call is not allowed in the game's current state (e.g. vpn() mid-turn)."""


class ConfigError(VictorusError, ValueError):
    """A constructor or command-line argument is out of range."""


class RecordError(VictorusError, ValueError):
    """A game record file is malformed or does not replay (its line number is named)."""


class AgentError(VictorusError):
    """An agent asked for an action (in a tournament, a match, ``victorus play``) raised
    or answered with something the game refused; the message names the agent, the game
    and the position (VPN, R39). ``result``: what was finished before it (a tournament's
    :class:`~victorus.tournament.TournamentResult` of the finished games), else None."""

    def __init__(self, message: str, result=None):
        super().__init__(message)
        self.result = result


class Cancelled(VictorusError):
    """perft or simulate was stopped by its StopToken from another thread; what it had
    computed is discarded. (A search stopped by its token ends normally, with what it
    found, as its budget would.)"""


class MissingDependencyError(VictorusError, ImportError):
    """An optional part (PNG pictures, Ray, PettingZoo...) needs a package that is not
    installed, or a system library it loads; the message names what to install."""
