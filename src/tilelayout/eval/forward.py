"""Forward evaluation: logical index -> physical coordinates.

Scalar paths (:func:`apply`, :func:`base`) use exact Python integers. The bulk path
(:func:`map_all`) is vectorized numpy int64 with an explicit overflow check; it builds
each axis from per-iter ``arange`` vectors broadcast over the grid of shard extents,
so it never loops over elements in Python.

>>> import tilelayout as tl
>>> L = tl.parse("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid")
>>> [c["warpid"] for c in apply(L, (7, 15), (8, 16))]
[6, 10]
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import numpy as np

from ..core.compose import ComposeLayout
from ..core.coord import Coord
from ..core.errors import LayoutOverflowError
from ..core.shape import Index, Shape, flat_index
from ..core.tile import TileLayout

Layout = TileLayout | ComposeLayout

_INT64_LIMIT = 1 << 62  # head-room: a swizzle may set low bits on top of the bound


def _tile(layout: Layout) -> TileLayout:
    return layout.tile if isinstance(layout, ComposeLayout) else layout


def components(layout: Layout, flat: int) -> tuple[int, ...]:
    """Split a flat index across the shard extents: ``c_k`` for each shard iter.

    >>> import tilelayout as tl
    >>> components(tl.parse("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)]"), 127)
    (7, 1, 3, 1)
    """
    out = []
    for it in reversed(_tile(layout).shard):
        flat, c = divmod(flat, it.extent)
        out.append(c)
    return tuple(reversed(out))


def replica_combinations(layout: Layout) -> list[tuple[int, ...]]:
    """Every replica combination ``(r_0, .., r_{t-1})`` in row-major order."""
    return list(itertools.product(*(range(it.extent) for it in _tile(layout).replica)))


def _base_values(tile: TileLayout, flat: int) -> dict[str, int]:
    values = dict.fromkeys(tile.axes, 0)
    for it, c in zip(tile.shard, components(tile, flat), strict=True):
        values[it.axis] += c * it.stride
    for a, v in tile.offset.items():
        values[a] += v
    return values


def _swizzled(layout: Layout, values: dict[str, int]) -> Coord:
    if isinstance(layout, ComposeLayout):
        values = dict(values)
        values["m"] = layout.swizzle.apply(values["m"])
    return Coord(values)


def resolve(layout: Layout, index: Index, shape: Sequence[int] | None) -> tuple[Shape, int]:
    """Validated shape and the flat index of ``index`` in it."""
    s = layout.check_shape(shape)
    return s, flat_index(index, s)


def base(layout: Layout, index: Index, shape: Sequence[int] | None = None) -> Coord:
    """The replica-free coordinate ``D(x) + O`` (swizzled on ``m`` for a ComposeLayout)."""
    _, flat = resolve(layout, index, shape)
    return _swizzled(layout, _base_values(_tile(layout), flat))


def apply(layout: Layout, index: Index, shape: Sequence[int] | None = None) -> tuple[Coord, ...]:
    """The set ``L(x)``: every coordinate of element ``index``, replica order, no duplicates."""
    _, flat = resolve(layout, index, shape)
    tile = _tile(layout)
    start = _base_values(tile, flat)
    out: dict[Coord, None] = {}
    for combo in replica_combinations(tile):
        values = dict(start)
        for it, r in zip(tile.replica, combo, strict=True):
            values[it.axis] += r * it.stride
        out.setdefault(_swizzled(layout, values), None)
    return tuple(out)


# -- vectorized -------------------------------------------------------------------------
def value_bound(layout: Layout) -> int:
    """An upper bound on ``|value|`` of any axis over every element and replica."""
    tile = _tile(layout)
    bound: dict[str, int] = dict.fromkeys(tile.axes, 0)
    for it in tile.shard + tile.replica:
        bound[it.axis] += (it.extent - 1) * abs(it.stride)
    for a, v in tile.offset.items():
        bound[a] += abs(v)
    return max(bound.values(), default=0)


def _check_int64(layout: Layout) -> None:
    b = value_bound(layout)
    if b >= _INT64_LIMIT:
        raise LayoutOverflowError(
            f"values of {layout} reach about 2**{b.bit_length()}, beyond int64; "
            f"use the exact scalar apply() for such layouts"
        )


def _axis_grid(tile: TileLayout, axis: str) -> np.ndarray:
    """Base values of ``axis`` over the grid of shard extents, as a broadcastable array.

    Dimensions not touched by iters on ``axis`` have length 1, so the array holds only
    as many values as the iters on this axis multiply to.
    """
    n = len(tile.shard)
    acc = np.asarray(tile.offset.get(axis, 0), dtype=np.int64).reshape((1,) * n)
    for k, it in enumerate(tile.shard):
        if it.axis != axis or it.stride == 0:
            continue
        term = np.arange(it.extent, dtype=np.int64) * it.stride
        acc = acc + term.reshape((1,) * k + (it.extent,) + (1,) * (n - k - 1))
    return acc


def replica_offsets(layout: Layout) -> dict[str, np.ndarray]:
    """For each axis, the int64 vector (length R) that each replica combination adds."""
    tile = _tile(layout)
    t = len(tile.replica)
    out = {}
    for axis in tile.axes:
        acc = np.zeros((1,) * t, dtype=np.int64)
        for k, it in enumerate(tile.replica):
            if it.axis == axis:
                term = np.arange(it.extent, dtype=np.int64) * it.stride
                acc = acc + term.reshape((1,) * k + (it.extent,) + (1,) * (t - k - 1))
        out[axis] = np.broadcast_to(acc, tuple(it.extent for it in tile.replica)).reshape(-1)
    return out


def map_base(layout: Layout, shape: Sequence[int] | None = None) -> dict[str, np.ndarray]:
    """Replica-free coordinates of every element: axis -> int64 array of ``shape``.

    Unlike :func:`map_all` there is no replica dimension, and the ``m`` array of a
    ComposeLayout is *not* swizzled here (``map_all`` swizzles it).
    """
    tile = _tile(layout)
    s = layout.check_shape(shape)
    _check_int64(layout)
    dims = tile.default_shape
    size = math.prod(dims)
    out = {}
    for axis in tile.axes:
        grid = _axis_grid(tile, axis)
        if grid.shape == dims:
            flat = grid.reshape(size)
        else:
            flat = np.empty(size, dtype=np.int64)
            np.copyto(flat.reshape(dims), grid)
        out[axis] = flat.reshape(s)
    return out


def map_all(layout: Layout, shape: Sequence[int] | None = None) -> dict[str, np.ndarray]:
    """Every element's coordinates: axis -> int64 array of shape ``(*shape, R)``.

    ``R`` is the number of replica combinations (1 without replicas); entry
    ``[..., r]`` is replica combination ``r`` in row-major order, duplicates kept.

    >>> import tilelayout as tl
    >>> tl.parse("S[(8,64):(64,1)]").map_all()["m"][1, :3, 0].tolist()
    [64, 65, 66]
    """
    s = layout.check_shape(shape)
    tile = _tile(layout)
    based = map_base(tile, s)
    out: dict[str, np.ndarray] = {}
    if tile.replica:
        for axis, offsets in replica_offsets(tile).items():
            out[axis] = based[axis][..., None] + offsets
    else:
        out = {axis: arr[..., None] for axis, arr in based.items()}
    if isinstance(layout, ComposeLayout):
        out["m"] = layout.swizzle.apply(out["m"])
    return out
