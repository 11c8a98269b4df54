"""Exports in real Chromium: SVG labels, PNG title, the Python snippet."""


from __future__ import annotations

import html
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import quote

import pytest

import tilelayout as tl
from tilelayout.explorer import examples
from tilelayout.explorer.request import MAX_BODY

from .test_grid import ink, labels, set_zoom

pytestmark = pytest.mark.browser


NS = "{http://www.w3.org/2000/svg}"
REF = "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid"


def test_python_snippet_runs_in_a_fresh_interpreter_for_a_mesh(page, tmp_path):
    e = examples.get("2x2 mesh + replica")
    page.open("?preset=" + quote(e.name) + "&select=3,4")
    page.page.wait_for_function("window.__tl.detailsFor === 28")
    snippet = page.page.evaluate("""async () => {
        const m = await import('/static/export.js');
        return m.pythonSnippet(window.__tl.state, (f, s) => [Math.floor(f / s[1]), f % s[1]]); }""")
    script = tmp_path / "snippet.py"
    script.write_text(snippet, encoding="utf-8")
    # mesh axes are user axes: a fresh interpreter only knows them if the snippet passes them
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    first = out.stdout.splitlines()[0]
    assert "axes=" in snippet
    assert first == str(tl.parse(e.layout, axes=examples.example_axes()).apply((3, 4), shape=e.shape))
    assert page.errors == []


def _svg_export(page, shift: bool = False) -> str:
    with page.page.expect_download() as dl:
        page.page.click("[data-testid=export-svg]", modifiers=["Shift"] if shift else [])
    return Path(dl.value.path()).read_text(encoding="utf-8")


def _view(svg: str, side: str) -> ET.Element:
    return ET.fromstring(svg).find(f"{NS}g[@class='{side}']")


def _svg_labels(svg: str) -> list[str]:
    """Row / column label texts of both views."""
    return [t.text for side in ("logical", "physical")
            for t in _view(svg, side).iterfind(f"{NS}g[@class='labels']/{NS}text")]


def _svg_cell_texts(svg: str, side: str) -> list[tuple[str, str]]:
    """(font size, text) of every cell text of a view."""
    return [(g.get("font-size"), t.text) for g in _view(svg, side).iterfind(f"{NS}g[@text-anchor='middle']")
            for t in g.iterfind(f"{NS}text")]


def test_svg_export_has_row_and_column_labels_and_png_a_title(page):
    page.open(f"?layout={quote(REF)}&shape=8,16")
    svg = _svg_export(page)
    labels = _svg_labels(svg)
    # logical: rows 0..7 and columns 0..15; physical: lanes 0..31 and register slots
    for want in ("7", "15", "31"):
        assert want in labels, want
    assert len(labels) >= 8 + 16 + 32
    cell_text = [t for side in ("logical", "physical") for _, t in _svg_cell_texts(svg, side)]
    assert "31" in cell_text and "7,15" in cell_text  # laneid colour labels, element labels
    width = float(re.match(r'<svg [^>]*width="([0-9.]+)"', svg).group(1))
    assert width >= page.page.evaluate(
        "window.__tl.state.model.lgrid.width + window.__tl.state.model.pgrid.width + 40")
    size = page.page.evaluate("""() => new Promise((resolve) => {
        const a = window.__tl.state.model.lgrid, b = window.__tl.state.model.pgrid;
        const orig = URL.createObjectURL;
        URL.createObjectURL = (blob) => { URL.createObjectURL = orig;
          createImageBitmap(blob).then((im) => resolve([im.height, Math.max(a.height, b.height)]));
          return orig(blob); };
        document.querySelector('[data-testid=export-png]').click(); })""")
    assert size[0] >= size[1] + 40  # a title band above the two views
    assert page.errors == []


def test_svg_export_labels_the_cells_the_canvas_labels(page):
    page.open("?layout=" + quote("S[(8,8):(8,1)]") + "&shape=8,8")
    set_zoom(page, 16, 16)  # cells narrower than 16 px after the gap: "7,7" at 7 px
    got = labels(page, "physical")
    assert got["px"] == 7 and got["labelled"] == 64, got
    assert min(ink(page, "physical")) > 0
    svg = _svg_export(page)
    cells = _svg_cell_texts(svg, "physical")
    assert sorted(t for _, t in cells) == sorted(f"{i},{j}" for i in range(8) for j in range(8))
    assert {px for px, _ in cells} == {str(got["px"])}
    # the logical view's text ("0".."7") is exported too, at the logical grid's size
    lpx = labels(page, "logical")["px"]
    assert [px for px, _ in _svg_cell_texts(svg, "logical")] == [str(lpx)] * 64
    assert page.errors == []


