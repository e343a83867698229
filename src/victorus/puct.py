"""``victorus.puct`` is `victorus.search.puct` (the search wing's room), under the
name it had before: this module hands it on, so ``import victorus.puct`` goes on working."""

import sys

from .search import puct as _module

sys.modules[__name__] = _module
