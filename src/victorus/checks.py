"""Checked numbers: every integer a user gives (an argument, a VPN or record field, an
agent spec, a command-line option, a web request) goes through `check_int` or
`parse_int`, so each is refused the same way: an error of the caller's class
naming the field, its range and the value, and a string of digits longer than the
range's is refused before ``int()`` reads it (no 5,000-digit conversion, no bare
``ValueError`` from Python's digit limit). An integer is a Python int, a numpy integer
scalar or a 0-d numpy integer array (`as_int`), never a bool, a float or a string;
every environment's action goes through `check_action_id`, arrays of ids through
`as_int_array`, agents' seeds through `check_seed`.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .constants import NUM_SEATS
from .errors import ConfigError

if TYPE_CHECKING:
    import numpy.typing as npt

#: What a check raises: an error class (or any callable) given the message.
ErrorFactory = Callable[[str], Exception]

_DIGITS_RE = re.compile(r"-?[0-9]+", re.ASCII)
_CANONICAL_RE = re.compile(r"0|-?[1-9][0-9]*", re.ASCII)


def shown(value: object, width: int = 24) -> str:
    """``repr(value)`` cut to ``width`` characters, in the middle (a huge int is never
    converted whole); a numpy integer scalar is shown as the plain int it stands for
    (``1040``, not ``np.int32(1040)``).

    Args:
        value: What to show: anything, usually a value a user gave.
        width: The most characters shown; a longer repr is cut in the middle, its start
            and its end kept around ``...`` (a path keeps its file name, a spec its tail).

    Returns:
        The short text.
    """
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"an integer of {value.bit_length()} bits"
    if not isinstance(value, int) and _is_numpy_integer(value):
        value = as_int(value)
    try:
        text = repr(value)
    except (ValueError, RecursionError):
        return f"a {type(value).__name__}"
    if len(text) <= width:
        return text
    head = (width - 3) * 2 // 3
    return f"{text[:head]}...{text[len(text) - (width - 3 - head):]}"


PATH_WIDTH = 80
"""The most characters a path is shown in (`shown_path`)."""
_SEPARATORS = "/\\"


def shown_path(path: object, width: int = PATH_WIDTH, quoted: bool = True) -> str:
    """A user's path as messages show it: whole when it fits in ``width`` characters, else
    cut in the middle with its file name (and its folder, when they fit) kept:
    ``'/very/long/...aaa/dir/network.vnet'``. Characters that would break the line (a
    newline, a control character) are escaped as ``repr`` escapes them; a 1 MB path or one
    nested 5,000 folders deep is one short line.

    Args:
        path: The path: a str or an os.PathLike (anything else is shown as `shown` shows it).
        width: The most characters shown, quotes included.
        quoted: Shown in quotes, as `shown` shows a string (False: bare, for messages that
            start with the path, ``network.vnet: truncated``).

    Returns:
        The short text.
    """
    try:
        text = os.fspath(path) if isinstance(path, os.PathLike) else path
    except (TypeError, ValueError, RecursionError):
        text = path
    if not isinstance(text, str):
        return shown(text, width)
    if quoted:
        shown_text = repr(text)
    else:
        shown_text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    if len(shown_text) <= width:
        return shown_text
    room = max(width - 3, 2)                       # the characters kept around "..."
    cut = len(shown_text) - 1 - (1 if quoted else 0)   # the text's end, past a closing quote
    name = max(shown_text.rfind(s, 0, cut) for s in _SEPARATORS)   # the file name's separator
    folder = max(shown_text.rfind(s, 0, name) for s in _SEPARATORS) if name > 0 else -1
    keep = room * 2 // 3                           # the most the end keeps
    start = folder if 0 <= folder and len(shown_text) - folder <= keep else name
    if start < 0 or len(shown_text) - start > keep:
        start = len(shown_text) - keep
    tail = shown_text[start:]
    return f"{shown_text[:room - len(tail)]}...{tail}"


def _is_numpy_integer(value: object) -> bool:
    """Whether ``value`` is a numpy integer scalar (kinds 'i' and 'u', as `as_int` takes)."""
    numpy = sys.modules.get("numpy")
    return numpy is not None and isinstance(value, numpy.integer) and value.dtype.kind in "iu"


def accepted(low: int, high: int | None) -> str:
    """'an integer from LOW to HIGH' (or 'an integer >= LOW').

    Args:
        low: The smallest integer accepted.
        high: The largest integer accepted; None for no upper bound.

    Returns:
        The range in words, for an error message.
    """
    return f"an integer >= {low}" if high is None else f"an integer from {low} to {high}"


def as_int(value: object) -> int | None:
    """``value`` as a Python int if it is an integer: an ``int``, a numpy integer scalar or
    a 0-d numpy integer array; None for anything else (bool and numpy bool, floats even
    when whole, strings, bytes, None, timedelta, arrays of more than one number...).

    Args:
        value: The value to read as an integer.

    Returns:
        The plain ``int``, or None if ``value`` is not an integer.
    """
    if type(value) is int:
        return value
    if isinstance(value, bool):
        return None
    if isinstance(value, int):                   # an int subclass (IntEnum...)
        return int(value)
    numpy = sys.modules.get("numpy")             # not imported: value is no numpy integer
    if numpy is None:
        return None
    if isinstance(value, numpy.ndarray) and value.ndim == 0:
        value = value[()]
    # kinds 'i' and 'u' only: numpy's timedelta64 subclasses its signed integer
    if isinstance(value, numpy.integer) and value.dtype.kind in "iu":
        return int(value)
    return None


def as_int_array(values: object) -> npt.NDArray[Any] | None:
    """``values`` as a numpy array if they are integers (`as_int`'s rule for each:
    an array of an integer dtype, kinds 'i' and 'u', or a sequence of integers; empty is
    fine); None for anything else (floats, strings, bools, timedeltas, objects...).

    Args:
        values: An array or a sequence of integers.

    Returns:
        The array (``numpy.asarray(values)``: an integer dtype, or an empty float64 array
        for an empty sequence), or None if ``values`` are not integers.
    """
    import numpy
    try:
        array: npt.NDArray[Any] = numpy.asarray(values)
    except (ValueError, TypeError):              # ragged sequences
        return None
    if array.dtype.kind in "iu" or (array.size == 0 and array.dtype.kind == "f"
                                    and not isinstance(values, numpy.ndarray)):
        return array
    return None


def check_int(name: str, value: object, low: int, high: int | None = None,
              error: ErrorFactory = ConfigError) -> int:
    """``value`` as an ``int`` if it is an integer (`as_int`: a Python int, a numpy
    integer scalar or a 0-d numpy integer array; never a bool) within ``low``..``high``
    (``high`` None: no upper bound); else ``error`` naming ``name``, the range and the
    value.

    Args:
        name: What the value is, as the message names it (``"perft depth"``).
        value: The value to check.
        low: The smallest integer accepted.
        high: The largest integer accepted; None for no upper bound.
        error: The error class (or a callable given the message) raised when refused.

    Returns:
        The value as a plain ``int``.

    Raises:
        ConfigError: (or ``error``) ``value`` is no integer or is out of range.
    """
    number = as_int(value)
    if number is None or number < low or (high is not None and number > high):
        raise error(f"{name} must be {accepted(low, high)}, got {shown(value)}")
    return number


def check_action_id(value: object, num_actions: int, error: ErrorFactory = ConfigError) -> int:
    """The action id ``value`` as an ``int``: exactly the integers of an action space of
    ``num_actions`` ids (0 to ``num_actions - 1``), as `check_int` takes them;
    anything else (a float, a string, bytes, None, a bool...) is refused with ``error``
    naming the value and the range. Every environment's ``step`` checks its actions
    here; whether the id is legal now is the game's to say.

    Args:
        value: The action id to check.
        num_actions: The size of the action space.
        error: The error class (or a callable given the message) raised when refused.

    Returns:
        The id as a plain ``int``.

    Raises:
        ConfigError: (or ``error``) ``value`` is no integer from 0 to ``num_actions - 1``.
    """
    return check_int("an action id", value, 0, num_actions - 1, error)


def check_seed(seed: object, name: str = "seed", error: ErrorFactory = ConfigError) -> int | None:
    """An agent's seed as ``random.Random`` takes it: None (fresh entropy) or an integer
    (`as_int`, so numpy integers too); anything else is ``error``.

    Args:
        seed: The seed to check.
        name: What the seed is, as the message names it.
        error: The error class (or a callable given the message) raised when refused.

    Returns:
        The seed as a plain ``int``, or None.

    Raises:
        ConfigError: (or ``error``) ``seed`` is neither an integer nor None.
    """
    if seed is None:
        return None
    number = as_int(seed)
    if number is None:
        raise error(f"{name} must be an integer or None, got {shown(seed)}")
    return number


def check_seat(seat: object, name: str = "seat", error: ErrorFactory = ConfigError) -> int:
    """``seat`` if it is a seat number, 0 to NUM_SEATS - 1.

    Args:
        seat: The value to check.
        name: What the value is, as the message names it.
        error: The error class (or a callable given the message) raised when refused.

    Returns:
        The seat as a plain ``int``.

    Raises:
        ConfigError: (or ``error``) ``seat`` is no integer from 0 to 5.
    """
    return check_int(name, seat, 0, NUM_SEATS - 1, error)


def parse_int(name: str, text: object, low: int, high: int, error: ErrorFactory = ConfigError,
              canonical: bool = True) -> int:
    """The integer written in ``text``: ASCII digits (a '-' first when ``low`` < 0), no
    leading zeros unless ``canonical`` is False (then zeros may lead, as a
    command line's user may type); refused with ``error`` naming ``name`` and the range,
    before any conversion when it has more digits than ``high`` or ``low``.

    Args:
        name: What the number is, as the message names it.
        text: The string to read.
        low: The smallest integer accepted.
        high: The largest integer accepted.
        error: The error class (or a callable given the message) raised when refused.
        canonical: Refuse leading zeros (False: accept them).

    Returns:
        The integer.

    Raises:
        ConfigError: (or ``error``) ``text`` is no such string of digits or is out of range.
    """
    pattern = _CANONICAL_RE if canonical else _DIGITS_RE
    if not isinstance(text, str) or not pattern.fullmatch(text) or (
            text.startswith("-") and low >= 0):
        raise error(f"{name} must be {accepted(low, high)} (digits), got {shown(text)}")
    digits = text.lstrip("+-").lstrip("0")
    if len(digits) > max(len(str(abs(low))), len(str(abs(high)))):
        raise error(f"{name} must be {accepted(low, high)}, got {len(digits)} digits")
    return check_int(name, int(text), low, high, error)


__all__ = ["PATH_WIDTH", "accepted", "as_int", "as_int_array", "check_action_id", "check_int",
           "check_seat", "check_seed", "parse_int", "shown", "shown_path"]
