"""``tilelayout check LAYOUT [--shape] [--dtype --swizzle] [--json]``: is it legal, does it conflict?

Prints the legality report (values outside hardware extents, thread-scope problems,
duplicate coordinates, unused slots) and, for a 2-D shared-memory layout with a dtype,
the bank conflicts of warp-wide 16-byte reads down the columns and along the rows.
Exit status: 0 when nothing needs fixing, 1 when there are findings (other than unused
slots, which are reported but are often deliberate: idle lanes, holes) or bank conflicts,
2 for bad input.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..analysis.conflicts import tile_conflicts
from ..analysis.legality import legality
from ..core.capacity import GENERATIONS
from ..core.errors import LayoutError
from .common import add_command, add_layout_args, layout_args


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``check`` subcommand to the CLI's subparsers."""
    p = add_command(sub, "check", run=run, json="print the report as JSON",
                    help="legality report and shared-memory bank conflicts",
                    description="Check a layout against the hardware the axis table describes, and (with "
                                "--dtype, for a 2-D shared-memory tile) count bank conflicts of 16-byte "
                                "column and row reads. Exit 1 when something needs fixing.")
    add_layout_args(p)
    p.add_argument("--generation", choices=GENERATIONS, default=None,
                   help="Trainium generation for SBUF capacity (default: the preset's, else trn2)")


def _conflicts(layout, shape, dtype) -> dict[str, Any] | None:
    """Column and row reads of a 2-D shared-memory tile, or None when they do not apply."""
    if not dtype or "m" not in layout.axes or len(shape) != 2 or len(layout.axes) != 1:
        return None
    out = {}
    for order in ("column", "row"):
        try:
            r = tile_conflicts(layout, dtype, shape, 16, order)
        except LayoutError as exc:  # e.g. vectors not contiguous: say why instead
            out[order] = {"skipped": str(exc)}
            continue
        out[order] = {k: getattr(r, k) for k in ("wavefronts", "ideal", "accesses", "conflict_free")}
    return out


def run(args: argparse.Namespace) -> int:
    """Print the report; return 1 when there is anything to fix."""
    named = layout_args(args)
    layout, shape, preset = named.layout, named.shape, named.preset
    dtype = named.dtype or (preset.dtype if preset is not None else None)
    generation = args.generation or (preset.params.get("generation") if preset else None)
    report = legality(layout, shape, dtype, generation=generation or "trn2")
    conflicts = _conflicts(layout, shape, named.dtype)
    conflicted = any(not c.get("conflict_free", True) for c in (conflicts or {}).values())
    if args.json:
        doc = report.to_dict()
        for f in doc["findings"]:
            del f["elements"]  # the examples say enough on the command line
        doc["conflicts"] = conflicts
        print(json.dumps(doc))
    else:
        print(report)
        for order, c in (conflicts or {}).items():
            if "skipped" in c:
                print(f"  {order} reads: not analysed ({c['skipped']})")
                continue
            verdict = "conflict-free" if c["conflict_free"] else \
                f"{c['wavefronts'] / c['ideal']:.1f}x the ideal"
            print(f"  {order} reads (16 B per lane, {c['accesses']} warp requests): "
                  f"{c['wavefronts']} wavefronts, ideal {c['ideal']}: {verdict}")
    problems = [f for f in report.findings if f.kind != "unused"]
    return 1 if (problems or conflicted) else 0
