"""The explorer in real Chromium: every preset, typing, errors, clicks vs the library, URLs."""

from __future__ import annotations

import io
import json
import re
import struct
import time
import zlib
from pathlib import Path
from urllib.parse import parse_qs, quote, urlsplit

import pytest

import tilelayout as tl
from tilelayout.eval.inverse import elements_at
from tilelayout.explorer import examples
from tilelayout.explorer.request import resolve
from tilelayout.explorer.views.layout import layout_view
from tilelayout.explorer.views.presets import presets as preset_catalog

pytestmark = pytest.mark.browser

REF = "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid"


def png_pixels(data: bytes):
    """Decode an 8-bit RGB(A) PNG (what Chromium writes) into rows of (r, g, b)."""
    f = io.BytesIO(data)
    assert f.read(8) == b"\x89PNG\r\n\x1a\n"
    idat = b""
    while True:
        n, kind = struct.unpack(">I4s", f.read(8))
        chunk = f.read(n)
        f.read(4)
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", chunk[:10])
            assert depth == 8 and ctype in (2, 6)
        elif kind == b"IDAT":
            idat += chunk
        elif kind == b"IEND":
            break
    bpp = 4 if ctype == 6 else 3
    raw = zlib.decompress(idat)
    rows, prev, stride = [], bytearray(w * bpp), w * bpp
    pos = 0
    for _ in range(h):
        ft, line = raw[pos], bytearray(raw[pos + 1:pos + 1 + stride])
        pos += 1 + stride
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if ft == 1:
                line[i] = (line[i] + a) & 255
            elif ft == 2:
                line[i] = (line[i] + b) & 255
            elif ft == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ft == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[i:i + 3]) for i in range(0, stride, bpp)])
        prev = line
    return rows


def hex_rgb(h: str):
    return tuple(int(h[i:i + 2], 16) for i in (1, 3, 5))


def physical_cell(view: dict, coord: dict) -> list[int]:
    """The grid cell (tile, row, col, sub) of a library coordinate in the API's physical view."""
    tile = [{a: coord[a] for a in view["tile_axes"]}].pop()
    t = view["tiles"].index(tile) if view["tile_axes"] else 0
    def pos(parts):
        i = 0
        for p in parts:
            i = i * len(p["values"]) + p["values"].index(coord[p["axis"]])
        return i
    return [t, pos(view["rows"]), pos(view["cols"]), 0]


def test_every_preset_loads_without_console_errors(page):
    page.open()
    names = page.page.evaluate("window.__tl.state.presets.map(p => p.name)")
    assert len(names) == len(examples.EXAMPLES) + len(tl.presets.names())
    for name in names:
        before = page.renders()
        page.page.select_option("[data-testid=preset-select]", label=name)
        page.wait_render(before)
        state = page.page.evaluate("""() => { const d = window.__tl.state.data;
            return {layout: d.layout, err: window.__tl.lastError, drawn: !!window.__tl.state.model} }""")
        assert state["err"] is None and state["drawn"], name
        want = next(p for p in preset_catalog()["presets"] if p["name"] == name)
        assert state["layout"] == str(resolve(want)[0]), name
    assert page.errors == [] and page.http_errors == []


def test_typing_updates_both_views_and_canvas_is_drawn(page):
    page.open(f"?layout={quote(REF)}&shape=8,16")
    before = page.renders()
    page.page.fill("[data-testid=layout-input]", "S[(4,8):(8@laneid,1@laneid)]")
    page.page.fill("[data-testid=shape-input]", "4,8")
    page.wait_render(before)
    page.page.wait_for_function("window.__tl.state.data.layout === 'S[(4,8):(8@laneid,1@laneid)]'")
    page.settle()
    d = page.page.evaluate(
        "() => [window.__tl.state.data.size, window.__tl.state.data.physical.tiles.length]")
    assert d == [32, 1]
    path = page.shot("typing.png")
    rows = png_pixels(path.read_bytes())
    scroll = page.page.evaluate("window.scrollY")
    for canvas, centre in (("logical-canvas", "window.__tl.logicalCenter(13)"),
                           ("physical-canvas", "window.__tl.physicalCenter(0, 13, 0, 0)")):
        box = page.page.locator(f"[data-testid={canvas}]").bounding_box()
        pt = page.page.evaluate(centre)
        x, y = int(pt["x"]), int(pt["y"] + scroll)
        assert box["width"] > 40 and box["height"] > 100, canvas
        assert rows[y][x] == hex_rgb(page.page.evaluate("window.__tl.colorOf(13)")), canvas
    assert page.errors == []


