"""The explorer's HTTP server: routes, JSON-only errors, loopback by default."""


from __future__ import annotations

import json

import tilelayout as tl
from tests.helpers import call
from tilelayout.codegen.languages import LANGUAGES
from tilelayout.explorer import examples
from tilelayout.explorer.request import MAX_BODY, MAX_TEXT
from tilelayout.render.palette import MAX_COLOURS, colour_scale

REF = "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid"


def test_http_routes_and_errors(server):
    status, ctype, body = call(server, "/")
    assert status == 200 and "text/html" in ctype and b'data-testid="layout-input"' in body
    status, _, body = call(server, "/api/options")  # the colours shared with the SVG renderer
    assert json.loads(body)["palette"] == list(tl.render.palette.PALETTE)
    status, _, body = call(server, "/api/layout", {"layout": REF, "shape": [8, 16]})
    assert status == 200 and json.loads(body)["replicas"] == 2
    cases = [
        (("/api/layout", {"layout": "S[(8,4):(4@lane,1)]"}), 400),
        (("/api/layout", None), 400),
        (("/api/nope", {"layout": REF}), 404),
        (("/static/../api.py", None), 404),
        (("/api/explain", {"layout": REF, "index": [8, 0]}), 400),
        (("/api/elements_at", {"layout": REF, "coords": {"bank": 1}}), 400),
    ]
    for (path, body), want in cases:
        status, ctype, raw = call(server, path, body, method="POST" if path.startswith("/api/")
                                  and path != "/api/nope" or body else "GET")
        data = json.loads(raw)
        assert status == want and "error" in data and "Traceback" not in raw.decode(), path
    status, _, raw = call(server, "/api/layout", raw=b"{not json")
    assert status == 400 and "JSON" in json.loads(raw)["error"]
    status, _, raw = call(server, "/api/layout", raw=b"[1, 2]")
    assert status == 400
    big = json.dumps({"layout": "S[4]", "pad": "x" * (MAX_BODY + 10)}).encode()
    status, _, raw = call(server, "/api/layout", raw=big)
    assert status == 413 and "at most" in json.loads(raw)["error"]
    status, _, raw = call(server, "/api/layout", {"layout": "S[4]" + " " * MAX_TEXT})
    assert status == 413
    status, _, raw = call(server, "/api/layout", method="DELETE")
    assert status == 405
    # and it keeps serving
    status, _, body = call(server, "/api/presets")
    assert status == 200 and len(json.loads(body)["presets"]) > len(examples.EXAMPLES)


def test_internal_error_is_not_a_traceback(server, monkeypatch, capsys):
    def boom(_req):
        raise RuntimeError("secret internals")
    from types import MappingProxyType

    from tilelayout.explorer import server as module
    # the route table is read-only: swap in a copy with the failing view
    monkeypatch.setattr(module, "_POST", MappingProxyType({**module._POST, "/api/layout": boom}))
    status, _, raw = call(server, "/api/layout", {"layout": REF})
    assert status == 500 and b"secret" not in raw and b"Traceback" not in raw
    assert json.loads(raw)["error"].startswith("internal error")


def test_binds_loopback_by_default():
    from tilelayout.explorer.server import make_server
    srv = make_server(port=0)
    try:
        assert srv.server_address[0] == "127.0.0.1"
    finally:
        srv.server_close()


def test_options_list_the_code_languages_and_the_page_colour_scale(server):
    # the page reads these instead of keeping its own copies
    _, _, body = call(server, "/api/options")
    opts = json.loads(body)
    assert opts["code_languages"] == list(LANGUAGES) == ["python", "c", "cpp", "cuda", "triton"]
    assert opts["colour_scale"] == list(colour_scale(MAX_COLOURS))
    assert opts["colour_scale"][:len(opts["palette"])] == opts["palette"]
