"""Argument helpers shared by subcommands (``int_tuple`` is :func:`tilelayout.core.shape.int_tuple`)."""

from __future__ import annotations

import argparse
import math
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from types import MappingProxyType

from .. import presets
from ..core import budget
from ..core.axes import AxisTable, current
from ..core.compose import ComposeLayout
from ..core.dtypes import dtype_bits
from ..core.errors import LayoutError, LayoutParseError
from ..core.shape import int_tuple
from ..core.swizzle import Swizzle
from ..core.swizzle_modes import modes_help
from ..core.tile import TileLayout
from ..interop.cute import cute_logical_shape, from_cute
from ..planning.mechanisms.staging.tma import is_endpoint
from ..planning.problem.operands import resolve
from ..presets.operand import build
from ..presets.registry import Preset
from ..syntax.parser import parse

__all__ = ["LayoutArgs", "add_command", "add_layout_args", "add_limit_args", "add_preset_args",
           "bounded_float", "bounded_int", "int_tuple", "layout_args", "layout_from_args", "limits_from_args",
           "preset_from_args", "shape_from_args"]


def bounded_int(lo: int, hi: int, flag: str) -> Callable[[str], int]:
    """An argparse ``type``: an integer in ``[lo, hi]`` (else a one-line usage error).

    >>> bounded_int(1, 10, "--n")("7")
    7
    """
    def convert(text: str) -> int:
        try:
            value = int(text.strip()) if len(text) < 40 else None
        except ValueError:
            value = None
        if value is None or not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"{flag} must be an integer in {lo}..{hi}, "
                                             f"got {text[:40]!r}")
        return value
    return convert


def bounded_float(lo: float, hi: float, flag: str) -> Callable[[str], float]:
    """An argparse ``type``: a finite number in ``[lo, hi]``.

    >>> bounded_float(0.1, 8, "--scale")("2")
    2.0
    """
    def convert(text: str) -> float:
        try:
            value = float(text) if len(text) < 40 else math.nan
        except ValueError:
            value = math.nan
        if not (math.isfinite(value) and lo <= value <= hi):
            raise argparse.ArgumentTypeError(f"{flag} must be a number in {lo}..{hi}, "
                                             f"got {text[:40]!r}")
        return value
    return convert


#: the resource limits every command takes (see docs/limits.md)
LIMIT_FLAGS = MappingProxyType({"elements": "logical elements (or element x replica pairs) evaluated at once",
                                "replicas": "replica combinations listed for one element",
                                "output_bytes": "bytes of arrays or text built for one answer",
                                "text": "characters of layout text parsed",
                                "search": "candidates an inverse query may try",
                                "cells": "elements formatted one by one (tables, pictures)",
                                "seconds": "wall-clock seconds before long work is cut off"})


def add_limit_args(p: argparse.ArgumentParser) -> None:
    """``--max-elements`` ... ``--max-seconds``: raise (or lower) the resource limits."""
    g = p.add_argument_group("resource limits (raise them for big layouts)")
    for name, doc in LIMIT_FLAGS.items():
        flag = "--max-" + name.replace("_", "-")
        kind = (bounded_float(0.001, 1e8, flag) if name == "seconds"
                else bounded_int(1, (1 << 62) - 1, flag))
        g.add_argument(flag, dest=f"max_{name}", type=kind, metavar="N", help=doc)


def limits_from_args(args: argparse.Namespace, base: budget.Limits | None = None
                     ) -> budget.Limits:
    """``base`` (default: the library's limits) with the ``--max-*`` flags given applied."""
    return budget.changed(base or budget.current(),
                          {name: getattr(args, f"max_{name}", None) for name in budget.NAMES})


def add_axes_arg(p: argparse.ArgumentParser) -> None:
    """``--axes data,model=4``: device axes of your own that layout text may name."""
    p.add_argument("--axes", metavar="NAMES", type=_axes_option,
                   help="device axes of your own that layouts may name (mesh axes), e.g. "
                   "data,model=4 (=N gives the axis N devices)")


