"""Subcommands of the ``tilelayout`` CLI, one module each (``register(subparsers)``)."""
