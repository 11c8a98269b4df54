"""``tilelayout presets [NAME] [--param KEY=VALUE ...] [--json]``: the hardware layouts.

Without NAME: every preset with a one-line summary. With NAME: its documentation,
parameters (defaults and allowed values) and the layout text for the given
parameters (defaults for the rest).
"""

from __future__ import annotations

import argparse
import json
import sys

from .. import presets
from ..core.shape import format_shape
from .common import add_command, preset_from_args


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(sub, "presets", run=run, json="print JSON",
                    help="list or show the named hardware layouts",
                    description="List the named, cited hardware layouts, or show one.")
    p.add_argument("name", nargs="?", help="a preset name, e.g. mma.m16n8k16.A")
    p.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                   help="a parameter of NAME (repeatable; others take their defaults)")


def run(args: argparse.Namespace) -> int:
    out = sys.stdout
    if not args.name:
        if args.param:
            raise presets.PresetError("--param needs a preset NAME")
        if args.json:
            out.write(json.dumps([i.to_dict() for i in presets.catalog()]) + "\n")
            return 0
        width = max(len(n) for n in presets.names())
        for entry in presets.catalog():
            out.write(f"{entry.name:<{width}}  {entry.summary}\n")
        return 0
    args = argparse.Namespace(**{**vars(args), "preset": args.name})
    preset = preset_from_args(args, fill_required=True)  # shown with its defaults
    entry = presets.info(args.name)
    if args.json:
        doc = preset.to_dict()
        doc["parameters"] = [p.to_dict() for p in entry.params]
        out.write(json.dumps(doc) + "\n")
        return 0
    out.write(f"{preset.name}: {preset.summary}\n\n{preset.doc}\n\n")
    if entry.params:
        out.write("parameters:\n")
        for p in entry.params:
            # values in the text form --param KEY=VALUE takes (never a Python repr)
            allowed = "" if p.choices is None else "  one of " + ", ".join(map(p.text, p.choices))
            shown = "(the preset picks)" if preset.params[p.name] is None else p.text(preset.params[p.name])
            default = "" if p.default is None else p.text(p.default)
            how = (f"required: --param {p.name}=..., e.g. {p.name}={default}" if p.required
                   else f"default {default or '(the preset picks)'}")
            out.write(f"  {p.name} = {shown}  [{p.kind}; {how}]  {p.doc}{allowed}\n")
        out.write("\n")
    out.write(f"shape   {format_shape(preset.shape)}\nlayout  {preset.layout}\n")
    if preset.dtype:
        mode = f", swizzle {preset.swizzle_mode}" if preset.swizzle_mode else ""
        out.write(f"dtype   {preset.dtype}{mode}\n")
    return 0
