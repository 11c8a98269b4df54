"""The staging lower bound never exceeds what the chosen staging costs (so a search that
stops at it loses nothing), and is reached by the transposes that reach it."""

from __future__ import annotations

import pytest

import tilelayout as tl
from tilelayout.planning.cost_model import staging_units
from tilelayout.planning.mechanisms.staging.bounds import groups, per_warp, vector_bound
from tilelayout.planning.model.placement import place
from tilelayout.planning.model.routing import route_between
from tilelayout.planning.outcome import store_rows, try_staging
from tilelayout.planning.problem.targeting import resolve_target


@pytest.mark.parametrize("src,dst,shape,dtype", [
    ("S[(32,32):(1@laneid,1)]", "S[(32,32):(1,1@laneid)]", (32, 32), "float32"),
    ("S[(32,32):(1@laneid,1)]", "S[(32,32):(1,1@laneid)]", (32, 32), "float16"),
    ("S[(16,2,4):(2@laneid,1@laneid,1)]", "S[(16,2,2,2):(1@laneid,2,16@laneid,1)]",
     (16, 2, 4), "float32"),
])
def test_the_bound_is_below_the_staging(src, dst, shape, dtype):
    route = route_between(*place(tl.parse(src), tl.parse(dst), shape),
                          8 * {"float32": 4, "float16": 2}[dtype])
    bound = vector_bound(route.src, store_rows(route.src), route.dst, route.dst_rows,
                         route.gwarp, route.warps, route.bits)
    staging, _ = try_staging(route, dtype, resolve_target("sm_90a"))
    assert bound <= staging_units(staging, True, route.warps)


def test_vectors_and_groups():
    import numpy as np
    grid = np.arange(64).reshape(1, 32, 2)
    assert per_warp(grid, 2) == 1 and per_warp(grid, 1) == 2
    g = groups(grid, 2)
    assert g is not None and g[0] == g[1] != g[2]
    grid[0, 0, 1] = -1
    assert groups(grid, 2) is None  # lane 0 fills its pair only partly
