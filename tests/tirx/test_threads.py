"""Thread axes under a CUDA target: the fused layout puts every element on the same thread
(``tx = 32 * warpid + laneid``, ``tid_in_wg = 32 * wid_in_wg + laneid``), the split is its
inverse, and no target (ours or TVM's) leaves layouts alone."""

from __future__ import annotations

import itertools

import pytest

import tilelayout.tirx as T
from tilelayout import LayoutError, parse
from tilelayout.tirx.threads import current_target, fuse_by_scope, split_by_scope

#: how a fused axis counts the narrower ones (a warp is 32 threads, a warpgroup 4 warps)
WEIGHTS = {"tx": {"tx": 1, "laneid": 1, "warpid": 32, "wgid": 128, "tid_in_wg": 1, "wid_in_wg": 32},
           "tid_in_wg": {"tid_in_wg": 1, "laneid": 1, "wid_in_wg": 32}}


def _thread(coord, fused):
    return sum(v * WEIGHTS[fused].get(a, 0) for a, v in coord.items() if a in WEIGHTS[fused])


@pytest.mark.parametrize("text,fused", [
    ("S[(2,8,2,4):(2@warpid,4@laneid,1@warpid,1@laneid)]", "tx"),
    ("S[(2,2,8,2,2,4):(2@wgid,2@wid_in_wg,4@laneid,1@wgid,1@wid_in_wg,1@laneid)]", "tx"),
    ("S[(2,8,2,4,2):(2@wid_in_wg,4@laneid,1@wid_in_wg,1@laneid,1)] + 1@laneid", "tid_in_wg"),
    ("S[(4,32):(1@wid_in_wg,1@laneid)] + R[2:2@laneid]", "tid_in_wg"),
])
def test_fusion_keeps_every_element_on_its_thread(text, fused):
    L = parse(text)
    with T.target("cuda"):
        F = fuse_by_scope(L)
        C = T.wrap(L).canonicalize()
    assert {it.axis for it in F.shard if it.axis not in ("m",)} <= {fused}
    n = L.size()
    for flat in range(n):
        for a, b in itertools.zip_longest(L.apply(flat), F.apply(flat)):
            assert _thread(dict(a), fused) == _thread(dict(b), fused)
            assert a.get("m", 0) == b.get("m", 0)
    assert C == T.wrap(F).canonicalize() and fuse_by_scope(L) is L  # no target: unchanged


def test_split_inverts_fusion():
    tiled = parse("S[(2,8,2,4,2):(64@tx,4@tx,32@tx,1@tx,1)] + 33@tx")
    with T.target("cuda"):
        S = split_by_scope(tiled, "warp")
        assert fuse_by_scope(S).canonicalize() == tiled.canonicalize()
        assert dict(S.offset) == {"warpid": 1, "laneid": 1}
        with pytest.raises(LayoutError, match="cannot split"):
            split_by_scope(parse("S[8:1@laneid]"), "warp")
        with pytest.raises(LayoutError, match="straddles"):
            split_by_scope(parse("S[3:12@tx]"), "warp")


def test_targets():
    assert current_target() is None
    with T.target("cuda"):
        assert current_target() == "cuda"
    with pytest.raises(LayoutError, match="kind"), T.target(""):
        pass
