"""The ``tilelayout`` command: parses arguments and calls the library.

Each subcommand lives in ``tilelayout.commands.<name>`` with ``register(subparsers)``;
``serve`` is the explorer's own (``tilelayout.explorer.serve``).
Bad input prints one line ``tilelayout: error: ...`` and exits 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from types import MappingProxyType

from .core import budget
from .core.errors import LayoutError
from .core.version import __version__

#: subcommand names, in help order
COMMANDS = ("map", "explain", "elements_at", "check", "presets", "render", "convert", "codegen",
            "smem", "plan", "serve")
#: the module of each subcommand (``register(subparsers)``), relative to this package
MODULES = MappingProxyType({**{name: f".commands.{name}" for name in COMMANDS}, "serve": ".explorer.serve"})


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # type: ignore[override]
        self.exit(2, f"tilelayout: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand registered.

    >>> build_parser().parse_args(["map", "S[4:1]", "--json"]).json
    True
    """
    parser = _Parser(
        prog="tilelayout",
        description="Named-axis tensor layouts: evaluate, explain, explore.",
    )
    parser.add_argument("--version", action="version", version=f"tilelayout {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    common = importlib.import_module(".commands.common", __package__)
    for name in COMMANDS:
        importlib.import_module(MODULES[name], __package__).register(sub)
    for p in dict.fromkeys(sub.choices.values()):  # aliases map to the same parser
        common.add_limit_args(p)
        if p is not sub.choices["serve"]:  # the server's requests bring their own axes
            common.add_axes_arg(p)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line on ``argv`` (default: ``sys.argv``); returns the exit status.

    >>> main(["explain", "S[4:2]", "--at", "3"])  # doctest: +ELLIPSIS
    layout  S[4:2]
    ...
    L(x) = {(6@m)}
    0
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        common = importlib.import_module(".commands.common", __package__)
        with common.axes_from_args(args), \
                budget.limits(common.limits_from_args(args, budget.Limits())):
            return int(args.run(args) or 0)
    except LayoutError as exc:
        print(f"tilelayout: error: {common.for_command_line(str(exc))}", file=sys.stderr)
        return 2
    except (MemoryError, RecursionError):
        print("tilelayout: error: out of memory: the layout has too many elements to evaluate "
              "at once (give a smaller layout or shape)", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. `tilelayout map ... | head`
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # noqa: BLE001 (a bug: one line, never a traceback)
        print(f"tilelayout: internal error (please report it): {type(exc).__name__}: "
              f"{str(exc)[:200]}".replace("\n", " "), file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
