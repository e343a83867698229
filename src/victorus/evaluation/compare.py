"""Two networks' weights set side by side: whether they are the same network (every array
equal, value for value, and the same ``trained``; the header's free ``info``, which holds
wall-clock times, is left out), and the largest absolute difference of each array and of
all. The arrays compared are the union of both networks' ``arrays``: an array that one
network has and the other lacks, or that has another shape there, is reported as such.

    >>> from victorus.evaluation.compare import compare_weights
    >>> compare_weights("default", "default").identical
    True

``victorus network compare A.vnet B.vnet`` prints this and plays the two networks against
each other (victorus.match.compare_networks).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ..checks import shown_path
from .network import Network, network_from

STATUSES = ("identical", "differs", "shapes differ", "only in A", "only in B")
"""What an array of the two networks is: the same values, other values, other shapes, or in one alone."""


@dataclass(frozen=True)
class ArrayDifference:
    """One array of the two networks, by name.

    Args:
        name: The array's name.
        shape_a: Its shape in A (None: A has no such array).
        shape_b: Its shape in B (None: B has no such array).
        max_abs: The largest absolute difference of its values (None: not comparable,
            of other shapes or in one network alone; 0.0 for an empty array).
    """

    name: str
    shape_a: tuple[int, ...] | None
    shape_b: tuple[int, ...] | None
    max_abs: float | None

    @property
    def status(self) -> str:
        """One of STATUSES."""
        if self.shape_a is None:
            return "only in B"
        if self.shape_b is None:
            return "only in A"
        if self.shape_a != self.shape_b:
            return "shapes differ"
        return "identical" if self.max_abs == 0.0 else "differs"

    def as_dict(self) -> dict[str, object]:
        """The array's comparison for JSON.

        Returns:
            Its name, status, shapes (None: absent) and largest difference.
        """
        return {"name": self.name, "status": self.status,
                "shape_a": None if self.shape_a is None else list(self.shape_a),
                "shape_b": None if self.shape_b is None else list(self.shape_b),
                "max_abs_difference": self.max_abs}


@dataclass(frozen=True)
class WeightComparison:
    """Two networks' weights compared (`compare_weights`).

    Args:
        a: Network A's name (its path as given, or its name).
        b: Network B's name.
        arrays: Every array of either, in A's order and then B's.
        trained_a: What A was trained for (``{"boards": [...], "players": [...]}``).
        trained_b: What B was trained for.
        content_a: A's content name (`Network.content`: the first 12 hex digits of the
            SHA-256 of its file's bytes); "" when not known.
        content_b: B's, likewise.
    """

    a: str
    b: str
    arrays: tuple[ArrayDifference, ...]
    trained_a: Mapping[str, object]
    trained_b: Mapping[str, object]
    content_a: str = ""
    content_b: str = ""

    @property
    def identical(self) -> bool:
        """Whether they are the same network: every array in both, equal value for value,
        and the same ``trained`` (``info`` left out)."""
        return (all(array.status == "identical" for array in self.arrays)
                and dict(self.trained_a) == dict(self.trained_b))

    @property
    def max_abs(self) -> float | None:
        """The largest absolute difference over the arrays both have in one shape (None: no such array)."""
        compared = [array.max_abs for array in self.arrays if array.max_abs is not None]
        return max(compared) if compared else None

    def as_dict(self) -> dict[str, object]:
        """The comparison for JSON (``victorus network compare --json``).

        Returns:
            The networks' names and content names, whether they are identical, the largest
            difference, what each was trained for and every array's comparison.
        """
        return {"a": self.a, "b": self.b, "content_a": self.content_a,
                "content_b": self.content_b, "identical": self.identical,
                "max_abs_difference": self.max_abs, "trained_a": dict(self.trained_a),
                "trained_b": dict(self.trained_b), "arrays": [array.as_dict() for array in self.arrays]}

    def lines(self) -> list[str]:
        """The comparison as text.

        Returns:
            One line for the verdict, one per array, one if ``trained`` differs.
        """
        largest = "none comparable" if self.max_abs is None else f"{self.max_abs:.6g}"
        verdict = ("identical weights (the header's info left out)" if self.identical
                   else f"different networks; largest absolute difference {largest}")
        lines = [f"{side}: {shown_path(label, quoted=False)}" + (f", network {content}" if content else "")
                 for side, label, content in (("A", self.a, self.content_a),
                                              ("B", self.b, self.content_b))] + [verdict]
        width = max(len(array.name) for array in self.arrays) if self.arrays else 0
        for array in self.arrays:
            if array.status in ("identical", "differs"):
                detail = f"{array.status}, shape {array.shape_a}, largest difference {array.max_abs:.6g}"
            elif array.status == "shapes differ":
                detail = f"shapes differ: {array.shape_a} in A, {array.shape_b} in B"
            else:
                detail = f"{array.status}, shape {array.shape_a or array.shape_b}"
            lines.append(f"  {array.name:>{width}}: {detail}")
        if dict(self.trained_a) != dict(self.trained_b):
            lines.append(f"trained for: {dict(self.trained_a)} in A, {dict(self.trained_b)} in B")
        return lines


def _difference(name: str, a: NDArray[np.float32] | None, b: NDArray[np.float32] | None) -> ArrayDifference:
    shape_a = None if a is None else tuple(int(n) for n in a.shape)
    shape_b = None if b is None else tuple(int(n) for n in b.shape)
    if a is None or b is None or shape_a != shape_b:
        return ArrayDifference(name, shape_a, shape_b, None)
    gap = np.abs(a.astype(np.float64) - b.astype(np.float64))
    return ArrayDifference(name, shape_a, shape_b, float(gap.max()) if gap.size else 0.0)


def network_label(network: Network | str | os.PathLike[str]) -> str:
    """A network as its user named it: a path as given ("default" for the shipped one), or
    a Network's name (its file's name).

    Args:
        network: A Network, a ``.vnet`` file's path, or "default".

    Returns:
        Its label.
    """
    return network.name if isinstance(network, Network) else os.fspath(network)


def compare_weights(a: Network | str | os.PathLike[str],
                    b: Network | str | os.PathLike[str]) -> WeightComparison:
    """Two networks' weights compared: every array of either (the union of their
    ``arrays``), whether it is in both, of one shape, and its largest absolute difference.

    Args:
        a: Network A: a Network, a ``.vnet`` file's path, or "default" (the shipped one).
        b: Network B, likewise.

    Returns:
        The comparison.

    Raises:
        ConfigError: If ``a`` or ``b`` is none of these.
        NetworkFileError: If a file cannot be read or is not a network.
    """
    net_a, net_b = network_from(a), network_from(b)
    names = list(net_a.arrays) + [name for name in net_b.arrays if name not in net_a.arrays]
    arrays = tuple(_difference(name, net_a.arrays.get(name), net_b.arrays.get(name)) for name in names)
    return WeightComparison(network_label(a), network_label(b), arrays, net_a.trained, net_b.trained,
                            net_a.content, net_b.content)


__all__ = ["STATUSES", "ArrayDifference", "WeightComparison", "compare_weights", "network_label"]
