"""Step-by-step scalar evaluation: ``base`` and ``apply`` of one layout over one shape,
computed from the layout's iters on exact Python ints, without generating or compiling
code.

A compiled plan (:mod:`tilelayout.eval.compiled`) answers its first call this way and
compiles its function on the second: compiling costs about a hundred times one call, so a
layout evaluated once (a preset's documented example, an explorer click on a new layout)
never pays it. The answers are the compiled functions' own: same coordinates, same axis
order, same replica order and de-duplication, same swizzle on ``m``, same errors
(``tests/eval/test_stepwise.py`` compares them).

>>> import tilelayout as tl
>>> L = tl.parse("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid")
>>> base, apply = evaluators(L, (8, 16))
>>> base((0, 8)), apply((0, 8))
({laneid: 0, warpid: 6, m: 0}, ({laneid: 0, warpid: 6, m: 0}, {laneid: 0, warpid: 10, m: 0}))
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from ..core import budget
from ..core.compose import ComposeLayout, Layout, tile_of
from ..core.coord import Coord, make_coord
from ..core.shape import Shape, flat_index


def replica_deltas(layout: Layout) -> list[tuple[int, ...]]:
    """What each replica combination adds per axis (in the order of the layout's tile
    axes): stride-0 replica iters skipped, duplicates removed, first-occurrence order kept
    (``apply``'s order). The caller has counted them (against the ``replicas`` limit).

    >>> import tilelayout as tl
    >>> replica_deltas(tl.parse("S[4:1] + R[(2,2,3):(1@pid,0@pid,2@pid)]"))
    [(0, 0), (0, 2), (0, 4), (0, 1), (0, 3), (0, 5)]
    """
    tile = tile_of(layout)
    pos = {a: k for k, a in enumerate(tile.axes)}
    moving = [it for it in tile.replica if it.stride != 0]
    out: dict[tuple[int, ...], None] = {}
    for n, combo in enumerate(itertools.product(*(range(it.extent) for it in moving))):
        if not n & 0xFFF:
            budget.checkpoint()
        d = [0] * len(tile.axes)
        for it, r in zip(moving, combo, strict=True):
            d[pos[it.axis]] += r * it.stride
        out.setdefault(tuple(d), None)
    return list(out)


class _Walk:
    """What a step-by-step call reads of a layout over a checked shape: the shard iters
    (innermost first, as ``(extent, axis position, stride)``), the offset per axis, the
    swizzle on ``m`` (the layout's own, applied to Python ints), the shape and its size."""

    __slots__ = ("layout", "axes", "shard", "start", "swizzle", "m_pos", "shape", "size")

    def __init__(self, layout: Layout, shape: Shape) -> None:
        tile = tile_of(layout)
        self.layout, self.shape = layout, shape
        self.axes = axes = tile.axes
        pos = {a: k for k, a in enumerate(axes)}
        self.shard = [(it.extent, pos[it.axis], it.stride) for it in reversed(tile.shard)]
        offset = tile.offset
        self.start = [offset.get(a, 0) for a in axes]
        sw = layout.swizzle if isinstance(layout, ComposeLayout) else None
        self.swizzle = sw = None if sw is None or sw.is_identity else sw.apply
        self.m_pos = axes.index("m") if sw is not None else -1
        size = 1
        for x in shape:
            size *= x
        self.size = size

    def values(self, index: Any) -> list[int]:
        """The axes' values at ``index`` (checked: converted or refused), unswizzled."""
        shape = self.shape
        if type(index) is int and 0 <= index < self.size:
            flat = index
        elif (type(index) is tuple and len(index) == len(shape)
              and all(type(x) is int for x in index)):  # in range: flat_index checks it
            flat = 0
            for x, s in zip(index, shape, strict=True):
                if not 0 <= x < s:
                    flat = flat_index(index, shape)  # refuses it
                    break
                flat = flat * s + x
        else:
            flat = flat_index(index, shape)  # converts or refuses it
        v = list(self.start)
        for extent, p, stride in self.shard:
            flat, c = divmod(flat, extent)
            v[p] += c * stride
        return v

    def coord(self, v: list[int]) -> Coord:
        """The coordinate of the values ``v`` (swizzled on ``m``)."""
        m_pos = self.m_pos
        if m_pos >= 0:
            v[m_pos] = self.swizzle(v[m_pos])
        return make_coord(tuple(zip(self.axes, v, strict=True)))

    def base(self, index: Any) -> Coord:
        """``base`` at ``index``."""
        return self.coord(self.values(index))

    def apply(self, index: Any) -> tuple[Coord, ...]:
        """``apply`` at ``index`` (over more than one combination, after checking the
        ``replicas`` limit)."""
        layout = self.layout
        cost = budget.replica_cost(tile_of(layout))
        if cost > 1:
            budget.check("apply enumerates", cost, "replicas")
        v = self.values(index)
        return tuple(self.coord([a + b for a, b in zip(v, d, strict=True)])
                     for d in replica_deltas(layout))


def first_base(layout: Layout, shape: Shape, index: Any) -> Coord:
    """``base`` of ``layout`` over the checked ``shape`` at ``index``, step by step: a
    plan's first call (nothing kept).

    >>> import tilelayout as tl
    >>> first_base(tl.parse("S[(8,2):(1@laneid,1)] + 3@warpid"), (16,), 5)
    {laneid: 2, m: 1, warpid: 3}
    """
    return _Walk(layout, shape).base(index)


def first_apply(layout: Layout, shape: Shape, index: Any) -> tuple[Coord, ...]:
    """``apply`` of ``layout`` over the checked ``shape`` at ``index``, step by step.

    >>> import tilelayout as tl
    >>> first_apply(tl.parse("S[4:1] + R[2:1@pid]"), (4,), 3)
    ({m: 3, pid: 0}, {m: 3, pid: 1})
    """
    return _Walk(layout, shape).apply(index)


def evaluators(layout: Layout, shape: Shape
               ) -> tuple[Callable[[Any], Coord], Callable[[Any], tuple[Coord, ...]]]:
    """``(base, apply)`` of ``layout`` over the checked ``shape``, evaluated step by step.
    ``apply`` lists the replica combinations on each call (:func:`replica_deltas`; over
    more than one, after checking the ``replicas`` limit): it keeps nothing.

    >>> import tilelayout as tl
    >>> L = tl.ComposeLayout(tl.Swizzle(0, 1, 1), tl.parse("S[(2,2):(2,1)]"))
    >>> [evaluators(L, (2, 2))[0](i)["m"] for i in range(4)]
    [0, 1, 3, 2]
    """
    walk = _Walk(layout, shape)
    return walk.base, walk.apply
