"""convert: one layout in each other notation, or the converter's reason why not."""

import pytest

import tilelayout as tl
from tilelayout.core.errors import LayoutError
from tilelayout.interop import InteropError
from tilelayout.interop.convert import TARGETS, assumed_mesh, convert
from tilelayout.interop.cute import parse_cute


def test_cute_text_and_value_agree():
    r = convert(tl.parse("S[(4,8):(8,1)]"), (4, 8), "cute")
    assert r["text"] == "(4,8):(8,1)"
    assert r["value"] == {"shape": [4, 8], "stride": [8, 1], "swizzle": None}
    sw = convert(tl.parse("ComposeLayout(Swizzle(3,3,3), S[(8,64):(64,1)])"), (8, 64), "cute")
    assert sw["text"].startswith("Swizzle<3,3,3>") and sw["value"]["swizzle"] == [3, 3, 3]
    assert parse_cute(sw["text"])[1:] == ((8, 64), (64, 1))


def test_cute_tv_names_the_thread_axes():
    r = convert(tl.parse("S[(2,8,4,2):(2,4@laneid,1@laneid,1)]"), (16, 8), "cute-tv")
    assert r["text"] == "((4,8),(2,2)):((32,1),(16,8))"
    assert r["value"]["thread_axes"] == ["laneid"] and "thread = laneid" in r["notes"][0]


def test_jax_with_and_without_a_mesh():
    L = tl.parse("S[(2,8):(1@pid,1)]")
    assert convert(L, (16,), "jax")["text"] == "P('pid',)"
    assert "mesh pid=2 (assumed" in convert(L, (16,), "jax")["notes"][0]
    given = convert(L, (16,), "jax", mesh={"pid": 2})
    assert given["text"] == "P('pid',)" and "given" in given["notes"][0]
    with pytest.raises(InteropError, match="no device"):
        convert(tl.parse("S[8:1]"), (8,), "jax")


def test_triton_bases():
    r = convert(tl.parse("S[(8,4):(4@laneid,1@laneid)]"), (8, 4), "triton")
    assert r["text"] and r["value"]


def test_assumed_mesh_sizes_each_device_axis_by_its_span():
    assert assumed_mesh(tl.parse("S[(4,4):(1@pid,1)] + R[2:3@cbx]")) == {"pid": 4}  # cbx: a thread axis
    with tl.axes("dp", "tp"):
        assert assumed_mesh(tl.parse("S[(2,4,2):(1@dp,1,2@tp)]")) == {"dp": 2, "tp": 3}


def test_every_target_is_listed_and_unknown_ones_refused():
    assert {"cute", "cute-tv", "jax", "triton", "tvm"} <= set(TARGETS)
    with pytest.raises(LayoutError, match="unknown target 'fortran'"):
        convert(tl.parse("S[4:1]"), (4,), "fortran")
