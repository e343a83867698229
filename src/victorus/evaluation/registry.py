"""The evaluators, in one registry: what a search's leaves are worth. Each is a C
evaluator (``victorus.evaluation._evaluator``: a value per seat, optional priors, a
workspace per thread) built by a function here and named in `EVALUATORS`; a spec such as
``"rollouts(3, network(default))"`` composes them (`make_evaluator`). A new evaluator is
one C module in this folder plus one line in `EVALUATORS`.

    >>> from victorus.evaluation import make_evaluator, rollouts
    >>> make_evaluator("rollouts(3, network(default))").spec
    'rollouts(3, network(default))'
    >>> rollouts(10, make_evaluator("heuristic")).spec
    'rollouts(10, heuristic)'
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from ..checks import check_int, shown
from ..errors import ConfigError
from ._evaluator import Evaluator
from ._heuristic import HeuristicEvaluator
from ._lookahead import LookaheadEvaluator
from ._material import MaterialEvaluator
from ._network import NetworkEvaluator
from ._rollouts import RolloutsEvaluator
from ._uniform import UniformEvaluator
from .network import Network, network_from


def heuristic(weights: Mapping[str, float] | None = None) -> Evaluator:
    """The hand-written evaluation (victorus.evaluation.heuristic) with ``weights``.

    Args:
        weights: TERMS names to numbers (missing ones: the defaults), or None.

    Returns:
        The evaluator ``heuristic``.

    Raises:
        ConfigError: If a weight is unknown or not a finite number.
    """
    return HeuristicEvaluator(weights)


def material() -> Evaluator:
    """The UCT's scoring: a finished game's returns, else the teams' R37 material against
    their mean, squashed into (-0.5, 0.5).

    Returns:
        The evaluator ``material``.
    """
    return MaterialEvaluator()


def network(net: Network | str | os.PathLike[str] = "default") -> Evaluator:
    """The learned evaluation of ``net``.

    Args:
        net: A Network, a ``.vnet`` file's path, or "default" (the shipped network).

    Returns:
        The evaluator ``network(<name>)``.

    Raises:
        ConfigError: If ``net`` is none of these or its file cannot be read.
    """
    loaded = network_from(net)
    name = net if isinstance(net, str) else net.name if isinstance(net, Network) else os.fspath(net)
    return NetworkEvaluator(loaded, name)


def uniform() -> Evaluator:
    """Uniform priors and a value of 0: a search driven by finished games alone.

    Returns:
        The evaluator ``uniform``.
    """
    return UniformEvaluator()


def rollouts(actions: int, over: Evaluator) -> Evaluator:
    """A random rollout of up to ``actions`` actions whose end ``over`` values; ``over``'s
    priors.

    Args:
        actions: The rollout's most actions, >= 0.
        over: The evaluator of the rollout's end.

    Returns:
        The evaluator ``rollouts(<actions>, <over>)``.

    Raises:
        ConfigError: If ``actions`` is not an integer >= 0 or ``over`` not an evaluator.
    """
    check_int("rollout actions", actions, 0, 2**31 - 1)
    return RolloutsEvaluator(actions, _evaluator(over))


def lookahead(over: Evaluator, value: Evaluator | None = None) -> Evaluator:
    """Priors ``exp(4 v)`` from ``over``'s value ``v`` one action ahead (for the army to
    act), and the value of ``value`` (None: ``over``).

    Args:
        over: Values the positions one action ahead.
        value: Values the position itself (None: ``over``).

    Returns:
        The evaluator ``lookahead(<over>[, <value>])``.

    Raises:
        ConfigError: If ``over`` or ``value`` is not an evaluator.
    """
    return LookaheadEvaluator(_evaluator(over), None if value is None else _evaluator(value))


EVALUATORS: Mapping[str, Callable[..., Evaluator]] = MappingProxyType({
    "heuristic": heuristic,
    "material": material,
    "network": network,
    "uniform": uniform,
    "rollouts": rollouts,
    "lookahead": lookahead,
})
"""Every evaluator by the name its spec gives it."""
EVALUATOR_SPECS = ("heuristic, material, network(default | FILE), uniform, rollouts(N, SPEC), "
                   "lookahead(SPEC[, SPEC]) (a FILE without spaces, commas or parentheses)")
"""The evaluator specs make_evaluator accepts, for help texts and error messages."""

_TOKEN = re.compile(r"(?P<open>\()|(?P<close>\))|(?P<comma>,)|(?P<word>[^(),\s]+)")


def _evaluator(value: object) -> Evaluator:
    if not isinstance(value, Evaluator) or value.spec is None:
        raise ConfigError(f"an evaluator must be a victorus.evaluation Evaluator or a spec "
                          f"({EVALUATOR_SPECS}), got {shown(value, 60)}")
    return value


NetworkLike = Network | Evaluator | str | os.PathLike[str]
"""A learned evaluation as `make_evaluator` substitutes it: a Network, a ``.vnet`` file's path,
"default" or a shipped network's name, or the Evaluator of one (``network(...)``)."""


