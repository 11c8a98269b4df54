"""``max_common_vector(a, b, shape)``: the widest vector a copy between ``a`` and ``b`` can use.

``a`` and ``b`` place the same logical tile on one memory axis each. The answer is the
largest ``N`` such that the elements ``b`` stores at its first ``N`` positions
(``b``'s offset, +1, ..., +N-1) are stored by ``a`` at ``a``'s first ``N`` positions in
the same order: ``a(b^-1(o_b + n)) == o_a + n`` for ``n < N`` (CuTe's
``max_common_vector``: ``N`` consecutive logical elements, consecutive in both). At
least 1.

How (cost O(iters), never elements): refine both layouts' iters over the flat index
into common atoms (each a run of the flat index on which both are linear, with a
stride in ``a`` and one in ``b``); follow ``b``'s atoms from stride 1 (``1, e_1,
e_1 e_2, ...``) while ``a`` gives each the same stride. Where the two iter structures
cannot be refined together (extents that do not divide), the atoms stop and so does
the vector. A swizzle keeps runs of ``2**vector_bits`` aligned addresses in order
(``2**M`` for ``Swizzle(M, B, S)``), so a swizzled side caps ``N`` there (and at the
alignment of its offset): a lower bound, exact unless both sides share a swizzle that
happens to keep longer runs.

>>> import tilelayout as tl
>>> row = tl.parse("S[(8,64):(64,1)]")
>>> max_common_vector(row, tl.parse("S[(8,8,8):(8,64,1)]"), (8, 64))   # 8-wide chunks
8
>>> max_common_vector(row, tl.ComposeLayout(tl.Swizzle(3, 3, 3), row))    # 16-byte vectors
8
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.compose import ComposeLayout, Layout, tile_of
from ..core.errors import AlgebraError
from .composition import value_axis


def _radix(layout: Layout, what: str) -> list[tuple[int, int]]:
    """``(extent, stride)`` innermost first, on the layout's one value axis."""
    tile = tile_of(layout)
    axis = value_axis(tile, what)
    if any(it.stride and it.extent > 1 for it in tile.replica):
        raise AlgebraError(f"{what} {layout} has replicas: an element at several addresses "
                           f"has no single position to vectorize")
    return [(it.extent, it.stride if it.axis == axis else 0) for it in reversed(tile.shard)]


def _atoms(ra: list[tuple[int, int]], rb: list[tuple[int, int]]) -> list[tuple[int, int, int]]:
    """Common refinement ``(extent, stride in a, stride in b)``, innermost first."""
    out = []
    ia = ib = 0
    ea = eb = 1
    sa = sb = 0
    while True:
        while ea == 1 and ia < len(ra):
            ea, sa = ra[ia]
            ia += 1
        while eb == 1 and ib < len(rb):
            eb, sb = rb[ib]
            ib += 1
        if ea == 1 or eb == 1:
            return out
        x = min(ea, eb)
        if max(ea, eb) % x:
            return out  # the flat index digits of a and b interleave: no common atoms beyond
        out.append((x, sa, sb))
        ea, sa = ea // x, sa * x
        eb, sb = eb // x, sb * x


def _run_cap(layout: Layout) -> int | None:
    """The longest run a swizzle keeps consecutive from the layout's first address."""
    if not isinstance(layout, ComposeLayout):
        return None
    cap = 1 << min(layout.swizzle.vector_bits, 62)
    o = layout.tile.offset.get("m", 0)
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
        nxt = next(((e, sa) for e, sa, sb in atoms if sb == n and e > 1), None)
        if nxt is None or nxt[1] != n:
            break
        n *= nxt[0]
    for side in (a, b):
        cap = _run_cap(side)
        if cap is not None:
            n = min(n, cap)
    return n
