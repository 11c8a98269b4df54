"""A text grid of owners, one cell per logical element (like CuTe's ``print_layout``).

Rows and columns fold the logical shape the way the explorer and the SVG pictures do
(:func:`fold_shape`): the last dimension (and every second one before it) goes across,
the others go down; a long 1-D shape wraps into rows of 64 or 32. Each cell lists the
element's coordinate values in the order of the header's ``cell =`` line; replicas
are separated by ``|``.

>>> import tilelayout as tl
>>> print(layout_table(tl.parse("S[(2,4):(4,1)]")))
S[(2,4):(4,1)] over (2, 4); cell = m
     0   1   2   3
   +---+---+---+---+
 0 | 0 | 1 | 2 | 3 |
   +---+---+---+---+
 1 | 4 | 5 | 6 | 7 |
   +---+---+---+---+
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..core import budget
from ..core.compose import Layout
from ..core.frozen import freeze_fields
from ..core.shape import format_shape


@dataclass(frozen=True)
class Fold:
    """How a logical shape is drawn in 2-D: ``row[e]``, ``col[e]`` for every flat element."""

    nrows: int
    ncols: int
    row: np.ndarray
    col: np.ndarray
    row_label: tuple[str, ...]
    col_label: tuple[str, ...]
    #: the folded dims (a long 1-D shape wrapped: (rows, width)), which of them go down
    #: and across (outer first), and the wrap width (0: not wrapped)
    dims: tuple[int, ...] = ()
    row_dims: tuple[int, ...] = ()
    col_dims: tuple[int, ...] = ()
    wrap: int = 0

    def __post_init__(self) -> None:
        freeze_fields(self)  # its arrays are read-only views


def fold_shape(shape: Sequence[int]) -> Fold:
    """Rows and columns of each element of ``shape`` in the 2-D logical picture.

    >>> f = fold_shape((2, 3, 4))   # dims 2 across, 1 down, 0 across
    >>> (f.nrows, f.ncols, f.row_dims, f.col_dims)
    (3, 8, (1,), (0, 2))
    >>> fold_shape((256,)).wrap   # a long 1-D shape wraps into rows of 64
    64
    """
    dims = list(shape)
    n = math.prod(dims)
    virtual = False
    if len(dims) == 1 and n > 64 and (n % 64 == 0 or n % 32 == 0):
        w = 64 if n % 64 == 0 else 32
        dims, virtual = [n // w, w], True
    k = len(dims)
    col_dims = [d for d in range(k) if (k - 1 - d) % 2 == 0]
    row_dims = [d for d in range(k) if (k - 1 - d) % 2 == 1]
    idx = np.unravel_index(np.arange(n), dims) if k else ()
    row = np.zeros(n, dtype=np.int64)
    col = np.zeros(n, dtype=np.int64)
    for d in row_dims:
        row = row * dims[d] + idx[d]
    for d in col_dims:
        col = col * dims[d] + idx[d]
    nrows = math.prod(dims[d] for d in row_dims)
    ncols = math.prod(dims[d] for d in col_dims)
    last_r = dims[row_dims[-1]] if row_dims else 1
    last_c = dims[col_dims[-1]] if col_dims else 1
    rl = tuple(str(r * dims[1]) if virtual else str(r % last_r) for r in range(nrows))
    cl = tuple(str(c % last_c) for c in range(ncols))
    return Fold(nrows, ncols, row, col, rl, cl, tuple(dims), tuple(row_dims), tuple(col_dims),
                dims[1] if virtual else 0)


def layout_table(layout: Layout, shape: Sequence[int] | None = None,
                 axes: Sequence[str] | None = None) -> str:
    """The owners of every logical element as a bordered text grid.

    ``axes`` picks which coordinate values a cell shows (default: every axis of the
    layout, in its order). A swizzled layout shows swizzled addresses.

    >>> import tilelayout as tl
    >>> print(layout_table(tl.parse("S[(2,2):(1@laneid,1)] + R[2:4@laneid]")).splitlines()[3].strip())
    0 | 0,0|4,0 | 0,1|4,1 |
    """
    dims = layout.check_shape(shape)
    show = list(layout.axes if axes is None else axes)
    budget.check("a text table formats", layout.size() * layout.replica_count, "cells")
    arrays = layout.map_all(dims)
    n = math.prod(dims)
    r = layout.replica_count
    cols = [arrays[a].reshape(n, r) if a in arrays else np.zeros((n, r), np.int64) for a in show]
    fold = fold_shape(dims)
    cells = [[""] * fold.ncols for _ in range(fold.nrows)]
    for e in range(n):
        seen: dict[str, None] = {}
        for k in range(r):
            seen.setdefault(",".join(str(int(c[e, k])) for c in cols), None)
        cells[fold.row[e]][fold.col[e]] = "|".join(seen)
    width = max([len(c) for row in cells for c in row] + [len(x) for x in fold.col_label])
    lw = max(len(x) for x in fold.row_label)
    head = f"{layout} over {format_shape(dims)}; cell = {','.join(show) or '(no axes)'}"
    rule = " " * (lw + 2) + "+" + "+".join("-" * (width + 2) for _ in range(fold.ncols)) + "+"
    lines = [head, " " * (lw + 4) + "   ".join(f"{x:>{width}}" for x in fold.col_label), rule]
    for i, row in enumerate(cells):
        lines.append(f"{fold.row_label[i]:>{lw + 1}} | " + " | ".join(f"{c:>{width}}" for c in row) + " |")
        lines.append(rule)
    return "\n".join(lines)
