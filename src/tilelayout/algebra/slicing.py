"""Sub-regions and permuted dimensions.

``slice_layout(L, shape, region)`` is the layout of a rectangular sub-region:
``L'(y) = L(start + y)`` for ``y`` in the region's shape ``stop - start``, with the
fixed part folded into the offset. Per dimension the iters driven by that dimension
(from :func:`~tilelayout.algebra.group.group`, adjacent ones fused) are cut from the
innermost outwards: a range inside one block of the innermost iter shortens it (the
start goes into the offset); a range aligned to the innermost iter keeps it whole and
moves outwards; an iter is split at ``gcd(start, length, extent)`` when that helps.
A region that crosses iter boundaries at other points is not a strided layout, which
is an :class:`AlgebraError` naming the dimension. Cost: O(iters).

``permute_dims(L, perm, shape)`` is the layout of the transposed tensor: new dim
``j`` is old dim ``perm[j]`` (``L'(y) = L(x)`` with ``x[perm[j]] = y[j]``); the groups of
iters are reordered. Without ``shape`` the dims are the shard iters themselves.

>>> import tilelayout as tl
>>> L = tl.parse("S[(8,64):(64,1)]")
>>> slice_layout(L, (8, 64), ((2, 6), (16, 24)))
parse('S[(4,8):(64,1)] + 144')
>>> permute_dims(L, (1, 0))
parse('S[(64,8):(1,64)]')
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..core.compose import Layout, rewrap, tile_of
from ..core.errors import AlgebraError, ShapeError
from ..core.iter import Iter
from ..core.shape import as_shape, format_shape
from ..core.tile import TileLayout
from .canonical import fuse_adjacent
from .group import group_iters

Region = Sequence[tuple[int, int] | slice]


def _bounds(region: Region, shape: tuple[int, ...]) -> list[tuple[int, int]]:
    if len(region) != len(shape):
        raise ShapeError(f"region has {len(region)} entries but shape {format_shape(shape)} "
                         f"has {len(shape)}")
    out = []
    for d, (r, n) in enumerate(zip(region, shape, strict=True)):
        if isinstance(r, slice):
            if r.step not in (None, 1):
                raise ShapeError(f"region entry {d}: only unit steps are strided sub-regions")
            a, b = 0 if r.start is None else r.start, n if r.stop is None else r.stop
        else:
            a, b = r
        if not 0 <= a < b <= n:
            raise ShapeError(f"region entry {d} is [{a}, {b}) but must lie in [0, {n}) and "
                             f"be non-empty")
        out.append((a, b))
    return out


def _cut(iters: list[Iter], start: int, length: int, dim: int) -> tuple[list[Iter], dict]:
    """Iters for ``x = start + y`` (``y < length``) over mixed-radix ``iters``, plus offset."""
    offset: dict[str, int] = {}
    kept: list[Iter] = []
    iters = list(iters)
    while iters and length > 1:
        it = iters[-1]
        e = it.extent
        if start % e + length <= e:  # inside one block of the innermost iter
            kept.insert(0, Iter(length, it.stride, it.axis))
            offset[it.axis] = offset.get(it.axis, 0) + (start % e) * it.stride
            start, length = start // e, 1
            iters.pop()
            break
        g = math.gcd(math.gcd(start, length), e)
        if g == 1:
            raise AlgebraError(
                f"the region along dimension {dim} starts at {start} with length {length}, "
                f"which crosses a boundary of the iter {it.extent}:{it.stride}@{it.axis} "
                f"unaligned; that sub-region is not a strided layout (align start and length "
                f"to the iter extents)"
            )
        if g < e:  # split the innermost iter so its low part is aligned
            iters[-1:] = [Iter(e // g, it.stride * g, it.axis), Iter(g, it.stride, it.axis)]
            continue
        kept.insert(0, it)
        iters.pop()
        start, length = start // e, length // e
    # the remaining (outer) iters are fixed at the digits of start
    for it in reversed(iters):
        start, c = divmod(start, it.extent)
        offset[it.axis] = offset.get(it.axis, 0) + c * it.stride
    return kept, offset


def slice_layout(layout: Layout, shape: Sequence[int], region: Region) -> Layout:
    """The layout of ``region`` (per dim ``(start, stop)`` or a ``slice``) of ``shape``.

    The result's logical shape is ``stop - start`` per dimension; a ComposeLayout keeps
    its swizzle (the folded offset sits before the swizzle, so addresses are exact).

    >>> import tilelayout as tl
    >>> L = tl.parse("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + 5@warpid")
    >>> str(slice_layout(L, (8, 16), (slice(0, 8), slice(8, 16))))
    'S[(8,4,2):(4@laneid,1@laneid,1)] + 6@warpid'
    """
    s = as_shape(shape)
    tile = tile_of(layout)
    tile.check_shape(s)
    bounds = _bounds(region, s)

    def f(t: TileLayout) -> TileLayout:
        offset = dict(t.offset)
        shard: list[Iter] = []
        for d, (g, (a, b)) in enumerate(zip(group_iters(t.shard, s), bounds, strict=True)):
            kept, off = _cut(fuse_adjacent(g), a, b - a, d)
            shard.extend(kept)
            for ax, v in off.items():
                if v:
                    offset[ax] = offset.get(ax, 0) + v
        return TileLayout(shard, t.replica, offset)

    return rewrap(layout, f)


def permute_dims(layout: Layout, perm: Sequence[int], shape: Sequence[int] | None = None) -> Layout:
    """The layout of the tensor with dims reordered: new dim ``j`` is old dim ``perm[j]``.

    The new logical shape is ``tuple(shape[p] for p in perm)``.

    >>> import tilelayout as tl
    >>> permute_dims(tl.parse("S[(2,3):(1@pid,2)]"), (1, 0))
    parse('S[(3,2):(2,1@pid)]')
    """
    tile = tile_of(layout)
    s = tile.check_shape(shape)
    p = tuple(perm)
    if sorted(p) != list(range(len(s))):
        raise ShapeError(f"perm {p} is not a permutation of the {len(s)} dims of {format_shape(s)}")
    groups = group_iters(tile.shard, s)
    return rewrap(layout, lambda t: t.replace(shard=[i for j in p for i in groups[j]]))
