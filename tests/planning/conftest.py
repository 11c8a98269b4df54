"""Helpers for the planning tests: the coordinates every destination must receive."""

from __future__ import annotations

import numpy as np


def expected(layout, shape) -> dict[tuple[int, ...], int]:
    """{dst coordinate tuple (layout.axes order): flat index}, straight from map_all."""
    shape = layout.check_shape(shape)
    maps = layout.map_all(shape)
    n = int(np.prod(shape))
    r = layout.replica_count
    cols = [np.asarray(maps[a]).reshape(n * r) for a in layout.axes]
    elems = np.repeat(np.arange(n), r)
    return {tuple(int(c[i]) for c in cols): int(elems[i]) for i in range(n * r)}
