"""Inverse queries: which logical elements sit at a (partial) physical coordinate.

``elements_at(L, {"laneid": 5}, shape)`` answers "which elements does lane 5 hold":
every logical index ``x`` whose coordinate set ``L(x)`` contains a coordinate with
the given axis values (axes not named are free).

How it is solved (cost grows with the number of iters, not of elements): each iter
adds to exactly one axis, so the query splits into one small equation per queried
axis, ``sum_k c_k * s_k + sum_t r_t * s_t = value - O[axis]`` over that axis's shard
components ``c_k`` and replica components ``r_t`` (existential). Each equation is
solved iter by iter, largest stride first, pruning with the range and the gcd of the
strides still to come; for mixed-radix layouts that is one candidate per iter. Only
when an axis's iters overlap so much that the search would blow up does it fall back
to a vectorized scan of *that axis's* iters (never of all elements). Shard iters on
axes not queried are free. The answer is a product of per-axis solution sets, so its
size is known before anything is listed.

>>> import tilelayout as tl
>>> L = tl.parse("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid")
>>> elements_at(L, {"laneid": 5}, (8, 16))
((1, 2), (1, 3), (1, 10), (1, 11))
>>> count_at(L, {"warpid": 10})
64
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ..core import budget
from ..core.axes import check_axis
from ..core.compose import ComposeLayout, Layout, tile_of, value_range
from ..core.errors import LayoutError, LayoutOverflowError, TooManyElementsError
from ..core.frozen import freeze_fields
from ..core.iter import as_int
from ..core.shape import Shape
from ..core.tile import TileLayout

#: default cap on how many indices ``elements_at`` lists (use ``count_at`` beyond it)
DEFAULT_LIMIT = 1 << 22
_SEARCH_BUDGET = 1 << 16  # search nodes per equation before the vectorized fallback


@dataclass(frozen=True)
class AxisSolution:
    """The solutions of one queried axis: which shard iters it constrains and their values.

    ``iters`` are shard positions; ``values`` is an int64 array ``(n, len(iters))`` of the
    distinct component tuples that reach the queried value.
    """

    axis: str
    iters: tuple[int, ...]
    values: np.ndarray

    def __post_init__(self) -> None:
        freeze_fields(self)  # its arrays are read-only views


@dataclass(frozen=True)
class InverseSolution:
    """The answer to an inverse query, kept as a product (never enumerated until asked).

    The matching flat indices are ``sum_k c_k * w_k`` (``w_k`` = product of the shard
    extents after ``k``) over every combination of one row of each axis solution and
    any value of each free iter.
    """

    extents: tuple[int, ...]
    axes: tuple[AxisSolution, ...]
    free: tuple[int, ...]

    @property
    def count(self) -> int:
        """Number of matching logical elements (exact, without listing them)."""
        n = math.prod(self.extents[k] for k in self.free)
        for sol in self.axes:
            n *= len(sol.values)
        return n

    def flat_indices(self) -> np.ndarray:
        """The matching flat indices, sorted, as an int64 array (refused over the
        ``elements`` limit before anything is built)."""
        count = self.count
        if count == 0:  # nothing matches: never build the free iters' ranges
            return np.zeros(0, dtype=np.int64)
        budget.check("listing the matching elements takes", count, "elements")
        weights = _weights(self.extents)
        if sum(weights[k] * (self.extents[k] - 1) for k in range(len(self.extents))) >= 1 << 62:
            raise LayoutOverflowError("the layout has more than 2**62 elements, beyond int64; "
                                      "count them with count_at")
        flat = np.zeros(1, dtype=np.int64)
        parts = [np.arange(self.extents[k], dtype=np.int64) * weights[k] for k in self.free]
        for sol in self.axes:
            w = np.asarray([weights[k] for k in sol.iters], dtype=np.int64)
            parts.append(sol.values @ w if len(sol.iters) else np.zeros(len(sol.values), np.int64))
        for p in parts:
            flat = (flat[:, None] + p[None, :]).reshape(-1)
        return np.sort(flat)


def _weights(extents: Sequence[int]) -> list[int]:
    out, w = [], 1
    for e in reversed(extents):
        out.append(w)
        w *= e
    return out[::-1]


def _tile_and_query(layout: Layout, query: Mapping[str, int]) -> tuple[TileLayout, dict[str, int]]:
    if not isinstance(query, Mapping):
        raise LayoutError(f"an inverse query is a mapping axis -> value, got {query!r}")
    tile = tile_of(layout)
    q: dict[str, int] = {}
    for a, v in query.items():
        if a not in tile.axes:
            check_axis(a)  # a typo gets its "did you mean"
            raise LayoutError(
                f"the layout {layout} has no axis '{a}'; its axes are {', '.join(tile.axes)}"
            )
        q[a] = as_int(v, f"query value for '{a}'")
    if isinstance(layout, ComposeLayout) and "m" in q:
        # undo the swizzle (a permutation of addresses) to get the linear address
        q["m"] = layout.swizzle.unapply(q["m"])
    return tile, q


def _replica_sums(iters: Sequence[tuple[int, int]], lo: int, hi: int) -> np.ndarray:
    """Distinct values in ``[lo, hi]`` that the replica iters of one axis can add.

    Pruned before it enumerates: iters are taken largest stride first, and each partial
    sum keeps only the components that can still end inside the window; the candidates
    are counted (against the ``search`` limit) before they are built.
    """
    its = sorted(iters, key=lambda it: -abs(it[1]))
    rest_lo = [0] * (len(its) + 1)
    rest_hi = [0] * (len(its) + 1)
    for j in range(len(its) - 1, -1, -1):
        e, s = its[j]
        rest_lo[j] = rest_lo[j + 1] + min(0, (e - 1) * s)
        rest_hi[j] = rest_hi[j + 1] + max(0, (e - 1) * s)
    if not (lo <= hi and rest_lo[0] <= hi and lo <= rest_hi[0]):
        return np.zeros(0, dtype=np.int64)
    sums = np.zeros(1, dtype=np.int64)
    for j, (e, s) in enumerate(its):
        # c*s must keep sum + c*s + [rest_lo, rest_hi] meeting [lo, hi]
        a = lo - rest_hi[j + 1] - sums
        b = hi - rest_lo[j + 1] - sums
        if s < 0:
            a, b, s = -b, -a, -s
            sign = -1
        else:
            sign = 1
        first = np.maximum(0, -(-a // s))
        last = np.minimum(e - 1, b // s)
        counts = np.maximum(0, last - first + 1)
        budget.check("an inverse query tries", int(counts.sum()), "search")
        base = np.repeat(sums, counts)
        starts = np.repeat(first, counts)
        steps = np.arange(len(base), dtype=np.int64) - np.repeat(np.cumsum(counts) - counts,
                                                                  counts)
        sums = np.unique(base + (starts + steps) * (sign * s))
    return sums[(sums >= lo) & (sums <= hi)]


class _BudgetExceeded(Exception):
    pass


def _search(iters: Sequence[tuple[int, int]], target: int, budget: list[int]) -> list[tuple]:
    """Component tuples (in ``iters`` order) with ``sum c_i * s_i == target``.

    Depth-first over iters sorted by decreasing ``|stride|``; at each level only the
    ``c`` whose remainder stays inside the range (and on the gcd lattice) of the iters
    still to come are tried.
    """
    order = sorted(range(len(iters)), key=lambda i: -abs(iters[i][1]))
    n = len(order)
    lo = [0] * (n + 1)
    hi = [0] * (n + 1)
    g = [0] * (n + 1)
    for j in range(n - 1, -1, -1):
        e, s = iters[order[j]]
        lo[j] = lo[j + 1] + min(0, (e - 1) * s)
        hi[j] = hi[j + 1] + max(0, (e - 1) * s)
        g[j] = math.gcd(g[j + 1], s)
    out: list[tuple] = []
    chosen = [0] * len(iters)

    def rec(j: int, rest: int) -> None:
        budget[0] -= 1
        if budget[0] < 0:
            raise _BudgetExceeded
        if j == n:
            if rest == 0:
                out.append(tuple(chosen))
            return
        if not lo[j] <= rest <= hi[j] or (g[j] and rest % g[j]) or (not g[j] and rest):
            return
        e, s = iters[order[j]]
        if s == 0:
            candidates: range | list[int] = range(e)
        else:
            # c*s must leave rest - c*s in [lo[j+1], hi[j+1]]
            a, b = rest - hi[j + 1], rest - lo[j + 1]
            if s < 0:
                a, b, s_abs = -b, -a, -s
            else:
                s_abs = s
            first = max(0, -(-a // s_abs))
            last = min(e - 1, b // s_abs)
            candidates = range(first, last + 1)
        for c in candidates:
            chosen[order[j]] = c
            rec(j + 1, rest - c * s)
        chosen[order[j]] = 0

    rec(0, target)
    return out


def _scan(iters: Sequence[tuple[int, int]], targets: np.ndarray) -> np.ndarray:
    """Vectorized fallback: every component tuple of these iters whose sum is a target."""
    extents = [e for e, _ in iters]
    cells = math.prod(extents)
    budget.check("scanning one axis's iters evaluates", cells, "elements")
    budget.check("scanning one axis's iters allocates", cells * 8 * (len(iters) + 2),
                 "output_bytes")
    if not iters:
        return np.zeros((1 if np.isin(0, targets) else 0, 0), dtype=np.int64)
    grids = np.indices(extents, dtype=np.int64).reshape(len(iters), -1)
    total = sum(grids[i] * s for i, (_, s) in enumerate(iters))
    hit = np.isin(total, targets)
    return grids[:, hit].T


def _solve_axis(tile: TileLayout, axis: str, value: int) -> AxisSolution:
    # iters that cannot move the axis (stride 0 or extent 1) constrain nothing: skipping
    # them also keeps their (possibly huge) strides out of int64 arithmetic
    shard_pos = tuple(k for k, it in enumerate(tile.shard)
                      if it.axis == axis and it.stride != 0 and it.extent > 1)
    shard = [(tile.shard[k].extent, tile.shard[k].stride) for k in shard_pos]
    reps = [(it.extent, it.stride) for it in tile.replica
            if it.axis == axis and it.stride != 0 and it.extent > 1]
    lo, hi = value_range(tile, axis)
    if not lo <= value <= hi:  # no element reaches it (and no int64 arithmetic on it)
        return AxisSolution(axis, shard_pos, np.zeros((0, len(shard)), dtype=np.int64))
    if max(-lo, hi) >= 1 << 62:
        raise LayoutOverflowError(
            f"values on axis '{axis}' reach about 2**{max(-lo, hi).bit_length()}, beyond "
            f"int64; inverse queries work within int64")
    shard_lo = sum(min(0, (e - 1) * s) for e, s in shard)
    shard_hi = sum(max(0, (e - 1) * s) for e, s in shard)
    rest = value - tile.offset.get(axis, 0)
    # only replica sums that leave the rest inside the shard iters' range can match
    targets = rest - _replica_sums(reps, rest - shard_hi, rest - shard_lo)
    if len(shard) <= 1:  # solved in closed form, vectorized over the targets
        if not shard:
            hit = 1 if np.any(targets == 0) else 0
            return AxisSolution(axis, shard_pos, np.zeros((hit, 0), dtype=np.int64))
        e, s = shard[0]
        c = targets // s
        c = np.unique(c[(targets % s == 0) & (c >= 0) & (c < e)])
        return AxisSolution(axis, shard_pos, c.reshape(-1, 1))
    try:
        search = [min(_SEARCH_BUDGET, budget.current().search)]
        found: set[tuple] = set()
        for n, t in enumerate(targets.tolist()):
            if not n & 0xFF:
                budget.checkpoint()
            found.update(_search(shard, t, search))
        values = np.asarray(sorted(found), dtype=np.int64).reshape(len(found), len(shard))
    except _BudgetExceeded:
        values = _scan(shard, targets)
    return AxisSolution(axis, shard_pos, values)


def solve(layout: Layout, query: Mapping[str, int]) -> InverseSolution:
    """The structured answer to an inverse query (see :class:`InverseSolution`).

    >>> import tilelayout as tl
    >>> solve(tl.parse("S[(4,8):(8@laneid,1)]"), {"laneid": 16}).count
    8
    """
    tile, q = _tile_and_query(layout, query)
    sols = tuple(_solve_axis(tile, a, v) for a, v in q.items())
    constrained = {k for s in sols for k in s.iters}
    free = tuple(k for k in range(len(tile.shard)) if k not in constrained)
    return InverseSolution(tile.default_shape, sols, free)


def count_at(layout: Layout, query: Mapping[str, int], shape: Sequence[int] | None = None) -> int:
    """How many logical elements ``elements_at`` would return, without listing them.

    >>> import tilelayout as tl
    >>> count_at(tl.parse("S[(1024,1024,1024,1024):(1@pid,1,1024,1048576)]"), {"pid": 3})
    1073741824
    """
    layout.check_shape(shape)
    return solve(layout, query).count


def elements_at(
    layout: Layout,
    query: Mapping[str, int],
    shape: Sequence[int] | None = None,
    *,
    limit: int | None = DEFAULT_LIMIT,
) -> tuple[tuple[int, ...], ...]:
    """Logical indices (sorted tuples in ``shape``) whose coordinate set contains a
    coordinate with the queried axis values; axes not named are free.

    Raises :class:`~tilelayout.AlgebraError` when more than ``limit`` elements match
    (``count_at`` gives the number; ``limit=None`` lists them all).

    >>> import tilelayout as tl
    >>> L = tl.parse("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid")
    >>> elements_at(L, {"warpid": 6, "m": 1, "laneid": 31}, (8, 16))
    ((7, 15),)
    """
    s: Shape = layout.check_shape(shape)
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int)
                              or limit < 0):
        raise LayoutError(f"limit must be a non-negative integer or None, got {limit!r}")
    sol = solve(layout, query)
    if limit is not None and sol.count > limit:
        raise TooManyElementsError(
            f"{sol.count} elements match {dict(query)}, more than limit={limit}; "
            f"narrow the query, use count_at(), or pass limit=None",
            name="limit", cost=sol.count, limit=limit)
    flat = sol.flat_indices()
    if not len(flat):
        return ()
    if not len(s):
        return tuple(() for _ in flat.tolist())
    idx = np.unravel_index(flat, s)
    return tuple(zip(*(a.tolist() for a in idx), strict=True))
