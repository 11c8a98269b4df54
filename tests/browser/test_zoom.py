"""Cell sizing, zoom, scroll and pan in real Chromium."""

from __future__ import annotations

from urllib.parse import parse_qs, quote, urlsplit

import pytest

import tilelayout as tl
from tilelayout.explorer import examples
from tilelayout.explorer.views.layout import layout_view

from .test_explorer import hex_rgb, physical_cell, png_pixels

pytestmark = pytest.mark.browser


GEOM = """(v) => { const g = v === 'logical' ? window.__tl.state.model.lgrid
                                           : window.__tl.state.model.pgrid;
  const sc = document.getElementById(v + '-scroll');
  const view = document.getElementById(v + '-view');
  return {cell: g.cell, width: g.width, height: g.height, vw: sc.clientWidth, vh: sc.clientHeight,
          sw: sc.scrollWidth, sh: sc.scrollHeight, sl: sc.scrollLeft, st: sc.scrollTop,
          panel: view.clientWidth, fitted: g.fitted}; }"""


def geom(page, view):
    return page.page.evaluate(GEOM, view)


def test_cells_fill_the_panels_and_follow_the_window(page):
    page.open("?preset=" + quote("smem 8x64 float16, no swizzle"))
    for view in ("logical", "physical"):
        g = geom(page, view)
        # an 8 x 64 tile (8 x 32 bank words) spans the panel's width, not a sliver of it
        assert g["cell"] >= 14 and g["width"] >= 0.85 * (g["panel"] - 20), (view, g)
        assert g["width"] <= g["vw"] + 1 and g["height"] <= g["vh"] + 1  # no scrolling needed
    assert page.page.evaluate("document.getElementById('views').classList.contains('stacked')")
    # small tiles: big cells (labels drawn from 14 px), at most 36 px, everything visible
    page.open("?preset=" + quote("tensor-core tile"))
    big = {v: geom(page, v) for v in ("logical", "physical")}
    assert 24 <= big["logical"]["cell"] <= 36 and big["physical"]["cell"] >= 18
    assert big["logical"]["width"] >= 0.85 * (big["logical"]["panel"] - 20)
    for g in big.values():
        assert g["sw"] <= g["vw"] + 1 and g["sh"] <= g["vh"] + 1
    page.open("?layout=" + quote("S[(2,4):(4@laneid,1@laneid)]"))
    assert geom(page, "logical")["cell"] == 36  # the cap
    # a narrower window: the cells shrink to fit again, but not below the readable 14 px
    # (the view scrolls down instead, never sideways)
    before = page.page.evaluate("window.__tl.state.model.pgrid.cell")
    page.page.set_viewport_size({"width": 1000, "height": 700})
    page.page.wait_for_function(f"window.__tl.state.model.pgrid.cell < {before}")
    g = geom(page, "physical")
    assert g["cell"] >= 14 and g["sw"] <= g["vw"] + 1
    page.page.set_viewport_size({"width": 1400, "height": 1000})
    page.page.wait_for_function(f"window.__tl.state.model.pgrid.cell === {before}")
    assert page.errors == []


