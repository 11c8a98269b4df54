"""``python -m tilelayout ...``: the same command line as ``tilelayout ...``."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
