"""``POST /api/smem``: the library's choice as JSON, over HTTP too, with the grid and the
worst requests the page draws; bad input is a 4xx with one message."""

from __future__ import annotations

import json

import pytest

import tilelayout as tl
from tilelayout import presets
from tilelayout.explorer.request import ApiError
from tilelayout.explorer.views.smem import smem_view

from ...helpers import call

ROWS = "S[(32,8):(1@laneid,1)]"


def test_presets_and_text_equal_the_library():
    r = smem_view({"writer": {"preset": "wgmma.m64nNk16.D", "params": {"n": "16"}},
                   "reader": "S[(4,16,2,8):(1@wid_in_wg,1@laneid,8,1)]", "dtype": "float16"})
    d = presets.get("wgmma.m64nNk16.D", n=16)
    c = tl.choose_smem_layout(d.layout, tl.parse("S[(4,16,2,8):(1@wid_in_wg,1@laneid,8,1)]"),
                              (64, 16), "float16")
    assert r["layout"] == str(c.layout) and r["shape"] == [64, 16]
    assert (r["wavefronts"], r["ideal"]) == (c.wavefronts, c.ideal)
    assert [x["name"] for x in r["candidates"]] == [x.name for x in c.candidates]
    addr = c.layout.map_all((64, 16))["m"].reshape(-1) * 2
    assert r["grid"]["byte"] == addr.tolist()
    assert r["grid"]["bank"] == ((addr // 4) % 32).tolist()


def test_preset_dtype_is_the_default():
    r = smem_view({"writer": {"preset": "wgmma.m64nNk16.D", "params": {"n": "16"}},
                   "reader": {"preset": "wgmma.m64nNk16.D", "params": {"n": "16"}}})
    assert r["dtype"] == "float32" and r["distance"] == 0


def test_worst_request_cells_for_a_conflicted_choice():
    # lane l owns column l of a 32x32 float32 tile; the writer owns rows: a transpose
    r = smem_view({"writer": "S[(32,32):(1@laneid,1)]", "reader": "S[(32,32):(1,1@laneid)]",
                   "dtype": "float32"})
    assert r["write"]["worst"] is not None and r["read"]["worst"] is not None
    cells = r["worst_cells"]["read"]
    lanes = {c["lane"] for c in cells}
    assert lanes == set(range(32))
    # each cell is an element the lane reads: lane l reads column l
    assert all(c["element"] % 32 == c["lane"] for c in cells)
    assert r["distance"] == r["wavefronts"] - r["ideal"]


def test_over_http(server):
    status, ctype, body = call(server, "/api/smem", {"writer": ROWS, "reader": ROWS,
                                                     "dtype": "float16"})
    assert status == 200 and ctype.startswith("application/json")
    doc = json.loads(body)
    assert doc["distance"] == 0 and doc["grid"]["banks"] == 32
    status, _, body = call(server, "/api/smem", {"writer": ROWS, "reader": "S[(16,8):(1,1@laneid)]",
                                                 "dtype": "float16"})
    assert status == 400 and "different shapes" in json.loads(body)["error"]


@pytest.mark.parametrize("req, field", [
    ({"writer": ROWS, "reader": ROWS}, "dtype"),
    ({"writer": "S[(32,8", "reader": ROWS, "dtype": "float16"}, "writer"),
    ({"writer": {"preset": "nope"}, "reader": ROWS, "dtype": "float16"}, "writer"),
    ({"writer": {"params": {}}, "reader": ROWS, "dtype": "float16"}, "writer"),
    ({"writer": ROWS, "reader": ROWS, "dtype": "float16", "family": "best"}, "family"),
    ({"writer": ROWS, "reader": ROWS, "dtype": "float99"}, None),
    ({"writer": "S[(32,8):(1@laneid,1)] + R[2:0]", "reader": ROWS, "dtype": "float16"}, None),
])
def test_bad_input(req, field):
    with pytest.raises(ApiError) as e:
        smem_view(req)
    assert e.value.status in (400, 404, 413) and "\n" not in e.value.message
    assert e.value.field == field


def test_too_large_is_refused():
    big = "S[(4,512,32,8):(1@warpid,8,1@laneid,1)]"
    with pytest.raises(ApiError) as e:
        smem_view({"writer": big, "reader": big, "dtype": "float16"})
    assert e.value.status == 413
