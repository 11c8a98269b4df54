"""POST /api/convert: each target's text is the library's, a refusal carries the
converter's reason (not an HTTP error), bad input is a 4xx JSON error."""

from __future__ import annotations

import json

import pytest

import tilelayout as tl
from tests.helpers import call
from tilelayout import presets
from tilelayout.interop import InteropError
from tilelayout.interop.convert import PANEL_TARGETS, TARGETS
from tilelayout.interop.cute import thread_axes, to_cute, to_cute_tv
from tilelayout.interop.jax import partition_spec_entries
from tilelayout.interop.triton import to_triton_bases
from tilelayout.interop.triton_shared import to_triton_shared_bases

MMA_A = presets.get("mma.m16n8k16.A", dtype="float16")
SMEM = "S[(8,64):(64,1)]"


def _by_target(r):
    return {t["target"]: t for t in r["targets"]}


def _req(p, **extra):
    return {"layout": str(p.layout), "shape": list(p.shape), **extra}


def test_every_target_for_the_mma_a_fragment_equals_the_library():
    from tilelayout.interop.tvm import to_tvm

    r = _by_target(api_convert(_req(MMA_A, targets=list(TARGETS))))
    assert list(r) == ["cute", "cute-tv", "jax", "triton", "gluon", "tvm"]
    assert list(_by_target(api_convert(_req(MMA_A)))) == list(PANEL_TARGETS)  # the page's list
    L, shape = MMA_A.layout, MMA_A.shape
    tv = r["cute-tv"]
    assert tv["ok"] and tv["label"] == "CuTe TV"
    assert tv["text"] == to_cute_tv(L, shape, thread_axes(L)) == "((4,8),(2,2,2)):((32,1),(16,8,128))"
    assert r["triton"]["ok"] and r["triton"]["text"].splitlines() == [
        f"{k}: {json.dumps(v, separators=(',', ':'))}" for k, v in to_triton_bases(L, shape).items()]
    with pytest.raises(InteropError) as cute_err:
        to_cute(L, shape)
    assert r["cute"] == {"target": "cute", "label": "CuTe", "ok": False, "reason": str(cute_err.value)}
    assert not r["jax"]["ok"] and "uses no device (mesh) axis" in r["jax"]["reason"]
    tvm = pytest.importorskip("tvm_tirx", reason="the tvm extra provides tvm_tirx")
    assert tvm and r["tvm"]["ok"] and r["tvm"]["text"] == str(to_tvm(L))


def test_swizzled_smem_tile_refuses_all_but_cute_and_triton_shared():
    r = _by_target(api_convert({"layout": SMEM, "dtype": "float16", "swizzle": "128B",
                                "targets": ["cute", "cute-tv", "jax", "triton"]}))
    L = tl.ComposeLayout(tl.Swizzle.for_dtype("float16", "128B"), tl.parse(SMEM))
    assert r["cute"]["ok"] and r["cute"]["text"] == to_cute(L, (8, 64)) == "Swizzle<3,3,3> o (8,64):(64,1)"
    offset = to_triton_shared_bases(L, (8, 64))
    assert r["triton"]["ok"] and "SharedLinearLayout offset_bases" in r["triton"]["notes"][0]
    assert r["triton"]["text"] == f"offset: {json.dumps(offset, separators=(',', ':'))}"
    for target, fn in (("cute-tv", lambda: to_cute_tv(L, (8, 64))),
                       ("jax", lambda: partition_spec_entries(L, {}, (8, 64)))):
        with pytest.raises(InteropError) as err:
            fn()
        assert r[target]["ok"] is False and r[target]["reason"] == str(err.value), target


def test_jax_with_the_layouts_mesh_and_with_a_given_mesh():
    p = presets.get("mesh.shard")
    r = _by_target(api_convert(_req(p, targets=["jax"])))
    want = partition_spec_entries(p.layout, {"dp": 2, "tp": 2}, p.shape)
    assert r["jax"]["text"] == f"P{want!r}" == "P('dp', None)"
    assert "mesh dp=2,tp=2 (assumed" in r["jax"]["notes"][0]
    # a given mesh: its axes are declared, so the text may use them; a mismatch is a refusal
    r = api_convert({"layout": "S[(2,2,2,4):(1@rows,4,1@cols,1)]", "shape": "4,8",
                     "mesh": "rows=2,cols=2", "targets": ["jax"]})
    assert r["mesh"] == {"rows": 2, "cols": 2}
    assert r["targets"][0]["text"] == "P('rows', 'cols')" and "(given)" in r["targets"][0]["notes"][0]
    r = api_convert(_req(p, mesh={"dp": 2, "tp": 4}, targets=["jax"]))
    assert not r["targets"][0]["ok"] and "does not copy the array" in r["targets"][0]["reason"]


def test_over_http_refusals_are_200_and_bad_input_is_4xx(server):
    status, ctype, body = call(server, "/api/convert", {"layout": SMEM, "targets": ["cute-tv"]})
    assert status == 200 and ctype.startswith("application/json")
    doc = json.loads(body)
    assert doc["targets"][0]["ok"] is False and "uses no thread axis" in doc["targets"][0]["reason"]
    bad = [
        ({}, "layout", "'layout' is required"),
        ({"layout": "S[(8,4):(4@laneid,1@lanid)]"}, "layout", "did you mean"),
        ({"layout": "S[(8,4"}, "layout", None),
        ({"layout": SMEM, "shape": "7,3"}, "shape", None),
        ({"layout": SMEM, "targets": ["numpy"]}, "targets", "non-empty list"),
        ({"layout": SMEM, "targets": "cute"}, "targets", None),
        ({"layout": SMEM, "mesh": "dp"}, "mesh", "NAME=SIZE"),
        ({"layout": SMEM, "mesh": "m=2"}, "mesh", "clashes with the memory axis"),
        ({"layout": SMEM, "mesh": {"dp": 0}}, "mesh", "size"),
        ({"layout": SMEM, "mesh": [1, 2]}, "mesh", None),
    ]
    for req, field, text in bad:
        status, _, body = call(server, "/api/convert", req)
        doc = json.loads(body)
        assert 400 <= status < 500, (req, status, doc)
        assert doc.get("field") == field, (req, doc)
        if text:
            assert text in doc["error"], (req, doc)
    status, _, _ = call(server, "/api/convert", method="GET")
    assert status == 405


def api_convert(req):
    from tilelayout.explorer.views.convert import convert_view

    return convert_view(req)
