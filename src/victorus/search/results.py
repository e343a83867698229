"""What a search found: [`SearchResult`][victorus.search.results.SearchResult], the
root's actions with their visits and values, and its visit distribution as a training
target."""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..checks import shown
from ..errors import ConfigError
from ..notation import Action


@dataclass(frozen=True)
class SearchResult:
    """What an MCTS search found: the root's legal ``actions`` (legal_actions() order),
    the ``visits`` and mean ``values`` (for the army to act) of each, and the chosen
    ``action`` (most visits, first of equals).

    Args:
        action: The chosen action.
        actions: The root's legal actions, in legal_actions() order.
        visits: Each action's visits.
        values: Each action's mean value for the army to act.
        iterations: The iterations searched.
        nodes: The nodes the tree grew to.
        priors: PUCT: the evaluator's prior of each action (else empty).
        seat_values: PUCT: the root's mean value for each seat, 6 (else empty).
    """

    action: Action
    actions: tuple[Action, ...]
    visits: tuple[int, ...]
    values: tuple[float, ...]
    iterations: int
    nodes: int
    priors: tuple[float, ...] = ()          # PUCT: the evaluator's prior of each action
    seat_values: tuple[float, ...] = ()     # PUCT: the root's mean value for each seat (6)

    def policy(self, temperature: float = 1.0) -> tuple[float, ...]:
        """The visit distribution as a training target: visits^(1/temperature),
        normalised; temperature 0 puts all the weight on the most visited action (first
        of equals). Uniform when nothing was visited.

        Args:
            temperature: A number >= 0.

        Returns:
            One probability per action, in ``actions`` order.

        Raises:
            ConfigError: If ``temperature`` is not a number >= 0.
        """
        if isinstance(temperature, bool) or not isinstance(temperature, (int, float)) \
                or not 0 <= temperature < math.inf:
            raise ConfigError(f"temperature must be a number >= 0, got {shown(temperature, 60)}")
        n = len(self.visits)
        if not sum(self.visits):
            return (1.0 / n,) * n
        if temperature == 0:
            best = max(range(n), key=lambda i: (self.visits[i], -i))
            return tuple(float(i == best) for i in range(n))
        top = max(self.visits)
        weights = [(v / top) ** (1.0 / temperature) for v in self.visits]
        total = sum(weights)
        return tuple(w / total for w in weights)
