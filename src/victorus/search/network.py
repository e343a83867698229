"""``victorus.search.network`` is `victorus.evaluation.network` (the evaluation floor's room),
under the name it had before: this module hands it on, so ``import victorus.search.network`` and
networks pickled under that name go on working."""

import sys

from ..evaluation import network as _module

sys.modules[__name__] = _module
