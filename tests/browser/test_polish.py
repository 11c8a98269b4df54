"""The explorer's sizing, zoom, preset parameters and analysis panel, in real Chromium."""

from __future__ import annotations

from urllib.parse import parse_qs, quote, urlsplit

import pytest

import tilelayout as tl
from tilelayout import presets
from tilelayout.explorer import api, examples

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
    view = api.layout_view({"layout": e.layout, "shape": list(e.shape)})["physical"]
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
    box = page.page.locator("[data-testid=physical-canvas]").bounding_box()
    page.page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.page.keyboard.down("Control")
    page.page.mouse.wheel(0, -100)
    page.page.keyboard.up("Control")
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


def test_preset_parameters_rebuild_and_live_in_the_url(page):
    page.open("?preset=wgmma.m64nNk16.D")
    assert page.page.input_value("[data-testid=param-n]") == "64"
    before = page.renders()
    page.page.select_option("[data-testid=param-n]", "16")
    page.wait_render(before)
    want = presets.get("wgmma.m64nNk16.D", n=16)
    page.page.wait_for_function(f"window.__tl.state.data.layout === {str(want.layout)!r}")
    assert page.page.input_value("[data-testid=layout-input]") == str(want.layout)
    assert page.page.input_value("[data-testid=shape-input]") == "64,16"
    params = parse_qs(urlsplit(page.page.url).query)
    assert params["p.n"] == ["16"] and params["preset"] == ["wgmma.m64nNk16.D"]
    # the link reproduces the parameters
    page.open("?" + urlsplit(page.page.url).query)
    assert page.page.evaluate("window.__tl.state.data.layout") == str(want.layout)
    assert page.page.input_value("[data-testid=param-n]") == "16"
    # a hand-written link with parameters only
    page.open("?preset=mma.m16n8k16.A&p.dtype=bfloat16")
    assert page.page.evaluate("window.__tl.state.data.layout") == \
        str(presets.get("mma.m16n8k16.A", dtype="bfloat16").layout)
    # checkbox and text widgets
    page.page.select_option("[data-testid=preset-select]", "ldmatrix.x4")
    page.page.wait_for_selector("[data-testid=param-trans]")
    before = page.page.evaluate("window.__tl.presetBuilds || 0")
    page.page.check("[data-testid=param-trans]")
    page.page.wait_for_function(f"window.__tl.presetBuilds > {before}")
    assert page.page.evaluate("window.__tl.state.data.layout") == \
        str(presets.get("ldmatrix.x4", trans=True).layout)
    page.page.select_option("[data-testid=preset-select]", "mesh.shard")
    page.page.wait_for_selector("[data-testid=param-mesh]")
    before = page.page.evaluate("window.__tl.presetBuilds || 0")
    page.page.fill("[data-testid=param-mesh]", "dp=4,tp=2")
    page.page.fill("[data-testid=param-shape]", "16,4")
    page.page.wait_for_function(
        f"window.__tl.presetBuilds > {before} && "
        f"window.__tl.state.data.layout === "
        f"{str(presets.get('mesh.shard', mesh={'dp': 4, 'tp': 2}, shape=(16, 4)).layout)!r}")
    # a refused value: the error names it, the widget is marked, the last picture stays
    page.page.select_option("[data-testid=preset-select]", "tmem.scale_factors")
    shown = str(presets.default("tmem.scale_factors").layout)
    page.page.wait_for_function(f"window.__tl.state.data.layout === {shown!r}")
    page.page.fill("[data-testid=param-rows]", "3")
    page.page.wait_for_selector("[data-testid=error]:not([hidden])")
    assert "multiple of 32" in page.page.inner_text("[data-testid=error]")
    assert "bad" in page.page.get_attribute("[data-testid=param-rows]", "class")
    assert page.page.evaluate("window.__tl.state.data.layout") == shown
    page.page.fill("[data-testid=param-rows]", "64")
    page.page.wait_for_selector("[data-testid=error]", state="hidden")
    assert page.page.evaluate("window.__tl.state.data.layout") == \
        str(presets.get("tmem.scale_factors", rows=64).layout)
    # editing the layout text leaves the preset: no parameter widgets
    page.page.fill("[data-testid=layout-input]", "S[(4,8):(8@laneid,1@laneid)]")
    page.page.wait_for_selector("[data-testid=params]", state="hidden")
    assert page.errors == []


