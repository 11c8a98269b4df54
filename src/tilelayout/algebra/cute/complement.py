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

from ...core.budget import bounded_int
from ...core.errors import AlgebraError, shown
from ..complement import stride_gaps
from .composition import coalesce_leaves
from .modes import CuteLayout, as_cute, leaves, trusted, unwrap


def complement(layout: Any, cotarget: int = 1) -> CuteLayout:
    """CuTe's complement of ``layout`` up to ``cotarget`` (pycute's default 1).

    >>> from tilelayout.algebra.cute.modes import CuteLayout
    >>> str(complement(CuteLayout((2, 4), (1, 4))))
    '2:2'
    """
    a = as_cute(layout)
    if isinstance(cotarget, bool) or not isinstance(cotarget, int) or cotarget < 1:
        raise AlgebraError(f"complement cotarget must be a positive integer, got {shown(cotarget)}")
    bounded_int(cotarget, "complement cotarget")
    return trusted(*unwrap(*complement_leaves(leaves(a.shape), leaves(a.stride), cotarget)))


def complement_leaves(shapes: list[int], strides: list[int], cotarget: int) -> tuple[list[int], list[int]]:
    """:func:`complement` on flat leaves; the result's leaves, coalesced.

    >>> complement_leaves([4], [2], 24)
    ([2, 3], [1, 8])
    """
    runs = sorted((d, s) for s, d in zip(shapes, strides, strict=True) if s != 1 and d != 0)

    def injective(d: int, s: int, cur: int) -> None:
        if d < 0:
            raise AlgebraError(f"complement: leaf {s}:{d} has a negative stride; CuTe's "
                               f"complement takes non-negative strides")
        if d < cur:  # a stride that is not a multiple of cur is fine: floor-divided
            raise AlgebraError(
                f"complement: leaf {s}:{d} overlaps the smaller leaves, which reach {cur}: "
                f"the layout is not injective (CuTe's non-injective layout assertion)")

    gaps, cur = stride_gaps(runs, injective)
    res_s = [n for n, _ in gaps] + [-(-cotarget // cur)]
    res_d = [step for _, step in gaps] + [cur]
    return coalesce_leaves(res_s, res_d)


def _coalesced_flat(layout: Any) -> tuple[list[int], list[int], list[int]]:
    """Coalesced leaves ``(shapes, strides, column-major prefix products)``."""
    a = as_cute(layout)
    shapes, strides = coalesce_leaves(leaves(a.shape), leaves(a.stride))
    return shapes, strides, [1, *itertools.accumulate(shapes[:-1], lambda x, y: x * y)]


def right_inverse(layout: Any) -> CuteLayout:
    """CuTe's right inverse ``R``: ``layout(R(i)) == i`` for every ``i < size(R)``.

    As CUTLASS's C++ ``right_inverse``: the coalesced leaves sorted by stride, each kept
    when its stride continues the count ``1, s0*d0, ...`` (its stride in ``R`` is its
    column-major weight in ``layout``); others are skipped. (pycute stops at the first
    leaf that does not continue, so after a stride-0 leaf its ``R`` is shorter.)

    >>> from tilelayout.algebra.cute.modes import CuteLayout
    >>> str(right_inverse(CuteLayout((8, 4), (4, 1))))
    '(4,8):(8,1)'
    >>> str(right_inverse(CuteLayout((2, 4), (0, 1))))
    '4:2'
    """
    shapes, strides, weights = _coalesced_flat(layout)
    res_s, res_d = [1], [0]
    cur = 1
    for k in sorted(range(len(strides)), key=lambda k: strides[k]):
        if strides[k] == cur:
            res_s.append(shapes[k])
            res_d.append(weights[k])
            cur = shapes[k] * strides[k]
    return trusted(*unwrap(*coalesce_leaves(res_s, res_d)))


def left_inverse(layout: Any) -> CuteLayout:
    """CuTe's left inverse ``L``: ``L(layout(i)) == i`` for every ``i < size(layout)``.

    As CUTLASS's C++ ``left_inverse``: the coalesced leaves sorted by stride (stride 0
    skipped); leaf ``k`` of stride ``d`` gets the mode ``d / (size so far) : weight_k``
    after a leading stride-0 mode, and the largest-stride leaf's extent closes it. A
    stride that is not a multiple of the size so far is refused (CuTe's "left inverse
    divisibility condition"). Off ``layout``'s image it may differ from pycute's
    (which is ``right_inverse(make_layout(L, complement(L)))``); on the image both are
    the inverse.

    >>> from tilelayout.algebra.cute.modes import CuteLayout
    >>> str(left_inverse(CuteLayout(4, 2)))
    '(2,4):(0,1)'
    """
    shapes, strides, weights = _coalesced_flat(layout)
    order = sorted(range(len(strides)), key=lambda k: strides[k])
    res_s: list[int] = []
    res_d = [0]
    size = 1
    for k in order:
        if strides[k] == 0:
            continue
        if strides[k] % size:
            raise AlgebraError(
                f"left_inverse of {as_cute(layout)}: stride {strides[k]} is not a multiple of "
                f"{size}, what the smaller strides span (CuTe's left inverse divisibility "
                f"condition: the layout is not injective or leaves holes no mode can skip)")
        res_s.append(strides[k] // size)
        res_d.append(weights[k])
        size *= res_s[-1]
    res_s.append(shapes[order[-1]])
    return trusted(*unwrap(*coalesce_leaves(res_s, res_d)))


__all__ = ["complement", "complement_leaves", "left_inverse", "right_inverse"]
