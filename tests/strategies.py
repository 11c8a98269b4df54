"""The Hypothesis strategies and brute-force oracles every test module shares.

One definition of a random layout, parameterised by what a test needs (axes, extents,
strides, size). The oracle evaluates a layout element by element with the scalar
``apply`` (exact Python ints), independent of every algebra routine under test.
"""

from __future__ import annotations

import math

from hypothesis import strategies as st

import tilelayout as tl

AXES = ("m", "laneid", "warpid", "pid")


"""Axes the algebra tests draw from."""


MODEL_AXES = AXES + ("TLane", "TCol", "wgid")


"""Axes the model tests draw from (adds tensor-memory and warpgroup axes)."""


@st.composite
def iters(draw, max_iters: int = 4, max_extent: int = 6, max_stride: int = 9,
          allow_negative: bool = True, axes: tuple[str, ...] = AXES) -> list[tl.Iter]:
    n = draw(st.integers(0, max_iters))
    lo = -max_stride if allow_negative else 0
    return [
        tl.Iter(draw(st.integers(1, max_extent)), draw(st.integers(lo, max_stride)),
                draw(st.sampled_from(axes)))
        for _ in range(n)
    ]


@st.composite
def tile_layouts(draw, max_shard: int = 4, max_replica: int = 2, max_size: int = 256,
                 allow_negative: bool = True, with_offset: bool = True,
                 axes: tuple[str, ...] = AXES, max_extent: int = 6, max_stride: int = 9,
                 max_offset: int = 5):
    """Random TileLayouts with replicas, offsets, zero/negative strides, odd extents."""
    shard = draw(iters(max_shard, max_extent, max_stride, allow_negative, axes))
    while math.prod(it.extent for it in shard) > max_size:
        shard = shard[:-1]
    replica = draw(iters(max_replica, 3, max_stride, allow_negative, axes))
    offset = {}
    if with_offset:
        for a in draw(st.lists(st.sampled_from(axes), max_size=2, unique=True)):
            offset[a] = draw(st.integers(-max_offset, max_offset))
    return tl.TileLayout(shard, replica, offset)


@st.composite
def swizzles(draw):
    b = draw(st.integers(0, 3))
    return tl.Swizzle(draw(st.integers(0, 3)), b, draw(st.integers(b, b + 3)))


@st.composite
def layouts(draw):
    """TileLayouts over the model axes (wide strides and offsets), and ComposeLayouts
    where the tile has an m axis."""
    tile = draw(tile_layouts(max_size=7**4, axes=MODEL_AXES, max_extent=7, max_stride=40,
                             max_offset=50))
    if "m" in tile.axes and draw(st.booleans()):
        return tl.ComposeLayout(draw(swizzles()), tile)
    return tile


@st.composite
def shapes_for(draw, size: int, max_rank: int = 3):
    """A random shape (tuple) of 1 to ``max_rank`` dims with ``size`` elements."""
    dims = []
    rest = size
    for _ in range(draw(st.integers(1, max_rank)) - 1):
        d = draw(st.sampled_from([d for d in range(1, rest + 1) if rest % d == 0]))
        dims.append(d)
        rest //= d
    dims.append(rest)
    draw(st.randoms()).shuffle(dims)
    assert math.prod(dims) == size
    return tuple(dims)


@st.composite
def layout_shape_index(draw):
    layout = draw(layouts())
    shape = draw(shapes_for(layout.size()))
    index = tuple(draw(st.integers(0, s - 1)) for s in shape)
    return layout, shape, index


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
