"""Hypothesis strategies and brute-force oracles shared by the algebra tests.

The oracle evaluates a layout element by element with the scalar ``apply`` (exact
Python ints), independent of every algebra routine under test.
"""

from __future__ import annotations

import math

from hypothesis import strategies as st

import tilelayout as tl

AXES = ("m", "laneid", "warpid", "pid")


@st.composite
def iters(draw, max_iters: int = 4, max_extent: int = 6, allow_negative: bool = True):
    n = draw(st.integers(0, max_iters))
    lo = -9 if allow_negative else 0
    return [
        (draw(st.integers(1, max_extent)), draw(st.integers(lo, 9)), draw(st.sampled_from(AXES)))
        for _ in range(n)
    ]


@st.composite
def tile_layouts(draw, max_shard: int = 4, max_replica: int = 2, max_size: int = 256,
                 allow_negative: bool = True, with_offset: bool = True):
    """Random TileLayouts with replicas, offsets, zero/negative strides, odd extents."""
    shard = draw(iters(max_shard, allow_negative=allow_negative))
    while math.prod(e for e, _, _ in shard) > max_size:
        shard = shard[:-1]
    replica = draw(iters(max_replica, max_extent=3, allow_negative=allow_negative))
    offset = {}
    if with_offset:
        for a in draw(st.lists(st.sampled_from(AXES), max_size=2, unique=True)):
            offset[a] = draw(st.integers(-5, 5))
    return tl.TileLayout(shard, replica, offset)


def coord_sets(layout, shape=None, axes=None):
    """Brute force: for each flat index, the set of coordinates as frozensets of
    (axis, value) over ``axes`` (absent axes count as 0)."""
    axes = tuple(axes or layout.axes)
    out = []
    s = layout.check_shape(shape)
    for flat in range(math.prod(s)):
        coords = layout.apply(flat, s)
        out.append(frozenset(tuple(c.get(a, 0) for a in axes) for c in coords))
    return out


def brute_equivalent(a, b, shape_a=None, shape_b=None) -> bool:
    axes = tuple(dict.fromkeys(tuple(a.axes) + tuple(b.axes)))
    return coord_sets(a, shape_a, axes) == coord_sets(b, shape_b, axes)


@st.composite
def factor_shapes(draw, n: int, max_rank: int = 3):
    """A random shape (tuple) whose product is ``n``."""
    rank = draw(st.integers(1, max_rank))
    dims = []
    rest = n
    for _ in range(rank - 1):
        divisors = [d for d in range(1, rest + 1) if rest % d == 0]
        d = draw(st.sampled_from(divisors))
        dims.append(d)
        rest //= d
    dims.append(rest)
    return tuple(dims)
