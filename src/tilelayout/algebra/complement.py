"""``complement(L, axis, size)``: the iters that fill the rest of ``[0, size)`` on an axis.

The values ``L`` takes on ``axis`` (its shard and replica iters there) plus the values
of the complement are every integer of ``[0, size)`` exactly once: ``L ⊕ complement``
is a bijection onto ``[0, size)`` (CuTe's ``complement``, on our iters).

How (cost O(k log k) for the k iters on the axis, never elements): sort the iters by
stride; a running cover ``c`` starts at 1; an iter ``e:s`` needs ``s`` to be a multiple
of ``c`` (a gap of ``s / c`` that the complement fills with ``s/c : c``), then
``c = e * s``; finally ``size / c : c`` fills the top. Refused (:class:`AlgebraError`):
iters that overlap or interleave so that no set of strided iters fills the gaps
exactly once, an offset or negative stride on the axis, ``size`` not a multiple of
what ``L`` spans, a swizzled layout (its values are not a sum of strided runs).

``rounded=True`` is CuTe's rounded bound: ``size`` is rounded up to the next multiple of
what ``L`` spans (CuTe's last complement mode is ``ceil_div(cotarget, c)``), so the
result covers ``[0, size)`` and possibly more, never less. For CuTe's complement with
its column-major modes and floor-divided gaps see
:func:`tilelayout.algebra.cute.complement`.

>>> import tilelayout as tl
>>> complement(tl.parse("S[4:2]"), "m", 16)      # {0,2,4,6} + {0,1,8,9} = [0, 16)
parse('S[(2,2):(8,1)]')
"""

from __future__ import annotations

from collections.abc import Callable

from ..core.axes import check_axis
from ..core.compose import ComposeLayout, Layout
from ..core.errors import AlgebraError
from ..core.iter import Iter, as_int
from ..core.tile import TileLayout


def complement(layout: Layout, axis: str = "m", size: int | None = None,
               rounded: bool = False) -> TileLayout:
    """Iters on ``axis`` that, added to ``layout``'s, cover ``[0, size)`` exactly once
    (``size`` defaults to what ``layout``'s iters span; ``rounded=True`` rounds ``size``
    up to a multiple of that span, as CuTe does).

    >>> import tilelayout as tl
    >>> complement(tl.parse("S[4:2]"), "m", 20, rounded=True)   # 20 -> 24
    parse('S[(3,2):(8,1)]')
    >>> complement(tl.parse("S[(8,4):(4@laneid,1@laneid)] + R[2:32@laneid]"), "laneid", 128)
    parse('S[2:64@laneid]')
    """
    if axis not in layout.axes:
        check_axis(axis)  # a typo gets its "did you mean"; a new axis of the table is fine
    if isinstance(layout, ComposeLayout):
        raise AlgebraError(
            f"{layout} is swizzled: its addresses are an XOR pattern, not a sum of strided "
            f"runs; take the complement of its tile"
        )
    if layout.offset.get(axis, 0):
        raise AlgebraError(
            f"{layout} has offset {layout.offset.get(axis)} on {axis}: its values do not start "
            f"at 0, so no set of iters completes them to [0, size)"
        )
    runs = sorted((it.stride, it.extent) for it in layout.shard + layout.replica
                  if it.axis == axis and it.extent > 1 and it.stride)

    def exactly_once(s: int, e: int, cover: int) -> None:
        if s < 0:
            raise AlgebraError(f"iter {e}:{s}@{axis} runs backwards (negative stride); its "
                               f"values are not in [0, size)")
        if s % cover:
            raise AlgebraError(
                f"iter {e}:{s}@{axis} overlaps or interleaves with the smaller iters, which "
                f"cover [0, {cover}) in steps: {s} is not a multiple of {cover}, so the values "
                f"would collide or leave gaps no strided iter fills exactly once"
            )

    gaps, cover = stride_gaps(runs, exactly_once)
    out = [Iter(n, step, axis) for n, step in gaps]
    if size is None:
        size = cover
    size = as_int(size, "complement size")
    if rounded and size >= 1:
        size = -(-size // cover) * cover
    if size < cover or size % cover:
        raise AlgebraError(
            f"{layout} spans [0, {cover}) on {axis} in whole steps; size {size} must be a "
            f"multiple of {cover} (rounded=True rounds it up, as CuTe does)"
        )
    if size > cover:
        out.append(Iter(size // cover, cover, axis))
    return TileLayout(out[::-1], offset={axis: 0} if not out else None)


def stride_gaps(runs: list[tuple[int, int]], check: Callable[[int, int, int], None]
                ) -> tuple[list[tuple[int, int]], int]:
    """The walk both complements share: ``runs`` ``(stride, extent)`` in stride order, a
    running cover ``c`` from 1; ``check(stride, extent, c)`` refuses a run (it raises)
    that cannot sit on the cover by the caller's rule; below each run the gap filler
    ``stride // c : c`` (when it fills more than one value), then ``c = stride * extent``.
    Returns the fillers ``(count, step)`` and the final cover.

    >>> stride_gaps([(2, 4)], lambda s, e, c: None)    # 4:2 leaves 1 gap of 2:1 below it
    ([(2, 1)], 8)
    >>> stride_gaps([(1, 4), (8, 2)], lambda s, e, c: None)
    ([(2, 4)], 16)
    """
    gaps: list[tuple[int, int]] = []
    cover = 1
    for stride, extent in runs:
        check(stride, extent, cover)
        if stride // cover > 1:
            gaps.append((stride // cover, cover))
        cover = stride * extent
    return gaps, cover
