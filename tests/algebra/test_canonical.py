"""canonicalize: same mapping, one value for equal rewrites, fused thread iters; TIRx's
replica rule by default (iters kept, only ordered), the normal form on request."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tilelayout as tl
from tests.strategies import AXES, brute_equivalent, tile_layouts


# -- canonicalize ----------------------------------------------------------------------
@given(tile_layouts())
def test_canonicalize_preserves_mapping(L):
    C = L.canonicalize()
    assert brute_equivalent(L, C)
    assert C.canonicalize() == C
    # TIRx: replica iters are kept as written, only put in order
    assert sorted(C.replica, key=str) == sorted(L.replica, key=str)
    assert list(C.replica) == sorted(C.replica, key=lambda i: (i.axis, -i.stride, i.extent))
    # a layout of size 1 keeps one 1:1 iter on its first axis (as TIRx does)
    assert all(it.extent > 1 for it in C.shard) or C.shard == (tl.Iter(1, 1, L.shard[0].axis),)
    assert all(v != 0 for v in C.offset.values())
    N = L.canonicalize(normalize_replicas=True)
    assert brute_equivalent(L, N)
    assert N.canonicalize(normalize_replicas=True) == N
    assert all(it.extent > 1 and it.stride > 0 for it in N.replica)
    assert N.shard == C.shard and all(v != 0 for v in N.offset.values())


@given(st.data())
def test_rewrites_canonicalize_to_same_value(data):
    """Split or extent-1 shard iters, zero offsets and replica order: the same canonical
    form; negative replica strides and extent-1 replicas too once replicas are normalized."""
    L = data.draw(tile_layouts())
    shard = []
    for it in L.shard:
        divs = [d for d in range(2, it.extent) if it.extent % d == 0]
        if divs and data.draw(st.booleans()):
            d = data.draw(st.sampled_from(divs))
            shard += [(it.extent // d, it.stride * d, it.axis), (d, it.stride, it.axis)]
        else:
            shard.append((it.extent, it.stride, it.axis))
        if data.draw(st.booleans()):
            shard.append((1, data.draw(st.integers(-5, 5)), data.draw(st.sampled_from(AXES))))
    replica = [(i.extent, i.stride, i.axis) for i in L.replica]
    offset = dict(L.offset)
    permuted = tl.TileLayout(shard, list(data.draw(st.permutations(replica))), offset)
    assert permuted.canonicalize() == L.canonicalize()
    for k, (e, s, a) in enumerate(replica):
        if data.draw(st.booleans()):
            replica[k] = (e, -s, a)
            offset[a] = offset.get(a, 0) + (e - 1) * s
    replica = list(data.draw(st.permutations(replica)))
    if data.draw(st.booleans()):
        replica.append((1, 3, "pid"))
    zero_axis = data.draw(st.sampled_from(AXES))
    offset.setdefault(zero_axis, 0)
    M = tl.TileLayout(shard, replica, offset)
    assert brute_equivalent(L, M)
    assert M.canonicalize(normalize_replicas=True) == L.canonicalize(normalize_replicas=True)


def test_default_keeps_replica_iters_as_tirx_does():
    L = tl.parse("S[4:1] + R[(2,1,3):(-1@laneid,5@warpid,0@laneid)] + 0@warpid + 3@laneid")
    assert L.canonicalize() == tl.parse(
        "S[4:1] + R[(3,2,1):(0@laneid,-1@laneid,5@warpid)] + 3@laneid")
    assert L.canonicalize(normalize_replicas=True) == tl.parse("S[4:1] + R[2:1@laneid] + 2@laneid")


@given(st.integers(2, 8), st.integers(2, 4), st.integers(0, 3))
def test_fuse_threads(lanes, warps, off):
    L = tl.TileLayout([(warps, 1, "warpid"), (lanes, 4, "laneid"), (2, 1, "m")],
                      offset={"laneid": off})
    F = L.canonicalize(fuse_threads=True)
    assert "laneid" not in F.axes and "warpid" not in F.axes
    for f in range(L.size()):
        c, d = L.base(f), F.base(f)
        assert d.get("tx", 0) == c["laneid"] + 32 * c["warpid"] and d["m"] == c["m"]
    # lane values that do not fit a warp are not fused (it would not be a bijection)
    bad = tl.parse("S[(2,40):(1@warpid,1@laneid)]").canonicalize(fuse_threads=True)
    assert set(bad.axes) == {"warpid", "laneid"}


@pytest.mark.parametrize(("tile", "dropped"), [("S[64:1]", True), ("S[8:8] + 7", True),
                                               ("S[65:1]", False), ("S[64:1] + -1", False)])
def test_canonicalize_drops_a_swizzle_that_changes_nothing(tile, dropped):
    T = tl.parse(tile)
    C = tl.ComposeLayout(tl.Swizzle(3, 3, 3), T)
    assert (C.canonicalize() == T.canonicalize()) is dropped
    assert brute_equivalent(C.canonicalize(), C)