def test_zoom_scroll_and_pan_a_128x256_tile(page):
    e = examples.get("wgmma 128x256 accumulator")
    L = tl.parse(e.layout)
    view = layout_view({"layout": e.layout, "shape": list(e.shape)})["physical"]
    page.open(f"?preset={quote(e.name)}")
    fit = geom(page, "logical")
    assert fit["fitted"] and 1 <= fit["cell"] < 8 and fit["sw"] <= fit["vw"] + 1
    for _ in range(8):
        page.page.click("[data-testid=zoom-in-logical]")
    z = geom(page, "logical")
    assert z["cell"] >= 12 and not z["fitted"] and z["sw"] > z["vw"] + 100
    assert "px" in page.page.inner_text("[data-testid=zoom-label-logical]")
    # the last element, scrolled into view, is drawn in its colour and selects its owners
    page.click_at("window.__tl.logicalCenter(32767)")
    page.page.wait_for_function("window.__tl.detailsFor === 32767")
    assert geom(page, "logical")["sl"] > 0
    assert sorted(page.page.evaluate("window.__tl.highlight.physical")) == \
        [physical_cell(view, c) for c in L.apply(32767, shape=e.shape)]
    page.page.keyboard.press("Escape")
    pt = page.page.evaluate("window.__tl.logicalCenter(20000)")
    page.page.mouse.move(0, 0)
    rows = png_pixels(page.shot("zoomed-128x256.png").read_bytes())
    scroll = page.page.evaluate("window.scrollY")
    off = z["cell"] * 0.35  # off the centre, where the cell's label is drawn
    assert rows[int(pt["y"] - off + scroll)][int(pt["x"] - off)] == \
        hex_rgb(page.page.evaluate("window.__tl.colorOf(20000)"))
    # drag pans (and does not select)
    sel = page.page.evaluate("window.__tl.highlight.logical.length")
    before = geom(page, "logical")
    page.page.mouse.move(pt["x"], pt["y"])
    page.page.mouse.down()
    page.page.mouse.move(pt["x"] - 120, pt["y"] - 60, steps=4)
    page.page.mouse.up()
    after = geom(page, "logical")
    assert (after["sl"] - before["sl"], after["st"] - before["st"]) == (120, 60)
    assert page.page.evaluate("window.__tl.highlight.logical.length") == sel
    # ctrl + wheel over the physical view zooms it around the pointer
    cell = geom(page, "physical")["cell"]
    page.ctrl_wheel("physical-canvas")
    page.page.wait_for_function(f"window.__tl.state.model.pgrid.cell > {cell}")
    # physical slot click while zoomed: elements_at of that slot
    page.click_at("window.__tl.physicalCenter(7, 31, 127, 0)")
    page.page.wait_for_function("typeof window.__tl.detailsFor === 'string'")
    coord = {**view["tiles"][7], "laneid": 31, "m": 127}
    want = [r * 256 + c for r, c in tl.eval.inverse.elements_at(L, coord, e.shape)]
    assert page.page.evaluate("window.__tl.highlight.logical") == sorted(want)
    page.page.click("[data-testid=zoom-fit-logical]")
    # fitted again (its box may have changed: the zoomed physical view takes what it needs)
    refit = geom(page, "logical")
    assert refit["fitted"] and abs(refit["cell"] - fit["cell"]) <= 0.5, (refit, fit)
    assert page.errors == []


REF = "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid"


def test_zoom_levels_live_in_the_url(page):
    page.open(f"?layout={quote(REF)}&shape=8,16&zl=16&zp=8")
    page.page.wait_for_function("window.__tl.cell().logical === 16 && window.__tl.cell().physical === 8")
    q = parse_qs(urlsplit(page.page.url).query)
    assert q["zl"] == ["16"] and q["zp"] == ["8"]
    page.page.click("[data-testid=zoom-in-logical]")
    cell = page.page.evaluate("window.__tl.cell()")
    assert cell["logical"] > 16
    q = parse_qs(urlsplit(page.page.url).query)
    assert q["zl"] == [f"{cell['logical']:g}"] and q["zp"] == ["8"]
    # the written link reproduces both zoom levels
    url = page.page.url
    page.page.goto("about:blank")
    page.page.goto(url)
    page.page.wait_for_function(f"window.__tl && window.__tl.state.model && "
                                f"window.__tl.cell().logical === {cell['logical']} && "
                                f"window.__tl.cell().physical === 8")
    # fit removes the level; a bad value is ignored (fit)
    page.page.click("[data-testid=zoom-fit-physical]")
    assert "zp" not in parse_qs(urlsplit(page.page.url).query)
    page.open(f"?layout={quote(REF)}&shape=8,16&zl=abc")
    assert page.page.evaluate("window.__tl.state.model.lgrid.fitted")
    assert "zl" not in parse_qs(urlsplit(page.page.url).query)
    assert page.errors == []
