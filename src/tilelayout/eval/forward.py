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

import functools
import itertools
from collections.abc import Sequence

import numpy as np

from ..core import budget
from ..core.compose import AnySwizzle, ComposeLayout, Layout, tile_of
from ..core.coord import Coord
from ..core.errors import LayoutOverflowError
from ..core.shape import Index, Shape, flat_index
from ..core.tile import TileLayout
from ..core.xor_swizzle import XorSwizzle
from .compiled import PLANS, exact_shape, plan_entry, plan_for

_INT64_LIMIT = 1 << 62  # head-room: a swizzle may set low bits on top of the bound


def components(layout: Layout, flat: int) -> tuple[int, ...]:
    """Split a flat index across the shard extents: ``c_k`` for each shard iter.

    >>> import tilelayout as tl
    >>> components(tl.parse("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)]"), 127)
    (7, 1, 3, 1)
    """
    out = []
    for it in reversed(tile_of(layout).shard):
        flat, c = divmod(flat, it.extent)
        out.append(c)
    return tuple(reversed(out))


def replica_combinations(layout: Layout) -> list[tuple[int, ...]]:
    """Every replica combination ``(r_0, .., r_{t-1})`` in row-major order (refused over
    the ``replicas`` limit before any is listed)."""
    tile = tile_of(layout)
    budget.check("listing replicas takes", tile.replica_count, "replicas")
    return list(itertools.product(*(range(it.extent) for it in tile.replica)))


@functools.lru_cache(maxsize=1024)
def _cached_shape(layout: Layout, shape: tuple[int, ...] | None) -> Shape:
    return layout.check_shape(shape)


def _shape(layout: Layout, shape: Sequence[int] | None) -> Shape:
    if shape is None or type(shape) is tuple and all(type(x) is int for x in shape):
        return _cached_shape(layout, shape)
    return layout.check_shape(shape)


def admit_index(layout: Layout, index: Index, shape: Sequence[int] | None) -> tuple[Shape, int]:
    """Validated shape and the flat index of ``index`` in it."""
    s = _shape(layout, shape)
    return s, flat_index(index, s)


def base(layout: Layout, index: Index, shape: Sequence[int] | None = None) -> Coord:
    """The replica-free coordinate ``D(x) + O`` (swizzled on ``m`` for a ComposeLayout).

    Runs the layout's compiled plan (:mod:`tilelayout.eval.compiled`) on exact ints.

    >>> import tilelayout as tl
    >>> base(tl.parse("S[(8,16):(16,1)] + R[2:1@pid] + 3"), (1, 2))
    {m: 21, pid: 0}
    """
    try:  # the hot path inline: this very object's plan, found without hashing a layout
        entry = PLANS[layout._ref][shape]
    except KeyError:  # not kept yet: made (or found) and kept; compiled on its first call
        entry = plan_entry(layout, shape)
    except (TypeError, AttributeError):  # an unhashable shape (a list, an array) or not
        return plan_for(layout, shape).base(index)  # a layout: plan_for checks and says
    if entry.first is not shape and not (  # another shape object: its entries must be ints,
            type(shape) is tuple and len(shape) == 2  # ((8.0, 16) found (8, 16)'s plan);
            and type(shape[0]) is int and type(shape[1]) is int  # the common case inline
            or exact_shape(shape)):
        return plan_for(layout, shape).base(index)
    return entry.base(index)


def apply(layout: Layout, index: Index, shape: Sequence[int] | None = None, *,
          limits: budget.Limits | None = None) -> tuple[Coord, ...]:
    """The set ``L(x)``: every coordinate of element ``index``, replica order, no duplicates.

    Runs the layout's compiled plan (:mod:`tilelayout.eval.compiled`) on exact ints.
    Refused (:class:`~tilelayout.BudgetError`) when the moving replica combinations
    exceed the ``replicas`` limit (``limits=`` or ``tl.limits(...)`` raise it).

    >>> import tilelayout as tl
    >>> apply(tl.parse("S[4:1] + R[(2,2):(1@pid,0@pid)]"), 3)
    ({m: 3, pid: 0}, {m: 3, pid: 1})
    """
    if limits is None:
        try:  # the hot path inline, as in base
            entry = PLANS[layout._ref][shape]
        except KeyError:
            entry = plan_entry(layout, shape)
        except (TypeError, AttributeError):
            return plan_for(layout, shape).apply(index)
        if entry.first is not shape and not (  # as in base
                type(shape) is tuple and len(shape) == 2
                and type(shape[0]) is int and type(shape[1]) is int or exact_shape(shape)):
            return plan_for(layout, shape).apply(index)
        return entry.apply(index)
    with budget.using(limits):
        return plan_for(layout, shape).apply(index)


# -- vectorized -------------------------------------------------------------------------
def value_bound(layout: Layout) -> int:
    """An upper bound on ``|value|`` of any axis over every element and replica."""
    tile = tile_of(layout)
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
    tile = tile_of(layout)
    count = tile.size() * tile.replica_count
    if count >= _INT64_LIMIT // 8:
        raise LayoutOverflowError(
            f"{layout} has {tile.size()} elements x {tile.replica_count} replica "
            f"combinations, too many for one array; use the exact scalar apply() per element"
        )


