"""``tilelayout plan SRC DST --shape --dtype [--json]``: how a tile gets from one layout
to another.

Prints the plan of :func:`tilelayout.plan_conversion`: the kind (the coarsest level that
must exchange data), the mechanism and why, the stages (register moves, shuffle rounds,
shared-memory store / barrier / load with the chosen layout, collectives) and the costs.
Each operand is layout text or a preset, ``preset:NAME`` or
``preset:NAME:KEY=VALUE[:KEY=VALUE...]`` (as ``tilelayout smem``); ``--shape`` defaults
to the presets' (or the source's) shape, ``--dtype`` to a preset's element type.
``--permute-k DIM`` allows permuting the reduction index together with the other operand
(``plan_conversion(..., permute_k=DIM)``); ``--smem-budget BYTES`` caps the shared memory
the plan may use at once (``plan_conversion(..., smem_budget=BYTES)``); ``--dst-packing
unpacked`` delivers 8- and 16-bit values one to a register, as a compiler holds them
(``plan_conversion(..., dst_packing="unpacked")``). ``--emit
cuda|gluon`` prints the plan as code instead (``ConversionPlan.code``: a CUDA translation
unit, ``--harness`` with its test kernel, or a Gluon helper; ``--name`` the function's
name).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..core.errors import LayoutError
from ..interop.isolation import isolated
from ..planning.delivery import DST_PACKINGS
from ..planning.plan import plan_conversion
from .common import add_command, add_pair_args, layout_pair


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``plan`` subcommand to the CLI's subparsers."""
    p = add_command(sub, "plan", run=run, json="print the plan as JSON",
                    help="plan a layout conversion (registers, shuffles, shared memory, collective)",
                    description="Plan moving a tile from layout SRC to layout DST: what must be exchanged "
                                "(kind), the cheapest mechanism and why, its stages and costs.")
    add_pair_args(p, "src", "dst", "32,32")
    p.add_argument("--permute-k", type=int, metavar="DIM",
                   help="DST is an MMA operand with reduction index DIM, and the other "
                        "operand's K will be permuted the same way: the plan may take K in "
                        "another order (stated) to keep elements in their threads")
    p.add_argument("--smem-budget", type=int, metavar="BYTES",
                   help="the most shared memory the plan may use at once (default: never "
                        "more than the compiler's own choice); a plan within it may trade "
                        "bytes for fewer wavefronts or barriers")
    p.add_argument("--dst-packing", choices=DST_PACKINGS, default="packed",
                   help="how DST holds 8- and 16-bit values: packed four (two) to a 32-bit "
                        "register, as an MMA operand takes them (default), or unpacked one "
                        "to a register, as a compiler's values are: no byte permutes that "
                        "only pack them")
    code = p.add_argument_group("code")
    code.add_argument("--emit", choices=("cuda", "gluon"),
                      help="print the plan as code: a CUDA C++ translation unit "
                           "(__device__ void NAME(src, dst, smem)) or a @gluon.jit helper")
    code.add_argument("--harness", action="store_true",
                      help="with --emit cuda: add the test kernel NAME_kernel(in, out)")
    code.add_argument("--name", default="convert",
                      help="the emitted function's name (default: convert)")


def run(args: argparse.Namespace) -> int:
    """Print the plan (or its JSON)."""
    src, dst, shape, dtype = layout_pair(args.src, args.dst, ("SRC", "DST"), args.shape,
                                         args.dtype)
    options = {"target": args.target, "permute_k": args.permute_k,
               "smem_budget": args.smem_budget, "dst_packing": args.dst_packing}
    plan = plan_conversion(src, dst, shape, dtype, **options)
    if args.harness and args.emit != "cuda":
        raise LayoutError("--harness adds the CUDA test kernel: use it with --emit cuda")
    if args.emit:
        try:
            # Gluon's helper is spelled by Triton's bindings: in a child process, so that
            # they neither take this one down nor print their exit-time leak report here
            text = plan.code(lang="cuda", name=args.name, harness=args.harness) \
                if args.emit == "cuda" else isolated(
                    "tilelayout.commands.plan:gluon_text", src, dst, shape, dtype, options,
                    args.name, what="the plan's Gluon helper")
        except ValueError as exc:  # a function name that is not an identifier
            raise LayoutError(str(exc)) from None
        print(json.dumps({"lang": args.emit, "name": args.name, "code": text})
              if args.json else text, end="" if not args.json else "\n")
        return 0
    print(json.dumps(plan.to_dict()) if args.json else str(plan))
    return 0


def gluon_text(src: Any, dst: Any, shape: Any, dtype: str | None, options: dict[str, Any],
               name: str) -> str:
    """The plan's ``@gluon.jit`` helper (``ConversionPlan.code(lang="gluon")``), planned
    and spelled where it is called: the CLI calls it in a child process."""
    return plan_conversion(src, dst, shape, dtype, **options).code(lang="gluon", name=name)
