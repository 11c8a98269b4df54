"""Build a layout by splitting each logical dimension into mixed-radix digits.

Hardware fragments are easiest to read per logical dimension: "row = g + 8*h" says
the row's low 3 bits go to lane bits 2..4 (stride 4 on ``laneid``) and its top bit
goes to register bit 1 (stride 2 on ``m``). :func:`digits_layout` takes, for each
logical dimension, its digits outermost first as ``(extent, stride, axis)`` and
concatenates them into the shard of a :class:`~tilelayout.TileLayout`. Because the
model splits the row-major flat index innermost last, the result evaluates element
``(x_0, .., x_{r-1})`` exactly as the per-dimension digits say.

>>> L = digits_layout([(2, 2, "m"), (8, 4, "laneid")], [(4, 1, "laneid"), (2, 1, "m")])
>>> str(L)
'S[(2,8,4,2):(2,4@laneid,1@laneid,1)]'
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from ..core.iter import Iter
from ..core.tile import TileLayout

Digit = tuple[int, int, str]


def digits_layout(
    *dims: Sequence[Digit],
    replica: Sequence[Digit] = (),
    offset: Mapping[str, int] | None = None,
) -> TileLayout:
    """Concatenate per-dimension digits (outermost first) into one shard.

    Extent-1 digits contribute nothing and are dropped, except that the first one on
    an axis no other digit uses is kept, so the axis (e.g. register ``m`` = 0 of a
    one-register fragment) still appears in every coordinate.

    >>> str(digits_layout([(4, 1, "m")], replica=[(2, 1, "pid")]))
    'S[4:1] + R[2:1@pid]'
    >>> str(digits_layout([(32, 1, "laneid")], [(1, 1, "m")]))
    'S[(32,1):(1@laneid,1)]'
    """
    flat = [d for dim in dims for d in dim]
    used = {a for (e, _, a) in flat if e != 1}
    shard = []
    for e, s, a in flat:
        if e != 1 or a not in used:
            shard.append(Iter(e, s, a))
            used.add(a)
    reps = [Iter(e, s, a) for (e, s, a) in replica if e != 1]
    return TileLayout(shard, reps, offset)


def dim_size(digits: Sequence[Digit]) -> int:
    """Number of values of one dimension: the product of its digit extents.

    >>> dim_size([(2, 2, "m"), (8, 4, "laneid")])
    16
    """
    return math.prod(e for e, _, _ in digits)
