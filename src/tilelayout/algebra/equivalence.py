"""Semantic equality: ``equivalent(a, b, shape)`` iff every element has the same set of
coordinates under both (axes absent from a layout count as 0; replica order and
duplicates do not matter).

Fast path: equal canonical forms (replica sets normalized) are equivalent, decided in
O(iters). Otherwise the answer needs the elements: both are evaluated with the
vectorized ``map_all`` and the per-element coordinate sets compared with one sort
(O(N R log(N R))), never in a Python loop. Structural ``==`` is stricter (same iters, same order).

>>> import tilelayout as tl
>>> equivalent(tl.parse("S[(4,4):(4,1)]"), tl.parse("S[16:1]"))
True
>>> equivalent(tl.parse("S[4:1] + R[2:2]"), tl.parse("S[4:1] + R[(2,2):(2,2)]"))
False
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..core import budget
from ..core.compose import Layout
from .canonical import canonicalize
from .distinct import distinct_rows, ranked


def _coordinate_columns(layout: Layout, shape, axes: Sequence[str]) -> list[np.ndarray]:
    coords = layout.map_all(shape)
    n = layout.size()
    r = next(iter(coords.values())).shape[-1] if coords else 1
    cols = [np.repeat(np.arange(n, dtype=np.int64), r)]
    for a in axes:
        cols.append(coords[a].reshape(-1) if a in coords else np.zeros(n * r, dtype=np.int64))
    return cols


def equivalent(a: Layout, b: Layout, shape: Sequence[int] | None = None) -> bool:
    """Whether ``a`` and ``b`` give every element of ``shape`` the same coordinate set.

    >>> import tilelayout as tl
    >>> equivalent(tl.parse("S[8:1@laneid] + 0@warpid"), tl.parse("S[(2,4):(4@laneid,1@laneid)]"))
    True
    """
    if a.size() != b.size():
        return False
    s = a.check_shape(shape)
    if canonicalize(a, normalize_replicas=True) == canonicalize(b, normalize_replicas=True):
        return True
    axes = tuple(dict.fromkeys(tuple(a.axes) + tuple(b.axes)))
    # both layouts evaluated, then every (element, coordinate) value ranked and sorted
    values = (a.size() * a.replica_count + b.size() * b.replica_count) * (len(axes) + 1)
    budget.check("equivalent compares", values, "elements")
    ca, cb = _coordinate_columns(a, s, axes), _coordinate_columns(b, s, axes)
    # one encoding for both: each column's values ranked over the two layouts together
    joint, ranges = ranked([np.concatenate([x, y]) for x, y in zip(ca, cb, strict=True)])
    k = len(ca[0])
    ra, rb = distinct_rows([c[:k] for c in joint], ranges), distinct_rows([c[k:] for c in joint], ranges)
    return ra.shape == rb.shape and bool(np.array_equal(ra, rb))
