"""Keyboard and screen-reader use, the accessibility checker, dark mode, embedding and quiet
bad input (issue 12)."""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import quote

import pytest

import tilelayout as tl
from tilelayout.explorer import examples

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parents[2] / ".cache/axe/node_modules/axe-core/axe.min.js"
REF = "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid"


def _axe(page):
    """axe-core's WCAG 2 A/AA violations on the page (roles, names, contrast, ...)."""
    if not AXE.exists():
        if os.environ.get("TILELAYOUT_STRICT") == "1":
            pytest.fail("axe-core is missing: run scripts/ensure-axe.sh")
        pytest.skip("axe-core is not installed (run scripts/ensure-axe.sh)")
    page.page.add_script_tag(path=str(AXE))
    result = page.page.evaluate("""async () => {
        const tags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
        const r = await axe.run(document, {runOnly: {type: 'tag', values: tags}});
        return {passes: r.passes.map((p) => p.id), violations: r.violations.map((v) => ({id: v.id,
            help: v.help, nodes: v.nodes.slice(0, 4).map((n) => [n.target.join(' '), n.failureSummary])}))};
    }""")
    # it ran the rules the issue names: roles, names, contrast
    assert {"color-contrast", "label", "button-name", "select-name", "aria-roles",
            "aria-valid-attr-value", "summary-name"} <= set(result["passes"])
    return result["violations"]


def _tab_to(page, testid, limit=40):
    for _ in range(limit):
        page.page.keyboard.press("Tab")
        if page.page.evaluate("document.activeElement && document.activeElement.dataset.testid") == testid:
            return
    raise AssertionError(f"Tab never reached {testid}")


def test_keyboard_only_selection_and_live_details(page):
    page.open(f"?layout={quote(REF)}&shape=8,16")
    for v in ("logical", "physical"):
        c = page.page.locator(f"[data-testid={v}-canvas]")
        assert c.get_attribute("tabindex") == "0" and c.get_attribute("role") == "application"
        assert v in c.get_attribute("aria-label")
    assert page.page.get_attribute("[data-testid=details]", "aria-live") == "polite"
    # Tab reaches the logical view; the first arrow selects element (0, 0), then moves
    _tab_to(page, "logical-canvas")
    page.page.keyboard.press("ArrowRight")
    page.page.wait_for_function("window.__tl.detailsFor === 0")
    assert "i=0, j=0" in page.page.inner_text("[data-testid=details]")
    page.page.keyboard.press("ArrowRight")
    page.page.keyboard.press("ArrowDown")
    page.page.wait_for_function("window.__tl.detailsFor === 17")
    L = tl.parse(REF)
    owners = L.apply((1, 1), shape=(8, 16))
    text = page.page.inner_text("[data-testid=details]")
    for c in owners:
        assert ", ".join(f"{a}={v}" for a, v in c.items()) in text
    # on to the physical view: arrows walk the slots and say what each holds
    _tab_to(page, "physical-canvas")
    page.page.keyboard.press("ArrowDown")
    page.page.wait_for_function("typeof window.__tl.detailsFor === 'string'")
    first = page.page.evaluate("window.__tl.detailsFor")
    page.page.keyboard.press("ArrowDown")
    page.page.wait_for_function(f"window.__tl.detailsFor !== {first!r}")
    assert "laneid=1" in page.page.evaluate("window.__tl.detailsFor")
    assert page.page.evaluate("window.__tl.highlight.logical.length") > 0
    page.page.keyboard.press("Escape")
    assert page.page.evaluate("window.__tl.highlight.logical.length") == 0
    assert page.errors == []


