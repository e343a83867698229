"""``victorus.search_agents`` is `victorus.search.alphabeta` (the search wing's room), under the
name it had before: this module hands it on, so ``import victorus.search_agents`` goes on working."""

import sys

from .search import alphabeta as _module

sys.modules[__name__] = _module
