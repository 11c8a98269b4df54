"""``ComposeLayout(swizzle, tile)``: a tile layout whose ``m`` address is then swizzled.

The tile layout produces the linear element address ``m``; the swizzle permutes it.
Other axes (threads, devices) pass through unchanged.

>>> import tilelayout as tl
>>> L = tl.ComposeLayout(tl.Swizzle(3, 3, 3), tl.parse("S[(8,64):(64,1)]"))
>>> L.base((1, 0))
{m: 72}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from .coord import Coord
from .errors import SwizzleError
from .shape import Index, Shape
from .swizzle import Swizzle
from .tile import TileLayout

if TYPE_CHECKING:
    import numpy as np


class ComposeLayout:
    """A swizzle applied to the ``m`` axis of a tile layout. Immutable, hashable."""

    __slots__ = ("_swizzle", "_tile")

    def __init__(self, swizzle: Swizzle, tile: TileLayout) -> None:
        if not isinstance(swizzle, Swizzle):
            raise SwizzleError(f"ComposeLayout needs a Swizzle first, got {swizzle!r}")
        if not isinstance(tile, TileLayout):
            raise SwizzleError(f"ComposeLayout needs a TileLayout second, got {tile!r}")
        if "m" not in tile.axes:
            raise SwizzleError(
                f"a swizzle permutes the memory address 'm', but {tile} has no 'm' axis"
            )
        self._swizzle = swizzle
        self._tile = tile

    @property
    def swizzle(self) -> Swizzle:
        """The swizzle applied to ``m``."""
        return self._swizzle

    @property
    def tile(self) -> TileLayout:
        """The tile layout that produces the linear address."""
        return self._tile

    # the structural properties are the tile's
    shard = property(lambda self: self._tile.shard, doc="The tile's shard iters.")
    replica = property(lambda self: self._tile.replica, doc="The tile's replica iters.")
    offset = property(lambda self: self._tile.offset, doc="The tile's offset.")
    axes = property(lambda self: self._tile.axes, doc="The tile's axes.")
    default_shape = property(lambda self: self._tile.default_shape, doc="The tile's default shape.")
    replica_count = property(lambda self: self._tile.replica_count, doc="Replica combinations.")

    def size(self, axis: str | None = None) -> int:
        """Number of logical elements (as the tile)."""
        return self._tile.size(axis)

    def admits(self, shape: int | Sequence[int]) -> bool:
        """Whether the tile admits ``shape``."""
        return self._tile.admits(shape)

    def check_shape(self, shape: int | Sequence[int] | None) -> Shape:
        """``shape`` validated against the tile."""
        return self._tile.check_shape(shape)

    def apply(self, index: Index, shape: Sequence[int] | None = None) -> tuple[Coord, ...]:
        """``L(x)`` of the tile with each ``m`` swizzled."""
        from ..eval.forward import apply

        return apply(self, index, shape)

    def base(self, index: Index, shape: Sequence[int] | None = None) -> Coord:
        """The replica-free coordinate with ``m`` swizzled."""
        from ..eval.forward import base

        return base(self, index, shape)

    def map_all(self, shape: Sequence[int] | None = None) -> dict[str, np.ndarray]:
        """Like :meth:`TileLayout.map_all`, with the ``m`` array swizzled."""
        from ..eval.forward import map_all

        return map_all(self, shape)

    def elements_at(
        self,
        query: Mapping[str, int],
        shape: Sequence[int] | None = None,
        *,
        limit: int | None = 1 << 22,
    ) -> tuple[tuple[int, ...], ...]:
        """Like :meth:`TileLayout.elements_at`; a queried ``m`` is a swizzled address.

        >>> import tilelayout as tl
        >>> L = tl.ComposeLayout(tl.Swizzle(3, 3, 3), tl.parse("S[(8,64):(64,1)]"))
        >>> L.elements_at({"m": 72})
        ((1, 0),)
        """
        from ..eval.inverse import elements_at

        return elements_at(self, query, shape, limit=limit)

    # -- algebra: the tile's operations; the swizzle follows (see docs/algebra.md) -----
    def span(self, axis: str = "m") -> int:
        """Covered extent of ``axis`` of the unswizzled tile (a swizzle permutes within atoms).

        >>> import tilelayout as tl
        >>> tl.ComposeLayout(tl.Swizzle(3, 3, 3), tl.parse("S[(8,64):(64,1)]")).span()
        512
        """
        from ..algebra.span import span

        return span(self, axis)

    def canonicalize(self, *, fuse_threads: bool = False) -> Layout:
        """The same mapping in canonical form (fused iters, sorted replicas, no zeros).

        >>> import tilelayout as tl
        >>> tl.parse("S[(4,2):(2,1)] + 0@warpid").canonicalize()
        parse('S[8:1]')
        """
        from ..algebra.canonical import canonicalize

        return canonicalize(self, fuse_threads=fuse_threads)

    def group(self, shape: int | Sequence[int]) -> tuple[Layout, tuple[int, ...]]:
        """Split iters so that ``shard[seps[i]:seps[i+1]]`` multiply to ``shape[i]``.

        >>> import tilelayout as tl
        >>> tl.parse("S[6:1]").group((2, 3))
        (parse('S[(2,3):(3,1)]'), (0, 1, 2))
        """
        from ..algebra.group import group

        return group(self, shape)

    def tile_to(self, to_shape: Sequence[int], current_shape: Sequence[int]) -> Layout:
        """Tile row-major on ``m`` up to ``to_shape`` (each entry must divide exactly).

        >>> import tilelayout as tl
        >>> tl.parse("S[4:1]").tile_to((12,), (4,))
        parse('S[(3,4):(4,1)]')
        """
        from ..algebra.tiling import tile_to

        return tile_to(self, to_shape, current_shape)

    def slice(self, shape: Sequence[int], region: Sequence) -> Layout:
        """The layout of a rectangular ``region`` (``(start, stop)`` or slices per dim).

        >>> import tilelayout as tl
        >>> tl.parse("S[(8,64):(64,1)]").slice((8, 64), ((1, 2), (8, 16)))
        parse('S[8:1] + 72')
        """
        from ..algebra.slicing import slice_layout

        return slice_layout(self, shape, region)

    def permute_dims(self, perm: Sequence[int], shape: Sequence[int] | None = None) -> Layout:
        """The layout of the tensor with dims reordered (new dim j = old dim ``perm[j]``).

        >>> import tilelayout as tl
        >>> tl.parse("S[(8,64):(64,1)]").permute_dims((1, 0))
        parse('S[(64,8):(1,64)]')
        """
        from ..algebra.slicing import permute_dims

        return permute_dims(self, perm, shape)

    def pack(self, n: int, axis: str = "m") -> Layout:
        """``n`` consecutive elements at consecutive ``axis`` positions become one.

        >>> import tilelayout as tl
        >>> tl.parse("S[(32,16):(1@TLane,1@TCol)]").pack(4, "TCol")
        parse('S[(32,4):(1@TLane,1@TCol)]')
        """
        from ..algebra.packing import pack

        return pack(self, n, axis)

    def unpack(self, n: int, axis: str = "m") -> Layout:
        """Each element becomes ``n`` narrower elements at consecutive ``axis`` positions.

        >>> import tilelayout as tl
        >>> tl.parse("S[4:1]").unpack(2)
        parse('S[(4,2):(2,1)]')
        """
        from ..algebra.packing import unpack

        return unpack(self, n, axis)

    def storage(self) -> Layout:
        """Where each element is stored: thread axes dropped (their iters get stride 0).

        >>> import tilelayout as tl
        >>> tl.parse("S[(32,2):(1@laneid,1)]").storage()
        parse('S[(32,2):(0,1)]')
        """
        from ..algebra.packing import storage

        return storage(self)

    def equivalent(self, other: Layout, shape: Sequence[int] | None = None) -> bool:
        """Same coordinate set for every element (absent axes count as 0).

        >>> import tilelayout as tl
        >>> tl.parse("S[(4,4):(4,1)]").equivalent(tl.parse("S[16:1]"))
        True
        """
        from ..algebra.equivalence import equivalent

        return equivalent(self, other, shape)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ComposeLayout):
            return NotImplemented
        return self._swizzle == other._swizzle and self._tile == other._tile

    def __hash__(self) -> int:
        return hash((self._swizzle, self._tile))

    def __str__(self) -> str:
        from ..syntax.printer import format_layout

        return format_layout(self)

    def __repr__(self) -> str:
        return f"parse({str(self)!r})"

    def table(self, shape: Sequence[int] | None = None) -> str:
        """A text grid of owners, one cell per logical element (like CuTe's print_layout)."""
        from ..render.table import layout_table

        return layout_table(self, shape)

    def _repr_svg_(self) -> str | None:
        try:
            from ..render.svg import layout_svg
        except ImportError:
            return None
        return layout_svg(self)


Layout = TileLayout | ComposeLayout
