"""CuTe's ``complement``, ``right_inverse`` and ``left_inverse`` (CUTLASS
``include/cute/layout.hpp``, ``python/pycute/layout.py``), on leaves, never elements.

``complement(A, cotarget)``: leaves of ``A`` sorted by stride (extent-1 and stride-0
leaves dropped); a running index ``c`` starts at 1; each leaf ``s:d`` contributes the
gap filler ``d // c : c`` and sets ``c = s * d``; the last mode is
``ceil(cotarget / c) : c`` (**CuTe's rounded bound**: the cotarget is rounded up to a
multiple of ``c``, where ``tl.complement`` refuses a size that is not a multiple unless
``rounded=True``); the result is coalesced. Its values are disjoint from ``A``'s (except
0) and increase. Where a stride is not a multiple of ``c`` CuTe divides with the floor,
so the complement leaves holes (``(4,6):(1,6)`` gives ``1:0``, not a filler of 6 - 4):
that is CuTe's definition, kept exactly; ``tl.complement`` (a bijection onto
``[0, size)``) refuses such layouts. A stride below ``c`` (overlapping leaves) is
refused: CuTe's "non-injective layout" assertion.

>>> from tilelayout.algebra.cute.modes import CuteLayout
>>> str(complement(CuteLayout(4, 2), 24))
'(2,3):(1,8)'
>>> str(right_inverse(CuteLayout((2, 4, 6), (4, 1, 8))))
'(4,2,6):(2,1,8)'
"""

from __future__ import annotations

import itertools
from typing import Any

from ...core.errors import AlgebraError
from .composition import coalesce_leaves
from .modes import CuteLayout, as_cute, leaves, make_layout


def _from_flat(s: list[int], d: list[int]) -> CuteLayout:
    return CuteLayout(s[0], d[0]) if len(s) == 1 else CuteLayout(tuple(s), tuple(d))


def complement(layout: Any, cotarget: int = 1) -> CuteLayout:
    """CuTe's complement of ``layout`` up to ``cotarget`` (pycute's default 1).

    >>> from tilelayout.algebra.cute.modes import CuteLayout
    >>> str(complement(CuteLayout((2, 4), (1, 4))))
    '2:2'
    """
    a = as_cute(layout)
    if isinstance(cotarget, bool) or not isinstance(cotarget, int) or cotarget < 1:
        raise AlgebraError(f"complement cotarget must be a positive integer, got {cotarget!r}")
    runs = sorted((d, s) for s, d in zip(leaves(a.shape), leaves(a.stride), strict=True)
                  if s != 1 and d != 0)
    res_s: list[int] = []
    res_d: list[int] = []
    cur = 1
    for d, s in runs:
        if d < 0:
            raise AlgebraError(f"complement: leaf {s}:{d} has a negative stride; CuTe's "
                               f"complement takes non-negative strides")
        if d < cur:
            raise AlgebraError(
                f"complement: leaf {s}:{d} overlaps the smaller leaves, which reach {cur}: "
                f"the layout is not injective (CuTe's non-injective layout assertion)")
        res_s.append(d // cur)
        res_d.append(cur)
        cur = s * d
    res_s.append(-(-cotarget // cur))
    res_d.append(cur)
    return _from_flat(*coalesce_leaves(res_s, res_d))


def right_inverse(layout: Any) -> CuteLayout:
    """CuTe's right inverse ``R``: ``layout(R(i)) == i`` for every ``i < size(R)``.

    The leaves sorted by stride are taken while they count ``1, s0, s0*s1, ...`` (each
    leaf's stride in ``R`` is its column-major weight in ``layout``); the first one that
    does not continue the count ends ``R``.

    >>> from tilelayout.algebra.cute.modes import CuteLayout
    >>> str(right_inverse(CuteLayout((8, 4), (4, 1))))
    '(4,8):(8,1)'
    """
    a = as_cute(layout)
    shapes = leaves(a.shape)
    weights = [1, *itertools.accumulate(shapes[:-1], lambda x, y: x * y)]
    res_s: list[int] = []
    res_d: list[int] = []
    cur = 1
    for d, s, w in sorted(zip(leaves(a.stride), shapes, weights, strict=True)):
        if s == 1:
            continue
        if d != cur:
            break
        res_s.append(s)
        res_d.append(w)
        cur = s * d
    if not res_s:
        return CuteLayout(1, 0)
    return _from_flat(*coalesce_leaves(res_s, res_d))


def left_inverse(layout: Any) -> CuteLayout:
    """CuTe's left inverse ``L``: ``L(layout(i)) == i`` for every ``i < size(layout)``
    (the right inverse of ``layout`` made onto by its complement).

    >>> from tilelayout.algebra.cute.modes import CuteLayout
    >>> str(left_inverse(CuteLayout(4, 2)))
    '(2,4):(4,1)'
    """
    a = as_cute(layout)
    return right_inverse(make_layout(a, complement(a)))


__all__ = ["complement", "left_inverse", "right_inverse"]
