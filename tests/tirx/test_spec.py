"""``tilelayout.tirx``'s own behaviour, without TVM installed: the spelling, the objects
being ours, the refusals, and values."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tilelayout as tl
import tilelayout.tirx as T
from tests.strategies import layouts
from tilelayout import LayoutError


def test_spec_spellings_build_the_same_layout():
    want = tl.parse("S[(8,4):(4@laneid,1)] + R[2:4@warpid] + 5@warpid + 3")
    laneid, warpid = T.laneid, T.warpid
    for spec in (T.S[(8, 4):(4 @ laneid, 1)] + T.R[2:4 @ warpid] + 5 @ warpid + 3,
                 T.R[2:4 @ warpid] + T.S[(8, 4):((4, "laneid"), 1)] + (5 @ warpid + 3),
                 3 + T.S[[8, 4]:[4 @ T.Axis.laneid, 1]] + T.R[2:((4, warpid),)] + 5 @ warpid):
        assert T.TileLayout(spec) == want
    assert T.TileLayout(T.S[8, 4]) == tl.parse("S[(8,4):(4,1)]")
    assert T.TileLayout(T.S[8:"laneid"]) == tl.parse("S[8:1@laneid]")
    assert T.TileLayout(T.S[4] + 1 @ laneid + 2 @ laneid) == tl.parse("S[4:1] + 3@laneid")
    assert T.TileLayout("S[4:2]") == T.TileLayout.from_iters([T.Iter(4, 2)])


@pytest.mark.parametrize("build,message", [
    (lambda: T.S[4] + T.S[2], "one S"),
    (lambda: T.R[4:1] + T.S[2] + T.R[2:1], "one R"),
    (lambda: T.S[(4, 2):(1,)], "2 extents but 1 strides"),
    (lambda: T.S[4:1:2], "one colon"),
    (lambda: T.S[4] + 1.5, "offset"),
    (lambda: T.Axis.get("lane"), "unknown axis 'lane'"),
    (lambda: T.TileLayout(42), "S\\[...\\] \\+ R\\[...\\] \\+ offset"),
    (lambda: T.TileLayout("ComposeLayout(Swizzle(3,3,3), S[(8,64):(64,1)])"), "ComposeLayout"),
    (lambda: T.ComposeLayout(-1, 3, 3, T.TileLayout(T.S[8])), "nonnegative per_element"),
    (lambda: T.ComposeLayout(0, 3, 2, T.TileLayout(T.S[8])), "atom_len >= swizzle_len"),
    (lambda: T.ComposeLayout(0, 3, 3, "S[8]"), "TileLayout"),
    (lambda: T.TileLayout(T.S[4, 8]).apply(32, strict=True), "out of range|outside"),
    (lambda: T.TileLayout(T.S[4, 8]).apply(1, 9, shape=[4, 8], strict=True), "outside"),
    (lambda: T.TileLayout(T.S[4, 8]).apply(1.5), "integer"),
    (lambda: T.TileLayout(T.S[4, 8]).apply(1, 2, 3), "3 indices for a layout of 2"),
    (lambda: T.TileLayout(T.S[4, 8]).apply(1, shape=[4, 8]), "the sizes must be equal"),
    (lambda: T.TileLayout(T.S[4, 8]).permute_dims([0, 0]), "not a permutation"),
    (lambda: T.TileLayout(T.S[(4, 4):(1 @ T.laneid, 1 @ T.tid_in_wg)]).canonicalize(),
     "conflicting scopes"),
    (lambda: T.TileLayout(T.S[(4, 4):(1 @ T.tid_in_wg, 1 @ T.warpid)]).get_scope(),
     "one chain"),
    (lambda: T.TileLayout(T.S[(4, 4):(1 @ T.laneid, 1 @ T.pid)]).get_scope(), "device axis"),
    (lambda: T.mma_shared_layout("float16", 3, [8, 24]), "not whole SWIZZLE_128B_ATOM atoms"),
    (lambda: T.mma_atom_shape("float16", 0), "SWIZZLE_NONE has no swizzle atom"),
    (lambda: T.mma_atom_layout("float16", 7), "0..3"),
    (lambda: T.mma_atom_layout("complex", 3), "unknown dtype"),
    (lambda: T.tmem_datapath_layout("F", 128, 8), "expects rows=64"),
    (lambda: T.tmem_mma_operand_layout("A", (64, 16), "float16", M=64, cta_group=1, sparse=True),
     "sparse"),
])
def test_refusals_are_layout_errors_saying_why(build, message):
    with pytest.raises(LayoutError, match=message):
        build()


def test_objects_are_ours_and_keep_their_class():
    L = T.TileLayout(T.S[(8, 4):(4 @ T.laneid, 1 @ T.laneid)] + 1 @ T.warpid)
    assert isinstance(L, tl.TileLayout) and hash(L) == hash(tl.parse(str(L)))
    assert tl.TileLayout.apply(L, 5) == ({"laneid": 5, "warpid": 1},)  # the native method
    assert tl.equivalent(L, tl.parse("S[32:1@laneid] + 1@warpid"))
    for out in (L.canonicalize(), L.unpack(2), L.tile_to([16, 4], [8, 4]), L.group([32])[0]):
        assert type(out) is T.TileLayout
    C = T.ComposeLayout(3, 3, 3, T.TileLayout(T.S[8, 64]))
    assert isinstance(C, tl.ComposeLayout) and type(C.unpack(2)) is T.ComposeLayout
    assert (C.per_element, C.swizzle_len, C.atom_len, C.swizzle_inner) == (3, 3, 3, True)
    assert C.tile_layout == tl.parse("S[(8,64):(64,1)]")
    assert C.tile(T.TileLayout(T.S[2]), [2, 1], [8, 64]) == tl.parse(
        "ComposeLayout(Swizzle(3,3,3), S[1024:1])")
    assert T.ComposeLayout(0, 2, 3, T.TileLayout(T.S[8, 8]), swizzle_inner=False).swizzle_inner \
        is False
    for obj in (L, C):
        back = pickle.loads(pickle.dumps(obj))
        assert back == obj and type(back) is type(obj)


def test_values():
    L = T.TileLayout(T.S[(8, 2, 4, 2):(4 @ T.laneid, 1 @ T.warpid, 1 @ T.laneid, 1)]
                     + T.R[2:4 @ T.warpid] + 5 @ T.warpid)
    assert [L.apply(i, j, shape=[8, 16])["warpid"] for i, j in ((0, 0), (0, 8))] == [5, 6]
    assert (L.size(), L.size("laneid"), L.span(), L.span("warpid")) == (128, 32, 2, 11)
    assert L.get_scope() == ("thread", "cta") and not L.is_trivial() and not L.is_contiguous()
    M = T.TileLayout(T.S[(2, 4):(3 @ T.TLane, 1)] + T.R[2:10 @ T.TLane])
    assert (M.span(), M.span("TLane"), M.span("m")) == (17, 14, 4)  # TIRx's memory-axis sum
    assert T.TileLayout(T.S[4, 8] + 3).is_contiguous() and not T.TileLayout(T.S[4, 8] + 3).is_trivial()
    assert T.TileLayout(T.S[8:1 @ T.TLane]).is_trivial()
    assert not T.TileLayout(T.S[8:1 @ T.laneid]).is_trivial()
    G, seps = T.TileLayout(T.S[2, 3, 4]).group([6, 4])
    assert seps == (0, 2, 3) and G.permute_by_groups(seps, [1, 0]).apply(0, 1, 0) == {"m": 12}
    assert T.Axis.laneid.get_scope() == "warp" and T.Axis.TCol.is_memory()
    assert T.mma_atom_shape("float16", T.SwizzleMode.SWIZZLE_32B_ATOM) == [8, 16]
    assert str(T.tmem_mma_operand_layout("A", (64, 16), "float16", M=128, cta_group=2)) == \
        "S[(64,16):(1@TLane,1@TCol)] + R[2:64@TLane]"


def test_compose_layout_takes_the_kernels_two_argument_form():
    tile = T.TileLayout(T.S[8, 64])
    for inner in (True, False):
        five = T.ComposeLayout(3, 3, 3, tile, swizzle_inner=inner)
        two = T.ComposeLayout(T.SwizzleLayout(3, 3, 3, swizzle_inner=inner), tile)
        assert five == two and two.swizzle_inner is inner
        assert all(five.apply(i) == two.apply(i) for i in range(512))
    with pytest.raises(LayoutError, match="takes two arguments"):
        T.ComposeLayout(T.SwizzleLayout(3, 3, 3), tile, 3)
    with pytest.raises(LayoutError, match="nonnegative per_element and swizzle_len"):
        T.SwizzleLayout(3, -1, 3)


@given(layout=layouts(), data=st.data())
@settings(max_examples=60, deadline=None)
def test_apply_is_the_base_in_every_form(layout, data):
    """On random layouts (swizzled ones too): the three forms of ``apply`` agree and give
    our ``base`` on TIRx's axes (every shard and offset axis; the shaped form regroups, so
    an axis met only in extent-1 iters may drop out, its value 0 either way)."""
    L = T.wrap(layout)
    flat = data.draw(st.integers(0, L.size() - 1))
    comps, rest = [], flat
    for it in reversed(L.shard):
        rest, c = divmod(rest, it.extent)
        comps.insert(0, c)
    tile = L.tile_layout if isinstance(L, tl.ComposeLayout) else L
    named = {it.axis for it in tile.shard} | set(tile.offset)
    point = layout.base(flat)
    want = {a: point.get(a, 0) for a in named}
    assert L.apply(flat) == L.apply(*comps) == L.apply(flat, strict=True) == want
    shaped = L.apply(flat, shape=[L.size()])
    assert shaped.keys() <= want.keys() and all(v == want[a] for a, v in shaped.items())
    assert all(v == 0 for a, v in want.items() if a not in shaped)
