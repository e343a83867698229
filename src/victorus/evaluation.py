"""``victorus.evaluation`` is `victorus.search.evaluation` (the search wing's room), under the
name it had before: this module hands it on, so ``import victorus.evaluation`` goes on working."""

import sys

from .search import evaluation as _module

sys.modules[__name__] = _module
