"""Types of the compiled PUCT (src/victorus/search/_puct.pyx): the tree, its searches and
the batch of leaves an evaluator reads. tests/test_reference.py holds it to the compiled
module."""

from collections.abc import Callable, Iterable

import numpy
from numpy.typing import ArrayLike, NDArray

from .._engine import Engine, Rules, StopToken
from ..evaluation._evaluator import Evaluator
from ..game import Game

#: The most legal actions a position can have (a node's children).
MAX_LEGAL_ACTIONS: int

#: None: each tree's C evaluator (victorus.evaluation); else a callable given a batch,
#: returning (priors [size, width] or None, values [size, 6] or [size]).
_Evaluator = Callable[["LeafBatch"], tuple[ArrayLike | None, ArrayLike]] | None


class LeafBatch:
    """The leaves a PUCT search asks its evaluator about, ``size`` of them: ``observations``,
    ``legal_ids``, ``num_legal``, ``seats`` and :meth:`game`, as docs/search.md ("PUCT with
    your evaluator") describes them. Valid only during the evaluator's call: its arrays are
    views of buffers the next batch reuses, so copy what you keep."""

    @property
    def size(self) -> int: ...
    @property
    def observations(self) -> NDArray[numpy.uint8] | NDArray[numpy.float32] | None: ...
    @property
    def legal_ids(self) -> NDArray[numpy.int32]: ...
    @property
    def num_legal(self) -> NDArray[numpy.int32]: ...
    @property
    def seats(self) -> NDArray[numpy.int8]: ...
    def game(self, i: int) -> Game:
        """Leaf ``i`` as a new :class:`victorus.Game` (no history), for evaluators written
        over the public API."""


class PuctTree:
    def __init__(self, engine: Engine, batch_size: int, max_nodes: int, c_puct: float,
                 fpu_reduction: float, observation: str, observer_ids: bool,
                 game_factory: Callable[[Engine], Game],
                 evaluator: Evaluator | None = None) -> None: ...
    @property
    def evaluator(self) -> Evaluator | None: ...
    @property
    def rules(self) -> Rules: ...
    def reset(self, engine: Engine) -> None: ...
    def pick(self) -> int: ...
    @property
    def nodes_used(self) -> int: ...
    @property
    def root_visits(self) -> int: ...
    def run(self, evaluator: _Evaluator, iterations: int, deadline: float, noise_alpha: float,
            noise_fraction: float, seed: int, stop: StopToken | None = None) -> int: ...
    def root_children(self) -> list[tuple[int, float, float, float | None]]: ...
    def root_values(self) -> tuple[float, ...]: ...
    @property
    def proven_child(self) -> int: ...
    def advance(self, engine: Engine, keys: Iterable[int]) -> bool: ...


def verify_tree(tree: PuctTree) -> None: ...
def run_trees(trees: list[PuctTree], evaluator: _Evaluator, iterations: int, deadline: float,
              noise_alpha: float, noise_fraction: float, seeds: Iterable[int],
              stop: StopToken | None = None) -> list[int]: ...
