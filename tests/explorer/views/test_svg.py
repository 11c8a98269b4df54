"""POST /api/svg: the page's view state in, the render.svg picture out."""

from __future__ import annotations

import pytest

import tilelayout as tl
from tilelayout.explorer.answers import answer
from tilelayout.render.page_svg import page_svg
from tilelayout.render.page_view import PageView
from tilelayout.render.svg import layout_svg

REF = "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid"


def test_the_answer_is_render_svg_of_the_page_state():
    status, body = answer("POST", "/api/svg", {
        "layout": REF, "shape": "8,16", "color": "warpid", "selected": 53, "highlight": [1, 2],
        "dim": True, "tiles_per_row": 2, "width": 900})
    assert status == 200
    want = layout_svg(tl.parse(REF), (8, 16), color="warpid", width=900, highlight=[1, 2],
                      selected=53, dim=True, tiles_per_row=2)
    assert body["svg"] == want


def test_swizzle_and_dtype_are_those_of_the_layout_request():
    status, body = answer("POST", "/api/svg", {"layout": "S[(8,64):(64,1)]", "shape": "8,64",
                                               "dtype": "float16", "swizzle": "128B"})
    assert status == 200 and "line x bank" in body["svg"]
    L = tl.ComposeLayout(tl.Swizzle.for_dtype("float16", "128B"), tl.parse("S[(8,64):(64,1)]"))
    assert body["svg"] == layout_svg(L, (8, 64), "float16")


@pytest.mark.parametrize(("extra", "field"), [
    ({"highlight": "1,2"}, "highlight"), ({"dim": 1}, "dim"), ({"selected": "5"}, "selected"),
    ({"tiles_per_row": 1.5}, "tiles_per_row"), ({"width": "wide"}, "width"),
])
def test_bad_view_state_is_a_400_naming_its_field(extra, field):
    status, body = answer("POST", "/api/svg", {"layout": "S[(4,8):(8,1)]", **extra})
    assert status == 400 and body["field"] == field


def test_refusals_of_the_renderer_are_400s():
    for extra in ({"selected": 99}, {"tiles_per_row": 0}, {"color": "nosuchaxis"}):
        status, body = answer("POST", "/api/svg", {"layout": "S[(4,8):(8,1)]", **extra})
        assert status == 400, (extra, body)


def _grid(cell, nrows, ncols, ntiles=1, sub=1):
    w, h = cell
    return {"cell": [w, h], "rows": [r * h for r in range(nrows + 1)],
            "cols": [c * w * sub for c in range(ncols + 1)],
            "tiles": [[30 + t * (ncols * sub * w + 10), 32] for t in range(ntiles)],
            "size": [40 + ntiles * (ncols * sub * w + 10), 40 + nrows * h], "font": 7,
            "header": 16 if ntiles > 1 else 0, "heads": [1] * ntiles}


def test_the_pages_view_state_draws_the_picture_as_the_page_shows_it():
    view = {"logical": _grid((20, 12), 8, 16), "physical": _grid((24, 16), 32, 2, 4),
            "what": "laneid", "captions": ["a", "b"]}
    status, body = answer("POST", "/api/svg", {"layout": REF, "shape": "8,16", "view": view})
    assert status == 200
    assert body["svg"] == page_svg(tl.parse(REF), (8, 16), page=PageView.parse(view))
    assert ">warpid 5<" in body["svg"]  # the tile names the page writes
    status, body = answer("POST", "/api/svg", {"layout": REF, "view": {"logical": 1}})
    assert status == 400 and body["field"] == "view"
    # a geometry for another grid is refused (the page's view of another layout)
    status, body = answer("POST", "/api/svg", {"layout": "S[(4,8):(8,1)]", "shape": "4,8",
                                               "view": view})
    assert status == 400 and "lays out" in body["error"]


def test_the_physical_tiles_follow_the_requests_axis_order_as_the_page_draws_them():
    mesh = {"layout": "S[(2,4,8):(1@x,8,1)] + R[2:1@y]", "shape": "8,8"}
    _, plain = answer("POST", "/api/svg", mesh)
    _, ordered = answer("POST", "/api/svg", {**mesh, "order": ["y", "x"]})
    assert ordered["svg"] != plain["svg"]
    L = tl.parse(mesh["layout"], axes=["x", "y"])
    assert ordered["svg"] == layout_svg(L, (8, 8), order=["y", "x"])
    assert plain["svg"] == layout_svg(L, (8, 8))
