"""python -m rumi._build: the rumi-build console script."""

import sys

from .cli import main

sys.exit(main())
