"""``tilelayout elements-at LAYOUT AXIS=VALUE ... [--shape] [--json]``: what a slot holds.

The inverse query: every logical element whose coordinate set contains a coordinate
with the given axis values (other axes free), e.g. everything lane 5 of warp 6 holds.
"""

from __future__ import annotations

import argparse
import json

from ..core.errors import LayoutError
from ..core.shape import format_shape
from ..eval.inverse import elements_at
from .common import add_command, add_layout_args, layout_args


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``elements-at`` subcommand to the CLI's subparsers."""
    p = add_command(sub, "elements-at", run=run, json="print the indices as JSON",
                    help="the logical elements a physical slot holds (inverse query)",
                    description="List the logical elements held where the given axes have the given values, "
                                "e.g. laneid=5 warpid=6.")
    add_layout_args(p)
    p.add_argument("where", nargs="+", metavar="AXIS=VALUE", help="e.g. laneid=5 (repeatable)")


def parse_query(items: list[str]) -> dict[str, int]:
    """``["laneid=5", "warpid=6"]`` -> ``{"laneid": 5, "warpid": 6}``.

    >>> parse_query(["laneid=5", "m=-1"])
    {'laneid': 5, 'm': -1}
    """
    query: dict[str, int] = {}
    for item in items:
        name, sep, value = item.partition("=")
        try:
            if not sep or not name.strip():
                raise ValueError
            query[name.strip()] = int(value)
        except ValueError:
            raise LayoutError(f"expected AXIS=VALUE such as laneid=5, got {item!r}") from None
    return query


def run(args: argparse.Namespace) -> int:
    """Print every logical index held at the queried coordinate."""
    # a LAYOUT given with --preset arrives as the first AXIS=VALUE: put it back
    if args.layout and "=" in args.layout and not args.layout.lstrip().startswith(("S", "C")):
        args = argparse.Namespace(**{**vars(args), "layout": None,
                                     "where": [args.layout, *args.where]})
    named = layout_args(args)
    layout, shape = named.layout, named.shape
    query = parse_query(args.where)
    found = elements_at(layout, query, shape)
    if args.json:
        print(json.dumps({"layout": str(layout), "shape": list(shape), "query": query,
                          "elements": [list(e) for e in found]}))
    else:
        where = ", ".join(f"{a}={v}" for a, v in query.items())
        print(f"{len(found)} element(s) at {where}:")
        print(" ".join(format_shape(e) for e in found))
    return 0
