"""Argument helpers shared by subcommands."""

from __future__ import annotations

import argparse
import re

from ..core.compose import ComposeLayout
from ..core.dtypes import dtype_bits
from ..core.errors import LayoutError, LayoutParseError, ShapeError
from ..core.swizzle import Swizzle
from ..core.tile import TileLayout
from ..syntax.parser import parse


def int_tuple(text: str, what: str) -> tuple[int, ...]:
    """``"8,16"`` (or ``"8x16"``, ``"8 16"``, ``"(8, 16)"``, ``"[8,16]"``) -> ``(8, 16)``.

    An empty text (or ``"()"``) is the empty tuple; an empty entry is an error.

    >>> int_tuple("(8, 16)", "--shape"), int_tuple("8x16", "--shape"), int_tuple("7,", "--at")
    ((8, 16), (8, 16), (7,))
    """
    cleaned = text.strip()
    if cleaned[:1] + cleaned[-1:] in ("()", "[]"):
        cleaned = cleaned[1:-1].strip()
    if not cleaned:
        return ()
    parts = re.split(r"\s*[,x]\s*|\s+", cleaned)
    if len(parts) > 1 and parts[-1] == "":
        parts.pop()  # one trailing comma, as in (8,)
    try:
        return tuple(int(p) for p in parts)
    except ValueError:
        raise ShapeError(f"{what} must be comma-separated integers like 8,16; got {text!r}") from None


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
    return build_preset(args.preset, getattr(args, "param", None) or [], "--param")


def build_preset(name: str, items: list[str], what: str):
    """Preset ``name`` built from ``KEY=VALUE`` texts (the others take their defaults)."""
    from .. import presets

    texts: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise LayoutError(f"{what} must look like KEY=VALUE, got {item!r}")
        texts[key.strip()] = value
    params = presets.info(name).defaults
    params.update(presets.parse_params(name, texts))
    return presets.get(name, **params)


#: how an operand names a preset: ``preset:NAME`` or ``preset:NAME:KEY=VALUE:KEY=VALUE``
PRESET_PREFIX = "preset:"


def parse_layout_text(text: str) -> TileLayout | ComposeLayout:
    """Layout text parsed, a parse error as one line with the caret under it."""
    try:
        return parse(text)
    except LayoutParseError as exc:
        raise LayoutError(
            f"{exc}\n  {exc.caret().replace(chr(10), chr(10) + '  ')}"
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
    if not text.startswith(PRESET_PREFIX):
        try:
            return parse_layout_text(text), None
        except LayoutError as exc:
            raise LayoutError(f"{what}: {exc}") from None
    name, *items = text[len(PRESET_PREFIX):].split(":")
    if not name:
        raise LayoutError(f"{what}: give a preset name after 'preset:' "
                          f"(`tilelayout presets` lists them)")
    preset = build_preset(name.strip(), items, f"{what}'s preset parameters")
    return preset.layout, preset


def layout_from_args(args: argparse.Namespace) -> TileLayout | ComposeLayout:
    """The layout named by the arguments (text or ``--preset``), with ``--swizzle``
    composed in if given. An unknown ``--dtype`` is an error even without ``--swizzle``."""
    if getattr(args, "dtype", None):
        dtype_bits(args.dtype)
    if getattr(args, "preset", None):
        if args.layout:
            raise LayoutError("give either a LAYOUT or --preset NAME, not both")
        preset = preset_from_args(args)
        args.preset_object = preset
        if preset.swizzle_mode is not None and not args.dtype:
            args.dtype = preset.dtype  # m is a shared-memory address: banks are meaningful
        layout = preset.layout
    elif getattr(args, "param", None):
        raise LayoutError("--param needs --preset NAME")
    elif not args.layout:
        raise LayoutError('give a LAYOUT such as "S[(8,16):(16,1)]" or --preset NAME '
                          "(`tilelayout presets` lists the names)")
    else:
        layout = parse_layout_text(args.layout)
    if getattr(args, "swizzle", None):
        if not args.dtype:
            raise LayoutError("--swizzle needs --dtype (the swizzle depends on the element size)")
        if isinstance(layout, ComposeLayout):
            raise LayoutError("the layout already has a swizzle; drop --swizzle")
        sw = Swizzle.for_dtype(args.dtype, args.swizzle)
        layout = ComposeLayout(sw, layout)
    return layout


def shape_from_args(args: argparse.Namespace, layout: TileLayout | ComposeLayout) -> tuple[int, ...]:
    """``--shape``, else the preset's logical shape, else the layout's default shape."""
    shape = None if args.shape is None else int_tuple(args.shape, "--shape")
    preset = getattr(args, "preset_object", None)
    if shape is None and preset is not None:
        shape = preset.shape
    return layout.check_shape(shape)
