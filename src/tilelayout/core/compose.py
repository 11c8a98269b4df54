"""``ComposeLayout(swizzle, tile)``: a tile layout whose ``m`` address is then swizzled.

The tile layout produces the linear element address ``m``; the swizzle permutes it.
Other axes (threads, devices) pass through unchanged. The swizzle is a
:class:`~tilelayout.Swizzle` or the general bit-linear :class:`~tilelayout.XorSwizzle`.

>>> import tilelayout as tl
>>> L = tl.ComposeLayout(tl.Swizzle(3, 3, 3), tl.parse("S[(8,64):(64,1)]"))
>>> L.base((1, 0))
{m: 72}
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence

from .errors import LayoutTypeError, SwizzleError, shown
from .operations import LayoutKey, LayoutOperations
from .shape import Shape
from .swizzle import Swizzle
from .tile import TileLayout
from .xor_swizzle import XorSwizzle

#: what ``ComposeLayout`` applies to ``m``: the (M, B, S) swizzle or a bit-linear one
AnySwizzle = Swizzle | XorSwizzle


class ComposeLayout(LayoutOperations):
    """A swizzle applied to the ``m`` axis of a tile layout. Immutable, hashable.

    >>> import tilelayout as tl
    >>> L = ComposeLayout(tl.Swizzle(3, 3, 3), tl.parse("S[(8,64):(64,1)] + R[2:1@pid]"))
    >>> L.apply((1, 0))
    ({m: 72, pid: 0}, {m: 72, pid: 1})
    >>> tl.parse(str(L)) == L
    True
    """

    __slots__ = ("_swizzle", "_tile", "_hash", "_ref", "__weakref__")

    def __init__(self, swizzle: AnySwizzle, tile: TileLayout) -> None:
        if not isinstance(swizzle, Swizzle | XorSwizzle):
            raise LayoutTypeError(
                f"ComposeLayout needs a Swizzle or XorSwizzle first, got {shown(swizzle)}"
            )
        if not isinstance(tile, TileLayout):
            raise LayoutTypeError(f"ComposeLayout needs a TileLayout second, got {shown(tile)}")
        if "m" not in tile.axes:
            raise SwizzleError(
                f"a swizzle permutes the memory address 'm', but {tile} has no 'm' axis"
            )
        self._swizzle = swizzle
        self._tile = tile
        self._hash = hash((swizzle, tile))
        self._ref = LayoutKey(self)  # its identity as a key (eval.compiled.PLANS)

    @property
    def swizzle(self) -> AnySwizzle:
        """The swizzle applied to ``m``."""
        return self._swizzle

    @property
    def tile_layout(self) -> TileLayout:
        """The tile layout that produces the linear address (TIRx's name).

        >>> import tilelayout as tl
        >>> tl.parse("ComposeLayout(Swizzle(3,3,3), S[(8,64):(64,1)])").tile_layout
        parse('S[(8,64):(64,1)]')
        """
        return self._tile

    @property
    def tile(self) -> TileLayout:
        """Deprecated: the tile layout, now :attr:`tile_layout`. ``.tile`` is becoming the
        tiling method, as on a TileLayout and on ``tilelayout.tirx``'s ComposeLayout
        (TIRx's ``compose.tile(outer, outer_shape, inner_shape)``); ``tl.tile`` tiles
        either kind today."""
        warnings.warn("ComposeLayout.tile (the tile layout) is deprecated: use .tile_layout; "
                      ".tile becomes the tiling method, as on TileLayout and "
                      "tilelayout.tirx.ComposeLayout", DeprecationWarning, stacklevel=2)
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

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ComposeLayout):
            return NotImplemented
        return self._swizzle == other._swizzle and self._tile == other._tile

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple:
        return (ComposeLayout, (self._swizzle, self._tile))


Layout = TileLayout | ComposeLayout


def tile_of(layout: Layout) -> TileLayout:
    """The tile layout inside ``layout`` (the layout itself for a TileLayout).

    >>> import tilelayout as tl
    >>> str(tile_of(tl.parse("ComposeLayout(Swizzle(3,3,3), S[(8,64):(64,1)])")))
    'S[(8,64):(64,1)]'
    """
    return layout._tile if isinstance(layout, ComposeLayout) else layout


def rewrap(layout: Layout, f: Callable[[TileLayout], TileLayout]) -> Layout:
    """``f`` applied to the tile of ``layout``, the swizzle kept: for a tile -> tile
    operation that keeps ``m`` exactly.

    >>> import tilelayout as tl
    >>> L = tl.parse("ComposeLayout(Swizzle(3,3,3), S[(8,64):(64,1)])")
    >>> str(rewrap(L, lambda t: t.canonicalize()))
    'ComposeLayout(Swizzle(3,3,3), S[512:1])'
    """
    if isinstance(layout, ComposeLayout):
        return ComposeLayout(layout.swizzle, f(layout._tile))
    return f(layout)


def value_range(layout: Layout, axis: str) -> tuple[int, int]:
    """``(min, max)`` of the (unswizzled) values on ``axis``; ``(0, 0)`` for an absent axis.

    Exact, in iters: every digit combination occurs, so the minimum takes ``c = e - 1``
    on the negative strides and the maximum on the positive ones (see
    :mod:`tilelayout.algebra.span`).

    >>> import tilelayout as tl
    >>> value_range(tl.parse("S[(8,4):(4@laneid,1@laneid)] + R[2:32@laneid]"), "laneid")
    (0, 63)
    """
    tile = tile_of(layout)
    lo = hi = tile.offset.get(axis, 0)
    for it in tile.shard + tile.replica:
        if it.axis == axis:
            lo += min(0, (it.extent - 1) * it.stride)
            hi += max(0, (it.extent - 1) * it.stride)
    return lo, hi