def test_text_alternative_is_the_layout_table(page):
    page.open(f"?layout={quote(REF)}&shape=8,16")
    page.page.wait_for_function("window.__tl.tableFor !== undefined")
    assert page.page.text_content("[data-testid=table-text]") == tl.parse(REF).table((8, 16))
    page.page.click("[data-testid=as-text] summary")
    assert page.page.is_visible("[data-testid=table-text]")
    assert page.errors == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_wcag_violations(browser, explorer_url, scheme):
    from .conftest import Page

    ctx = browser.new_context(viewport={"width": 1400, "height": 900}, color_scheme=scheme)
    try:
        page = Page(ctx.new_page(), explorer_url)
        for q in ("?preset=" + quote("tensor-core tile") + "&select=3,5",
                  "?preset=" + quote("smem 8x64 float16, no swizzle"),     # analysis open
                  "?layout=" + quote("S[64:1@laneid]")):                   # findings, error-free
            page.open(q)
            page.page.wait_for_function("window.__tl.analysisFor !== undefined")
            page.page.click("[data-testid=convert-toggle] summary")  # refusals shown too
            page.page.click("[data-testid=as-text] summary")
            violations = _axe(page)
            assert violations == [], (q, scheme, violations)
        # the page and the canvases follow the scheme (the canvas's top-left corner is its
        # background)
        bg = page.page.evaluate("getComputedStyle(document.body).backgroundColor")
        corner = page.page.evaluate("""() => [...document.getElementById('logical-canvas')
            .getContext('2d').getImageData(1, 1, 1, 1).data].slice(0, 3)""")
        assert (bg == "rgb(28, 25, 23)") == (scheme == "dark"), bg
        assert corner == ([28, 25, 23] if scheme == "dark" else [255, 255, 255]), corner
        assert page.errors == []
    finally:
        ctx.close()


def test_bad_input_is_quiet_in_the_console_and_speaks_the_pages_language(page):
    page.open(f"?layout={quote(REF)}&shape=8,16")
    for text in ("S[(8,4):(4@lane,1)]", "S[(8,4", "S[(8,4):(4@laneid,1)] +"):
        before = page.page.evaluate("window.__tl.lastError")
        page.page.fill("[data-testid=layout-input]", text)
        page.page.wait_for_function("(b) => window.__tl.lastError && window.__tl.lastError !== b", arg=before)
        assert page.page.is_visible("[data-testid=error]")
    msg = page.page.inner_text("[data-testid=error]")
    assert "tilelayout." not in msg and "declare_axis" not in msg
    page.page.fill("[data-testid=layout-input]", "S[(8,4):(4@lane,1)]")
    page.page.wait_for_function("window.__tl.lastError && window.__tl.lastError.error.includes('lane')")
    msg = page.page.inner_text("[data-testid=error]")
    assert "did you mean 'laneid'" in msg and "declare_axis" not in msg
    assert page.errors == [] and page.http_errors == []


def test_swizzled_owner_address_is_explained(page):
    e = examples.get("smem 8x64 float16, 128B swizzle")
    page.open(f"?preset={quote(e.name)}&select=3,9")
    page.page.wait_for_function("window.__tl.detailsFor === 201")
    note = page.page.inner_text("[data-testid=swizzle-note]")
    addr = page.page.evaluate("window.__tl.state.data.coords.m[201]")
    assert f"m={addr}" in note and "m = 201" in note and "after the swizzle" in note
    assert page.errors == []


def test_embed_scales_to_its_frame_and_notitle_hides_the_titles(page):
    q = f"?layout={quote(REF)}&shape=8,16&embed=1&notitle=1"
    page.open()
    cells = {}
    for width in (480, 900):
        page.page.set_content(f'<iframe id="f" src="{page.base}/{q}" width="{width}" height="700"></iframe>')
        frame = page.page.frame_locator("#f")
        frame.locator("[data-testid=logical-canvas]").wait_for()
        f = page.page.frames[1]
        f.wait_for_function("window.__tl && window.__tl.renders > 0")
        g = f.evaluate("""() => ({cell: window.__tl.state.model.lgrid.cell,
            sw: document.documentElement.scrollWidth, cw: document.documentElement.clientWidth,
            info: getComputedStyle(document.getElementById('info')).display,
            controls: getComputedStyle(document.getElementById('controls')).display})""")
        assert g["sw"] <= g["cw"] + 1, g  # nothing wider than the frame
        assert g["info"] == "none" and g["controls"] == "none"
        cells[width] = g["cell"]
    assert cells[900] > cells[480] >= 14
    assert page.errors == []
