"""Exports in real Chromium: SVG labels, PNG title, the Python snippet."""


from __future__ import annotations

import html
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

import pytest

import tilelayout as tl
from tilelayout.explorer import examples

from .test_grid import ink, labels, set_zoom

pytestmark = pytest.mark.browser


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


def test_svg_export_has_row_and_column_labels_and_png_a_title(page):
    page.open(f"?layout={quote(REF)}&shape=8,16")
    with page.page.expect_download() as dl:
        page.page.click("[data-testid=export-svg]")
    svg = Path(dl.value.path()).read_text(encoding="utf-8")
    labels = re.findall(r'<text [^>]*fill="#78716c"[^>]*>([^<]*)</text>', svg)
    # logical: rows 0..7 and columns 0..15; physical: lanes 0..31 and register slots
    for want in ("7", "15", "31"):
        assert want in labels, want
    assert len(labels) >= 8 + 16 + 32
    cell_text = re.findall(r'<text [^>]*fill="#1c1917"[^>]*>([^<]*)</text>', svg)
    assert "31" in cell_text and "7,15" in cell_text  # laneid colour labels, element labels
    width = float(re.match(r'<svg [^>]*width="([0-9.]+)"', svg).group(1))
    title = page.page.evaluate("window.__tl.state.data.physical.title")
    assert width >= page.page.evaluate("window.__tl.state.model.lgrid.width") + 7 * len(title)
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
    with page.page.expect_download() as dl:
        page.page.click("[data-testid=export-svg]")
    svg = Path(dl.value.path()).read_text(encoding="utf-8")
    cells = re.findall(r'<text [^>]*font-size="(\d+)"[^>]*fill="#1c1917"[^>]*>(\d+,\d+)</text>', svg)
    assert sorted(t for _, t in cells) == sorted(f"{i},{j}" for i in range(8) for j in range(8))
    assert {px for px, _ in cells} == {str(got["px"])}
    # the logical view's text ("0".."7") is exported too, at the logical grid's size
    lpx = labels(page, "logical")["px"]
    logical = re.findall(rf'<text [^>]*font-size="{lpx}"[^>]*fill="#1c1917"[^>]*>\d</text>', svg)
    assert len(logical) == 64
    assert page.errors == []


def test_exports_carry_legend_captions_and_the_selection_without_dimming(page):
    page.open(f"?layout={quote(REF)}&shape=8,16&select=3,5")
    page.page.wait_for_function("window.__tl.detailsFor === 53")
    owners = tl.parse(REF).apply((3, 5), shape=(8, 16))
    with page.page.expect_download() as dl:
        page.page.click("[data-testid=export-svg]")
    svg = Path(dl.value.path()).read_text(encoding="utf-8")
    caption = page.page.inner_text("[data-testid=caption-logical]")
    assert caption in html.unescape(svg)
    assert "colour = laneid:" in svg
    swatches = re.findall(r'<rect x="[\d.]+" y="57" width="10" height="10" fill="(#[0-9a-f]{6})"', svg)
    assert len(swatches) == len(set(swatches)) >= 16  # the legend, no two swatches alike
    # the selection: the element and its owners ringed, one connector per owner, no dimming
    assert svg.count('class="connector"') == len(owners) and 'stroke="#2563eb"' in svg
    assert 'fill-opacity="0.68"' not in svg
    with page.page.expect_download() as dl:
        page.page.click("[data-testid=export-svg]", modifiers=["Shift"])
    assert 'fill-opacity="0.68"' in Path(dl.value.path()).read_text(encoding="utf-8")
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
