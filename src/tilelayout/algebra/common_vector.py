"""``max_common_vector(a, b, shape)``: the widest vector a copy between ``a`` and ``b`` can use.

``a`` and ``b`` place the same logical tile on one memory axis each. The answer is the
largest ``N`` such that the elements ``b`` stores at its first ``N`` positions
(``b``'s offset, +1, ..., +N-1) are stored by ``a`` at ``a``'s first ``N`` positions in
the same order: ``a(b^-1(o_b + n)) == o_a + n`` for ``n < N`` (CuTe's
``max_common_vector``: ``N`` consecutive logical elements, consecutive in both). At
least 1.

How (cost O(iters), never elements): refine both layouts' iters over the flat index
into common atoms (each a run of the flat index on which both are linear, with a
stride in ``a`` and one in ``b``; adjacent iters are fused first, as CuTe coalesces),
from the low end of the flat index up; follow ``b``'s atoms from stride 1 (``1, e_1,
e_1 e_2, ...``) while ``a`` gives each the same stride. Where the two iter structures
cannot be refined together (coprime extents at one place), a partial atom lets the
vector reach, not pass, the first wrap-around, and refinement resumes at the next place
both radices share. A swizzle keeps
runs of ``2**vector_bits`` aligned addresses in order (``2**M`` for ``Swizzle(M, B,
S)``), so a swizzled side caps ``N`` there (and at the alignment of its offset): a lower
bound, exact unless both sides share a swizzle that happens to keep longer runs.

>>> import tilelayout as tl
>>> row = tl.parse("S[(8,64):(64,1)]")
>>> max_common_vector(row, tl.parse("S[(8,8,8):(8,64,1)]"), (8, 64))   # 8-wide chunks
8
>>> max_common_vector(row, tl.ComposeLayout(tl.Swizzle(3, 3, 3), row))    # 16-byte vectors
8
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..core.compose import ComposeLayout, Layout, tile_of
from ..core.errors import AlgebraError
from ..core.iter import Iter
from .canonical import fuse_adjacent
from .composition import value_axis


def _radix(layout: Layout, what: str) -> list[tuple[int, int]]:
    """``(extent, stride)`` innermost first, on the layout's one value axis, adjacent iters
    fused first (``S[(3,4):(4,1)]`` is one run of 12, whatever the logical dims)."""
    tile = tile_of(layout)
    axis = value_axis(tile, what)
    if any(it.stride and it.extent > 1 for it in tile.replica):
        raise AlgebraError(f"{what} {layout} has replicas: an element at several addresses "
                           f"has no single position to vectorize")
    flat = fuse_adjacent(Iter(it.extent, it.stride if it.axis == axis else 0) for it in tile.shard)
    return [(it.extent, it.stride) for it in reversed(flat)]


def _atoms(ra: list[tuple[int, int]], rb: list[tuple[int, int]]) -> list[tuple[int, int, int, bool]]:
    """Common refinement ``(extent, stride in a, stride in b, partial)`` of two flat-index
    radices (innermost first).

    From the innermost digits up, the gcd of the two digits is a common atom (both layouts
    are linear on it). Where two digits at the same place are coprime (extents 3 and 2),
    both stay linear only while neither wraps: one *partial* atom of the smaller extent,
    which a vector may reach but not pass; the digits above it are skipped up to the next
    place where both radices have a boundary, and refinement goes on from there."""
    a = [d for d in ra if d[0] > 1]
    b = [d for d in rb if d[0] > 1]
    out: list[tuple[int, int, int, bool]] = []
    while a and b:
        (ea, sa), (eb, sb) = a[0], b[0]
        g = math.gcd(ea, eb)
        if g > 1:
            out.append((g, sa, sb, False))
            a[0], b[0] = (ea // g, sa * g), (eb // g, sb * g)
            a, b = [d for d in a if d[0] > 1], [d for d in b if d[0] > 1]
            continue
        out.append((min(ea, eb), sa, sb, True))
        a, b = _next_common_place(a, b)
    return out


def _next_common_place(a: list[tuple[int, int]], b: list[tuple[int, int]]
                       ) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Both radices with their digits below the next common boundary removed (a digit is
    split where the other radix's boundary falls inside it on a divisor)."""
    pa, pb = a[0][0], b[0][0]
    a, b = a[1:], b[1:]
    while pa != pb and a and b:
        if pa < pb:
            pa, a = _advance(pa, pb, a)
        else:
            pb, b = _advance(pb, pa, b)
    return a, b


def _advance(done: int, target: int, digits: list[tuple[int, int]]) -> tuple[int, list[tuple[int, int]]]:
    """Consume the next digit: only up to ``target`` when it splits there, else whole."""
    e, s = digits[0]
    need = target // done if target % done == 0 else 0
    if need and need < e and e % need == 0:
        return target, [(e // need, s * need)] + digits[1:]
    return done * e, digits[1:]


def _run_cap(layout: Layout) -> int | None:
    """The longest run a swizzle keeps consecutive from the layout's first address."""
    if not isinstance(layout, ComposeLayout):
        return None
    cap = 1 << min(layout.swizzle.vector_bits, 62)
    o = layout.tile_layout.offset.get("m", 0)
    if o:
        cap = min(cap, o & -o)
    return cap


def max_common_vector(a: Layout, b: Layout, shape: Sequence[int] | None = None) -> int:
    """Largest ``N``: ``b``'s first ``N`` positions hold elements ``a`` stores at its first
    ``N`` positions, in order (a copy from one to the other moves ``N``-element vectors).

    >>> import tilelayout as tl
    >>> max_common_vector(tl.parse("S[(4,8):(8,1)]"), tl.parse("S[(4,8):(1,4)]"))
    1
    """
    dims = tile_of(a).check_shape(shape)
    tile_of(b).check_shape(dims)
    atoms = _atoms(_radix(a, "a"), _radix(b, "b"))
    n = 1
    while True:
        nxt = next(((e, sa, part) for e, sa, sb, part in atoms if sb == n and e > 1), None)
        if nxt is None or nxt[1] != n:
            break
        n *= nxt[0]
        if nxt[2]:
            break
    for side in (a, b):
        cap = _run_cap(side)
        if cap is not None:
            n = min(n, cap)
    return n
