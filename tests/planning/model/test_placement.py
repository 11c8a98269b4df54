"""place: every (element, replica) of both layouts as a holder row, level by level."""

import numpy as np
import pytest

import tilelayout as tl
from tilelayout.planning.model.placement import PlanError, dedupe, place


def test_rows_name_each_element_s_lane_warp_and_slot():
    src_l = tl.parse("S[(2,2,32):(1@warpid,1,1@laneid)]")
    dst_l = tl.parse("S[(2,2,32):(1,1@warpid,1@laneid)]")
    src, dst = place(src_l, dst_l, (4, 32))
    assert (src.role, dst.role, src.rows, dst.rows) == ("registers", "registers", 128, 128)
    for p, L in ((src, src_l), (dst, dst_l)):
        for r in range(p.rows):
            c = L.base(int(p.element[r]), (4, 32))
            assert (p.lane[r], p.warp[r], p.slot[r]) == (c["laneid"], c["warpid"], c["m"])
    assert set(src.device.tolist()) == set(src.cta.tolist()) == {0}


def test_replicas_are_rows_and_dedupe_keeps_one_per_coordinate():
    L = tl.parse("S[(32,2):(1@laneid,1)] + R[(2,2):(1@warpid,0@warpid)]")
    src, _ = place(L, tl.parse("S[(32,2):(1@laneid,1)]"), None)
    assert src.rows == 64 * 4
    kept = dedupe(src)
    assert len(kept) == 64 * 2  # the zero-stride replica holds the same coordinate twice
    assert len(np.unique(src.key(0)[kept], axis=0)) == len(kept)


def test_a_shared_tile_side_and_devices():
    src, dst = place(tl.parse("S[(32,4):(1@laneid,1)]"), tl.parse("S[(32,4):(4,1)]"), None)
    assert (src.role, dst.role) == ("registers", "shared")
    with tl.axes("dp"):
        a, b = place(tl.parse("S[(2,4):(1@dp,1)]"), tl.parse("S[(2,2,2):(1,1@dp,2)]"), None)
    assert sorted(set(a.device.tolist())) == sorted(set(b.device.tolist())) == [0, 1]


@pytest.mark.parametrize(("src", "dst"), [
    ("S[(32,4):(4,1)]", "S[(32,4):(1,32)]"),                  # both shared memory
    ("S[(32,4):(1@laneid,1)]", "S[(32,2):(1@laneid,1)]"),    # different tiles
    ("S[(32,4):(1@laneid,1@TCol)]", "S[(32,4):(1@laneid,1)]"),  # tensor memory
])
def test_refusals(src, dst):
    with pytest.raises(PlanError):
        place(tl.parse(src), tl.parse(dst), None)
