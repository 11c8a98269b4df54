"""Run generated code: Python (scalar), Triton text as vectorized numpy, and expected
values from the library (map_all, elements_at)."""

from __future__ import annotations

import types

import numpy as np

import tilelayout as tl


def load_python(source: str, name: str = "layout_fn"):
    """The function defined by generated Python source."""
    namespace: dict = {}
    exec(compile(source, "<generated>", "exec"), namespace)  # noqa: S102 - our own output
    return namespace[name]


_TL = types.SimpleNamespace(where=np.where, int64=np.int64)


def load_triton_as_numpy(source: str, name: str = "layout_fn"):
    """The generated Triton function run on numpy arrays (``tl.where`` is ``np.where``):
    the same text, checked for values element-wise over whole arrays at once."""
    lines = [ln for ln in source.splitlines()
             if not ln.startswith(("import triton", "@triton.jit"))]
    namespace: dict = {"tl": _TL}
    exec(compile("\n".join(lines), "<generated-triton>", "exec"), namespace)  # noqa: S102
    return namespace[name]


def index_grids(layout, shape) -> tuple[list[np.ndarray], np.ndarray]:
    """Broadcastable index arrays ``i0..`` (shape ``(*shape, 1)``) and ``r`` (``(1.., R)``)."""
    shape = tuple(shape)
    grids = [g[..., None] for g in np.indices(shape, dtype=np.int64)] if shape else []
    reps = layout.replica_count
    r = np.arange(reps, dtype=np.int64).reshape((1,) * len(shape) + (reps,))
    return grids, r


def forward_values(fn, layout, shape) -> dict[str, np.ndarray]:
    """Call a vectorizable forward function on every element and replica at once."""
    grids, r = index_grids(layout, shape)
    args = grids + ([r] if layout.replica_count > 1 else [])
    out = fn(*args)
    full = tuple(shape) + (layout.replica_count,)
    return {a: np.broadcast_to(np.asarray(v, dtype=np.int64), full)
            for a, v in zip(layout.axes, out, strict=True)}


def image_samples(layout, shape, count: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Up to ``count`` (coordinate rows in axis order, flat element index) from map_all."""
    coords = layout.map_all(shape)
    n, reps = layout.size(), layout.replica_count
    rows = np.stack([coords[a].reshape(n * reps) for a in layout.axes], axis=1)
    flat = np.repeat(np.arange(n, dtype=np.int64), reps)
    if len(flat) > count:
        pick = np.random.default_rng(seed).choice(len(flat), count, replace=False)
        rows, flat = rows[pick], flat[pick]
    return rows, flat


def probe_expected(layout, shape, rows: np.ndarray) -> list[int]:
    """The flat index at each coordinate row by ``elements_at`` (-1 where none)."""
    out = []
    for row in rows:
        hits = tl.elements_at(layout, dict(zip(layout.axes, map(int, row), strict=True)), shape)
        assert len(hits) <= 1
        out.append(int(np.ravel_multi_index(hits[0], shape)) if hits else -1)
    return out


def near_misses(rows: np.ndarray, count: int, seed: int = 1) -> np.ndarray:
    """Coordinates one step off image coordinates on one axis (some hit, some miss)."""
    rng = np.random.default_rng(seed)
    if len(rows) == 0 or rows.shape[1] == 0:
        return rows[:0]
    pick = rows[rng.integers(0, len(rows), count)].copy()
    axis = rng.integers(0, rows.shape[1], count)
    pick[np.arange(count), axis] += rng.choice([-1, 1, 3], count)
    return pick
