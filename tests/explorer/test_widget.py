"""tl.widget without a browser: the view it opens, its one-line refusals, the static SVG
fallback, and its kernel-side answers, which are the explorer server's own (compared with
a real server over HTTP)."""

from __future__ import annotations

import json

import pytest

import tilelayout as tl
from tests.helpers import TC, call
from tilelayout.explorer.answers import answer
from tilelayout.explorer.server import serve_in_thread

pytest.importorskip("anywidget")
# the widget itself (tl.widget outside a notebook gives its static view:
# tests/explorer/test_widget_outside.py)
from tilelayout.explorer.widget import explorer_widget as widget  # noqa: E402


def test_the_view_it_opens():
    assert widget("mma.m16n8k16.A", dtype="bfloat16", select=(9, 10)).query == \
        "preset=mma.m16n8k16.A&p.dtype=bfloat16&select=9%2C10"
    w = widget(tl.parse("S[(8,64):(64,1)]"), (8, 64), dtype="float16", swizzle="128B",
               color="bank", height=700)
    assert w.query == "layout=S%5B%288%2C64%29%3A%2864%2C1%29%5D&shape=8%2C64&dtype=float16" \
                      "&swizzle=128B&color=bank"
    assert w.height == 700
    assert {"index.html", "app.js", "api.js", "style.css"} <= set(w.files)
    assert "notebook/widget.js" not in w.files


@pytest.mark.parametrize("args,kwargs,words", [
    (("mma.m16n8k16.A",), {"dtype": "float99"}, "parameter dtype must be one of"),
    (("mma.m16n8k16.C",), {"nope": 1}, "nope"),
    (("S[4:1@lane]",), {}, "unknown axis 'lane'"),
    (("S[4:1]",), {"mode": "x"}, "a layout's widget takes dtype= and swizzle=, got mode="),
    ((3,), {}, "expects a layout, layout text or a preset name, got int"),
    (("S[4:1]",), {"height": 10}, "height must be an int of pixels in 200..4000"),
])
def test_bad_input_is_a_one_line_layout_error(args, kwargs, words):
    with pytest.raises(tl.LayoutError) as caught:
        widget(*args, **kwargs)
    assert words in str(caught.value) and "\n" not in str(caught.value)


def test_the_static_svg_is_the_fallback():
    bundle = widget("mma.m16n8k16.C")._repr_mimebundle_()
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    assert "application/vnd.jupyter.widget-view+json" in data
    assert data["image/svg+xml"] == tl.presets.get("mma.m16n8k16.C").layout._repr_svg_()


def test_refusals_come_back_as_the_page_expects():
    w = widget("S[4:1]")
    soft = w.answer_request({"id": 7, "method": "POST", "path": "/api/layout", "soft": True,
                             "body": {"layout": "S[4:1@lane]"}})
    assert soft["id"] == 7 and soft["status"] == 200 and soft["data"]["status"] == 400
    assert soft["data"]["field"] == "layout" and soft["data"]["column"] == 7
    hard = w.answer_request({"id": 8, "method": "GET", "path": "/api/nothing"})
    assert hard["status"] == 404


@pytest.mark.parametrize("path,body", [
    ("/api/layout", {"layout": TC, "shape": "8,16"}),
    ("/api/explain", {"layout": TC, "shape": "8,16", "index": [7, 15]}),
    ("/api/elements_at", {"layout": TC, "shape": "8,16", "coords": {"laneid": 5, "warpid": 9}}),
    ("/api/layout", {"layout": "ComposeLayout(Swizzle(3,3,3), S[(8,64):(64,1)])",
                     "dtype": "float16"}),
    ("/api/preset", {"name": "mma.m16n8k16.A", "params": {"dtype": "bfloat16"}}),
    ("/api/layout", {"layout": "S[4:1@lane]"}),
])
def test_the_kernel_answers_what_the_server_answers(path, body):
    server, url = serve_in_thread()
    try:
        status, _, raw = call(url, path + "?soft=1", body)
    finally:
        server.shutdown()
        server.server_close()
    code, data = answer("POST", path, body)
    assert status == 200
    over_http = json.loads(raw)
    assert json.loads(json.dumps(data)) == over_http
    assert (code == 200) == ("status" not in over_http)


def test_outside_a_kernel_a_layout_shows_its_picture():
    L = tl.parse("S[(8,4):(4@laneid,1@laneid)]")
    assert L._repr_mimebundle_() is None  # no kernel here: IPython falls back to the SVG
    assert L._repr_mimebundle_(include={"text/plain"}) is None
    assert L._repr_svg_().startswith("<svg")


@pytest.mark.parametrize("kwargs,words", [
    ({"select": (1.5,)}, "select must be the coordinates of one element"),   # was select 1
    ({"select": (True,)}, "select must be the coordinates of one element"),
    ({"select": (9,)}, "outside shape (4,)"),
    ({"select": [None]}, "select must be the coordinates"),
    ({"shape": (4.5,)}, "shape entries must be integers"),                    # was shape 4
    ({"shape": "8,4"}, "shape (8, 4) has 32 elements but the layout has 4"),
    ({"shape": 5}, "shape (5,) has 5 elements but the layout has 4"),
    ({"color": 3}, "color must be an axis name"),
    ({"height": True}, "height must be an int of pixels"),
])
def test_select_and_shape_are_refused_never_truncated(kwargs, words):
    """issue 29: select=(1.5,) selected 1 and shape=(4.5,) became 4; the page reads back
    exactly the integers a widget's query carries, so anything else is refused."""
    with pytest.raises(tl.LayoutError) as caught:
        widget("S[4:2]", **kwargs)
    assert words in str(caught.value) and "\n" not in str(caught.value)


def test_the_query_carries_exactly_the_coordinates_given():
    assert widget("S[4:2]", select=3).query.endswith("select=3")
    assert widget("S[(8,16):(16,1)]", "8,16", select="7,15").query.endswith("shape=8%2C16&select=7%2C15")
    reply = widget("S[4:2]").answer_request(["not", "a", "request"])
    assert reply["status"] == 400 and reply["data"]["status"] == 400
