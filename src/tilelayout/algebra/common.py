"""Small helpers shared by the algebra modules (the tile of a layout, re-wrapping)."""

from __future__ import annotations

from collections.abc import Callable

from ..core.compose import ComposeLayout, Layout, tile_of
from ..core.tile import TileLayout

__all__ = ["Layout", "rewrap", "tile_of"]


def rewrap(layout: Layout, f: Callable[[TileLayout], TileLayout]) -> Layout:
    """Apply a tile -> tile operation that keeps ``m`` exactly (swizzle passes through)."""
    if isinstance(layout, ComposeLayout):
        return ComposeLayout(layout.swizzle, f(layout.tile))
    return f(layout)
