"""The model objects: values, equality, hashing, axes registry, builder, swizzle table."""

import pytest

import tilelayout as tl


def test_layout_structure_and_contract_names():
    L = tl.parse("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid")
    assert [(i.extent, i.stride, i.axis) for i in L.shard] == [
        (8, 4, "laneid"), (2, 1, "warpid"), (4, 1, "laneid"), (2, 1, "m")]
    assert [(i.extent, i.stride, i.axis) for i in L.replica] == [(2, 4, "warpid")]
    assert dict(L.offset) == {"warpid": 5}
    assert L.axes == ("laneid", "warpid", "m")
    assert L.size() == 128 and L.size("laneid") == 32 and L.size("warpid") == 2
    assert L.default_shape == (8, 2, 4, 2)
    assert L.replica_count == 2
    assert L.admits((8, 16)) and L.admits(128) and not L.admits((8, 8))


def test_value_equality_and_hash():
    a = tl.parse("S[(4,2):(1@laneid,1)] + 3@warpid")
    b = tl.TileLayout([tl.Iter(4, 1, "laneid"), (2, 1, "m")], offset={"warpid": 3})
    c = tl.parse("S[(4,2):(1@laneid,1)] + 4@warpid")
    assert a == b and hash(a) == hash(b)
    assert a != c
    assert len({a, b, c}) == 2
    # offsets on the same axis add up, in text and in the constructor
    assert tl.parse("S[4:1] + 2@pid + 3@pid") == tl.parse("S[4:1] + 5@pid")
    # a zero offset still names its axis (the coordinate carries it) until canonicalization
    z = tl.parse("S[4:1] + 0@pid")
    assert z.axes == ("m", "pid") and z.apply(1) == ({"m": 1, "pid": 0},)
    with pytest.raises(AttributeError):
        a.shard = ()  # immutable
    with pytest.raises(TypeError):
        a.offset["warpid"] = 1  # read-only view


def test_compose_value_semantics():
    a = tl.ComposeLayout(tl.Swizzle(3, 3, 3), tl.parse("S[(8,64):(64,1)]"))
    b = tl.parse("ComposeLayout(Swizzle(3,3,3), S[(8,64):(64,1)])")
    assert a == b and hash(a) == hash(b) and a != b.tile_layout
    assert a.swizzle == tl.Swizzle(3, 3, 3) and a.size() == 512 and a.axes == ("m",)


def test_empty_shard_and_zero_and_negative_strides():
    e = tl.parse("S[()] + 7@pid")
    assert e.size() == 1 and e.default_shape == () and e.apply(()) == ({"pid": 7},)
    assert e.apply(0) == ({"pid": 7},) and e.map_all()["pid"].shape == (1,)
    assert str(e) == "S[()] + 7@pid"
    b = tl.parse("S[(4,2):(0,-3@laneid)] + R[2:0@pid]")
    assert b.apply((3, 1)) == ({"m": 0, "laneid": -3, "pid": 0},)  # duplicate replica removed
    assert b.map_all()["pid"].shape == (4, 2, 2)  # map_all keeps every combination


def test_default_memory_strides_are_row_major():
    assert tl.parse("S[(2,3,4)]") == tl.parse("S[(2,3,4):(12,4,1)]")
    assert str(tl.parse("S[8]")) == "S[8:1]"


def test_axes_registry():
    assert tl.axis("laneid").kind == "thread" and tl.axis("laneid").scope == ("thread", "warp")
    assert tl.axis("laneid").extent == 32 and tl.axis("wid_in_wg").extent == 4
    assert tl.axis("TLane").extent == 128 and tl.axis("TCol").extent == 512
    assert tl.axis("P").extent == 128 and tl.axis("pid").kind == "device"
    assert tl.axis("tid_in_wg").scope == ("thread", "warpgroup")
    assert tl.SMEM_BANKS == 32 and tl.SMEM_BANK_BYTES == 4
    names = {a.name for a in tl.axes()}
    assert {"m", "TLane", "TCol", "P", "F", "Bank", "laneid", "warpid", "tx", "tid_in_wg",
            "wid_in_wg", "wgid", "bx", "by", "bz", "cbx", "cby", "cbz", "pid"} <= names
    ax = tl.declare_axis("tp_model", kind="device", extent=4)
    assert not tl.is_axis("tp_model")  # a value: nothing registered
    with tl.axes(ax):
        assert tl.declare_axis("tp_model", kind="device", extent=4) == ax  # idempotent
        assert tl.declare_axis("tp_model", kind="device") == ax  # kind alone: the axis in force
        with pytest.raises(tl.LayoutError, match="already declared as device with extent 4"):
            tl.declare_axis("tp_model", kind="device", extent=8)
        L = tl.parse("S[(4,2):(1@tp_model,1)]")
    assert L.apply(5) == ({"tp_model": 2, "m": 1},)


