"""``tilelayout explain LAYOUT --shape 8,16 --at 7,15``: the four steps for one element."""

from __future__ import annotations

import argparse
import json

from ..analysis.explain import explain
from .common import add_command, add_layout_args, int_tuple, layout_args


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``explain`` subcommand to the CLI's subparsers."""
    p = add_command(sub, "explain", run=run, json="print the steps as JSON",
                    help="the four steps for one element",
                    description="Flatten, split, accumulate + offset, replicate: for one element.")
    add_layout_args(p)
    p.add_argument("--at", required=True, help="the element, e.g. 7,15 (or a flat index)")


def run(args: argparse.Namespace) -> int:
    """Print the four steps for the element ``--at`` (text, or JSON with ``--json``)."""
    named = layout_args(args)
    layout, shape, dtype = named.layout, named.shape, named.dtype
    at = int_tuple(args.at, "--at")
    index = at[0] if len(at) == 1 and len(shape) != 1 else at
    result = explain(layout, index, shape, dtype=dtype)
    print(json.dumps(result.to_dict()) if args.json else result)
    return 0
