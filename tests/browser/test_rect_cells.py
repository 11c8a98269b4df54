"""Rectangular cells: a height-limited grid with spare width widens its cells so that the
widest label fits; everything that uses cell geometry follows (labels, clicks, highlight,
connectors, zoom and its URL state and indicator, SVG export). Checked against the
library and on canvas pixels."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qs, quote, urlsplit

import pytest

import tilelayout as tl
from tilelayout.eval.inverse import elements_at
from tilelayout.explorer.views.layout import layout_view
from tilelayout.explorer.views.presets import preset_view

from .test_explorer import physical_cell
from .test_grid import CELL_INK

pytestmark = pytest.mark.browser

MMA_A = "?preset=" + quote("mma.m16n8k16.A") + "&p.dtype=float16"
TALL = "S[(32,4):(128,1)]"  # logical 32 x 4 coloured by the address m (labels up to "3971")

# a point inside a cell at fractions (fx, fy) of its width and height, in page
# coordinates (the cell is scrolled into its view first)
CELL_POINT = """([v, key, fx, fy]) => {
  const m = window.__tl.state.model, g = v === 'logical' ? m.lgrid : m.pgrid;
  g.reveal(key);
  const [x, y, w, h] = g.keyRect(key);
  const [vx, vy] = g.toView(x + fx * w, y + fy * h);
  const r = document.getElementById(v + '-canvas').getBoundingClientRect();
  return {x: r.left + vx, y: r.top + vy}; }"""


def geometry(page):
    return page.page.evaluate("window.__tl.geometry()")


def zoom_text(page, view):
    return page.page.inner_text(f"[data-testid=zoom-label-{view}]")


def pkey(page, t, r, c, s=0):
    return page.page.evaluate(f"window.__tl.state.model.pgrid.key({t}, {r}, {c}, {s})")


def click_cell(page, view, key, fx, fy):
    pt = page.page.evaluate(CELL_POINT, [view, key, fx, fy])
    page.page.mouse.click(pt["x"], pt["y"])


def click_slot(page, t, r, c, fx, fy):
    """Click the physical cell (t, r, c) at (fx, fy) of it; the highlighted elements."""
    page.page.evaluate("window.__tl.detailsFor = null")
    click_cell(page, "physical", pkey(page, t, r, c), fx, fy)
    page.page.wait_for_function("typeof window.__tl.detailsFor === 'string'")
    return page.page.evaluate("window.__tl.highlight.logical")


def test_mma_a_physical_cells_are_wide_and_all_labelled(page):
    page.open(MMA_A)
    g = geometry(page)
    phys, logical = g["physical"], g["logical"]
    # 32 lanes x 8 registers: height-limited at 22 px; widened so that "15,15" fits
    assert phys["h"] >= 14 and phys["w"] > phys["h"] and phys["w"] <= 3 * phys["h"], g
    assert phys["fitted"] and phys["aspect"] == phys["w"] / phys["h"]
    assert zoom_text(page, "physical") == f"{phys['w']}x{phys['h']} px · fit"
    got = page.page.evaluate("window.__tl.labels().physical")
    assert got["px"] >= 7 and got["labelled"] == got["filled"] == 256, got
    cells = page.page.evaluate(CELL_INK, "physical")
    assert len(cells) == 256 and min(cells) > 0, cells  # text pixels inside every cell
    fits = page.page.evaluate("""() => { const g = window.__tl.state.model.pgrid;
        const c = document.createElement('canvas').getContext('2d');
        c.font = `${g.labelPx()}px ui-monospace, monospace`;
        return c.measureText('15,15').width <= g.sw - 3; }""")
    assert fits
    # no sideways scrolling: the widened grid still fits its panel
    fit = page.page.evaluate("""() => { const g = window.__tl.state.model.pgrid;
        return g.width <= g.vw + 1 && g.height <= g.vh + 1; }""")
    assert fit
    # the logical view's labels ("0".."31") fit a square: it stays square
    assert logical["w"] == logical["h"] and zoom_text(page, "logical") == f"{logical['h']} px · fit"
    # the SVG export follows: every physical cell a widened rectangle with its text
    with page.page.expect_download() as dl:
        page.page.click("[data-testid=export-svg]")
    svg = Path(dl.value.path()).read_text(encoding="utf-8")
    # (render/page_svg draws a row's run of one colour as one rectangle: whole cells wide,
    # the blank between cells drawn over it)
    physical = svg.split('<g class="physical"', 1)[1]
    fills = "".join(re.findall(r'<path fill="#(?!ffffff|efedea)[0-9a-f]{6}" d="([^"]*)"', physical))
    runs = [(float(w), float(h)) for w, h in re.findall(r"h([\d.]+)v([\d.]+)h-", fills)]
    assert {h for _, h in runs} == {phys["h"]}
    assert all(w % phys["w"] == 0 for w, _ in runs) and sum(w for w, _ in runs) == 256 * phys["w"]
    groups = re.findall(rf'<g font-size="{got["px"]}"[^>]*fill="#1c1917"[^>]*>(.*?)</g>', physical)
    texts = [t for body in groups for t in re.findall(r">(\d+,\d+)</text>", body)]
    assert sorted(texts) == sorted(f"{i},{j}" for i in range(16) for j in range(16))
    page.shot("rect-mma-A.png")
    assert page.errors == []


def test_clicks_on_wide_cells_select_what_the_library_says(page):
    page.open(MMA_A)
    entry = preset_view({"name": "mma.m16n8k16.A", "params": {"dtype": "float16"}})
    L, shape = tl.parse(entry["layout"]), tuple(entry["shape"])
    view = layout_view({"layout": entry["layout"], "shape": list(shape)})["physical"]
    lanes = view["rows"][0]["values"]
    regs = view["cols"][0]["values"]
    # a physical slot, near its left and its right edge (beyond a square's width)
    for lane, reg in [(5, 6), (0, 0), (31, 7), (17, 3)]:
        want = sorted(r * shape[1] + c for r, c in elements_at(L, {"laneid": lane, "m": reg}, shape))
        assert want
        for fx in (0.1, 0.9):
            got = click_slot(page, 0, lanes.index(lane), regs.index(reg), fx, 0.5)
            assert got == want, (lane, reg, fx)
    # a logical element: exactly apply's owners are highlighted, a connector ends at each
    for index in [(7, 15), (8, 0), (3, 9)]:
        flat = index[0] * shape[1] + index[1]
        click_cell(page, "logical", page.page.evaluate(f"window.__tl.state.model.lkey[{flat}]"), 0.5, 0.5)
        page.page.wait_for_function(f"window.__tl.detailsFor === {flat}")
        owners = L.apply(index, shape=shape)
        hl = page.page.evaluate("window.__tl.highlight")
        assert hl["logical"] == [flat]
        assert sorted(hl["physical"]) == sorted(physical_cell(view, c) for c in owners)
        for c in owners:  # the connector's dot sits at the owner's left edge, mid-height
            t, r, col, s = physical_cell(view, c)
            left = page.page.evaluate(CELL_POINT, ["physical", pkey(page, t, r, col, s), 0, 0.5])
            dots = page.page.evaluate("""() => {
                const b = document.getElementById('views').getBoundingClientRect();
                return [...document.querySelectorAll('#connectors circle')].map((c) =>
                  [b.left + +c.getAttribute('cx'), b.top + +c.getAttribute('cy')]); }""")
            assert any(abs(x - left["x"]) <= 2 and abs(y - left["y"]) <= 1 for x, y in dots), (c, dots)
    assert page.errors == []


def test_zoom_keeps_the_aspect_and_fit_returns_to_it(page):
    page.open(MMA_A)
    fit = geometry(page)["physical"]
    a = fit["aspect"]
    assert a > 1
    page.page.click("[data-testid=zoom-in-physical]")
    z = geometry(page)["physical"]
    assert not z["fitted"] and z["h"] > fit["h"]
    assert z["w"] == int(z["h"] * a + 1e-6) and abs(z["w"] / z["h"] - a) < 1 / z["h"]
    assert zoom_text(page, "physical") == f"{z['w']}x{z['h']} px"
    assert parse_qs(urlsplit(page.page.url).query)["zp"] == [f"{z['h']:g}"]  # the height
    # ctrl + wheel over the grid: both dimensions again
    page.ctrl_wheel("physical-canvas")
    page.page.wait_for_function(f"window.__tl.cell().physical > {z['h']}")
    z2 = geometry(page)["physical"]
    assert z2["w"] == int(z2["h"] * a + 1e-6) and z2["aspect"] == a
    # clicks while zoomed (and scrolled) still hit the right slot
    entry = preset_view({"name": "mma.m16n8k16.A", "params": {"dtype": "float16"}})
    L, shape = tl.parse(entry["layout"]), tuple(entry["shape"])
    want = sorted(r * shape[1] + c for r, c in elements_at(L, {"laneid": 29, "m": 6}, shape))
    assert click_slot(page, 0, 29, 6, 0.9, 0.2) == want
    # the link reproduces the zoomed rectangle
    url = page.page.url
    page.page.goto("about:blank")
    page.page.goto(url)
    page.page.wait_for_function("window.__tl && window.__tl.state.model && "
                                f"window.__tl.cell().physical === {z2['h']}")
    assert geometry(page)["physical"]["w"] == z2["w"]
    # fit: back to the widened rectangle it had
    page.page.click("[data-testid=zoom-fit-physical]")
    assert geometry(page)["physical"] == fit
    assert zoom_text(page, "physical") == f"{fit['w']}x{fit['h']} px · fit"
    assert "zp" not in parse_qs(urlsplit(page.page.url).query)
    assert page.errors == []


def test_tall_logical_grid_with_wide_labels_widens_too(page):
    page.open(f"?layout={quote(TALL)}&shape=32,4")
    square = geometry(page)["logical"]  # coloured by i: "0".."31" fit a square
    assert square["w"] == square["h"] and square["aspect"] == 1
    before = page.renders()
    page.page.select_option("[data-testid=color-select]", "m")  # "0".."3971"
    page.page.wait_for_function("window.__tl.geometry().logical.w > window.__tl.geometry().logical.h")
    assert page.renders() == before  # a recolour, not a new layout
    g = geometry(page)["logical"]
    assert g["fitted"] and g["w"] <= 3 * g["h"]
    got = page.page.evaluate("window.__tl.labels().logical")
    assert got["px"] >= 7 and got["labelled"] == got["filled"] == 128, got
    assert min(page.page.evaluate(CELL_INK, "logical")) > 0
    # a click near the right edge of a wide logical cell selects that element's owners
    L = tl.parse(TALL)
    view = layout_view({"layout": TALL, "shape": [32, 4]})["physical"]
    flat = 30 * 4 + 3
    click_cell(page, "logical", flat, 0.92, 0.5)
    page.page.wait_for_function(f"window.__tl.detailsFor === {flat}")
    hl = page.page.evaluate("window.__tl.highlight")
    assert hl["logical"] == [flat]
    (owner,) = L.apply((30, 3), shape=(32, 4))
    r, c = divmod(view["fold"]["values"].index(owner["m"]), view["fold"]["width"])
    assert hl["physical"] == [[0, r, c, 0]]
    assert page.errors == []


def test_cells_stay_square_where_widening_is_not_needed(page):
    # (the line x bank view's bank-word halves are narrow on purpose: two-line "i,j" text)
    for q in ("?preset=" + quote("smem 8x64 float16, no swizzle"),
              "?preset=" + quote("wgmma 128x256 accumulator")):
        page.open(q)
        g = geometry(page)
        for v in ("logical", "physical"):
            if v == "physical" and "smem" in q:
                assert g[v]["aspect"] == 0.75 and g[v]["w"] < g[v]["h"], g
                continue
            assert g[v]["w"] == g[v]["h"] and g[v]["aspect"] == 1, (q, v, g)
            assert re.fullmatch(r"[\d.]+ px · fit", zoom_text(page, v)), zoom_text(page, v)
    assert page.errors == []
