"""Argument helpers shared by subcommands (``int_tuple`` is :func:`tilelayout.core.shape.int_tuple`)."""

from __future__ import annotations

import argparse
from dataclasses import dataclass

from .. import presets
from ..core.compose import ComposeLayout
from ..core.dtypes import dtype_bits
from ..core.errors import LayoutError, LayoutParseError
from ..core.shape import int_tuple
from ..core.swizzle import Swizzle
from ..core.tile import TileLayout
from ..presets.registry import Preset
from ..syntax.parser import parse

__all__ = ["LayoutArgs", "add_layout_args", "add_preset_args", "int_tuple", "layout_args",
           "layout_from_args", "preset_from_args", "shape_from_args"]


def add_layout_args(p: argparse.ArgumentParser, *, shape_required: bool = False) -> None:
    p.add_argument("layout", nargs="?",
                   help='layout text, e.g. "S[(8,16):(16,1)]" (or use --preset)')
    p.add_argument("--shape", help="logical shape, e.g. 8,16 (default: the shard extents, "
                   "or the preset's shape)", required=shape_required)
    p.add_argument("--dtype", help="element type for shared-memory banks (e.g. float16)")
    p.add_argument("--swizzle", help="swizzle mode none/32B/64B/128B (needs --dtype)")
    add_preset_args(p)


def add_preset_args(p: argparse.ArgumentParser) -> None:
    """``--preset NAME`` and repeatable ``--param KEY=VALUE``."""
    p.add_argument("--preset", metavar="NAME",
                   help="use a named hardware layout instead of LAYOUT (see `tilelayout presets`)")
    p.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                   help="a preset parameter, e.g. --param dtype=float16 (repeatable; "
                   "parameters not given take the preset's defaults)")


def preset_from_args(args: argparse.Namespace):
    """The :class:`~tilelayout.presets.Preset` named by ``--preset`` / ``--param``.

    Parameters not given on the command line take the preset's defaults.
    """
    texts: dict[str, str] = {}
    for item in getattr(args, "param", None) or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise LayoutError(f"--param must look like KEY=VALUE, got {item!r}")
        texts[key.strip()] = value
    params = presets.info(args.preset).defaults
    params.update(presets.parse_params(args.preset, texts))
    return presets.get(args.preset, **params)


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
    else:
        try:
            layout = parse(args.layout)
        except LayoutParseError as exc:
            raise LayoutError(
                f"{exc}\n  {exc.caret().replace(chr(10), chr(10) + '  ')}"
            ) from None
    if getattr(args, "swizzle", None):
        if not dtype:
            raise LayoutError("--swizzle needs --dtype (the swizzle depends on the element size)")
        if isinstance(layout, ComposeLayout):
            raise LayoutError("the layout already has a swizzle; drop --swizzle")
        layout = ComposeLayout(Swizzle.for_dtype(dtype, args.swizzle), layout)
    shape = None if getattr(args, "shape", None) is None else int_tuple(args.shape, "--shape")
    if shape is None and preset is not None:
        shape = preset.shape
    return LayoutArgs(layout, layout.check_shape(shape), dtype, preset)


def layout_from_args(args: argparse.Namespace) -> TileLayout | ComposeLayout:
    """The layout the arguments name (``layout_args(args).layout``)."""
    return layout_args(args).layout


def shape_from_args(args: argparse.Namespace, layout: TileLayout | ComposeLayout) -> tuple[int, ...]:
    """``--shape``, else the preset's logical shape, else the layout's default shape."""
    shape = None if args.shape is None else int_tuple(args.shape, "--shape")
    if shape is None and getattr(args, "preset", None):
        shape = preset_from_args(args).shape
    return layout.check_shape(shape)
