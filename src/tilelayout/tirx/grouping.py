"""TIRx's ``group_many``: one refinement of the shard iters that every shape groups.

``layout.group_many([shape_0, shape_1, ...])`` splits shard iters at the cumulative
products of every shape (the minimal common refinement), keeping a boundary that a
shape repeats (a size-1 dimension) as an extent-1 iter of its own, and returns the
refined layout with one separator list per shape (``seps[i]`` as :meth:`group` returns
it). Only splits, never reorders or canonicalizes. As in apache/tvm main
(``src/tirx/ir/layout/tile_tile_ops.cc``, ``GroupMany``); a boundary that does not
divide the next one is TIRx's ``InternalError`` (a ``RuntimeError``).

>>> from tilelayout import parse
>>> group_many(parse("S[30:1]"), ([6, 5], [2, 15]))
(parse('S[(2,3,5):(15,5,1)]'), ((0, 2, 3), (0, 1, 3)))
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

from ..core.errors import LayoutError, shown
from ..core.iter import Iter
from ..core.tile import TileLayout
from .errors import TirxInternalError, TirxTypeError, check_ints


def _boundaries(extents: Sequence[int]) -> list[int]:
    out, product = [1], 1
    for e in extents:
        product *= e
        out.append(product)
    return out


def group_many(layout: TileLayout, shapes: object) -> tuple[TileLayout, tuple[tuple[int, ...], ...]]:
    """The layout refined by every shape in ``shapes`` and each shape's separators.

    >>> from tilelayout import parse
    >>> group_many(parse("S[(6,1,5):(5,97,1)]"), ([6, 1, 5], [30]))[1]
    ((0, 1, 2, 3), (0, 3))
    """
    if not isinstance(shapes, list | tuple):
        raise TirxTypeError(f"group_many takes a list of shapes, got {shown(shapes)}")
    if not shapes:
        raise TirxInternalError("group_many requires at least one shape")
    if len(shapes) > 64:
        raise LayoutError(f"group_many takes at most 64 shapes, got {len(shapes)}")
    sequences = []
    for k, shape in enumerate(shapes):
        dims = check_ints(shape, f"group_many shape {k}", low=1)
        if not dims:
            raise TirxInternalError(f"group_many shape {k} must not be empty")
        sequences.append(_boundaries(dims))
    sequences.append(_boundaries([it.extent for it in layout.shard]))
    totals = {seq[-1] for seq in sequences}
    if len(totals) != 1:
        raise TirxInternalError(f"group_many needs equal total products: the shapes and the "
                                f"layout give {sorted(totals)}")
    values = sorted({b for seq in sequences for b in seq})
    multiplicity = {v: max(seq.count(v) for seq in sequences) for v in values}
    starts, common = {}, []
    for v in values:
        starts[v] = len(common)
        common += [v] * multiplicity[v]
    extents = []
    for prev, cur in itertools.pairwise(common):
        if cur % prev:
            raise TirxInternalError(f"group_many has incompatible cumulative boundaries: "
                                    f"{prev} does not divide {cur}")
        extents.append(cur // prev)

    def positions(seq: list[int], which: str) -> tuple[int, ...]:
        seen = dict.fromkeys(values, 0)
        out: list[int] = []
        for k, b in enumerate(seq):
            pos = starts[b] + seen[b]
            seen[b] += 1
            if k == 0:
                pos = starts[b]
            if k == len(seq) - 1:
                pos = starts[b] + multiplicity[b] - 1
            if k and pos <= out[-1]:
                raise TirxInternalError(f"group_many could not preserve repeated boundary {b} "
                                        f"for {which}")
            out.append(pos)
        return tuple(out)

    where = positions(sequences[-1], "the layout")
    shard = []
    for k, it in enumerate(layout.shard):
        start, end = where[k], where[k + 1]
        if start >= end:
            raise TirxInternalError(f"group_many cannot preserve layout iter {k} ({it})")
        for p in range(start, end):
            shard.append(Iter(extents[p], it.stride * (common[end] // common[p + 1]), it.axis))
    seps = tuple(positions(seq, f"shape {k}") for k, seq in enumerate(sequences[:-1]))
    assert math.prod(it.extent for it in shard) == math.prod(it.extent for it in layout.shard)
    return layout.replace(shard=shard), seps


__all__ = ["group_many"]