def _axis_grid(tile: TileLayout, axis: str) -> np.ndarray:
    """Base values of ``axis`` over the grid of shard extents, as a broadcastable array.

    Dimensions not touched by iters on ``axis`` have length 1, so the array holds only
    as many values as the iters on this axis multiply to.
    """
    n = len(tile.shard)
    acc = np.asarray(tile.offset.get(axis, 0), dtype=np.int64).reshape((1,) * n)
    for k, it in enumerate(tile.shard):
        if it.axis != axis or it.stride == 0 or it.extent == 1:
            continue  # contributes 0 (an extent-1 stride may be any size, even beyond int64)
        term = np.arange(it.extent, dtype=np.int64) * it.stride
        acc = acc + term.reshape((1,) * k + (it.extent,) + (1,) * (n - k - 1))
    return acc


def replica_offsets(layout: Layout) -> dict[str, np.ndarray]:
    """For each axis, the int64 vector (length R) that each replica combination adds."""
    tile = tile_of(layout)
    t = len(tile.replica)
    out = {}
    for axis in tile.axes:
        acc = np.zeros((1,) * t, dtype=np.int64)
        for k, it in enumerate(tile.replica):
            if it.axis == axis and it.stride != 0 and it.extent != 1:
                term = np.arange(it.extent, dtype=np.int64) * it.stride
                acc = acc + term.reshape((1,) * k + (it.extent,) + (1,) * (t - k - 1))
        out[axis] = np.broadcast_to(acc, tuple(it.extent for it in tile.replica)).reshape(-1)
    return out


def map_all(layout: Layout, shape: Sequence[int] | None = None, *,
            limits: budget.Limits | None = None) -> dict[str, np.ndarray]:
    """Every element's coordinates: axis -> int64 array of shape ``(*shape, R)``.

    ``R`` is the number of replica combinations (1 without replicas); entry
    ``[..., r]`` is replica combination ``r`` in row-major order, duplicates kept.
    Refused before allocating when the element x replica pairs or the bytes exceed the
    ``elements`` / ``output_bytes`` limits.

    >>> import tilelayout as tl
    >>> tl.parse("S[(8,64):(64,1)]").map_all()["m"][1, :3, 0].tolist()
    [64, 65, 66]
    """
    s = layout.check_shape(shape)
    tile = tile_of(layout)
    _check_int64(tile)
    with budget.using(limits):
        budget.check_arrays("map_all evaluates", tile)
    dims = tile.default_shape
    reps = replica_offsets(tile)
    count = tile.replica_count
    out: dict[str, np.ndarray] = {}
    for axis in tile.axes:
        grid = _axis_grid(tile, axis)  # a fresh array, broadcastable to dims
        rep = reps[axis]
        if count == 1 and grid.shape == dims:
            arr = grid  # already full size and ours: no copy
            if rep[0]:
                arr += rep[0]
        else:
            # one pass: base values broadcast against the replica offsets
            arr = np.empty(dims + (count,), dtype=np.int64)
            np.add(grid[..., None], rep, out=arr)
        out[axis] = arr.reshape(s + (count,))
    if isinstance(layout, ComposeLayout):
        out["m"] = swizzle_array(layout.swizzle, out["m"])
    return out


_CHUNK = 12  # address bits per lookup table of the XorSwizzle fast path (32 KiB tables)


@functools.lru_cache(maxsize=256)
def _xor_tables(sw: XorSwizzle) -> tuple[np.ndarray, ...]:
    """Per group of 12 address bits, the XOR of the images of each of its 4096 values."""
    tables = []
    for lo in range(0, sw.bits, _CHUNK):
        images = sw.images[lo:lo + _CHUNK]
        t = np.zeros(1 << len(images), dtype=np.int64)
        for j, v in enumerate(images):  # doubling: values with bit j set = without ^ image
            t[1 << j: 2 << j] = t[: 1 << j] ^ v
        tables.append(t)
    return tuple(tables)


def swizzle_array(sw: AnySwizzle, m: np.ndarray) -> np.ndarray:
    """``sw`` applied to an int64 array of linear addresses, vectorized.

    An XorSwizzle is F2-linear, so its n low bits are looked up 12 at a time in tables of
    4096 entries (``n / 12`` gathers instead of ``n`` passes; benchmarks/bench_xor_swizzle.py).

    >>> import numpy as np, tilelayout as tl
    >>> swizzle_array(tl.XorSwizzle(1, 2, 4, 9, 18), np.arange(8, 12)).tolist()
    [9, 8, 11, 10]
    """
    if not isinstance(sw, XorSwizzle):
        return sw.apply(m)
    if sw.is_identity:
        return m
    m = np.asarray(m, dtype=np.int64)
    out = m & ~np.int64(sw.atom_size - 1)
    for c, table in enumerate(_xor_tables(sw)):
        part = (m >> (c * _CHUNK) if c else m) & (len(table) - 1)
        out ^= np.take(table, part)
    return out
