"""Memory layouts from offset bases: shared-memory offset bit -> logical coordinate (GF(2)).

Triton describes every shared-memory layout this way: ``offset_bases[k]`` is the logical
coordinate stored at element offset ``2**k``, and the coordinate at any offset is the
XOR of the bases of its set bits. :func:`offsets_layout` reads that as our form, logical
-> linear ``m`` (a bit-permutation tile) -> address (a swizzle): the tile is picked so that
each offset bit adds one new logical bit when possible, which makes the swizzle
unitriangular (the 128B NVMMA layout comes back as ``Swizzle(3,3,3)`` over a row-major
tile), and the swizzle is a plain :class:`~tilelayout.Swizzle` whenever one is equal,
else an :class:`~tilelayout.XorSwizzle`; none when it is the identity.

A zero basis is padding: offsets that differ only in that bit hold no second element, so
the address bit is skipped (a gap in the tile's strides, left alone by the swizzle).

>>> offsets_layout([[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [1, 8], [2, 16], [4, 32]],
...                (8, 64))
parse('ComposeLayout(Swizzle(3,3,3), S[(8,64):(64,1)])')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..core.compose import ComposeLayout, Layout, tile_of
from ..core.errors import AlgebraError, SwizzleError, shown
from ..core.iter import Iter, as_int
from ..core.shape import as_shape
from ..core.swizzle import as_plain_swizzle
from ..core.tile import TileLayout
from ..core.xor_swizzle import MAX_XOR_BITS, XorSwizzle
from .bits import bases_layout, dim_bits
from .canonical import fuse_adjacent


def flat_vector(vec: Sequence[int], dims: Sequence[int], where: str) -> int:
    """A logical coordinate (one entry per dim) as a bit vector over the row-major flat index.

    >>> flat_vector([1, 2], (2, 4), "basis")
    6
    """
    if len(vec) != len(dims):
        raise AlgebraError(f"{where} is {list(vec)}; shape {tuple(dims)} needs {len(dims)} entries")
    flat, shift = 0, 0
    for d in reversed(range(len(dims))):
        v = int(vec[d])
        if v < 0 or v >= dims[d]:
            raise AlgebraError(f"{where} is {list(vec)}, outside shape {tuple(dims)}")
        flat |= v << shift
        shift += dims[d].bit_length() - 1
    return flat


def logical_vector(flat: int, dims: Sequence[int]) -> list[int]:
    """The inverse of :func:`flat_vector`.

    >>> logical_vector(6, (2, 4))
    [1, 2]
    """
    out = [0] * len(dims)
    for p, (d, b) in enumerate(dim_bits(dims)):
        if flat >> p & 1:
            out[d] |= 1 << b
    return out


def int_vectors(vectors: object, what: str, limit: int = 64) -> list[list[int]]:
    """``vectors`` (a sequence of sequences of ints, at most ``limit`` of them) as lists;
    bools, floats, text and over-long integers are refused, never converted.

    >>> int_vectors([[0, 1], (2, 0)], "bases")
    [[0, 1], [2, 0]]
    """
    def seq(x: object) -> bool:
        return isinstance(x, Sequence) and not isinstance(x, str | bytes)
    if not seq(vectors) or len(vectors) > limit or not all(seq(v) for v in vectors):  # type: ignore[arg-type]
        raise AlgebraError(f"{what} must be a list of at most {limit} integer vectors, got "
                           f"{shown(vectors)}")
    return [[as_int(x, f"{what} entry") for x in vec] for vec in vectors]  # type: ignore[union-attr]


def offsets_layout(offset_bases: Sequence[Sequence[int]], shape: Sequence[int] | None = None) -> Layout:
    """Our layout (logical -> swizzled ``m``) for ``offset_bases`` over ``shape`` (default:
    per dim the smallest power of two above every basis entry, as Triton's
    ``SharedLinearLayout.shape``). Refused (:class:`AlgebraError`): bases outside the shape,
    dependent bases (two offsets, one element), too few (an element with no offset).

    >>> offsets_layout([[1, 0], [2, 0], [0, 1]], (4, 2))
    parse('S[(4,2):(1,4)]')
    >>> offsets_layout([[0, 1], [1, 1]], (2, 2))
    parse('ComposeLayout(Swizzle(0,1,1), S[(2,2):(2,1)])')
    >>> offsets_layout([[0, 1], [0, 0], [1, 0]], (2, 2))   # offset bit 1: padding
    parse('S[(2,2):(4,1)]')
    """
    bases = int_vectors(offset_bases, "offset bases")
    if not bases:
        raise AlgebraError("a Triton shared layout needs at least one offset basis")
    if len({len(vec) for vec in bases}) != 1 or not bases[0]:
        raise AlgebraError(f"offset bases must all have one entry per dimension, got "
                           f"{shown(offset_bases)}")
    if any(v < 0 for vec in bases for v in vec):
        raise AlgebraError(f"offset bases are non-negative coordinates, got {shown(offset_bases)}")
    if shape is None:
        shape = [1 << max(vec[d] for vec in bases).bit_length() for d in range(len(bases[0]))]
    dims = as_shape(shape)
    for d, s in enumerate(dims):
        if s < 1 or s & (s - 1):
            raise AlgebraError(f"logical dimension {d} is {s}, not a power of two")
    total = sum(s.bit_length() - 1 for s in dims)
    if total > MAX_XOR_BITS:
        raise AlgebraError(f"shape {dims} has 2**{total} elements; an address swizzle permutes at "
                           f"most 2**{MAX_XOR_BITS}")
    flats = [flat_vector(vec, dims, f"offset basis {k}") for k, vec in enumerate(bases)]
    if 0 in flats and any(flats):  # zero bases: padding (offsets that hold no element)
        real = [k for k, f in enumerate(flats) if f]
        inner = offsets_layout([bases[k] for k in real], dims)
        return spread_bits(inner, real, len(bases))
    if len(flats) != total:
        raise AlgebraError(
            f"{len(flats)} non-zero offset bases for shape {dims} ({1 << total} elements): a "
            f"shared layout that stores each element once has exactly {total} (zero bases are "
            f"padding and not counted)"
        )
    # pick a bit-permutation tile: m bit k = the one new logical bit of basis k, if any
    pivots, used = [], 0
    for f in flats:
        new = f & ~used
        if new == 0 or new & (new - 1):
            pivots = [1 << p for p in range(total)]  # no such order: a row-major tile
            break
        pivots.append(new)
        used |= new
    tile = bases_layout({"m": [logical_vector(p, dims) for p in pivots]}, dims)
    m_bit = {p.bit_length() - 1: k for k, p in enumerate(pivots)}
    # the linear m that offset 2**k holds, then the swizzle = the inverse of that matrix
    linear = [sum(1 << m_bit[p] for p in range(total) if f >> p & 1) for f in flats]
    try:
        unswizzle = XorSwizzle(linear)
    except SwizzleError:
        raise AlgebraError(
            f"offset bases {bases} are linearly dependent: two offsets hold the same element, "
            f"so some element has no offset"
        ) from None
    sw = unswizzle.inverse()
    return tile if sw.is_identity else ComposeLayout(as_plain_swizzle(sw) or sw, tile)


def spread_bits(layout: Layout, real: Sequence[int], n: int) -> Layout:
    """``layout`` with address bit ``j`` moved to bit ``real[j]`` of ``n`` address bits; the
    other bits are padding (no element there, the swizzle leaves them alone).

    >>> import tilelayout as tl
    >>> spread_bits(tl.parse("S[(2,2):(2,1)]"), [0, 2], 3)
    parse('S[(2,2):(4,1)]')
    """
    def spread(value: int) -> int:
        return sum(1 << real[j] for j in range(len(real)) if value >> j & 1)

    spread_tile = restrided(tile_of(layout), lambda b: 1 << real[b])
    if not isinstance(layout, ComposeLayout):
        return spread_tile
    images = [1 << k for k in range(n)]
    for j, k in enumerate(real):
        images[k] = spread(layout.swizzle.apply(1 << j))
    sw = XorSwizzle(images)
    return ComposeLayout(as_plain_swizzle(sw) or sw, spread_tile)


def restrided(tile: TileLayout, stride: Callable[[int], int]) -> TileLayout:
    """A bit-permutation ``tile`` (every stride and extent a power of two) with address bit
    ``b`` moved to address stride ``stride(b)``.

    >>> import tilelayout as tl
    >>> restrided(tl.parse("S[(2,4):(1,2)]"), lambda b: 3 << b)
    parse('S[(2,4):(3,6)]')
    """
    shard = []
    for it in tile.shard:  # one iter per address bit, outer first
        low = it.stride.bit_length() - 1
        shard.extend(Iter(2, stride(b), it.axis)
                     for b in reversed(range(low, low + it.extent.bit_length() - 1)))
    return TileLayout(fuse_adjacent(shard) or [Iter(1, 1)])


__all__ = ["flat_vector", "logical_vector", "offsets_layout", "restrided", "spread_bits"]
