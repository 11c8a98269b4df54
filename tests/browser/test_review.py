"""Fixes from a learner / kernel-engineer walk through the explorer, in real Chromium."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qs, quote, urlsplit

import pytest

import tilelayout as tl
from tilelayout.explorer import examples

pytestmark = pytest.mark.browser

REF = "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid"


def owners_text(L, index, shape):
    return sorted(", ".join(f"{a}={v}" for a, v in c.items()) for c in L.apply(index, shape=shape))


def detail_owners(page):
    return sorted(page.page.eval_on_selector_all("#details .owners span.coord",
                                                 "els => els.map(e => e.textContent)"))


def test_a_new_layout_is_drawn_with_its_own_shape_when_the_old_one_does_not_fit(page):
    page.open("?preset=" + quote("extents only"))  # shape field: 4,8 (32 elements)
    page.page.fill("[data-testid=layout-input]", "S[(8,16):(16,1)]")  # 128 elements
    page.page.wait_for_function("window.__tl.state.data.size === 128")
    d = page.page.evaluate("window.__tl.state.data")
    assert d["shape"] == [8, 16]  # not the old picture with an error
    assert page.page.is_hidden("[data-testid=error]")
    note = page.page.inner_text("[data-testid=shape-ignored]")
    assert "(4, 8)" in note and "(8, 16)" in note
    assert page.page.input_value("[data-testid=shape-input]") == "4,8"  # the field is untouched
    assert "shape" not in parse_qs(urlsplit(page.page.url).query)  # the link draws the same
    # follow-up queries use the drawn shape: legality and a click work
    page.page.wait_for_function("window.__tl.state.analysis !== null")
    assert page.page.evaluate("window.__tl.state.analysis.legality.ok")
    page.click_at("window.__tl.logicalCenter(3 * 16 + 5)")
    page.page.wait_for_function("window.__tl.detailsFor === 53")
    assert detail_owners(page) == owners_text(tl.parse("S[(8,16):(16,1)]"), (3, 5), (8, 16))
    # a shape typed into the shape field is an edit of the shape: it applies, or it is an error
    before = page.renders()
    page.page.fill("[data-testid=shape-input]", "4,32")
    page.wait_render(before)
    assert page.page.evaluate("window.__tl.state.data.shape") == [4, 32]
    assert page.page.query_selector("[data-testid=shape-ignored]") is None
    page.page.fill("[data-testid=shape-input]", "4,33")
    page.page.wait_for_selector("[data-testid=error]:not([hidden])")
    assert "shape" in page.page.inner_text("[data-testid=error]")
    assert page.page.evaluate("window.__tl.state.data.shape") == [4, 32]  # last good picture
    assert page.errors == []


def test_clicks_during_a_parse_error_ask_about_the_drawn_layout(page):
    page.open(f"?layout={quote(REF)}&shape=8,16")
    page.page.fill("[data-testid=layout-input]", "S[(8,2,4,2):(4@lan")  # half typed
    page.page.wait_for_selector("[data-testid=error]:not([hidden])")
    assert "column" in page.page.inner_text("[data-testid=error]")
    page.click_at("window.__tl.logicalCenter(53)")
    page.page.wait_for_function("window.__tl.detailsFor === 53")
    assert detail_owners(page) == owners_text(tl.parse(REF), (3, 5), (8, 16))
    assert "column" in page.page.inner_text("[data-testid=error]")  # the error is still shown
    assert page.errors == []


def test_choosing_a_dtype_colours_the_bank_view_by_bank(page):
    page.open("?layout=" + quote("S[(8,64):(64,1)]") + "&shape=8,64")
    assert page.page.input_value("[data-testid=color-select]") == "dim:0"
    before = page.renders()
    page.page.select_option("[data-testid=dtype-select]", "float16")
    page.wait_render(before)
    assert page.page.evaluate("window.__tl.state.data.banks !== undefined")
    assert page.page.input_value("[data-testid=color-select]") == "bank"
    # a colour chosen by hand is kept
    page.page.select_option("[data-testid=color-select]", "dim:1")
    before = page.renders()
    page.page.select_option("[data-testid=swizzle-select]", "128B")
    page.wait_render(before)
    assert page.page.input_value("[data-testid=color-select]") == "dim:1"
    assert page.errors == []


def test_python_snippet_runs_in_a_fresh_interpreter_for_a_mesh(page, tmp_path):
    e = examples.get("2x2 mesh + replica")
    page.open("?preset=" + quote(e.name) + "&select=3,4")
    page.page.wait_for_function("window.__tl.detailsFor === 28")
    snippet = page.page.evaluate("""async () => {
        const m = await import('/static/export.js');
        return m.pythonSnippet(window.__tl.state, (f, s) => [Math.floor(f / s[1]), f % s[1]]); }""")
    script = tmp_path / "snippet.py"
    script.write_text(snippet, encoding="utf-8")
    # mesh axes are user axes: a fresh interpreter only knows them if the snippet declares them
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    first = out.stdout.splitlines()[0]
    assert first == str(tl.parse(e.layout).apply((3, 4), shape=e.shape))
    assert page.errors == []


def test_above_the_cap_nothing_stale_is_left_on_screen(page):
    page.open(f"?layout={quote(REF)}&shape=8,16&select=3,5")
    page.page.wait_for_function("window.__tl.detailsFor === 53")
    before = page.renders()
    page.page.fill("[data-testid=layout-input]", "S[(1024,1024)]")  # shape 8,16 left in the field
    page.wait_render(before)
    page.page.wait_for_selector("[data-testid=too-large]")
    assert "(1024, 1024)" in page.page.inner_text("#logical-title")
    assert "not drawn" in page.page.inner_text("#physical-title")
    assert "warpid" not in page.page.inner_text("#physical-title")
    assert page.page.query_selector("#details .hint") is not None  # not element (3, 5) of REF
    assert "m 0..1048575" in page.page.inner_text("[data-testid=info]")
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


def test_a_click_shows_its_details_next_to_the_views_in_a_1000px_window(page):
    page.page.set_viewport_size({"width": 1000, "height": 700})
    try:
        page.open(f"?layout={quote(REF)}&shape=8,16")
        page.click_at("window.__tl.logicalCenter(53)")
        page.page.wait_for_function("window.__tl.detailsFor === 53")
        box = page.page.evaluate("document.getElementById('details').getBoundingClientRect().toJSON()")
        views = page.page.evaluate("document.getElementById('views').getBoundingClientRect().toJSON()")
        assert box["left"] >= views["right"] - 1  # beside the views, not below them
        assert box["top"] < 700
    finally:
        page.page.set_viewport_size({"width": 1400, "height": 1000})
    assert page.errors == []