def test_builder_mirrors_text():
    L = tl.S[(8, 2, 4, 2):(4 @ tl.laneid, 1 @ tl.warpid, 1 @ tl.laneid, 1)] \
        + tl.R[2:4 @ tl.warpid] + 5 @ tl.warpid
    assert L == tl.parse("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid")
    assert tl.S[8] == tl.parse("S[8:1]")
    assert tl.S[(4, 4)] == tl.parse("S[(4,4):(4,1)]")
    assert tl.S[4:-1] + -3 @ tl.m == tl.parse("S[4:-1] + -3")
    with pytest.raises(tl.LayoutError, match="2 extents but 1 stride"):
        tl.S[(4, 4):1]
    with pytest.raises(tl.LayoutError, match="at most one R"):
        tl.S[4] + tl.R[2:1 @ tl.pid] + tl.R[2:1 @ tl.pid]
    with pytest.raises(AttributeError):
        tl.not_an_axis  # noqa: B018
    with pytest.raises(AttributeError, match=r"did you mean the axis 'laneid' \(tl.laneid\)"):
        tl.lane  # noqa: B018


@pytest.mark.parametrize("dtype,M", [("float8", 4), ("float16", 3), ("bfloat16", 3),
                                     ("float32", 2), ("tfloat32", 2), ("float64", 1)])
@pytest.mark.parametrize("mode,B", [("none", 0), ("32B", 1), ("64B", 2), ("128B", 3)])
def test_swizzle_for_dtype_table(dtype, M, mode, B):
    assert tl.Swizzle.for_dtype(dtype, mode) == tl.Swizzle(M, B, 3)
    # M keeps exactly one 16-byte vector unswizzled
    assert (1 << M) * tl.dtype_bytes(dtype) == 16


def test_swizzle_mode_spellings_and_identity():
    assert tl.Swizzle.for_dtype("float16", "128b") == tl.Swizzle.for_dtype("fp16", "128")
    assert tl.Swizzle.for_dtype("float16", "none").is_identity
    assert tl.Swizzle(3, 3, 3).atom_size == 512


def test_coord_mapping():
    c = tl.Coord({"laneid": 1, "m": 2})
    assert c == {"m": 2, "laneid": 1} and dict(c) == {"laneid": 1, "m": 2}
    assert hash(c) == hash(tl.Coord({"m": 2, "laneid": 1}))
    assert repr(c) == "{laneid: 1, m: 2}"
    with pytest.raises(KeyError):
        c["pid"]


def test_repr_round_trips():
    from tilelayout import parse  # noqa: F401  (used by eval)

    for text in ["S[(8,2):(4@laneid,1)] + R[2:4@warpid] + -3@warpid",
                 "ComposeLayout(Swizzle(3,3,3), S[(8,64):(64,1)])"]:
        L = tl.parse(text)
        assert eval(repr(L)) == L


def test_subpackages_reachable_from_the_package():
    assert "mma.m16n8k16.C" in tl.presets.names()
    assert tl.presets.get("mma.m16n8k16.C").layout.apply((9, 5), shape=(16, 8)) == (
        {"m": 3, "laneid": 6},)


def test_stride_zero_replicas_cost_nothing_in_scalar_paths():
    L = tl.parse(f"S[4:1] + R[({2**40},2):(0,1@pid)]")
    assert L.apply(3) == ({"m": 3, "pid": 0}, {"m": 3, "pid": 1})
    assert L.base(3) == {"m": 3, "pid": 0}


def test_equal_layouts_each_keep_their_own_axis_order():
    a = tl.parse("S[4:1] + 1@warpid + 2@pid")
    b = tl.parse("S[4:1] + 2@pid + 1@warpid")
    assert a == b and hash(a) == hash(b)
    assert list(a.apply(0)[0]) == list(a.axes) == ["m", "warpid", "pid"]
    # b evaluated after a (same cache key before the fix) still follows b's own order
    assert list(b.apply(0)[0]) == list(b.axes) == ["m", "pid", "warpid"]
    assert list(b.base(0)) == list(b.axes)