def axes_from_text(text: str) -> AxisTable:
    """The table in force plus the axes ``--axes`` names (``name`` or ``name=extent``).

    >>> [(a.name, a.extent) for a in axes_from_text("data, model=4").declared]
    [('data', None), ('model', 4)]
    """
    extents: dict[str, int | None] = {}
    for item in (t.strip() for t in str(text).split(",")):
        if not item:
            continue
        name, _, size = (s.strip() for s in item.partition("="))
        if size and not size.isdigit():
            raise LayoutError(f"--axes entries are name or name=N, got {item!r}")
        extents[name] = int(size) if size else None
    return current().with_axes(*(n for n, e in extents.items() if e is None),
                               **{n: e for n, e in extents.items() if e is not None})


def _axes_option(text: str) -> AxisTable:
    try:
        return axes_from_text(text)
    except LayoutError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


#: the library's hint for declaring an axis, as Python
_PYTHON_AXES_HINT = re.compile(r"\(declare your own axes: tilelayout\.parse\(text, "
                               r"axes=\['(\w+)'\]\) or with tilelayout\.axes\([^)]*\)\)")


def for_command_line(message: str) -> str:
    """``message`` with the library's Python hints in command-line terms.

    >>> for_command_line("unknown axis 'dp' (declare your own axes: tilelayout.parse(text, "
    ...                  "axes=['dp']) or with tilelayout.axes('dp'))")
    "unknown axis 'dp' (declare your own axes: --axes dp)"
    """
    return _PYTHON_AXES_HINT.sub(r"(declare your own axes: --axes \1)", message)


def axes_from_args(args: argparse.Namespace) -> AxisTable:
    """The axis table a command runs under: ``--axes`` if given, else the one in force."""
    return getattr(args, "axes", None) or current()


def add_command(sub: argparse._SubParsersAction, name: str, *, help: str, description: str,
                run: Callable[[argparse.Namespace], int], json: str | None = None
                ) -> argparse.ArgumentParser:
    """The parser of subcommand ``name`` (``help``: its line in ``tilelayout --help``,
    ``description``: the head of its own help), which ``run`` runs; with ``json`` (what
    the JSON holds) a ``--json`` flag, listed under "output".

    >>> parser = argparse.ArgumentParser()
    >>> sub = parser.add_subparsers()
    >>> p = add_command(sub, "hello", help="greet", description="Greet.", run=lambda a: 0,
    ...                 json="print the greeting as JSON")
    >>> args = parser.parse_args(["hello", "--json"])
    >>> args.json, args.run(args)
    (True, 0)
    """
    p = sub.add_parser(name, help=help, description=description)
    if json is not None:
        p.add_argument_group("output").add_argument("--json", action="store_true", help=json)
    p.set_defaults(run=run)
    return p


#: the notations a LAYOUT operand may be written in (``--from``)
NOTATIONS = ("tilelayout", "cute")


def add_layout_args(p: argparse.ArgumentParser, *, shape_required: bool = False) -> None:
    p.add_argument("layout", nargs="?",
                   help='layout text, e.g. "S[(8,16):(16,1)]" (or use --preset; CuTe text '
                   'with --from cute)')
    p.add_argument("--from", dest="notation", choices=NOTATIONS, default="tilelayout",
                   help='the notation LAYOUT is written in: tilelayout (default) or cute, e.g. '
                   '"Swizzle<3,3,3> o (8,64):(64,1)" (read as tilelayout.from_cute reads it, '
                   'on the logical shape of its top-level modes)')
    p.add_argument("--shape", help="logical shape, e.g. 8,16 (default: the shard extents, "
                   "or the preset's shape)", required=shape_required)
    p.add_argument("--dtype", help="element type for shared-memory banks (e.g. float16)")
    p.add_argument("--swizzle", help=f"swizzle mode {modes_help()} (needs --dtype)")
    add_preset_args(p)


def add_preset_args(p: argparse.ArgumentParser) -> None:
    """``--preset NAME`` and repeatable ``--param KEY=VALUE``."""
    p.add_argument("--preset", metavar="NAME",
                   help="use a named hardware layout instead of LAYOUT (see `tilelayout presets`)")
    p.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                   help="a preset parameter, e.g. --param dtype=float16 (repeatable; "
                   "parameters not given take the preset's defaults, except a required "
                   "one such as the dtype of an mma A or B operand)")


