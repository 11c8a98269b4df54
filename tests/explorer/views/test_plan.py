"""``POST /api/plan``: the library's plan as JSON, over HTTP too, with the stages the page
steps through and, when shared memory is used, the line x bank grid and worst requests;
bad input is a 4xx with one message."""

from __future__ import annotations

import json

import pytest

import tilelayout as tl
from tilelayout.explorer.request import ApiError
from tilelayout.explorer.views.plan import plan_view

from ...helpers import call

TRANSPOSE = ("S[(32,32):(1@laneid,1)]", "S[(32,32):(1,1@laneid)]")


def test_text_operands_equal_the_library():
    r = plan_view({"src": TRANSPOSE[0], "dst": TRANSPOSE[1], "dtype": "float32"})
    p = tl.plan_conversion(*TRANSPOSE, (32, 32), "float32")
    assert {k: r[k] for k in ("kind", "mechanism", "reason", "costs")} == \
        {k: p.to_dict()[k] for k in ("kind", "mechanism", "reason", "costs")}
    assert r["smem"]["layout"] == str(p.smem.layout)
    addr = p.smem.layout.map_all((32, 32))["m"].reshape(-1) * 4
    assert r["grid"]["byte"] == addr.tolist()
    assert [s["what"] for s in r["stages"]] == ["store", "barrier", "load"]


@pytest.mark.parametrize("dtype,target", [("float32", None), ("float16", None),
                                          ("float8", None), ("float8", "sm_100a")])
def test_a_plan_on_bits_shows_each_sides_worst_request_of_its_own_instruction(dtype, target):
    """A plan found on bits costs its sides in closed form; the view takes each side's
    worst request element by element for the instruction the plan names (vectors, packed
    vectors, ldmatrix, the 8-bit ldmatrix), and it costs what the plan says."""
    r = plan_view({"src": TRANSPOSE[0], "dst": TRANSPOSE[1], "dtype": dtype,
                   **({"target": target} if target else {})})
    p = tl.plan_conversion(*TRANSPOSE, (32, 32), dtype, target=target)
    assert p.smem.family == "bits" and p.smem.write.worst is None
    for side, cost in (("write", "store"), ("read", "load")):
        rep = r["smem"][side]
        assert rep["worst"] is not None and len(r["worst_cells"][side]) > 0
        assert rep["wavefronts"] == p.costs[f"{cost}_wavefronts"]
        assert rep["vector_bytes"] == p.costs[f"{cost}_vector_bytes"]
        named = p.costs[f"{cost}_instruction"]
        if "matrix" in named:
            assert rep["mechanism"] == named
    assert {c["element"] for c in r["worst_cells"]["read"]} <= set(range(32 * 32))


def test_presets_and_shuffle_rounds():
    r = plan_view({"src": {"preset": "mma.m16n8k16.C"},
                   "dst": {"preset": "mma.m16n8k16.B", "params": {"dtype": "float16"}},
                   "dtype": "float16"})
    assert r["shape"] == [16, 8] and r["mechanism"] == "warp-shuffle"
    rounds = [s for s in r["stages"] if s["what"] == "shuffle"]
    assert len(rounds) == r["costs"]["shuffle_rounds"] == 2
    assert all(len(s["src_lane"][0]) == 32 for s in rounds)
    assert "grid" not in r


def test_over_http(server):
    status, ctype, body = call(server, "/api/plan",
                               {"src": TRANSPOSE[0], "dst": TRANSPOSE[1], "dtype": "float32"})
    assert status == 200 and ctype.startswith("application/json")
    assert json.loads(body)["kind"] == "warp-shuffle"
    status, _, body = call(server, "/api/plan", {"src": TRANSPOSE[0], "dst": "S[4:1]",
                                                 "dtype": "float32"})
    assert status == 400 and "different tiles" in json.loads(body)["error"]


@pytest.mark.parametrize("req, message", [
    ({"src": TRANSPOSE[0], "dst": TRANSPOSE[1]}, "dtype"),
    ({"src": TRANSPOSE[0], "dst": "S[(32,32):(1,1@laneid)", "dtype": "float32"}, "expected"),
    ({"src": {"preset": "nope"}, "dst": TRANSPOSE[1], "dtype": "float32"}, "nope"),
    ({"src": "S[(2048,2048):(1,2048)]", "dst": "S[(2048,2048):(1@laneid,1)]",
      "dtype": "float32"}, "at most"),
    ([1, 2], "JSON object"),
])
def test_bad_input(req, message):
    with pytest.raises(ApiError, match=message) as info:
        plan_view(req)
    assert "\n" not in info.value.message


def test_mesh_presets_name_the_collective():
    mesh = {"x": 2, "y": 4}
    r = plan_view({"src": {"preset": "mesh.shard",
                           "params": {"mesh": mesh, "spec": ["x", None], "shape": [16, 8]}},
                   "dst": {"preset": "mesh.shard",
                           "params": {"mesh": mesh, "spec": [None, "y"], "shape": [16, 8]}},
                   "dtype": "float32"})
    assert (r["kind"], r["collective"]) == ("collective", "all-gather")
    assert r["collective_steps"] == ["local slice", "all-gather"]
    assert r["costs"]["bytes_received_per_device"] == [64] * 8


def test_a_budget_caps_the_shared_memory_or_is_refused_in_words():
    """``smem_budget`` is the library's: the plan moves the tile in passes through a
    smaller buffer, and a budget below any plan is a 400 naming the bytes."""
    mma = [f"triton.nvmma_distributed:version=2:warps_per_cta={w}:shape=256,256"
           for w in ("1,4", "4,1")]
    src, dst = ({"preset": m.split(":")[0], "params": dict(kv.split("=") for kv in m.split(":")[1:])}
                for m in mma)
    free = plan_view({"src": src, "dst": dst, "dtype": "float16", "target": "sm_80"})
    capped = plan_view({"src": src, "dst": dst, "dtype": "float16", "target": "sm_80",
                        "smem_budget": 4096})
    assert capped["costs"]["smem_bytes"] <= 4096 < free["costs"]["smem_bytes"] or \
        capped["costs"]["smem_bytes"] <= 4096 == free["costs"]["smem_bytes"]
    assert capped["costs"]["passes"] >= free["costs"]["passes"]
    with pytest.raises(ApiError, match="smem_budget"):
        plan_view({"src": src, "dst": dst, "dtype": "float16", "smem_budget": "8k"})
    with pytest.raises(ApiError, match="smem_budget=16"):
        plan_view({"src": src, "dst": dst, "dtype": "float16", "smem_budget": 16})


def test_dst_packing_is_the_librarys_and_checked():
    req = {"src": "S[(32,2):(1@laneid,1)]", "dst": "S[(2,32):(1,1@laneid)]", "shape": [64],
           "dtype": "int8"}
    loose = plan_view({**req, "dst_packing": "unpacked"})
    assert loose["dst_packing"] == "unpacked" and loose["costs"]["byte_permutes"] == 0
    assert plan_view(req)["costs"]["byte_permutes"] == 1
    for bad in ("loose", 1, ["unpacked"], None):
        with pytest.raises(ApiError, match="dst_packing"):
            plan_view({**req, "dst_packing": bad})
