"""``tilelayout smem WRITER READER --shape --dtype [--family swizzle|any] [--json]``.

Chooses the shared-memory layout a tile goes through when the threads of ``WRITER``
store it and the threads of ``READER`` load it back
(:func:`tilelayout.planning.mechanisms.staging.smem_choice.choose_smem_layout`), and prints the chosen layout,
who accepts it (TMA / wgmma / tcgen05), the cost of each side with its worst request,
and the table of candidates, best first. Each operand is layout text or a preset,
``preset:NAME`` or ``preset:NAME:KEY=VALUE[:KEY=VALUE...]``. ``--shape`` defaults to the
presets' (or the writer's) shape, ``--dtype`` to a preset's element type.
"""

from __future__ import annotations

import argparse
import json

from ..planning.mechanisms.staging.access import AccessReport
from ..planning.mechanisms.staging.smem_choice import FAMILIES, choose_smem_layout
from .common import add_command, add_pair_args, layout_pair


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``smem`` subcommand to the CLI's subparsers."""
    p = add_command(sub, "smem", run=run, json="print the choice as JSON",
                    help="choose the shared-memory layout between a writer and a reader",
                    description="Choose the shared-memory layout (and swizzle) for a tile stored by the "
                                "threads of WRITER and loaded by the threads of READER that needs the fewest "
                                "wavefronts; print it and the candidates it beat.")
    add_pair_args(p, "writer", "reader", "128,128")
    p.add_argument("--family", choices=FAMILIES, default="swizzle",
                   help="swizzle: the hardware swizzle modes (default); any: every "
                   "bijective XOR-linear layout of a 2^n-element tile")
    p.add_argument("--limit", type=int, default=12, metavar="N",
                   help="candidate rows to print (default 12; 0 = all)")


def operands(args: argparse.Namespace) -> tuple:
    """``(writer, reader, shape, dtype)`` from the arguments (presets fill the defaults)."""
    return layout_pair(args.writer, args.reader, ("WRITER", "READER"), args.shape, args.dtype)


def _side(r: AccessReport) -> str:
    return f"{r.wavefronts}/{r.ideal} ({r.vector_bytes} B)"


def _worst(name: str, r: AccessReport) -> str | None:
    w = r.worst
    if w is None or w.wavefronts == w.ideal:
        return None
    lanes = ", ".join(f"{lane}->bank {w.banks[lane]}" for lane in w.conflict_lanes[:8])
    more = " ..." if len(w.conflict_lanes) > 8 else ""
    return (f"  worst {name} request: warp {w.warp or 0}, vector {w.vector}: "
            f"{w.wavefronts} wavefronts (ideal {w.ideal}); lanes {lanes}{more}")


def run(args: argparse.Namespace) -> int:
    """Print the choice (or its JSON)."""
    writer, reader, shape, dtype = operands(args)
    c = choose_smem_layout(writer, reader, shape, dtype, args.family, target=args.target)
    if args.json:
        print(json.dumps(c.to_dict()))
        return 0
    print(f"layout   {c.layout}")
    print(f"         {c.name}; {c.family} family, {c.searched} candidates costed")
    print(f"target   {c.target} ({c.target_from}); {'x'.join(map(str, c.shape))} {c.dtype}")
    for mode in c.accepted_by or ("no TMA / wgmma / tcgen05 mode (ld/st.shared only)",):
        print(f"accepts  {mode}")
    print(f"write    {c.write}")
    print(f"read     {c.read}")
    print(f"total    {c.wavefronts} wavefronts; ideal {c.ideal} "
          f"({'reached' if c.distance == 0 else f'+{c.distance}'})")
    for note in c.notes:
        print(f"note     {note}")
    for line in (_worst("write", c.write), _worst("read", c.read)):
        if line:
            print(line)
    rows = c.candidates if args.limit <= 0 else c.candidates[:args.limit]
    print()
    header = ("candidate", "write wf/ideal (vec)", "read wf/ideal (vec)", "total", "accepted by")
    table = [header] + [
        (r.name, _side(r.write), _side(r.read), str(r.wavefronts),
         ", ".join(m.split()[0] for m in r.accepted_by) or "-")
        for r in rows]
    widths = [max(len(row[i]) for row in table) for i in range(len(header))]
    for row in table:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
    if len(rows) < len(c.candidates):
        print(f"... {len(c.candidates) - len(rows)} more (--limit 0 shows all)")
    return 0
