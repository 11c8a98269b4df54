"""routing: for every destination row the closest source holder of its element and the
level it is found at (register, thread, warp, CTA, device)."""

from __future__ import annotations

import numpy as np
import pytest

import tilelayout as tl
from tilelayout.planning.model.placement import LEVELS, place
from tilelayout.planning.model.routing import levels, route_between


def placed(src: str, dst: str, shape=None):
    return place(tl.parse(src), tl.parse(dst), shape)


@pytest.mark.parametrize("src,dst,level", [
    ("S[(32,4):(1@laneid,1)]", "S[(32,4):(1@laneid,1)] + 0", "none"),
    ("S[(32,4):(1@laneid,1)]", "S[(32,4):(1@laneid,-1)] + 3", "registers"),
    ("S[(32,4):(1@laneid,1)]", "S[(32,4):(-1@laneid,1)] + 31@laneid", "warp-shuffle"),
    ("S[(32,4):(1@laneid,1)]", "S[(32,4):(1@laneid,1@warpid)]", "shared-memory"),
])
def test_each_level_is_found(src, dst, level):
    ps, pd = placed(src, dst)
    lev, source = levels(ps, pd)
    moving = lev[lev > 0]
    assert LEVELS[int(lev.max())] == level
    assert moving.size == 0 or (moving == LEVELS.index(level)).all()
    assert (ps.element[source] == pd.element).all()  # every source holds the element


def test_the_closest_replica_is_chosen():
    # the source holds every element on both warps: each warp reads its own copy
    ps, pd = placed("S[(32,4):(1@laneid,1)] + R[2:1@warpid]",
                    "S[(32,4):(1@laneid,1)] + R[2:1@warpid]")
    lev, source = levels(ps, pd)
    assert (lev == 0).all()
    assert (ps.warp[source] == pd.warp).all()


def test_route_between_dedupes_and_numbers_warps_jointly():
    ps, pd = placed("S[(4,32,4):(1@warpid,1@laneid,1)]", "S[(4,32,4):(1,1@laneid,1@warpid)]")
    r = route_between(ps, pd, 16)
    assert (r.warps, r.bits, len(r.dst_rows)) == (4, 16, 512)
    assert np.bincount(r.level).tolist() == [128, 0, 0, 384]  # a quarter stays in place
    lev, source = levels(ps, pd)
    assert (r.level == lev[r.dst_rows]).all() and (r.source == source[r.dst_rows]).all()
    assert r.shuffle is None and r.staging is None and r.collective is None  # bare


def test_replicated_destinations_keep_one_row_per_holder_place():
    # two destination replicas in the same place are one row
    ps, pd = placed("S[(32,4):(1@laneid,1)]", "S[(32,4):(1@laneid,1)] + R[2:0]")
    assert pd.rows == 256 and len(route_between(ps, pd, 32).dst_rows) == 128
