"""Grid review fixes, checked on what is drawn (canvas pixels, export text, URL):
one cell-text size per grid in all cells or none, every column label that fits, owner
tiles as a 2-D grid, mesh order, zoom in the URL, SVG export text as on the canvas."""

from __future__ import annotations

from urllib.parse import quote

import pytest

import tilelayout as tl
from tilelayout.explorer import examples
from tilelayout.explorer.views.layout import layout_view

pytestmark = pytest.mark.browser


REF = "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid"


# For every visible non-empty cell of a view: how many of its canvas pixels differ clearly
# from the cell's fill colour (nothing but its text is drawn inside a cell).
CELL_INK = """(v) => {
  const m = window.__tl.state.model, g = v === 'logical' ? m.lgrid : m.pgrid;
  const canvas = document.getElementById(v + '-canvas');
  const k = canvas.width / g.vw;
  const img = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
  const s = g.spec, out = [];
  for (let key = 0; key < s.ntiles * s.nrows * s.ncols * g.sub; key++) {
    const fill = g.fns.fill(key);
    if (!fill) continue;
    const rgb = [1, 3, 5].map((i) => parseInt(fill.slice(i, i + 2), 16));
    const [x, y, w, h] = g.keyRect(key);
    const [vx, vy] = g.toView(x, y);
    if (vx < g.marginL || vy < g.marginT || vx + w > g.vw || vy + h > g.vh) continue;
    let ink = 0;
    for (let yy = Math.ceil((vy + 1) * k); yy < Math.floor((vy + h - 2) * k); yy++) {
      for (let xx = Math.ceil((vx + 1) * k); xx < Math.floor((vx + w - 2) * k); xx++) {
        const i = (yy * canvas.width + xx) * 4;
        const d = Math.abs(img[i] - rgb[0]) + Math.abs(img[i + 1] - rgb[1]) + Math.abs(img[i + 2] - rgb[2]);
        if (d > 120) ink++;
      }
    }
    out.push(ink);
  }
  return out; }"""


# how many label-grey pixels sit above each column in the frozen column-label band
COL_INK = """(v) => {
  const m = window.__tl.state.model, g = v === 'logical' ? m.lgrid : m.pgrid;
  const canvas = document.getElementById(v + '-canvas');
  const k = canvas.width / g.vw;
  const img = canvas.getContext('2d').getImageData(0, 0, canvas.width, Math.ceil(g.marginT * k)).data;
  const out = [];
  for (let c = 0; c < g.spec.ncols; c++) {
    const x0 = g.tileX[0] + g.colX[c] - g.sx, x1 = x0 + g.cw;
    let ink = 0;
    for (let yy = 0; yy < Math.floor(g.marginT * k); yy++) {
      for (let xx = Math.ceil(x0 * k); xx < Math.floor(x1 * k); xx++) {
        const i = (yy * canvas.width + xx) * 4;
        if (img[i] < 200) ink++;
      }
    }
    out.push(ink);
  }
  return out; }"""


def ink(page, view):
    return page.page.evaluate(CELL_INK, view)


def set_zoom(page, logical, physical):
    page.page.evaluate(f"window.__tl.setZoom({logical}, {physical})")


def labels(page, view):
    return page.page.evaluate(f"window.__tl.labels().{view}")


def test_cell_text_has_one_size_per_grid_in_all_cells_or_none(page):
    page.page.set_viewport_size({"width": 1000, "height": 700})
    try:
        # the 16-per-row address view: labels "0,0" .. "7,15"
        page.open("?layout=" + quote("S[(8,16):(16,1)]") + "&shape=8,16")
        set_zoom(page, "null", 24)
        got = labels(page, "physical")
        assert got["px"] >= 7 and got["labelled"] == got["filled"] >= 64, got  # all visible
        assert min(ink(page, "physical")) > 0  # text is visible in every cell
        # 16 px: "7,15" does not fit at 7 px, so no cell has text (not "0,0" alone)
        set_zoom(page, "null", 16)
        got = labels(page, "physical")
        assert got["px"] == 0 and got["labelled"] == 0 and got["filled"] >= 64, got
        assert max(ink(page, "physical")) == 0
    finally:
        page.page.set_viewport_size({"width": 1400, "height": 1000})
    # mma.m16n8k16.A: labels "0,0" .. "15,15"; at the fitted size (22 px at 1400 x 1000)
    # the physical cells had text only where it was short; now all cells or none
    page.open("?preset=" + quote("mma.m16n8k16.A"))
    got = labels(page, "logical")
    assert got["px"] >= 7 and got["labelled"] == got["filled"] == 256, got
    assert min(ink(page, "logical")) > 0
    cells = ink(page, "physical")
    assert len(cells) == 256 and (max(cells) == 0 or min(cells) > 0), cells
    set_zoom(page, "null", 28)  # wide enough for "15,15": every visible cell, one size
    got = labels(page, "physical")
    assert got["px"] >= 7 and got["labelled"] == got["filled"] >= 64, got
    assert min(ink(page, "physical")) > 0
    fits = page.page.evaluate("""() => { const g = window.__tl.state.model.pgrid;
        const c = document.createElement('canvas').getContext('2d');
        c.font = `${g.labelPx()}px ui-monospace, monospace`;
        return c.measureText('15,15').width <= g.sw - 3; }""")
    assert fits
    assert page.errors == []