def test_bad_input_shows_error_at_column_and_keeps_last_picture(page):
    page.open(f"?layout={quote(REF)}&shape=8,16")
    page.page.fill("[data-testid=layout-input]", "S[(8,4):(4@lane,1)]")
    page.page.wait_for_selector("[data-testid=error]:not([hidden])")
    text = page.page.inner_text("[data-testid=error]")
    assert "column 12" in text and "laneid" in text
    assert page.page.evaluate("window.__tl.state.data.layout") == REF  # last good picture kept
    page.shot("error.png")
    page.page.fill("[data-testid=layout-input]", "S[(8,4):(4@laneid,1)]")
    page.page.fill("[data-testid=shape-input]", "7,7")  # an edit of the shape: an error
    page.page.wait_for_function(
        "document.querySelector('[data-testid=error]').innerText.includes('shape')")
    page.page.fill("[data-testid=shape-input]", "8,4")
    page.page.wait_for_selector("[data-testid=error]", state="hidden")
    assert page.page.evaluate("window.__tl.state.data.layout") == "S[(8,4):(4@laneid,1)]"
    assert page.errors == []


def test_click_logical_element_highlights_exactly_the_owners(page):
    page.open(f"?layout={quote(REF)}&shape=8,16")
    L = tl.parse(REF)
    view = layout_view({"layout": REF, "shape": [8, 16]})["physical"]
    for index in [(7, 15), (0, 8), (3, 5)]:
        flat = index[0] * 16 + index[1]
        page.click_at(f"window.__tl.logicalCenter({flat})")
        page.page.wait_for_function(f"window.__tl.detailsFor === {flat}")
        hl = page.page.evaluate("window.__tl.highlight")
        owners = L.apply(index, shape=(8, 16))
        assert hl["logical"] == [flat]
        assert sorted(hl["physical"]) == sorted(physical_cell(view, c) for c in owners)
        details = page.page.inner_text("[data-testid=details]")
        assert f"i={index[0]}, j={index[1]}" in details
        for c in owners:
            assert ", ".join(f"{a}={v}" for a, v in c.items()) in details
    # the highlighted owner cells are drawn in the element's palette colour
    path = page.shot("click-logical.png")
    rows = png_pixels(path.read_bytes())
    colour = hex_rgb(page.page.evaluate("window.__tl.colorOf(53)"))
    for c in L.apply((3, 5), shape=(8, 16)):
        t, r, col, s = physical_cell(view, c)
        pt = page.page.evaluate(f"window.__tl.physicalCenter({t}, {r}, {col}, {s})")
        scroll = page.page.evaluate("window.scrollY")
        assert rows[int(pt["y"] + scroll)][int(pt["x"])] == colour
    # a cell that is not an owner is dimmed, not drawn in full colour
    pt = page.page.evaluate("window.__tl.logicalCenter(0)")
    scroll = page.page.evaluate("window.scrollY")
    assert rows[int(pt["y"] + scroll)][int(pt["x"])] != hex_rgb(page.page.evaluate("window.__tl.colorOf(0)"))
    # arrow keys move the selection
    page.page.keyboard.press("ArrowRight")
    page.page.wait_for_function("window.__tl.detailsFor === 54")
    assert page.errors == []


