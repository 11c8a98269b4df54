"""Lower bounds on a staging through shared memory, before any layout is searched: the
fewest instructions and cost units any shared-memory layout could give two register
files (:mod:`..cost_model` units), so that a search can stop where nothing can win.

>>> import tilelayout as tl
>>> from tilelayout.planning.model.placement import place
>>> from tilelayout.planning.model.routing import route_between
>>> from tilelayout.planning.outcome import store_rows
>>> route = route_between(*place(tl.parse("S[(32,32):(1@laneid,1)]"),
...                              tl.parse("S[(32,32):(1,1@laneid)]"), None), 32)
>>> vector_bound(route.src, store_rows(route.src), route.dst, route.dst_rows, route.gwarp,
...              route.warps, 32)      # 8 + 8 16-byte instructions, a __syncwarp, a round trip
19.0
"""

from __future__ import annotations

import numpy as np

from ...cost_model import ROUND_TRIP, barrier_cost
from ...model.placement import Placement
from ...model.threads import slot_vectors, wide_instructions
from .access import widths
from .staging import slot_grid


def per_warp(grid: np.ndarray, k: int) -> int:
    """Requests the busiest warp issues moving its slots in ``k``-slot vectors."""
    live = (slot_vectors(grid, k) >= 0).any(axis=(1, 3))
    return int(live.sum(axis=1).max(initial=0))


def groups(grid: np.ndarray, k: int) -> np.ndarray | None:
    """Per element, its ``k``-slot vector group (``-1`` if absent), or None when some lane
    fills a group only partly (no ``k``-wide vectors on that side)."""
    warps, lanes, _ = grid.shape
    g = slot_vectors(grid, k).reshape(warps * lanes, -1, k)
    present = g >= 0
    if not (present.all(axis=2) | ~present.any(axis=2)).all():
        return None
    gid = np.full(int(grid.max(initial=-1)) + 1, -1, dtype=np.int64)
    ids = np.broadcast_to(np.arange(g.shape[0] * g.shape[1]).reshape(g.shape[:2])[..., None],
                          g.shape)
    gid[g[present]] = ids[present]
    return gid


def vector_bound(ps: Placement, src_rows: np.ndarray, pd: Placement, rows: np.ndarray,
                 gwarp: tuple[np.ndarray, np.ndarray], warps: int, bits: int,
                 warp_local: bool = True) -> float:
    """A lower bound on the staging cost units over every shared-memory layout: the
    fewest stores + loads per warp with vectors both register files allow and that can
    both be contiguous (one side's vectors nest inside the other's) -- or, when fewer,
    16 bytes per lane per instruction (packed registers, ldmatrix / stmatrix) -- + a
    barrier + a round trip."""
    grids = (slot_grid(ps, src_rows, gwarp[0], warps), slot_grid(pd, rows, gwarp[1], warps))
    best = None
    sides = [[(k, groups(g, k)) for k in widths(bits // 8)] for g in grids]
    for ks, gs in sides[0]:
        for kd, gd in sides[1]:
            if gs is None or gd is None:
                continue
            fine, coarse = (gs, gd) if ks <= kd else (gd, gs)
            # every fine group inside one coarse group
            order = np.argsort(fine, kind="stable")
            f, c = fine[order], coarse[order]
            if not (c[1:][f[1:] == f[:-1]] == c[:-1][f[1:] == f[:-1]]).all():
                continue
            n = per_warp(grids[0], ks) + per_warp(grids[1], kd)
            best = n if best is None else min(best, n)
    # packed registers and ldmatrix / stmatrix move up to 16 bytes per lane whatever the
    # slot order: no staging issues fewer instructions than that either
    wide = sum(int(wide_instructions(g, bits).max(initial=0)) for g in grids)
    return min(best if best is not None else wide, wide) + barrier_cost(warp_local) + ROUND_TRIP


__all__ = ["groups", "per_warp", "vector_bound"]
