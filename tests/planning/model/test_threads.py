"""register_file: the (warp, lane, slot) -> element table of a distributed layout."""

import numpy as np
import pytest

import tilelayout as tl
from tilelayout.core.errors import LayoutError
from tilelayout.planning.model.threads import RegisterFile, register_file


@pytest.mark.parametrize(("text", "shape"), [
    ("S[(2,8,4,2):(2,4@laneid,1@laneid,1)]", (16, 8)),
    ("S[(2,32):(1@warpid,1@laneid)]", (2, 32)),
    ("S[(4,2,8,8,4,2):(1@warpid,2,4@laneid,4,1@laneid,1)]", (64, 64)),
    ("S[(128,2):(1@tid_in_wg,1)]", (128, 2)),
])
def test_every_element_sits_where_the_layout_puts_it(text, shape):
    L = tl.parse(text)
    rf = register_file(L, shape)
    filled = np.argwhere(rf.table >= 0)
    assert sorted(rf.table[rf.table >= 0].tolist()) == list(range(L.size()))
    warp_of: dict[int, int] = {}
    for w, lane, s in filled:
        c = L.base(int(rf.table[w, lane, s]), shape)
        thread = sum(c.get(a, 0) * k for a, k in (("laneid", 1), ("tid_in_wg", 1),
                                                  ("warpid", 32), ("wid_in_wg", 32)))
        assert (thread % 32, c.get("m", 0)) == (lane, s)
        assert warp_of.setdefault(int(w), thread // 32) == thread // 32  # one warp per row
    assert len(set(warp_of.values())) == len(warp_of) == len(rf.warps)


def test_vector_groups_and_requests():
    rf = register_file(tl.parse("S[(32,8):(1@laneid,1)]"), (32, 8))
    groups = rf.groups(4)
    assert groups.shape == (64, 4) and (np.diff(groups, axis=1) == 1).all()
    first, ids = rf.requests(4)
    assert first.shape == (2, 32) and first[0, :3].tolist() == [0, 8, 16]
    assert ids.tolist() == [[0, 0], [0, 1]]
    assert register_file(tl.parse("S[(32,3):(1@laneid,1)]"), (32, 3)).groups(2) is None


@pytest.mark.parametrize("text", ["S[(2,32):(1@pid,1@laneid)]", "S[(2,32):(1@bx,1@laneid)]",
                                  "S[(2,32):(1@TLane,1@laneid)]",
                                  "S[(2,32):(1@laneid,1@tid_in_wg)]"])
def test_layouts_off_one_cta_s_threads_are_refused(text):
    with pytest.raises(LayoutError):
        register_file(tl.parse(text), (2, 32))


def test_a_register_file_is_a_frozen_value_with_read_only_views():
    rf = register_file(tl.parse("S[(2,8,4,2):(2,4@laneid,1@laneid,1)]"), (16, 8))
    assert set(vars(rf)) == {"table", "warps", "shape", "replicated"}  # no lazy caches
    two = register_file(tl.parse("S[(2,32):(1@warpid,1@laneid)]"), (2, 32))
    assert two.warps == ((("warpid", 0),), (("warpid", 1),))  # frozen data, not dicts
    assert hash(two.warps) and dict(two.warps[1]) == {"warpid": 1}
    assert not rf.table.flags.writeable
    with pytest.raises(ValueError):
        rf.table[0, 0, 0] = 5
    g, (first, ids) = rf.groups(2), rf.requests(2)
    assert g is rf.groups(2) and first is rf.requests(2)[0]
    assert not (g.flags.writeable or first.flags.writeable or ids.flags.writeable)
    grid = np.full((1, 32, 2), -1, dtype=np.int64)
    assert RegisterFile(grid, (), (), False).groups(1).shape == (0, 1) and grid.flags.writeable