# the page's own geometry of both views: each coloured (sub-)cell, each ringed cell, the
# strongly ringed one, the labels and tile names the last paint drew (the views fit: the
# painted region is the whole content)
PAGE_GRIDS = """() => {
  const m = window.__tl.state.model;
  const view = (g) => {
    const s = g.spec, n = s.ntiles * s.nrows * s.ncols * g.sub, cells = [];
    for (let k = 0; k < n; k++) { const c = g.fns.fill(k); if (c) cells.push([...g.keyRect(k), c]); }
    const hl = g.hl;
    const rect = (k) => (hl.wholeCells ? g.cellRect(...g.unkey(k).slice(0, 3)) : g.keyRect(k));
    const rings = hl ? hl.cells.map(rect) : [];
    return { cells, rings, primary: hl && hl.primary >= 0 ? g.keyRect(hl.primary) : null,
      boxes: g.painted.boxes.filter((b) => b[4] !== "cell").map((b) => b.slice(0, 5)),
      gap: g.gaps()[0], sw: g.sw, ch: g.ch, fits: g.width <= g.vw && g.height <= g.vh };
  };
  return { logical: view(m.lgrid), physical: view(m.pgrid) };
}"""


def _runs(view: ET.Element) -> list[tuple[str, float, float, float, float]]:
    """The coloured cell runs of a view: (colour, x, y, width, height)."""
    out = []
    for p in view.iterfind(f"{NS}path"):
        if p.get("fill") in ("#ffffff", "#efedea") or p.get("class"):
            continue
        for x, y, w, h in re.findall(r"M([-\d.]+) ([-\d.]+)h([\d.]+)v([\d.]+)h-", p.get("d")):
            out.append((p.get("fill"), float(x), float(y), float(w), float(h)))
    return out


def _same_picture(svg: str, grids: dict) -> None:
    """Each view of the SVG has the page's cells (where the page draws them, in the page's
    colours), rings (the cells the page rings, none more) and labels."""
    for side, g in grids.items():
        assert g["fits"], side  # the painted labels are the whole view's
        view = _view(svg, side)
        runs = _runs(view)
        e = 0.01
        for x, y, w, h, colour in g["cells"]:  # each cell inside a run of its colour
            assert any(c == colour.lower() and rx - e <= x and x + w - g["gap"] <= rx + rw + e
                       and ry - e <= y and y + h - g["gap"] <= ry + rh + e
                       for c, rx, ry, rw, rh in runs), (side, x, y, colour)
        assert sum(w * h for *_, w, h in runs) == pytest.approx(len(g["cells"]) * g["sw"] * g["ch"])
        rings = {tuple(round(float(r.get(k)), 2) for k in ("x", "y", "width", "height")):
                 r.get("stroke-width") for r in view.iterfind(f"{NS}rect[@class='ring']")}
        gap = g["gap"]
        want = {(round(x - 0.5, 2), round(y - 0.5, 2), round(w + 1 - gap, 2), round(h + 1 - gap, 2)): "1"
                for x, y, w, h in g["rings"]}
        if g["primary"]:
            x, y, w, h = g["primary"]
            want[(round(x - 1.5, 2), round(y - 1.5, 2), round(w + 2, 2), round(h + 2, 2))] = "2"
        assert rings == want, side
        # labels: row labels end where the page's end, column labels centred on theirs
        texts = list(view.iterfind(f"{NS}g[@class='labels']/{NS}text"))
        rows = sorted(round(float(t.get("y")) - 2.5, 1) for t in texts if t.get("text-anchor") == "end")
        cols = sorted(round(float(t.get("x")), 1) for t in texts if t.get("text-anchor") == "middle")
        assert rows == sorted(round(b[1] + 5, 1) for b in g["boxes"] if b[4] == "row"), side
        assert cols == sorted(round(b[0] + b[2] / 2, 1) for b in g["boxes"] if b[4] == "col"), side
        heads = sorted(round(float(t.get("x")), 1)
                       for t in view.iterfind(f"{NS}g[@font-weight='600']/{NS}text"))
        assert heads == sorted(round(b[0], 1) for b in g["boxes"] if b[4] == "tile"), side


