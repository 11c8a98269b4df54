"""``tilelayout codegen LAYOUT [--shape 8,16] [--lang cuda] [--inverse]``: index code.

Prints the layout's forward map (logical indices -> one value per axis) or, with
``--inverse``, its inverse (one value per axis -> logical flat index or -1) as a
Python, C, C++, CUDA or Triton function ready to paste into a kernel.
"""

from __future__ import annotations

import argparse
import json

from ..codegen.generate import codegen
from ..codegen.languages import LANGUAGES
from .common import add_command, add_layout_args, layout_from_args, shape_from_args


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``codegen`` subcommand to the CLI's subparsers."""
    p = add_command(sub, "codegen", run=run, json="print {layout, shape, lang, code} as JSON",
                    help="the layout's index map as Python / C / C++ / CUDA / Triton code",
                    description="Print the layout's forward map (indices i0.. [, replica r] -> one value per "
                                "axis) or, with --inverse, its inverse (axis values -> flat index or -1) "
                                "as a function in the chosen language.")
    add_layout_args(p)
    p.add_argument("--lang", default="python", choices=LANGUAGES,
                   help="target language (default: python)")
    p.add_argument("--inverse", action="store_true",
                   help="generate the inverse map (refused when two elements share a coordinate)")
    # --max-elements (the inverse's check) comes with every command
    p.add_argument("--name", default="layout_fn", help="function name (default: layout_fn)")


def run(args: argparse.Namespace) -> int:
    """Print the generated function."""
    layout = layout_from_args(args)
    shape = shape_from_args(args, layout)
    # the inverse's invertibility scan counts against --max-elements (the CLI's limits)
    code = codegen(layout, shape, lang=args.lang, name=args.name, inverse=args.inverse)
    if args.json:
        print(json.dumps({"layout": str(layout), "shape": list(shape), "lang": args.lang,
                          "inverse": args.inverse, "code": code}))
    else:
        print(code, end="")
    return 0
