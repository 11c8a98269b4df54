"""Argument helpers shared by subcommands."""

from __future__ import annotations

import argparse

from ..core.compose import ComposeLayout
from ..core.errors import LayoutError, LayoutParseError, ShapeError
from ..core.swizzle import Swizzle
from ..core.tile import TileLayout
from ..syntax.parser import parse


def int_tuple(text: str, what: str) -> tuple[int, ...]:
    """``"8,16"`` (or ``"8x16"``, ``"(8, 16)"``) -> ``(8, 16)``."""
    cleaned = text.strip().strip("()[]").replace("x", ",").replace(" ", "")
    if not cleaned:
        return ()
    try:
        return tuple(int(p) for p in cleaned.split(",") if p != "")
    except ValueError:
        raise ShapeError(f"{what} must be comma-separated integers like 8,16; got {text!r}") from None


def add_layout_args(p: argparse.ArgumentParser, *, shape_required: bool = False) -> None:
    p.add_argument("layout", help='layout text, e.g. "S[(8,16):(16,1)]"')
    p.add_argument("--shape", help="logical shape, e.g. 8,16 (default: the shard extents)",
                   required=shape_required)
    p.add_argument("--dtype", help="element type for shared-memory banks (e.g. float16)")
    p.add_argument("--swizzle", help="swizzle mode none/32B/64B/128B (needs --dtype)")


def layout_from_args(args: argparse.Namespace) -> TileLayout | ComposeLayout:
    """The layout named by the arguments, with ``--swizzle`` composed in if given."""
    try:
        layout = parse(args.layout)
    except LayoutParseError as exc:
        raise LayoutError(f"{exc}\n  {exc.caret().replace(chr(10), chr(10) + '  ')}") from None
    if getattr(args, "swizzle", None):
        if not args.dtype:
            raise LayoutError("--swizzle needs --dtype (the swizzle depends on the element size)")
        if isinstance(layout, ComposeLayout):
            raise LayoutError("the layout already has a swizzle; drop --swizzle")
        sw = Swizzle.for_dtype(args.dtype, args.swizzle)
        layout = ComposeLayout(sw, layout)
    return layout


def shape_from_args(args: argparse.Namespace, layout: TileLayout | ComposeLayout) -> tuple[int, ...]:
    shape = None if args.shape is None else int_tuple(args.shape, "--shape")
    return layout.check_shape(shape)