def test_every_column_label_is_shown_when_it_fits(page):
    page.page.set_viewport_size({"width": 1000, "height": 700})
    try:
        # ldmatrix.x4: register slots m 0..7 in cells of the readable minimum (14 px)
        page.open("?preset=" + quote("ldmatrix.x4"))
        cell = page.page.evaluate("window.__tl.state.model.pgrid.cell")
        assert 14 <= cell < 18
        cols = page.page.evaluate(COL_INK, "physical")
        assert len(cols) == 8 and min(cols) > 0, cols  # "1", "3", "5", "7" too
        # narrow warp tiles of the tensor-core tile: both register slots "0" and "1"
        page.open(f"?layout={quote(REF)}&shape=8,16")
        set_zoom(page, "null", 10)
        cols = page.page.evaluate(COL_INK, "physical")
        assert len(cols) == 2 and min(cols) > 0, cols
        # too narrow for every label: a consistent subsample (every 2nd, 4th, ...)
        set_zoom(page, "null", 4)
        cols = page.page.evaluate(COL_INK, "physical")
        assert cols[0] > 0
    finally:
        page.page.set_viewport_size({"width": 1400, "height": 1000})
    assert page.errors == []


def test_owner_tiles_of_two_tile_axes_form_a_grid(page):
    e = examples.get("wgmma 128x256 accumulator")
    page.open(f"?preset={quote(e.name)}")
    g = page.page.evaluate("""() => { const g = window.__tl.state.model.pgrid;
        return {x: [...g.tileX], y: [...g.tileY],
                tiles: window.__tl.state.data.physical.tiles}; }""")
    assert len(set(g["x"])) == 4 and len(set(g["y"])) == 2  # 2 x 4, not 3 + 3 + 2
    for t, tile in enumerate(g["tiles"]):  # wgid down, wid_in_wg across
        assert sorted(set(g["y"])).index(g["y"][t]) == tile["wgid"]
        assert sorted(set(g["x"])).index(g["x"][t]) == tile["wid_in_wg"]
    # a click on warp (1, 3)'s last slot selects what elements_at says is there
    view = layout_view({"layout": e.layout, "shape": list(e.shape)})["physical"]
    t = view["tiles"].index({"wgid": 1, "wid_in_wg": 3})
    page.click_at(f"window.__tl.physicalCenter({t}, 31, 127, 0)")
    page.page.wait_for_function("typeof window.__tl.detailsFor === 'string'")
    coord = {"wgid": 1, "wid_in_wg": 3, "laneid": 31, "m": 127}
    want = [r * 256 + c for r, c in tl.eval.inverse.elements_at(tl.parse(e.layout), coord, e.shape)]
    assert want and page.page.evaluate("window.__tl.highlight.logical") == sorted(want)
    # one tile axis (4 warps of the tensor-core tile): full rows of tiles
    page.open("?preset=" + quote("tensor-core tile"))
    per_row = page.page.evaluate("window.__tl.state.model.pgrid.perRow")
    assert 4 % per_row == 0
    assert page.errors == []


def test_mesh_tiles_follow_the_mesh_order(page):
    page.open("?preset=mesh.shard&p.spec=" + quote("None,tp"))
    title = page.page.inner_text("#physical-title")
    assert "dp x tp" in title and "tp x dp" not in title
    g = page.page.evaluate("""() => { const g = window.__tl.state.model.pgrid;
        return {x: [...g.tileX], y: [...g.tileY], tiles: window.__tl.state.data.physical.tiles}; }""")
    for t, tile in enumerate(g["tiles"]):  # dp down, tp across
        assert sorted(set(g["y"])).index(g["y"][t]) == tile["dp"]
        assert sorted(set(g["x"])).index(g["x"][t]) == tile["tp"]
    # the tile headers read dp first
    assert page.page.evaluate("window.__tl.state.model.pgrid.spec.tileLabel(1)") == "dp 0 · tp 1"
    assert page.errors == []


def test_side_by_side_views_are_drawn_side_by_side_at_1000px(page):
    # the views were sized for two halves but CSS wrapped them one above the other, so
    # the physical view ran below the window
    page.page.set_viewport_size({"width": 1000, "height": 700})
    try:
        for q in ("?preset=" + quote("mma.m16n8k16.A"),
                  "?preset=" + quote("wgmma 128x256 accumulator")):
            page.open(q)
            stacked = page.page.evaluate("document.getElementById('views').classList.contains('stacked')")
            rect = "(v) => document.getElementById(v + '-view').getBoundingClientRect().toJSON()"
            lv, pv = (page.page.evaluate(rect, v) for v in ("logical", "physical"))
            if stacked:
                assert pv["top"] >= lv["bottom"] - 1, q
            else:
                assert abs(pv["top"] - lv["top"]) < 1 and pv["left"] >= lv["right"], q
            g = page.page.evaluate("""() => { const g = window.__tl.state.model.pgrid;
                return {w: g.width, vw: g.vw}; }""")
            assert g["w"] <= g["vw"] + 1, q  # the 2 x 4 warps fit across, no sideways scrolling
            assert pv["bottom"] <= 700 + 1, q
    finally:
        page.page.set_viewport_size({"width": 1400, "height": 1000})
    assert page.errors == []
