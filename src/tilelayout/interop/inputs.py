"""What the interop entry points take: a layout as a layout object, its text or a
``"preset:NAME[:KEY=VALUE...]"`` string (as the planning entry points do,
:mod:`tilelayout.planning.problem.operands`), and a shape as a sequence or as text (``"8,16"``).
Anything else is one :class:`~tilelayout.interop.InteropError` saying what was expected.

>>> str(layout_arg("S[(4,8):(8,1)]"))
'S[(4,8):(8,1)]'
>>> layout_arg(None)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
tilelayout.interop.InteropError: layout must be a layout, layout text or 'preset:NAME...', got NoneType
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..core.compose import ComposeLayout, Layout
from ..core.errors import shown
from ..core.shape import Shape, shape_arg
from ..core.tile import TileLayout
from ..planning.problem.operands import ACCEPTED, operand
from . import InteropError


def layout_operand(value: Any, what: str = "layout") -> tuple[Layout, Shape | None]:
    """``value`` as a layout and, for a preset, the preset's shape (else None)."""
    if isinstance(value, TileLayout | ComposeLayout):
        return value, None
    if not isinstance(value, str) and getattr(value, "layout", None) is None:
        raise InteropError(f"{what} must be {ACCEPTED}, got {type(value).__name__}")
    op = operand(value, what)
    return op.layout, op.shape


def layout_arg(value: Any, what: str = "layout") -> Layout:
    """``value`` as a layout (see the module doc)."""
    return layout_operand(value, what)[0]


def tile_arg(value: Any, what: str = "layout") -> TileLayout:
    """``value`` as a TileLayout (a swizzled layout is refused, naming ``what``)."""
    layout = layout_arg(value, what)
    if not isinstance(layout, TileLayout):
        raise InteropError(f"{what} must be a TileLayout (no swizzle), got {layout}")
    return layout


def layout_and_shape(value: Any, shape: Any, what: str = "layout") -> tuple[Layout, Shape]:
    """The layout and the shape to use with it: ``shape`` (text or a sequence) admitted by
    the layout, else a preset's own shape, else the layout's default."""
    layout, preset_shape = layout_operand(value, what)
    given = shape_arg(shape)
    return layout, layout.check_shape(given if given is not None else preset_shape)


def names_arg(value: Any, what: str = "in_dims") -> dict[str, str] | None:
    """A mapping of names to names (Triton's input dimensions -> our axes), or None."""
    if value is None:
        return None
    if not isinstance(value, Mapping) or not all(isinstance(k, str) and isinstance(v, str)
                                                 for k, v in value.items()):
        raise InteropError(f"{what} must map names to axis names (e.g. {{'lane': 'laneid'}}), "
                           f"got {shown(value)}")
    return dict(value)


def int_sequence(values: Any, what: str) -> tuple[int, ...]:
    """``values`` as a tuple of ints (bools, floats and text refused)."""
    if not isinstance(values, Sequence) or isinstance(values, str | bytes):
        raise InteropError(f"{what} must be a sequence of integers, got {type(values).__name__}")
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise InteropError(f"{what} must be integers, got {shown(list(values))}")
    return tuple(values)


__all__ = ["int_sequence", "layout_and_shape", "layout_arg", "layout_operand", "names_arg",
           "tile_arg"]