def preset_from_args(args: argparse.Namespace, *, fill_required: bool = False) -> Preset:
    """The :class:`~tilelayout.presets.Preset` named by ``--preset`` / ``--param``.

    Parameters not given on the command line take the preset's defaults, except a required
    one (``dtype`` of an mma A or B operand): it must be given (``fill_required``: its
    default too, for showing the preset).
    """
    return build(args.preset, getattr(args, "param", None) or [], "--param",
                 spell="--param {key}={value}", fill_required=fill_required)


def is_cute_text(text: str) -> bool:
    """Whether ``text`` reads as a CuTe layout (``tilelayout.from_cute`` takes it).

    >>> is_cute_text("Swizzle<3,3,3> o (8,64):(64,1)"), is_cute_text("S[(8,64):(64,1)]")
    (True, False)
    """
    try:
        from_cute(text)
    except LayoutError:
        return False
    return True


def parse_layout_text(text: str, cute_hint: str = "read it with tilelayout.from_cute"
                      ) -> TileLayout | ComposeLayout:
    """Layout text parsed. A parse error is one line naming the column; on a terminal
    the text follows with a caret under the column (piped output stays one line). CuTe
    text is recognised and the error says so (``cute_hint``: how to read it instead)."""
    try:
        return parse(text)
    except LayoutParseError as exc:
        cute = f"; this is CuTe notation: {cute_hint}" if is_cute_text(text) else ""
        if not sys.stderr.isatty() or len(text) > 200:
            raise LayoutError(f"{exc}{cute}") from None
        raise LayoutError(
            f"{exc}{cute}\n  {exc.caret().replace(chr(10), chr(10) + '  ')}"
        ) from None


def layout_operand(text: str, what: str):
    """A layout given as a positional operand: layout text, or a preset written
    ``preset:NAME`` / ``preset:NAME:KEY=VALUE[:KEY=VALUE...]`` (e.g.
    ``preset:wgmma.m64nNk16.D:n=128``). Returns ``(layout, preset or None)``; the commands
    that take two layouts (``smem``, ``plan``) use it for both.

    >>> L, p = layout_operand("preset:mma.m16n8k16.C:dtype=float16", "WRITER")
    >>> str(L), p.shape, p.dtype
    ('S[(2,8,4,2):(2,4@laneid,1@laneid,1)]', (16, 8), 'float16')
    """
    text = text.strip()
    if not presets.is_preset_text(text):
        try:
            return parse_layout_text(text), None
        except LayoutError as exc:
            raise LayoutError(f"{what}: {exc}") from None
    preset = presets.from_text(text, what)
    return preset.layout, preset


OPERAND_HELP = ('layout text, or a preset: "preset:NAME" or "preset:NAME:KEY=VALUE" '
                '(e.g. preset:mma.m16n8k16.C:dtype=float16)')


def add_pair_args(p: argparse.ArgumentParser, first: str, second: str, example: str) -> None:
    """The two layout operands (``FIRST``, ``SECOND``) of one tile, ``--shape`` and
    ``--dtype`` (read back with :func:`layout_pair`)."""
    p.add_argument(first, metavar=first.upper(), help=OPERAND_HELP)
    p.add_argument(second, metavar=second.upper(), help=OPERAND_HELP)
    p.add_argument("--shape", help=f"the tile's logical shape, e.g. {example} (default: the "
                   f"presets' shape, else {first.upper()}'s)")
    p.add_argument("--dtype", help="element type, e.g. float16 (default: a preset's)")
    p.add_argument("--target", help="GPU target, e.g. sm_80, sm_90a, sm_100a (default: "
                   "sm_90a, or the one the presets need; decides instructions and "
                   "swizzle modes)")