def test_click_physical_slot_and_tile_highlight_elements_at(page):
    page.open(f"?layout={quote(REF)}&shape=8,16")
    L = tl.parse(REF)
    view = layout_view({"layout": REF, "shape": [8, 16]})["physical"]
    # a register slot: warp 6 (tile 1), lane 5, m 1
    page.click_at("window.__tl.physicalCenter(1, 5, 1, 0)")
    page.page.wait_for_function("typeof window.__tl.detailsFor === 'string'")
    coord = {"warpid": view["tiles"][1]["warpid"], "laneid": 5, "m": 1}
    want = [r * 16 + c for r, c in elements_at(L, coord, (8, 16))]
    assert page.page.evaluate("window.__tl.highlight.logical") == sorted(want)
    assert "holds" in page.page.inner_text("[data-testid=details]")
    # a whole warp: its tile header
    page.page.evaluate("window.__tl.detailsFor = null")
    box = page.page.locator("[data-testid=physical-canvas]").bounding_box()
    tile_x = page.page.evaluate("window.__tl.state.model.pgrid.tileX[2]")
    tile_y = page.page.evaluate("window.__tl.state.model.pgrid.tileY[2]")
    page.page.mouse.click(box["x"] + tile_x + 6, box["y"] + tile_y - 6)
    page.page.wait_for_function("typeof window.__tl.detailsFor === 'string'")
    want = [r * 16 + c for r, c in elements_at(L, {"warpid": view["tiles"][2]["warpid"]}, (8, 16))]
    assert page.page.evaluate("window.__tl.highlight.logical") == sorted(want)
    page.shot("click-warp.png")
    assert page.errors == []


def test_smem_bank_word_and_column_conflict(page):
    page.open("?layout=S%5B(8%2C64)%3A(64%2C1)%5D&shape=8,64&dtype=float16&swizzle=128B")
    Lz = tl.ComposeLayout(tl.Swizzle.for_dtype("float16", "128B"), tl.parse("S[(8,64):(64,1)]"))
    page.click_at("window.__tl.physicalCenter(0, 1, 4, 0)")  # line 1, bank 4
    page.page.wait_for_function("typeof window.__tl.detailsFor === 'string'")
    want = set()
    for m in (72, 73):  # the two float16 addresses in bank word 36
        want.update(r * 64 + c for r, c in elements_at(Lz, {"m": m}, (8, 64)))
    assert page.page.evaluate("window.__tl.highlight.logical") == sorted(want) == [64, 65]
    # a logical column read: conflict-free with the swizzle, 8-way without
    box = page.page.locator("[data-testid=logical-canvas]").bounding_box()
    x = page.page.evaluate("window.__tl.logicalCenter(0).x")
    page.page.mouse.click(x, box["y"] + 6)
    page.page.wait_for_selector("[data-testid=access]")
    assert "conflict-free" in page.page.inner_text("[data-testid=access]")
    page.shot("smem-128B-column.png")
    before = page.renders()
    page.page.select_option("[data-testid=swizzle-select]", "none")
    page.wait_render(before)
    page.page.mouse.click(x, box["y"] + 6)
    page.page.wait_for_function(
        "document.querySelector('[data-testid=access]')?.innerText.includes('8-way')")
    page.shot("smem-none-column.png")
    assert page.errors == []


def test_url_round_trip_and_embed(page):
    q = ("?preset=&layout=" + quote("S[(2,4,2,4):(1@x,4,1@y,1)]") +
         "&shape=8,8&select=5,6&color=y")
    page.open(q)
    page.page.wait_for_function("window.__tl.detailsFor === 46")
    assert page.page.input_value("[data-testid=layout-input]") == "S[(2,4,2,4):(1@x,4,1@y,1)]"
    assert page.page.input_value("[data-testid=shape-input]") == "8,8"
    assert page.page.input_value("[data-testid=color-select]") == "y"
    assert "i=5, j=6" in page.page.inner_text("[data-testid=details]")
    params = parse_qs(urlsplit(page.page.url).query)
    assert params["select"] == ["5,6"] and params["layout"] == ["S[(2,4,2,4):(1@x,4,1@y,1)]"]
    # the written URL reproduces the same view
    url = page.page.url
    page.page.goto(url + "&embed=1")
    page.page.wait_for_function("window.__tl && window.__tl.detailsFor === 46")
    assert not page.page.is_visible("[data-testid=layout-input]")
    assert page.page.is_visible("[data-testid=details]")
    page.shot("embed.png")
    assert page.errors == []


