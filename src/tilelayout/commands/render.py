"""``tilelayout render LAYOUT [--shape ..] [--dtype --swizzle] -o out.svg|png``: a picture.

The logical and physical views side by side, coloured like the explorer. Without
``-o`` the SVG goes to stdout; ``--text`` prints the text grid of owners instead.
"""

from __future__ import annotations

import argparse
import sys

from ..core.errors import LayoutError
from ..render.raster import svg_to_png
from ..render.svg import MAX_WIDTH, MIN_WIDTH, layout_svg
from ..render.table import layout_table
from .common import add_command, add_layout_args, bounded_float, bounded_int, layout_args
from .files import check_output_path, write_atomic


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(sub, "render", run=run,
                    help="draw a layout as SVG/PNG (or a text grid)",
                    description="Draw the logical and physical views of a layout.")
    add_layout_args(p)
    p.add_argument("-o", "--output", help="out.svg or out.png (default: SVG on stdout)")
    p.add_argument("--color", help="colour key: an axis, dim:K (logical dimension) or bank")
    p.add_argument("--views", choices=("both", "logical", "physical"), default="both")
    p.add_argument("--width", type=bounded_int(MIN_WIDTH, MAX_WIDTH, "--width"), default=1100,
                   help=f"picture width in pixels ({MIN_WIDTH}..{MAX_WIDTH})")
    p.add_argument("--scale", type=bounded_float(0.1, 8.0, "--scale"), default=1.0,
                   help="PNG pixel scale, 0.1..8 (2 = sharper)")
    p.add_argument("--text", action="store_true", help="print the text grid of owners instead")


def run(args: argparse.Namespace) -> int:
    if args.output:
        check_output_path(args.output)  # before any work
    named = layout_args(args)
    layout, shape, dtype = named.layout, named.shape, named.dtype
    if args.text:
        sys.stdout.write(layout_table(layout, shape) + "\n")
        return 0
    svg = layout_svg(layout, shape, dtype=dtype, color=args.color, views=args.views,
                     width=args.width)
    if not args.output:
        sys.stdout.write(svg + "\n")
        return 0
    out = check_output_path(args.output)
    suffix = out.suffix.lower()
    if suffix == ".svg":
        data = svg.encode("utf-8")
    elif suffix == ".png":
        data = svg_to_png(svg, scale=args.scale)
    else:
        raise LayoutError(f"-o must end in .svg or .png, got {args.output!r}")
    write_atomic(out, data)
    print(f"wrote {out} ({len(data):,} bytes)", file=sys.stderr)
    return 0