def layout_pair(first: str, second: str, names: tuple[str, str], shape: str | None,
                dtype: str | None) -> tuple:
    """Two layout operands (:func:`layout_operand`) of one tile, as ``(first, second,
    shape, dtype)`` (each a layout, the preset it names, or the TMA endpoint text
    ``tma[:box=...][:swizzle=...]``): ``shape`` (text) defaults to a preset's shape, else
    the first layout's; ``dtype`` to a preset's element type (one is required).
    ``tilelayout smem`` and ``tilelayout plan`` take their operands this way.

    >>> a, b, shape, dtype = layout_pair("preset:mma.m16n8k16.C", "S[(16,8):(1,1@laneid)]",
    ...                                  ("SRC", "DST"), None, None)
    >>> shape, dtype
    ((16, 8), 'float32')
    """
    given = [(t, name) for t, name in zip((first, second), names, strict=True)]
    found = [(t.strip(), None) if is_endpoint(t) else layout_operand(t, name)
             for t, name in given]
    (a, pa), (b, pb) = found
    s = None if shape is None else int_tuple(shape, "--shape")
    threads = [(p or x, name) for (x, p), name in zip(found, names, strict=True)
               if not is_endpoint(x)]
    try:
        ops = resolve(threads, s, dtype, None)
    except LayoutError as exc:
        raise LayoutError(str(exc).replace("dtype=", "--dtype")) from None
    # presets stay presets: the planning entry points read their target needs; the shape
    # defaults to the first layout operand's (FIRST's unless FIRST is a TMA endpoint)
    return pa or a, pb or b, ops.shape or ops.layouts[0].check_shape(None), ops.dtype


@dataclass(frozen=True)
class LayoutArgs:
    """What the layout options name: the layout (``--swizzle`` composed in), its logical
    shape, the dtype (``--dtype``, else a swizzled preset's own) and the preset, if any."""

    layout: TileLayout | ComposeLayout
    shape: tuple[int, ...]
    dtype: str | None
    preset: Preset | None


def layout_args(args: argparse.Namespace) -> LayoutArgs:
    """The layout, shape and dtype the arguments name (text or ``--preset``); ``args`` is
    only read. An unknown ``--dtype`` is an error even without ``--swizzle``."""
    dtype = getattr(args, "dtype", None) or None
    if dtype:
        dtype_bits(dtype)
    preset = None
    if getattr(args, "preset", None):
        if args.layout:
            raise LayoutError("give either a LAYOUT or --preset NAME, not both")
        preset = preset_from_args(args)
        if preset.swizzle_mode is not None and not dtype:
            dtype = preset.dtype  # m is a shared-memory address: banks are meaningful
        layout = preset.layout
    elif getattr(args, "param", None):
        raise LayoutError("--param needs --preset NAME")
    elif not args.layout:
        raise LayoutError('give a LAYOUT such as "S[(8,16):(16,1)]" or --preset NAME '
                          "(`tilelayout presets` lists the names)")
    elif getattr(args, "notation", "tilelayout") == "cute":
        layout = from_cute(args.layout)
    else:
        layout = parse_layout_text(args.layout, "add --from cute (tilelayout.from_cute in Python)")
    if getattr(args, "swizzle", None):
        if not dtype:
            raise LayoutError("--swizzle needs --dtype (the swizzle depends on the element size)")
        if isinstance(layout, ComposeLayout):
            raise LayoutError("the layout already has a swizzle; drop --swizzle")
        layout = ComposeLayout(Swizzle.for_dtype(dtype, args.swizzle), layout)
    shape = None if getattr(args, "shape", None) is None else int_tuple(args.shape, "--shape")
    if shape is None and preset is not None:
        shape = preset.shape
    if shape is None and preset is None and getattr(args, "notation", None) == "cute":
        shape = cute_logical_shape(args.layout)  # CuTe's top-level modes
    return LayoutArgs(layout, layout.check_shape(shape), dtype, preset)


def layout_from_args(args: argparse.Namespace) -> TileLayout | ComposeLayout:
    """The layout the arguments name (``layout_args(args).layout``)."""
    return layout_args(args).layout


def shape_from_args(args: argparse.Namespace, layout: TileLayout | ComposeLayout) -> tuple[int, ...]:
    """``--shape``, else the preset's logical shape, else the layout's default shape."""
    shape = None if args.shape is None else int_tuple(args.shape, "--shape")
    if shape is None and getattr(args, "preset", None):
        shape = preset_from_args(args).shape
    elif shape is None and getattr(args, "notation", None) == "cute" and args.layout:
        shape = cute_logical_shape(args.layout)
    return layout.check_shape(shape)
