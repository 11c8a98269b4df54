"""Layouts -> canonical text (docs/model.md, "Text form").

>>> import tilelayout as tl
>>> format_layout(tl.TileLayout([(8, 4, "laneid")], offset={"warpid": -3}))
'S[8:4@laneid] + -3@warpid'
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.compose import ComposeLayout
from ..core.iter import Iter
from ..core.tile import TileLayout


def format_term(value: int, axis: str) -> str:
    """``4@laneid``, or a bare ``4`` on the memory axis ``m``."""
    return str(value) if axis == "m" else f"{value}@{axis}"


def format_iters(iters: Sequence[Iter]) -> str:
    """``8:4@laneid`` for one iter, ``(8,2):(4@laneid,1)`` for several, ``()`` for none."""
    if not iters:
        return "()"
    if len(iters) == 1:
        it = iters[0]
        return f"{it.extent}:{format_term(it.stride, it.axis)}"
    extents = ",".join(str(it.extent) for it in iters)
    strides = ",".join(format_term(it.stride, it.axis) for it in iters)
    return f"({extents}):({strides})"


def format_tile(layout: TileLayout) -> str:
    """Canonical text of a :class:`TileLayout`."""
    parts = [f"S[{format_iters(layout.shard)}]"]
    if layout.replica:
        parts.append(f"R[{format_iters(layout.replica)}]")
    parts.extend(format_term(v, a) for a, v in layout.offset.items())
    return " + ".join(parts)


def format_layout(layout: TileLayout | ComposeLayout) -> str:
    """Canonical text of any layout; ``parse(format_layout(L)) == L``.

    >>> import tilelayout as tl
    >>> format_layout(tl.parse("ComposeLayout( Swizzle(3,3,3) , S[ (8,64) ] - 2 )"))
    'ComposeLayout(Swizzle(3,3,3), S[(8,64):(64,1)] + -2)'
    """
    if isinstance(layout, ComposeLayout):
        return f"ComposeLayout({layout.swizzle}, {format_tile(layout.tile_layout)})"
    return format_tile(layout)
