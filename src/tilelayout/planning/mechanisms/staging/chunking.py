"""Staging a tile in passes: a smaller shared-memory buffer reused chunk by chunk.

When a digit of the flat element index moves only register slots on *both* sides --
and moves them by whole vectors -- the tile splits into independent chunks along it:
every thread stores the same vectors of chunk 0, a barrier, loads them, a barrier, then
chunk 1 reuses the buffer, and so on. The shared-memory buffer shrinks by the number of
chunks ``R``; requests and wavefronts stay the same when the chunk's layout is as good as
the whole tile's; the price is ``2R - 1`` barriers. Triton's generated code does this
(e.g. a wgmma accumulator converted in four passes through 2 KB).

The digits are the common refinement of both layouts' shard extents (each extent splits
the row-major flat index, docs/model.md); a digit qualifies when both layouts put it on ``m``
with a slot stride that is a multiple of that side's vector length.

>>> import tilelayout as tl
>>> src = tl.parse("S[(4,2,8,8,4,2):(1@warpid,2,4@laneid,4,1@laneid,1)]")   # wgmma D
>>> dst = tl.parse("S[(4,16,2,32):(1@warpid,1@laneid,16@laneid,1)]")       # lane per row
>>> common_digits(src, dst)
(4, 2, 8, 2, 4, 4, 2)
>>> chunk_digits(src, dst, common_digits(src, dst), 2, 8)
(4,)
"""

from __future__ import annotations

import math

from ....core.compose import Layout, tile_of


def _places(layout: Layout) -> list[int]:
    ext = [it.extent for it in tile_of(layout).shard]
    return [math.prod(ext[i:]) for i in range(len(ext) + 1)]


def common_digits(src: Layout, dst: Layout) -> tuple[int, ...] | None:
    """Extents of the common refinement of both layouts' shard splits of the flat index
    (outermost first), or None when one split does not nest in the other."""
    places = sorted(set(_places(src)) | set(_places(dst)), reverse=True)
    out = []
    for hi, lo in zip(places, places[1:], strict=False):
        if hi % lo:
            return None
        out.append(hi // lo)
    return tuple(out)


def _slot_stride(layout: Layout, lo: int) -> int | None:
    """The register-slot stride of the digit whose place value is ``lo`` (None if the
    digit is not on ``m``)."""
    tile = tile_of(layout)
    places = _places(layout)
    for i, it in enumerate(tile.shard):
        if places[i + 1] <= lo < places[i]:
            return it.stride * (lo // places[i + 1]) if it.axis == "m" else None
    return None


def chunk_digits(src: Layout, dst: Layout, digits: tuple[int, ...], k_src: int,
                 k_dst: int) -> tuple[int, ...]:
    """Indices of the digits that split the exchange into chunks (see the module doc)."""
    out = []
    for d, e in enumerate(digits):
        if e == 1:
            continue
        lo = math.prod(digits[d + 1:])
        s, t = _slot_stride(src, lo), _slot_stride(dst, lo)
        if s is not None and t is not None and s % k_src == 0 and t % k_dst == 0 and s and t:
            out.append(d)
    return tuple(out)
