"""``python -m victorus``: the ``victorus`` command."""

import sys

from .cli import main

sys.exit(main())
