"""``tilelayout convert LAYOUT --to cute|cute-tv|jax|triton|tvm``: the layout in another tool's notation.

* ``cute``: CuTe ``shape:stride`` text of a single-axis (memory) layout
  (:func:`tilelayout.interop.cute.to_cute`), ``Swizzle<B,M,S> o ...`` when swizzled;
* ``cute-tv``: CuTe thread-value text ((thread, value) -> column-major tile index) of a
  register fragment (:func:`tilelayout.interop.cute.to_cute_tv`); the thread axes are the
  layout's own (``thread_axes``), outermost first, unless ``--thread-axis`` says;
* ``jax``: the ``PartitionSpec``, printed as JAX does (``P('dp', None)``), from
  :func:`tilelayout.interop.jax.partition_spec_entries` (no JAX needed) for the mesh
  ``--mesh dp=2,tp=2``, or, without it, a mesh whose axes are
  the layout's device axes with the sizes the layout spans (said in the output);
* ``triton``: linear-layout basis vectors (:func:`tilelayout.interop.triton.to_triton_bases`);
* ``tvm``: the ``tvm_tirx`` object's text (needs the ``tvm`` extra).

Output: the notation, then ``# ...`` lines saying what it assumes; ``--json`` prints
``{"layout", "shape", "target", "text", "value", "notes"}``. A layout the other notation
cannot express is the converter's reason as the usual one-line error (exit 2).

:func:`tilelayout.interop.convert.convert` is the pure function behind it (the
explorer's ``/api/convert`` uses it too).

>>> from tilelayout.cli import main
>>> main(["convert", "S[(4,8):(8,1)]", "--to", "cute"])
(4,8):(8,1)
# a CuTe Layout over the logical shape (4, 8): coordinate -> offset on m; one top-level mode per dimension
0
"""

from __future__ import annotations

import argparse
import json

from ..core.axes import check_axis, current
from ..core.mesh import parse_mesh
from ..interop.convert import TARGETS, convert
from ..interop.jax import mesh_axes, mesh_table
from .common import add_command, add_layout_args, int_tuple, layout_args


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``convert`` subcommand to the CLI's subparsers."""
    p = add_command(sub, "convert", run=run, json="print one JSON object",
                    help="the layout in CuTe / CuTe TV / JAX / Triton / TVM notation",
                    description="Print the layout in another tool's notation, or why that notation cannot "
                                "express it (exit 2).")
    add_layout_args(p)
    p.add_argument("--to", required=True, choices=TARGETS, help="the notation to write")
    p.add_argument("--mesh", help="JAX: the device mesh, e.g. dp=2,tp=2 (default: the "
                   "layout's device axes, sized by the values they span)")
    p.add_argument("--thread-axis", help="cute-tv: thread axes, outermost first, e.g. "
                   "wid_in_wg,laneid (default: the layout's thread axes)")
    p.add_argument("--permute", help="cute-tv: CuTe dimension permute[i] is our dimension i, "
                   "e.g. 1,0 for an mma B operand (CuTe writes it N x K)")


def run(args: argparse.Namespace) -> int:
    """Print the conversion (or raise the converter's refusal)."""
    mesh = None if not args.mesh else mesh_axes(dict(parse_mesh(args.mesh)))
    with current() if mesh is None else mesh_table(mesh):  # the text may name the mesh's axes
        named = layout_args(args)
    layout, shape = named.layout, named.shape
    threads = None
    if args.thread_axis:
        threads = tuple(a.strip() for a in args.thread_axis.split(",") if a.strip())
        for a in threads:
            check_axis(a)  # a typo gets its "did you mean"
    permute = int_tuple(args.permute, "--permute") if args.permute else None
    out = convert(layout, shape, args.to, mesh=mesh, thread_axis=threads, permute=permute,
                  isolate=True)
    if args.json:
        print(json.dumps({"layout": str(layout), "shape": list(shape), "target": args.to, **out}))
    else:
        print(out["text"])
        for note in out["notes"]:
            print(f"# {note}")
    return 0
