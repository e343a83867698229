"""Types of the compiled learned evaluation (src/victorus/evaluation/_network.pyx).
tests/test_reference.py holds it to the compiled module."""

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING

import numpy
from numpy.typing import ArrayLike, NDArray

from .._engine import Engine
from ._evaluator import Evaluator

if TYPE_CHECKING:
    from .network import Network

#: The feature layout's name, written in every network file.
LAYOUT: str
#: The sizes the Python side (files, training) reads.
SIZES: dict[str, int]
#: The names of the skip weights, and of the type rows after the pieces.
SKIP_NAMES: tuple[str, ...]
TYPE_NAMES: tuple[str, ...]
#: The policy head's feature layouts (without, with the pair term), its arrays in the file's
#: order and the pair term's.
POLICY_LAYOUT: str
POLICY_PAIR_LAYOUT: str
POLICY_NAMES: tuple[str, ...]
POLICY_PAIR: str


class NetworkCore:
    def __init__(self, arrays: Mapping[str, ArrayLike], block_cells: Sequence[int],
                 block_rims: Sequence[int]) -> None: ...
    @property
    def arrays(self) -> MappingProxyType[str, NDArray[numpy.float32]]: ...
    @property
    def block_cells(self) -> tuple[int, ...]: ...
    @property
    def policy(self) -> bool: ...
    def covers(self, engine: Engine) -> bool: ...
    def evaluate(self, engine: Engine) -> tuple[float, ...]: ...
    def priors(self, engine: Engine) -> tuple[float, ...]: ...


def engine_inputs(engine: Engine) -> tuple[NDArray[numpy.int32], NDArray[numpy.float32],
                                           NDArray[numpy.float32], NDArray[numpy.int8]]: ...
def engine_policy_inputs(engine: Engine) -> tuple[NDArray[numpy.int32], NDArray[numpy.int32],
                                                  NDArray[numpy.float32]]: ...
def block_size(ncells: int) -> int: ...
def evaluate_many(engines: list[Engine], network: NetworkCore | None, repeat: int) -> int: ...


class NetworkEvaluator(Evaluator):
    def __init__(self, network: Network, name: str) -> None: ...
    def covers(self, engine: Engine) -> bool: ...