def test_legality_findings_highlight_their_elements(page):
    e = examples.get("1-D shard")
    page.open(f"?preset={quote(e.name)}")
    page.page.wait_for_selector("[data-testid=finding][data-kind=out_of_range]")
    text = page.page.inner_text("[data-testid=finding][data-kind=out_of_range]")
    assert "laneid 63 does not exist" in text and "32 elements" in text and "(32)" in text
    page.page.click("[data-testid=finding][data-kind=out_of_range]")
    page.page.wait_for_function("window.__tl.highlight.logical.length > 0")
    L = tl.parse(e.layout)
    want = [i for i in range(64) if any(c["laneid"] >= 32 for c in L.apply(i))]
    assert page.page.evaluate("window.__tl.highlight.logical") == want
    phys = page.page.evaluate("window.__tl.highlight.physical")
    view = api.layout_view({"layout": e.layout})["physical"]
    assert sorted(phys) == sorted(physical_cell(view, c) for i in want for c in L.apply(i))
    assert "active" in page.page.get_attribute(
        "[data-testid=finding][data-kind=out_of_range]", "class")
    # a duplicate finding
    page.page.fill("[data-testid=shape-input]", "")
    page.page.fill("[data-testid=layout-input]", "S[(4,8):(1@laneid,1@laneid)]")
    page.page.wait_for_selector("[data-testid=finding][data-kind=duplicate]")
    page.page.click("[data-testid=finding][data-kind=duplicate]")
    page.page.wait_for_function("window.__tl.highlight.logical.length > 0")
    assert page.page.evaluate("window.__tl.highlight.logical") == list(range(1, 31))
    # the tensor-core tile: idle coordinates are reported, but they hold no element
    page.open("?preset=" + quote("tensor-core tile"))
    page.page.wait_for_selector("[data-testid=finding][data-kind=unused]")
    assert page.page.get_attribute("[data-testid=finding][data-kind=unused]", "data-finding") is None
    page.open("?preset=" + quote("shard to lanes"))
    page.page.wait_for_selector("[data-testid=legal]", state="attached")  # in the folded one-liner
    assert page.errors == []


def test_bank_conflict_summary_and_requests(page):
    page.open("?preset=" + quote("smem 8x64 float16, no swizzle"))
    page.page.wait_for_selector("[data-testid=conflict-column]")
    col = page.page.inner_text("[data-testid=conflict-column]")
    assert "64 wavefronts vs ideal 8" in col and "8-way" in col and "banks 0–15" in col
    assert "conflict-free" in page.page.inner_text("[data-testid=conflict-row]")
    a = api.analysis_view({"layout": "S[(8,64):(64,1)]", "dtype": "float16"})
    page.page.click("[data-testid=conflict-column] .chips button:nth-child(2)")
    page.page.wait_for_selector("[data-testid=access]")
    want = sorted(a["conflicts"]["reads"][0]["requests"][1]["elements"])
    assert page.page.evaluate("window.__tl.highlight.logical") == want
    assert "8-way" in page.page.inner_text("[data-testid=access]")
    page.shot("conflicts-none.png")
    before = page.renders()
    page.page.select_option("[data-testid=swizzle-select]", "128B")
    page.wait_render(before)
    page.page.wait_for_function(
        "document.querySelector('[data-testid=conflict-column]')?.textContent.includes('conflict-free')")
    assert "8 wavefronts vs ideal 8" in page.page.text_content("[data-testid=conflict-column]")
    assert page.errors == []
