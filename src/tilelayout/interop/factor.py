"""Grouping shard iters by a logical shape, and merging iters: shared by the converters.

Other notations nest their modes per logical dimension (CuTe) or name a dimension per
entry (JAX). :func:`split_by_shape` assigns our flat, outermost-first shard iters to the
dimensions of a row-major shape, splitting an iter where a dimension boundary falls
inside it.

>>> from tilelayout.core.iter import Iter
>>> split_by_shape([Iter(32, 1)], (4, 8))
[[Iter(extent=4, stride=8, axis='m')], [Iter(extent=8, stride=1, axis='m')]]
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from ..algebra.group import group_iters
from ..core.errors import AlgebraError
from ..core.iter import Iter
from ..core.shape import format_shape
from ..core.tile import TileLayout
from . import InteropError


def split_by_shape(iters: Sequence[Iter], shape: Sequence[int]) -> list[list[Iter]]:
    """The shard iters of each dimension of row-major ``shape`` (outermost first).

    The algebra's grouping (:func:`tilelayout.algebra.group.group_iters`) with extent-1
    iters dropped: an iter that straddles a dimension boundary is split into an outer
    and an inner iter (``(e, s) -> (e/r, s*r), (r, s)``); when neither divides the other
    the layout has no per-dimension form and :class:`InteropError` is raised.

    >>> split_by_shape([Iter(8, 4, "laneid"), Iter(4, 1, "laneid")], (2, 16))[0]
    [Iter(extent=2, stride=16, axis='laneid')]
    """
    kept = [it for it in iters if it.extent != 1]
    size = math.prod(it.extent for it in kept)
    if math.prod(shape) != size:
        raise InteropError(f"shape {format_shape(shape)} does not have the layout's {size} elements")
    try:
        groups = group_iters(kept, tuple(shape))
    except AlgebraError as exc:
        raise InteropError(f"the layout has no per-dimension form: {exc}") from None
    return [[it for it in g if it.extent != 1] for g in groups]


def first_difference(a: TileLayout, b: TileLayout, shape: tuple[int, ...]) -> int | None:
    """Flat index of the first element whose coordinate sets differ under ``a`` and ``b``
    (``None`` when they agree everywhere), comparing every axis of either layout.

    >>> import tilelayout as tl
    >>> first_difference(tl.parse("S[4:1]"), tl.parse("S[(2,2):(1,2)]"), (4,))
    1
    """
    axes = list(dict.fromkeys([*a.axes, *b.axes]))
    n = math.prod(shape)
    arrays = [x.map_all(shape) for x in (a, b)]
    zero = np.zeros((n, 1), dtype=np.int64)
    columns = [[arr[ax].reshape(n, -1) if ax in arr else zero for arr in arrays] for ax in axes]
    codes = [np.zeros((n, x.replica_count), dtype=np.int64) for x in (a, b)]
    for pair in columns:
        radix = 2 * max(int(np.abs(v).max(initial=0)) for v in pair) + 1
        codes = [c * radix + v for c, v in zip(codes, pair, strict=True)]
    left, right = (np.sort(c, axis=1) for c in codes)
    same = left.shape == right.shape
    candidates = np.flatnonzero((left != right).any(axis=1)) if same else np.arange(n)
    for i in candidates.tolist():  # rows whose multisets differ: compare as sets
        if not np.array_equal(np.unique(left[i]), np.unique(right[i])):
            return i
    return None