def test_exports(page):
    page.open(f"?layout={quote(REF)}&shape=8,16&select=7,15")
    page.page.wait_for_function("window.__tl.detailsFor === 127")
    with page.page.expect_download() as dl:
        page.page.click("[data-testid=export-svg]")
    svg = Path(dl.value.path()).read_text(encoding="utf-8")
    # the cells, each laneid value its own colour (32 lanes), as the page colours them
    fills = set(re.findall(r'<path fill="(#[0-9a-f]{6})"', svg)) - {"#ffffff"}  # less the gaps
    assert svg.startswith("<svg") and fills == set(tl.render.palette.colour_scale(32))
    with page.page.expect_download() as dl:
        page.page.click("[data-testid=export-png]")
    data = Path(dl.value.path()).read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 2000
    snippet = page.page.evaluate("""async () => {
        const m = await import('/static/export.js');
        return m.pythonSnippet(window.__tl.state, (f, s) => [Math.floor(f / s[1]), f % s[1]]); }""")
    ns: dict = {}
    exec(snippet, ns)  # the snippet runs and evaluates the same layout
    assert str(ns["L"]) == REF and ns["shape"] == (8, 16)
    assert "L.apply((7, 15), shape=shape)" in snippet
    assert page.errors == []


def test_large_tile_is_smooth_and_too_large_is_explained(page):
    e = examples.get("wgmma 128x256 accumulator")
    t0 = time.perf_counter()
    page.open(f"?preset={quote(e.name)}")
    first = time.perf_counter() - t0
    assert page.page.evaluate("window.__tl.state.data.size") == 32768
    latency = page.page.evaluate("""async () => {
        const t = []; for (const f of [0, 5000, 20000, 32767]) {
          const s = performance.now(); window.__tl.selectElement(f); t.push(performance.now() - s); }
        return Math.max(...t); }""")
    assert first < 5 and latency < 250  # the benchmark reports the real figures
    page.page.wait_for_function("window.__tl.detailsFor === 32767")
    L = tl.parse(e.layout)
    view = layout_view({"layout": e.layout, "shape": list(e.shape)})["physical"]
    assert sorted(page.page.evaluate("window.__tl.highlight.physical")) == \
        [physical_cell(view, c) for c in L.apply(32767, shape=e.shape)]
    page.shot("wgmma-128x256.png")
    before = page.renders()
    page.page.fill("[data-testid=layout-input]", "S[(1024,1024):(1024,1)]")
    page.page.fill("[data-testid=shape-input]", "")
    page.wait_render(before)
    page.page.wait_for_selector("[data-testid=too-large]")
    assert "at most" in page.page.inner_text("[data-testid=too-large]")
    page.page.fill("[data-testid=layout-input]", "S[(8,4):(4@laneid,1)]")
    page.page.wait_for_function("window.__tl.state.data.layout === 'S[(8,4):(4@laneid,1)]'")
    assert page.errors == []


def test_api_errors_keep_server_alive_from_the_page(page):
    page.open()
    out = page.page.evaluate("""async () => {
        const headers = {'Content-Type': 'application/json'};
        const r1 = await fetch('/api/layout', {method: 'POST', body: '{bad', headers});
        const big = JSON.stringify({layout: 'S[' + '1,'.repeat(30000) + ']'});
        const r2 = await fetch('/api/layout', {method: 'POST', body: big, headers});
        const r4 = await fetch('/api/layout', {method: 'POST', body: '{}'});
        const r3 = await fetch('/api/presets');
        return [r1.status, (await r1.json()).error, r2.status, r3.status, r4.status]; }""")
    # a POST that is not application/json (what a foreign page could send) is refused
    assert out[0] == 400 and "JSON" in out[1] and out[2] == 413 and out[3] == 200
    assert out[4] == 415
    assert json.dumps(out)
