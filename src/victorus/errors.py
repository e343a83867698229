"""Exception hierarchy of the public API, and the install hints of optional packages."""

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


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


class RunStopped(VictorusError):
    """A run (a tournament, a match, simulate, training, ``victorus play``'s game) stopped
    before its end: an [`AgentError`][victorus.errors.AgentError] or a
    [`WorkerLost`][victorus.errors.WorkerLost]. ``result``: what was finished before it
    (a tournament's `TournamentResult` of the finished games), else None.

    Args:
        message: What stopped the run.
        result: What was finished before it (a `TournamentResult`), or None.
    """

    def __init__(self, message: str, result: Any = None) -> None:
        super().__init__(message)
        self.result: Any = result
        """What was finished before the error (a tournament's `TournamentResult`; inside a run, the
        outcomes collected so far), else None."""


class AgentError(RunStopped):
    """An agent asked for an action (in a tournament, a match, ``victorus play``) raised
    or answered with something the game refused; the message names the agent, the game
    and the position (VPN, R39). ``result``: as [`RunStopped`][victorus.errors.RunStopped]'s.

    Args:
        message: What went wrong, naming the agent, the game and the position.
        result: What was finished before it (a `TournamentResult`), or None.
    """


class WorkerLost(RunStopped):
    """A worker process (``--workers``) or a Ray task died while it held work: killed
    by the out-of-memory killer, a container's limit or ``kill -9``. The message names the
    process, how it ended and what it was doing. ``result``: as
    [`RunStopped`][victorus.errors.RunStopped]'s.

    Args:
        message: What happened: the process, how it ended and what it was doing.
        result: What was finished before it (a `TournamentResult`), or None.
    """


class Cancelled(VictorusError):
    """perft or simulate was stopped by its StopToken from another thread; what it had
    computed is discarded. (A search stopped by its token ends normally, with what it
    found, as its budget would.)"""


class MissingDependencyError(VictorusError, ImportError):
    """An optional part (PNG pictures, Ray, PettingZoo...) needs a package that is not
    installed, or a system library it loads; the message names what to install."""


OPTIONAL_PACKAGES = {
    "cairosvg": ("cairosvg", "render"),
    "gymnasium": ("gymnasium", "pettingzoo"),
    "pettingzoo": ("pettingzoo", "pettingzoo"),
    "pyspiel": ("open_spiel", "openspiel"),
    "open_spiel": ("open_spiel", "openspiel"),
    "ray": ("ray", "ray"),
    "PIL": ("pillow", "render"),
}
"""The optional packages, by the name imported: (its name on pip, the extra of victorus
that brings it). tests/test_optional.py holds each to pyproject.toml's extras."""


def install_hint(what: str, module: str, otherwise: str = "") -> str:
    """The one form of every install hint: ``what`` needs ``module``'s pip package, and the
    extra that brings it; then ``otherwise``, a way around it, if there is one.

    Args:
        what: The part that needs the package (``"PNG pictures"``).
        module: The name imported, a key of ``OPTIONAL_PACKAGES``.
        otherwise: A way around it, shown in parentheses; "" for none.

    Returns:
        The hint, e.g. ``PNG pictures needs cairosvg: pip install "victorus[render]"``.
    """
    pip_name, extra = OPTIONAL_PACKAGES[module]
    return f'{what} needs {pip_name}: pip install "victorus[{extra}]"' + (
        f" ({otherwise})" if otherwise else "")


@contextmanager
def optional_imports(what: str, otherwise: str = "") -> Iterator[None]:
    """Imports of optional packages for ``what`` (``"victorus.env"``): a missing one raises
    MissingDependencyError with its [`install_hint`][victorus.errors.install_hint] instead
    of a bare ModuleNotFoundError.

        with optional_imports("victorus.env"):
            from pettingzoo import AECEnv

    Args:
        what: The part whose imports these are, named in the hint.
        otherwise: A way around a missing package, added to the hint; "" for none.

    Yields:
        Nothing: the imports run in the ``with`` block.

    Raises:
        MissingDependencyError: an optional package of ``OPTIONAL_PACKAGES`` is missing.
    """
    try:
        yield
    except ModuleNotFoundError as exc:
        module = (exc.name or "").partition(".")[0]
        if module not in OPTIONAL_PACKAGES:
            raise
        raise MissingDependencyError(install_hint(what, module, otherwise)) from None
