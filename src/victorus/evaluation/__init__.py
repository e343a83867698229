"""The evaluation floor: what a position is worth to the searches above it.

- The C evaluators, one module each, behind one interface (``_evaluator.pxd``: a value
  per seat, optional priors over the legal actions, a workspace per thread, a parameter
  block), named and composed in `victorus.evaluation.registry`: ``heuristic``,
  ``material``, ``network(default)``, ``uniform``, ``rollouts(n, over)``,
  ``lookahead(over)``. Every search takes one of them. (The package's ``heuristic`` and
  ``network`` are the modules of the heuristic's face and of the network's file; their
  evaluators are ``registry.heuristic`` and ``registry.network``.)
- The terms the heuristic and the network both read, once (``_terms``).
- The heuristic evaluation's Python face (`victorus.evaluation.heuristic`: ``evaluate``,
  ``terms`` and their slow references), handed on here, so ``from victorus.evaluation
  import evaluate`` works as before.
- The learned evaluation's network: its file (`victorus.evaluation.network`), its numpy
  twin (`victorus.evaluation.twin`) and the shipped networks (``networks/``).

    >>> import victorus
    >>> from victorus.evaluation import evaluate
    >>> evaluate(victorus.Game("compact", players=2))      # the start: even
    (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
"""

from ._evaluator import Evaluator
from .heuristic import (
    DEFAULT_WEIGHTS,
    TERMS,
    VALUE_BOUND,
    evaluate,
    reference_evaluate,
    reference_terms,
    terms,
)
from .network import NetworkFileError
from .registry import (
    EVALUATOR_SPECS,
    EVALUATORS,
    NetworkLike,
    lookahead,
    make_evaluator,
    material,
    rollouts,
    uniform,
)

__all__ = ["DEFAULT_WEIGHTS", "EVALUATORS", "EVALUATOR_SPECS", "TERMS", "VALUE_BOUND", "Evaluator",
           "NetworkFileError", "NetworkLike",
           "evaluate", "lookahead", "make_evaluator", "material",
           "reference_evaluate", "reference_terms", "rollouts", "terms", "uniform"]