def _network_term(net: NetworkLike) -> Evaluator:
    """The ``network(...)`` term of a spec, built on ``net``."""
    if isinstance(net, Evaluator):
        if not net.spec.startswith("network("):
            raise ConfigError(f"a network must be a Network, a .vnet file's path, 'default', or the "
                              f"evaluator network(...) of one, got the evaluator {shown(net.spec, 60)}")
        return net
    return network(net)


def make_evaluator(spec: str | Evaluator, network: NetworkLike | None = None) -> Evaluator:
    """The evaluator of a spec: a name of EVALUATORS, with its arguments in parentheses
    (numbers, a network's name or file, other specs): ``"heuristic"``,
    ``"rollouts(3, network(default))"``. An Evaluator is returned as it is. ``network``
    replaces every ``network(...)`` term of the spec (``best-net(FILE)``: the kind's spec
    with FILE's network).

    Args:
        spec: The spec, or an Evaluator.
        network: The learned evaluation the spec's network terms read (None: as written).

    Returns:
        The evaluator.

    Raises:
        ConfigError: If the spec is not one of EVALUATOR_SPECS, naming what was wrong, or
            ``network`` is given with an Evaluator or cannot be read.
    """
    if isinstance(spec, Evaluator):
        if network is not None:
            raise ConfigError(f"the evaluator {shown(spec.spec, 60)} is built: give its network "
                              f"in its spec, not beside it")
        return _evaluator(spec)
    if not isinstance(spec, str):
        raise ConfigError(f"an evaluator spec must be a string ({EVALUATOR_SPECS}), got "
                          f"{shown(spec, 60)}")
    tokens = [(kind, m.group(kind)) for m in _TOKEN.finditer(spec) for kind in
              ("open", "close", "comma", "word") if m.group(kind) is not None]
    if "".join(text for _, text in tokens) != re.sub(r"\s+", "", spec) or not tokens:
        raise ConfigError(f"unreadable evaluator {shown(spec, 80)}: accepted are {EVALUATOR_SPECS}")
    value, at = _parse(tokens, 0, spec, None if network is None else _network_term(network))
    if at != len(tokens):
        raise ConfigError(f"unreadable evaluator {shown(spec, 80)}: text after its end; accepted "
                          f"are {EVALUATOR_SPECS}")
    return _evaluator(value)


MAX_DEPTH = 16
"""The deepest nesting of evaluators a spec may write."""


def _parse(tokens: list[tuple[str, str]], at: int, spec: str, network_term: Evaluator | None,
           depth: int = 0) -> tuple[Any, int]:
    """One term of a spec from token ``at``: a number, a word, or a call; and where it ends.
    ``network_term``: what every ``network(...)`` term is instead (None: as written)."""
    def refuse(why: str) -> ConfigError:
        return ConfigError(f"unreadable evaluator {shown(spec, 80)}: {why}; accepted are "
                           f"{EVALUATOR_SPECS}")
    if depth > MAX_DEPTH:
        raise refuse(f"nested more than {MAX_DEPTH} deep")
    if at >= len(tokens) or tokens[at][0] != "word":
        raise refuse("a name or a number was expected")
    word = tokens[at][1]
    if re.fullmatch(r"[0-9]{1,9}", word):
        return int(word), at + 1
    called = at + 1 < len(tokens) and tokens[at + 1][0] == "open"
    if not called and word not in EVALUATORS:
        return word, at + 1                      # an argument: a network's name or file
    if word not in EVALUATORS:
        raise refuse(f"unknown evaluator {shown(word, 40)}")
    args: list[Any] = []
    at += 2 if called else 1
    while called and at < len(tokens) and tokens[at][0] != "close":
        if args:
            if tokens[at][0] != "comma":
                raise refuse("a ',' between arguments is missing")
            at += 1
        arg, at = _parse(tokens, at, spec, network_term, depth + 1)
        args.append(arg)
    if called and at >= len(tokens):
        raise refuse("a ')' is missing")
    if word == "network" and network_term is not None:
        return network_term, at + (1 if called else 0)
    try:
        built = EVALUATORS[word](*args)
    except ConfigError:
        raise
    except (TypeError, ValueError, OSError) as error:
        raise refuse(f"{word} takes other arguments than {shown(args, 60)} ({error})") from None
    return built, at + (1 if called else 0)


__all__ = ["EVALUATORS", "EVALUATOR_SPECS", "MAX_DEPTH", "NetworkLike", "heuristic", "lookahead",
           "make_evaluator", "material", "network", "rollouts", "uniform"]
