"""Fit means every cell (issue 28): with classic scroll bars as well as overlay ones, at
1400x900, 1000x700 and 700x450 (device scale 2), every row and column of both views is
painted and labelled, on the pages a first-time reader opens.

The checks read the pixels the page put on its canvases, not the grid's own account: for
every cell of every tile (each sub-cell of a bank word too) the test scrolls the view's
real scroll box until the cell lies inside its client area (never under a scroll bar),
then reads the canvas pixel inside the cell and compares it with the cell's fill colour.
Every row label and column label the grid's label step asks for must put ink in its band.
A cell no scroll position brings into the client area, or a canvas larger or smaller
than the client area, fails the test.

Classic scroll bars (Windows, most Linux desktops) take 15 px from the box; Playwright's
Chromium hides them unless ``--hide-scrollbars`` is left out (tests/conftest.py
``browser_bars``): the explorer used to size its canvases 15 px short there, losing the
last row and column of every grid.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

import pytest

from tests.conftest import CHROMIUM_ARGS

from .conftest import Page

pytestmark = pytest.mark.browser

SIZES = [(1400, 900), (1000, 700), (700, 450)]
PAGES = {
    "default": "",
    "mma-C": "?preset=mma.m16n8k16.C",
    "swizzle-8x64": "?preset=" + quote("smem 8x64 float16, 128B swizzle"),
    "swizzle-atom": "?preset=smem.swizzle_atom&p.dtype=float16&p.mode=128B",
    "tall": "?preset=" + quote("Trainium SBUF (P x F)"),
}

# every cell, row label and column label of one view, from the canvas's pixels
EVERY_CELL = Path(__file__).with_name("every_cell.js").read_text()


@pytest.fixture(scope="module", params=["overlay", "classic"])
def windows(request, browser, browser_bars):
    """Chromium with overlay (hidden) or classic scroll bars: a context per window size."""
    b = browser if request.param == "overlay" else browser_bars
    contexts = {size: b.new_context(viewport={"width": size[0], "height": size[1]}, device_scale_factor=2)
                for size in SIZES}
    yield request.param, contexts
    for ctx in contexts.values():
        ctx.close()


def check_every_cell(page, where):
    """Every cell painted inside the client area, every label inked, in both views."""
    for view in ("logical", "physical"):
        got = page.evaluate(EVERY_CELL, view)
        assert got["missing"] == [] and got["cells"] == got["total"] > 0, (where, got)
        assert got["canvas"] == got["client"], (where, got)  # the canvas is the client area
        assert got["unlabelled"] == [] and got["rows"] > 0 and got["cols"] > 0, (where, got)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", list(PAGES))
def test_every_row_and_column_is_drawn(windows, explorer_url, size, name):
    bars, contexts = windows
    page = Page(contexts[size].new_page(), explorer_url)
    try:
        page.open(PAGES[name])
        page.page.wait_for_function("window.__tl.state.model && window.__tl.state.model.arranged")
        check_every_cell(page.page, (bars, name, size))
        assert page.errors == []
    finally:
        page.page.close()


def test_a_readable_page_shows_its_rows_without_scrolling(windows, explorer_url):
    """Fit means every cell in the view where it fits: the mma fragment (16 x 8, lanes x
    registers) at 1400x900 needs no scrolling in either view (the classic scroll bars of
    a too-small canvas used to hide row 15 and column 7)."""
    bars, contexts = windows
    page = Page(contexts[(1400, 900)].new_page(), explorer_url)
    try:
        page.open(PAGES["mma-C"])
        for view in ("logical", "physical"):
            box = page.page.evaluate(f"""() => {{ const s = document.getElementById('{view}-scroll');
                return [s.scrollWidth, s.clientWidth, s.scrollHeight, s.clientHeight]; }}""")
            assert box[0] == box[1] and box[2] == box[3], (bars, view, box)
    finally:
        page.page.close()


@pytest.mark.parametrize("name", ["swizzle-8x64", "swizzle-atom"])
def test_the_line_x_bank_view_shows_all_8_lines(windows, explorer_url, name):
    """At 1000x700 the 128B pattern's 8 lines are all in the line x bank view at once (its
    columns scroll): the views take the window's height under the sticky controls."""
    bars, contexts = windows
    page = Page(contexts[(1000, 700)].new_page(), explorer_url)
    try:
        page.open(PAGES[name])
        got = page.page.evaluate("""() => { const g = window.__tl.state.model.pgrid, s = g.els.scroll;
            const r = s.getBoundingClientRect();
            return {lines: g.spec.nrows, h: g.height, client: s.clientHeight,
                    bottom: r.top + s.clientTop + s.clientHeight, top: r.top,
                    header: document.getElementById('controls').getBoundingClientRect().bottom}; }""")
        assert got["lines"] == 8 and got["client"] >= got["h"], (bars, got)
        # scrolled so that the views sit under the controls, the whole view is in the window
        page.page.evaluate(f"window.scrollBy(0, {got['top'] - got['header'] - 40})")
        bottom = page.page.evaluate("""() => { const s = document.getElementById('physical-scroll');
            return s.getBoundingClientRect().top + s.clientTop + s.clientHeight; }""")
        assert bottom <= 700, (bars, got, bottom)
    finally:
        page.page.close()


def test_the_page_in_a_notebook_sized_frame(browser_bars, explorer_url):
    """tl.widget runs the page in an iframe 640 px high: every cell there too."""
    ctx = browser_bars.new_context(viewport={"width": 1100, "height": 800}, device_scale_factor=2)
    try:
        host = ctx.new_page()
        src = f"{explorer_url}/?preset=" + quote("case.tensor_core_tile")
        host.set_content(f'<iframe src="{src}" style="width:1000px;height:640px;border:0"></iframe>')
        frame = host.wait_for_selector("iframe").content_frame()
        frame.wait_for_function("window.__tl && window.__tl.ready && window.__tl.renders > 0"
                                " && window.__tl.state.model.arranged")
        check_every_cell(frame, "widget frame")
    finally:
        ctx.close()


def test_classic_scroll_bars_are_real(browser_bars):
    """The classic-scroll-bar browser does show them (else the tests above prove nothing)."""
    page = browser_bars.new_page()
    try:
        page.set_content('<div id=d style="width:100px;height:100px;overflow:scroll"></div>')
        bar = "(() => { const d = document.getElementById('d'); return d.offsetWidth - d.clientWidth; })()"
        assert page.evaluate(bar) > 0
        assert "--hide-scrollbars" not in CHROMIUM_ARGS
    finally:
        page.close()
