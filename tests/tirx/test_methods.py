"""The methods TIRx's two classes share, on our layouts: each returns the TIRx classes,
and the main-only ones (``storage``, ``broadcast``, ``apply_to_shape``,
``verify_well_formed``, ``is_swizzle``, ``is_trainium``) give main's answers."""

from __future__ import annotations

import pytest

import tilelayout as tl
import tilelayout.tirx as T
from tilelayout import LayoutError


def test_results_are_tirx_objects_with_axis_objects():
    L = T.TileLayout(T.S[(8, 4):(4 @ T.laneid, 1)] + 2 @ T.warpid)
    for out in (L.canonicalize(), L.storage(), L.broadcast(2), L.slice([8, 4], [(0, 4), (0, 4)]),
                L.tile(T.TileLayout(T.S[2]), [2, 1], [8, 4]), L.group([32])[0]):
        assert type(out) is T.TileLayout
        assert all(type(it.axis) is T.Axis for it in out.shard)
    assert all(type(a) is T.Axis for a in L.offset) and L.shard[0].axis.is_thread()
    assert dict(L.offset) == {T.warpid: 2} == {"warpid": 2}


def test_storage_drops_the_thread_axes():
    L = T.TileLayout(T.S[(8, 4, 2):(4 @ T.laneid, 1 @ T.laneid, 1)] + T.R[2:1 @ T.warpid] + 3 @ T.warpid)
    assert L.storage() == tl.parse("S[2:1]")
    assert tl.storage(L) == tl.parse("S[(8,4,2):(0,0,1)]")  # the native one keeps the count
    C = T.ComposeLayout(3, 3, 3, T.TileLayout(T.S[(8, 64):(64 @ T.m, 1 @ T.m)]))
    assert C.storage() == C and type(C.storage()) is T.ComposeLayout


def test_broadcast_apply_to_shape_and_queries():
    L = T.TileLayout(T.S[4, 8])
    assert L.broadcast(2, 1) == tl.parse("S[(4,2,8):(8,0,1)]")
    assert L.broadcast(3) == tl.parse("S[(4,8,3):(8,1,0)]")
    assert L.apply_to_shape([3, 5], [4, 8]) == [3, 5]
    assert T.TileLayout(T.S[(6, 4):(1, 6)]).apply_to_shape([1, 2], [4, 6]) == [2, 0]  # flattened: 8 = 2*4 + 0
    assert L.verify_well_formed() is True and not L.is_swizzle() and not L.is_trainium()
    assert T.ComposeLayout(0, 2, 3, T.TileLayout(T.S[32])).is_swizzle()
    assert T.ComposeLayout(0, 2, 3, T.TileLayout(T.S[4, 8])).is_swizzle()  # canonically S[32:1]
    assert not T.ComposeLayout(0, 2, 3, T.TileLayout(T.S[(4, 8):(16, 1)])).is_swizzle()
    assert T.TileLayout(T.S[(8, 8):(1 @ T.P, 1 @ T.F)]).is_trainium()


def test_compose_keeps_swizzle_inner_through_the_methods():
    C = T.ComposeLayout(2, 0, 3, T.TileLayout(T.S[8, 8]), swizzle_inner=False)
    for out in (C.canonicalize(), C.tile_to([16, 8], [8, 8]), C.storage(), C.unpack(2)):
        assert out.swizzle_inner is False, out
    assert T.ComposeLayout(2, 0, 3, T.TileLayout(T.S[8, 8])).swizzle_inner is True
    canon = C.canonicalize()  # TIRx keeps the identity swizzle over the canonical tile
    assert type(canon) is T.ComposeLayout and canon.tile_layout == tl.parse("S[64:1]")


@pytest.mark.parametrize("call,message", [
    (lambda: T.TileLayout(T.S[4, 8]).tile_to([6, 8], [4, 8]), "whole number"),
    (lambda: T.TileLayout(T.S[4, 8]).broadcast(0), ">= 1"),
    (lambda: T.TileLayout(T.S[4, 8]).pack(3), "cannot pack 3"),
    (lambda: T.TileLayout(T.S[4, 8]).group([5, 2]), "can not be grouped"),
    (lambda: T.TileLayout(T.S[(8, 4):(1 @ T.wgid, 1 @ T.laneid)]).verify_well_formed(), "chain"),
    (lambda: T.ComposeLayout(0, 3, 2, T.TileLayout(T.S[8])), "atom_len >= swizzle_len"),
    (lambda: T.ComposeLayout(T.SwizzleLayout(3, 3, 3), T.TileLayout(T.S[8]), swizzle_inner=True),
     "takes two arguments"),
])
def test_refusals(call, message):
    with pytest.raises(LayoutError, match=message):
        call()


def test_the_keywords_that_give_tirx_behaviour():
    L = T.TileLayout(T.S[2, 3])
    assert L.permute_dims([0, 0], check=False) == T.TileLayout.from_iters([L.shard[0], L.shard[0]])
    with pytest.raises(AssertionError, match="not a permutation"):
        L.permute_dims([0, 0])
    assert T.TileLayout(T.S[2, 2]).tile_to([5, 4], [2, 2], floor=True) == \
        T.TileLayout(T.S[2, 2]).tile_to([4, 4], [2, 2])
    small = T.mma_shared_layout("float16", T.SwizzleMode.SWIZZLE_128B_ATOM, [8, 96], floor=True)
    assert small.size() == 8 * 64  # one whole atom, as TIRx floors it
    assert T.TileLayout(T.S[8, 8]).apply(70) == {"m": 70}
    with pytest.raises(LayoutError, match="outside"):
        T.TileLayout(T.S[8, 8]).apply(70, strict=True)
