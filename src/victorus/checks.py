"""Checked numbers: every integer a user gives (an argument, a VPN or record field, an
agent spec, a command-line option, a web request) goes through `check_int` or
`parse_int`, so each is refused the same way: an error of the caller's class
naming the field, its range and the value, and a string of digits longer than the
range's is refused before ``int()`` reads it (no 5,000-digit conversion, no bare
``ValueError`` from Python's digit limit).
"""

from __future__ import annotations

import re

from .constants import NUM_SEATS
from .errors import ConfigError

_DIGITS_RE = re.compile(r"-?[0-9]+", re.ASCII)
_CANONICAL_RE = re.compile(r"0|-?[1-9][0-9]*", re.ASCII)


def shown(value, width: int = 24) -> str:
    """``repr(value)`` cut to ``width`` characters (a huge int is never converted whole)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"an integer of {value.bit_length()} bits"
    try:
        text = repr(value)
    except (ValueError, RecursionError):
        return f"a {type(value).__name__}"
    return text if len(text) <= width else f"{text[:width - 3]}..."


def accepted(low: int, high: int | None) -> str:
    """'an integer from LOW to HIGH' (or 'an integer >= LOW')."""
    return f"an integer >= {low}" if high is None else f"an integer from {low} to {high}"


def check_int(name: str, value, low: int, high: int | None = None, error=ConfigError) -> int:
    """``value`` if it is an ``int`` (not a bool) within ``low``..``high`` (``high`` None:
    no upper bound); else ``error`` naming ``name`` and the range."""
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (
            high is not None and value > high):
        raise error(f"{name} must be {accepted(low, high)}, got {shown(value)}")
    return int(value)


def check_seat(seat, name: str = "seat", error=ConfigError) -> int:
    """``seat`` if it is a seat number, 0 to NUM_SEATS - 1."""
    return check_int(name, seat, 0, NUM_SEATS - 1, error)


def parse_int(name: str, text, low: int, high: int, error=ConfigError,
              canonical: bool = True) -> int:
    """The integer written in ``text``: ASCII digits (a '-' first when ``low`` < 0), no
    leading zeros unless ``canonical`` is False (then zeros may lead, as a
    command line's user may type); refused with ``error`` naming ``name`` and the range,
    before any conversion when it has more digits than ``high`` or ``low``."""
    pattern = _CANONICAL_RE if canonical else _DIGITS_RE
    if not isinstance(text, str) or not pattern.fullmatch(text) or (
            text.startswith("-") and low >= 0):
        raise error(f"{name} must be {accepted(low, high)} (digits), got {shown(text)}")
    digits = text.lstrip("+-").lstrip("0")
    if len(digits) > max(len(str(abs(low))), len(str(abs(high)))):
        raise error(f"{name} must be {accepted(low, high)}, got {len(digits)} digits")
    return check_int(name, int(text), low, high, error)


__all__ = ["accepted", "check_int", "check_seat", "parse_int", "shown"]
