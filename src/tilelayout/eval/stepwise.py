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

from ..core import budget, f2
from ..core.compose import Layout, tile_of
from ..core.coord import Coord, make_coord
from ..core.shape import Shape, flat_index
from .expressions import xor_images


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
    tile = tile_of(layout)
    axes = tile.axes
    pos = {a: k for k, a in enumerate(axes)}
    shard = [(it.extent, pos[it.axis], it.stride) for it in reversed(tile.shard)]
    start = [tile.offset.get(a, 0) for a in axes]
    images = xor_images(layout) or ()
    m_pos = axes.index("m") if images else -1
    low = (1 << len(images)) - 1
    cost = budget.replica_cost(tile)

    dims = len(shape)
    size = 1
    for s in shape:
        size *= s

    def values(index: Any) -> list[int]:
        if type(index) is int and 0 <= index < size:
            flat = index
        elif (type(index) is tuple and len(index) == dims
              and all(type(x) is int for x in index)):  # in range: flat_index checks it
            flat = 0
            for x, s in zip(index, shape, strict=True):
                if not 0 <= x < s:
                    flat = flat_index(index, shape)  # refuses it
                    break
                flat = flat * s + x
        else:
            flat = flat_index(index, shape)  # converts or refuses it
        v = list(start)
        for extent, p, stride in shard:
            flat, c = divmod(flat, extent)
            v[p] += c * stride
        return v

    def coord(v: list[int]) -> Coord:
        if m_pos >= 0:  # the swizzle maps the low bits of m, higher bits unchanged
            x = v[m_pos]
            v[m_pos] = x ^ (x & low) ^ f2.apply(images, x & low)
        return make_coord(tuple(zip(axes, v, strict=True)))

    def base(index: Any) -> Coord:
        return coord(values(index))

    def apply(index: Any) -> tuple[Coord, ...]:
        if cost > 1:
            budget.check("apply enumerates", cost, "replicas")
        v = values(index)
        return tuple(coord([a + b for a, b in zip(v, d, strict=True)])
                     for d in replica_deltas(layout))

    return base, apply