def test_svg_export_draws_the_pages_cells_rings_and_labels_where_the_page_does(page):
    # a replicated accumulator with one physical slot selected: the page rings that slot
    # only (not the other replica of its element)
    page.open("?preset=" + quote("tensor-core tile"))
    page.page.evaluate("""async () => { const s = await import('/static/selection.js');
        s.selectSlot({t: 1, r: 3, c: 1, s: 0}); }""")
    page.page.wait_for_function("window.__tl.detailsFor !== undefined")
    grids = page.page.evaluate(PAGE_GRIDS)
    assert len(grids["physical"]["rings"]) == 1 and grids["physical"]["primary"]
    svg = _svg_export(page)
    _same_picture(svg, grids)
    assert 'class="connector"' not in svg
    # a swizzled shared-memory tile with an element selected: bank words of two halves,
    # rings around each half holding the element, connectors to each
    page.open("?preset=" + quote("smem 8x64 float16, 128B swizzle") + "&select=3,9")
    page.page.wait_for_function("window.__tl.detailsFor !== undefined")
    grids = page.page.evaluate(PAGE_GRIDS)
    svg = _svg_export(page)
    _same_picture(svg, grids)
    assert svg.count('class="connector"') == len(grids["physical"]["rings"]) >= 1
    # a device mesh (tiles placed on the mesh's grid, their names above them)
    page.open("?preset=" + quote("2x2 mesh + replica") + "&select=3,4")
    page.page.wait_for_function("window.__tl.detailsFor !== undefined")
    grids = page.page.evaluate(PAGE_GRIDS)
    svg = _svg_export(page)
    _same_picture(svg, grids)
    assert page.errors == []


def test_exports_carry_legend_captions_and_the_selection_without_dimming(page):
    page.open(f"?layout={quote(REF)}&shape=8,16&select=3,5")
    page.page.wait_for_function("window.__tl.detailsFor === 53")
    owners = tl.parse(REF).apply((3, 5), shape=(8, 16))
    svg = _svg_export(page)
    caption = page.page.inner_text("[data-testid=caption-logical]")
    assert caption in html.unescape(svg)
    assert "colour = laneid:" in svg
    swatches = re.findall(r'<rect x="[\d.]+" y="57" width="10" height="10" fill="(#[0-9a-f]{6})"', svg)
    assert len(swatches) == len(set(swatches)) >= 16  # the legend, no two swatches alike
    # the selection: the element and its owners ringed, one connector per owner, no dimming
    assert svg.count('class="connector"') == len(owners) and 'stroke="#2563eb"' in svg
    assert 'rgba(255,255,255,0.68)' not in svg
    assert 'fill="rgba(255,255,255,0.68)"' in _svg_export(page, shift=True)
    # PNG: an owner's cell keeps its colour (not dimmed) and the band above has the legend
    got = page.page.evaluate("""() => new Promise((resolve) => {
        const orig = URL.createObjectURL;
        URL.createObjectURL = (blob) => { URL.createObjectURL = orig;
          createImageBitmap(blob).then((im) => {
            const c = document.createElement('canvas'); c.width = im.width; c.height = im.height;
            const ctx = c.getContext('2d'); ctx.drawImage(im, 0, 0);
            const m = window.__tl.state.model, key = m.lkey[0];
            const [x, y, w, h] = m.lgrid.keyRect(key);
            const px = [...ctx.getImageData(10 + x + 2, 104 + y + 2, 1, 1).data].slice(0, 3);
            resolve({px, want: window.__tl.colorOf(0)}); });
          return orig(blob); };
        document.querySelector('[data-testid=export-png]').click(); })""")
    want = [int(got["want"][i:i + 2], 16) for i in (1, 3, 5)]
    assert got["px"] == want, got
    assert page.errors == []


def test_a_large_selection_exports_its_rings_in_a_small_request(page):
    page.open("?preset=" + quote("wgmma 128x256 accumulator"))
    sizes: list[int] = []
    page.page.on("request", lambda r: "/api/svg" in r.url and sizes.append(len(r.post_data or "")))
    page.page.evaluate("""async () => { const s = await import('/static/selection.js');
        const el = []; for (let e = 0; e < 6000; e += 3) el.push(e);
        await s.selectSet(el, 'every third'); }""")
    svg = _svg_export(page)
    # 2000 elements ringed in both views (positions and keys sent as runs)
    assert sizes and sizes[0] < MAX_BODY // 2, sizes
    rings = [len(_view(svg, v).findall(f"{NS}rect[@class='ring']")) for v in ("logical", "physical")]
    assert rings == [2000, 2000]
    assert page.errors == []
