"""Covered extent of an axis: ``span(axis) = max - min + 1`` over every value.

The values of an axis are ``sum_k c_k s_k + sum_t r_t s_t + O`` over all shard and
replica components; each component ranges independently, so the minimum takes
``c = e - 1`` on the negative strides and the maximum on the positive ones:

    min = O + sum min(0, (e-1)*s),   max = O + sum max(0, (e-1)*s),   span = max - min + 1

The reference implementation's ``1 + sum((e-1)*s) + O`` differs: it counts the offset
(it is "one past the largest address" when every stride is >= 0) and goes wrong for
negative strides (``S[4:-1]`` would give -2). The span here is offset-free and never
below 1; values inside ``[min, max]`` need not all be used (see the legality report).

>>> import tilelayout as tl
>>> span(tl.parse("S[4:-1] + 10"), "m"), value_range(tl.parse("S[4:-1] + 10"), "m")
(4, (7, 10))
"""

from __future__ import annotations

from ..core.compose import value_range
from .common import Layout

__all__ = ["span", "value_range"]


def span(layout: Layout, axis: str | None = "m") -> int:
    """Covered extent ``max - min + 1`` of ``axis`` (1 for an absent axis).

    >>> import tilelayout as tl
    >>> span(tl.parse("S[(2,2):(4,1)]"), "m")
    6
    """
    lo, hi = value_range(layout, "m" if axis is None else axis)
    return hi - lo + 1
