"""POST /api/codegen (explorer/views/codegen.py): text or preset layouts, refusals as
``ok: false``, bad input as 4xx with the field."""

from __future__ import annotations

import json

from tests.helpers import call
from tilelayout.explorer.views.codegen import codegen_view

REF = "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid"


def test_api_view_and_http(server):
    r = codegen_view({"layout": {"preset": "case.swizzle_8x64_float16"}, "lang": "c",
                      "inverse": True})
    assert r["ok"] and r["shape"] == [8, 64] and "m ^ ((m & 448) >> 3)" in r["code"]
    r = codegen_view({"layout": "S[(2,2):(0,1)]", "inverse": True})
    assert r["ok"] is False and "share a coordinate" in r["reason"]
    status, ctype, body = call(server, "/api/codegen", {"layout": REF, "shape": "8,16",
                                                        "lang": "cuda"})
    assert status == 200 and ctype.startswith("application/json")
    assert "out[1] = (i1 >> 3) + (r << 2) + 5;" in json.loads(body)["code"]
    for req, field in [({"layout": REF, "lang": "rust"}, "lang"),
                       ({"layout": REF, "inverse": "yes"}, "inverse"),
                       ({"layout": REF, "shape": "7,3"}, "shape"),
                       ({"layout": REF, "name": "no way"}, "name"),
                       ({"layout": {"preset": 3}}, "layout"),
                       ({"layout": {"preset": "nope"}}, "name")]:
        status, _, body = call(server, "/api/codegen", req)
        doc = json.loads(body)
        assert 400 <= status < 500 and doc.get("field") == field, (req, doc)
