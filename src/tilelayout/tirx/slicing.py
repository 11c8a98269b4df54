"""TIRx's ``layout.slice(shape, region)``: the sub-layout of a region, or None.

``region`` has one ``(begin, end)`` pair (or a TVM ``Range``: its ``min`` (or
``begin``) and ``extent``) per dimension of ``shape``. The layout (canonicalized TIRx's way) is grouped
by ``shape``; each dimension's group is cut to ``[begin, end)``: inner iters the region
covers whole stay, the first partly covered iter keeps the region's length, and a
region that crosses one boundary of that iter at its midpoint becomes two iters (the
two halves, apart by the step to the next outer value). The region's start goes into
the offset. A region no strided layout describes is None, as in TIRx (apache/tvm main,
``src/tirx/ir/layout/tile_slice.cc``). A region outside the shape is refused, and so (None)
is a midpoint region whose second half would carry past the next iter, where TIRx's
check always passes and its layout maps that half to the wrong elements.

>>> from tilelayout import parse
>>> slice_layout(parse("S[(4,4,4,4):(64,4,16,1)]"), [16, 16], [(2, 3), (6, 10)])
parse('S[(1,2,2):(4,14,1)] + 26')
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..core.compose import ComposeLayout, Layout
from ..core.errors import LayoutError, ShapeError, shown
from ..core.iter import Iter
from ..core.tile import TileLayout
from .errors import TirxAssertionError, check_ints
from .recognize import _grouped, identity, raw_trivial
from .symbolic import node
from .threads import canonical


def _bounds(region: object, shape: tuple[int, ...]) -> list[tuple[int, int]]:
    if not isinstance(region, list | tuple):
        raise LayoutError(f"region is a list of (begin, end) pairs or Ranges, got "
                          f"{shown(region)}")
    if len(region) != len(shape):
        raise TirxAssertionError(f"shape and region must have the same length: shape "
                                 f"{shape}, region {shown(region)}")
    out = []
    for d, r in enumerate(region):
        start = getattr(r, "min", None)
        start = getattr(r, "begin", None) if start is None else start
        if start is not None and hasattr(r, "extent"):  # a TVM Range (min or begin, extent)
            begin, length = node(start), node(r.extent)
            end = begin + length if isinstance(begin, int) and isinstance(length, int) else None
        elif isinstance(r, list | tuple) and len(r) == 2:
            begin, end = node(r[0]), node(r[1])
        else:
            raise LayoutError(f"region entry {d} is (begin, end) or a Range, got {shown(r)}")
        if not isinstance(begin, int) or not isinstance(end, int):
            raise LayoutError(f"region entry {d} has a symbolic bound ({shown(r)}); slices "
                              f"take integer regions (our layouts hold integers)")
        if not 0 <= begin < end <= shape[d]:
            raise ShapeError(f"region entry {d} [{begin}, {end}) is not a non-empty range "
                             f"inside [0, {shape[d]})")
        out.append((begin, end))
    return out


def _slice_group(shard: Sequence[Iter], begin: int, extent: int
                 ) -> tuple[list[Iter], dict[str, int]] | None:
    """TIRx's ``SlicePerGroup``: one dimension's iters cut to ``[begin, begin+extent)``."""
    group = canonical(TileLayout(shard))
    iters = group.shard
    if not iters:
        return None
    weights = [math.prod(it.extent for it in iters[k + 1:]) for k in range(len(iters))]
    starts = [begin // w if len(iters) == 1 else (begin // w) % it.extent
              for it, w in zip(iters, weights, strict=True)]
    offset: dict[str, int] = {}
    for it, d in zip(iters, starts, strict=True):
        offset[it.axis] = offset.get(it.axis, 0) + d * it.stride
    if len(iters) == 1:
        return [Iter(extent, iters[0].stride, iters[0].axis)], offset
    rest, peeled = extent, []
    pivot = len(iters) - 1
    while pivot >= 0 and starts[pivot] == 0 and rest % iters[pivot].extent == 0:
        peeled.insert(0, iters[pivot])
        rest //= iters[pivot].extent
        pivot -= 1
    if pivot < 0:
        return (peeled, offset) if rest == 1 else None
    it = iters[pivot]
    if starts[pivot] + rest <= it.extent:
        return [Iter(rest, it.stride, it.axis), *peeled], offset
    half = rest // 2
    # the second half starts one step up the next iter, which must not carry past it
    # (TIRx checks ``<=`` here, which always holds, and then maps that half wrongly)
    fits = pivot == 0 or starts[pivot - 1] + 1 < iters[pivot - 1].extent
    if rest % 2 == 0 and starts[pivot] + half == it.extent and fits \
            and (pivot == 0 or iters[pivot - 1].axis == it.axis):
        outer = iters[pivot - 1].stride if pivot > 0 else 0
        delta = outer - (it.extent - half) * it.stride
        return [Iter(2, delta, it.axis), Iter(half, it.stride, it.axis), *peeled], offset
    return None


def slice_layout(layout: Layout, shape: object, region: object) -> Layout | None:
    """TIRx's ``slice``: the layout of ``region`` of ``shape`` (None when no strided
    layout is that region).

    >>> from tilelayout import parse
    >>> slice_layout(parse("S[(8,8):(8,1)]"), [64], [(5, 8)])
    parse('S[3:1] + 5')
    """
    dims = check_ints(shape, "shape", low=1)
    bounds = _bounds(region, dims)
    if isinstance(layout, ComposeLayout):
        tile = layout.tile_layout
        base = identity(dims) if raw_trivial(tile) else tile
        sliced = _slice_tile(base, dims, bounds)
        return None if sliced is None else ComposeLayout(layout.swizzle, sliced)
    if not isinstance(layout, TileLayout):
        raise LayoutError(f"expected a layout, got {shown(layout)}")
    return _slice_tile(layout, dims, bounds)


def _slice_tile(tile: TileLayout, dims: tuple[int, ...],
                bounds: list[tuple[int, int]]) -> TileLayout | None:
    grouped, seps = _grouped(canonical(tile), dims)
    shard: list[Iter] = []
    offset = dict(grouped.offset)
    for d, (begin, end) in enumerate(bounds):
        cut = _slice_group(grouped.shard[seps[d]:seps[d + 1]], begin, end - begin)
        if cut is None:
            return None
        iters, moved = cut
        shard.extend(iters)
        for a, v in moved.items():
            offset[a] = offset.get(a, 0) + v
    return TileLayout(shard, grouped.replica, offset)


__all__ = ["slice_layout"]
