"""``victorus.search.evaluation`` is `victorus.evaluation.heuristic` (the evaluation floor's
room), under the name it had before: this module hands it on, so ``import
victorus.search.evaluation`` goes on working."""

import sys

from ..evaluation import heuristic as _module

sys.modules[__name__] = _module
