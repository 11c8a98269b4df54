"""Span of an axis: TIRx's ``1 + O + sum((e-1)*s)``, or the covered extent.

``span(L, axis)`` follows apache-tvm-tirx (the reference implementation): one plus the
offset on ``axis`` plus ``(e-1)*s`` summed over every shard and replica iter on it. When
every stride on the axis and its offset are >= 0 that is one past the largest value; an
offset counts (``S[4:1] + 10`` has span 14), and negative strides pull it down, even
below 1 (``S[4:-1]`` has span -2). An absent axis has span 1.

``span(L, axis, covered=True)`` is the **covered extent** ``max - min + 1`` of the
values: each component ranges independently, so the minimum takes ``c = e - 1`` on the
negative strides and the maximum on the positive ones:

    min = O + sum min(0, (e-1)*s),   max = O + sum max(0, (e-1)*s),   covered = max - min + 1

It is offset-free and never below 1; values inside ``[min, max]`` need not all be used
(see the legality report). Both are O(iters).

>>> import tilelayout as tl
>>> L = tl.parse("S[4:-1] + 10")
>>> span(L, "m"), span(L, "m", covered=True), value_range(L, "m")
(8, 4, (7, 10))
"""

from __future__ import annotations

from ..core.axes import axis as lookup_axis
from ..core.axes import check_axis
from ..core.compose import Layout, tile_of, value_range

__all__ = ["span", "value_range"]


def span(layout: Layout, axis: str | None = "m", *, covered: bool = False) -> int:
    """TIRx's span ``1 + O + sum((e-1)*s)`` of ``axis``; ``covered=True``: the covered
    extent ``max - min + 1``. 1 for an absent axis. ``axis=None`` is TIRx's default span:
    ``1 + sum(span(a) - 1)`` over the layout's memory axes (``m``, ``TLane``, ``TCol``,
    ``P``, ``F``, ``Bank``), which is ``span(L, "m")`` when ``m`` is the only one.

    >>> import tilelayout as tl
    >>> span(tl.parse("S[(2,2):(4,1)] + 1"), "m"), span(tl.parse("S[(2,2):(4,1)] + 1"), covered=True)
    (7, 6)
    >>> span(tl.parse("S[(2,4):(3@TLane,1)]"), None)
    7
    """
    if axis is not None:
        check_axis(axis)  # a name (text), known: not a list, not a typo
    if axis is None:
        memory = [a for a in tile_of(layout).axes if lookup_axis(a).kind == "memory"]
        return 1 + sum(span(layout, a, covered=covered) - 1 for a in memory)
    if covered:
        lo, hi = value_range(layout, axis)
        return hi - lo + 1
    tile = tile_of(layout)
    return 1 + tile.offset.get(axis, 0) + sum(
        (it.extent - 1) * it.stride for it in tile.shard + tile.replica if it.axis == axis)
