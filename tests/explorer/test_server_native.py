"""No request takes the explorer down (issue 29): the real server (tests/helpers.py
``explorer_server``) gets the crafted ``/api/convert`` request that used to abort Triton's
lowering in the server's process, and every abort reproducer of the issue that the API
can express (a layout whose conversion reached Triton with an input it aborts on), for
Gluon and TVM. Each is answered (a conversion or a one-line refusal naming what is wrong),
the conversions run in the pool's child processes, and the server answers the next
requests."""

from __future__ import annotations

import json

import pytest

from tests.helpers import call, explorer_server
from tilelayout.interop.isolation import default_pool

pytest.importorskip("triton.experimental.gluon", reason="Triton is the optional 'triton' extra")

#: (layout, shape or None): each reached Triton's lowering with an input it aborts on
REPRODUCERS = [
    ("S[(8,8,2):(1,16,8)]", None),              # rank-3 transposed NVMMA shared candidates
    ("S[(4,4,2,2):(4,1@cbx,2,1)]", "32,2"),     # CTA-split (cluster) candidates
    ("S[2147483648:1]", None),                  # a shape of 2**31
    ("S[(65536,65536):(65536,1)]", None),       # 2**32 elements
    ("S[(2147483648,32):(32@m,1@laneid)]", None),
    ("S[(2,8,64):(512,1,8)]", None),            # rank 3, the contiguous dimension first
    ("S[():()] + R[2:1@warpid]", None),         # rank 0
    ("S[(16,4,8):(1@warpid,1@laneid,4@laneid)]", None),
    ("S[(4,16,16):(1@warpid,16,1@laneid)]", None),
    ("S[(8,4,2,2,16):(1@laneid,8@laneid,1@warpid,32@laneid,1)]", None),  # 64-lane (MFMA) guesses
    ("S[(2,16,2,16):(1@warpid,1@laneid,16@laneid,1)]", None),            # WMMA guesses
    ("S[(3,32):(32,1)]", None),                 # not a power of two
    ("S[(8,64):(1,8)] + 5", None),              # an offset
]


def _convert(url: str, layout: str, shape: str | None) -> dict:
    body = {"layout": layout, "targets": ["gluon", "tvm"]}
    if shape is not None:
        body["shape"] = shape
    status, ctype, raw = call(url, "/api/convert", body)
    assert ctype == "application/json", (layout, status, raw[:200])
    data = json.loads(raw)
    if status != 200:  # the layout itself refused: one line
        assert status == 400 and "\n" not in data["error"], (layout, data)
        return {}
    return {t["target"]: t for t in data["targets"]}


def test_the_crafted_request_and_every_reproducer_leave_the_server_answering():
    with explorer_server() as url:
        answered = 0
        for layout, shape in REPRODUCERS:
            targets = _convert(url, layout, shape)
            for entry in targets.values():
                if not entry["ok"]:
                    assert entry["reason"] and "\n" not in entry["reason"], entry
                    assert "the converter failed" not in entry["reason"], entry
                answered += 1
            status, _, raw = call(url, "/api/presets")  # the server is still there
            assert status == 200 and json.loads(raw)["presets"], layout
        # the crafted request: Triton's lowering aborted the server on its NVMMA guesses;
        # now the guesses Triton would abort on are refused before it runs and the
        # conversion answers with the layout Gluon does have
        crafted = _convert(url, "S[(8,8,2):(1,16,8)]", None)["gluon"]
        assert crafted["ok"] and "SwizzledSharedLayout" in crafted["text"], crafted
        status, _, raw = call(url, "/api/explain", {"layout": "S[4:2]", "index": [3]})
        assert status == 200 and json.loads(raw)["coords"] == [{"m": 6}]
    assert answered >= 2 * 10
    assert default_pool()._alive >= 1  # the conversions ran in the pool's children


def test_a_child_that_dies_is_the_requests_refusal_and_the_pool_serves_on():
    """What the server does when native code aborts anyway: the pool it converts through
    turns the death into that request's one-line LayoutError and starts a new child."""
    pool = default_pool()
    before = pool.deaths
    with pytest.raises(Exception, match=r"^converting S\[4:1\] ended the child process"):
        pool.call("os:abort", what="converting S[4:1]")
    assert pool.deaths == before + 1
    with explorer_server() as url:
        gluon = _convert(url, "S[(4,32,4):(1@warpid,1@laneid,1)]", "4,128")["gluon"]
        assert gluon["ok"] and "BlockedLayout" in gluon["text"], gluon
