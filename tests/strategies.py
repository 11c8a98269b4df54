"""Hypothesis strategies for random layouts, shapes and indices (shared by test modules)."""

from __future__ import annotations

import math

from hypothesis import strategies as st

import tilelayout as tl

AXES = ("m", "laneid", "warpid", "pid", "TLane", "TCol", "wgid")


@st.composite
def iters(draw, max_iters: int = 4, max_extent: int = 7, max_stride: int = 40):
    n = draw(st.integers(0, max_iters))
    return [
        tl.Iter(
            draw(st.integers(1, max_extent)),
            draw(st.integers(-max_stride, max_stride)),
            draw(st.sampled_from(AXES)),
        )
        for _ in range(n)
    ]


@st.composite
def tile_layouts(draw, max_shard: int = 4, max_replica: int = 2):
    shard = draw(iters(max_shard))
    replica = draw(iters(max_replica, max_extent=3))
    offset_axes = draw(st.lists(st.sampled_from(AXES), max_size=2, unique=True))
    offset = {a: draw(st.integers(-50, 50)) for a in offset_axes}
    return tl.TileLayout(shard, replica, offset)


@st.composite
def swizzles(draw):
    b = draw(st.integers(0, 3))
    return tl.Swizzle(draw(st.integers(0, 3)), b, draw(st.integers(b, b + 3)))


@st.composite
def layouts(draw):
    """TileLayouts, and ComposeLayouts where the tile has an m axis."""
    tile = draw(tile_layouts())
    if "m" in tile.axes and draw(st.booleans()):
        return tl.ComposeLayout(draw(swizzles()), tile)
    return tile


def _divisors(n: int) -> list[int]:
    return [d for d in range(1, n + 1) if n % d == 0]


@st.composite
def shapes_for(draw, size: int):
    """A random shape with ``size`` elements (1 to 3 dims)."""
    dims = []
    rest = size
    for _ in range(draw(st.integers(0, 2))):
        d = draw(st.sampled_from(_divisors(rest)))
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
