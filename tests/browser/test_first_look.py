"""What a first-time reader meets (issue 28): one dtype control per page, a shape box that
shows the shape drawn, a swizzle control that does not read "none" under a swizzled
layout, tile headers that all name their axis the same way, and an "unused" finding that
says in one sentence why it matters."""

from __future__ import annotations

from urllib.parse import parse_qs, quote, urlsplit

import pytest

pytestmark = pytest.mark.browser


def _shown(page, testid):
    return page.page.is_visible(f"[data-testid={testid}]")


def test_one_dtype_control_per_page(page):
    page.open("?preset=mma.m16n8k16.C")
    assert _shown(page, "param-dtype") and not _shown(page, "dtype-select")
    assert page.page.input_value("[data-testid=param-dtype]") == "float32"
    # the preset's control is the page's: it rebuilds the preset
    before = page.renders()
    page.page.select_option("[data-testid=param-dtype]", "int32")
    page.wait_render(before)
    assert "p.dtype=int32" in page.page.url and not _shown(page, "dtype-select")
    # a preset without a dtype parameter, and a custom layout: the page's own control
    page.open("?preset=wgmma.m64nNk16.D")
    assert _shown(page, "dtype-select")
    page.open("?preset=mma.m16n8k16.C")
    page.page.fill("[data-testid=layout-input]", "S[(8,4):(4@laneid,1@laneid)]")
    page.page.wait_for_function("window.__tl.state.data.layout === 'S[(8,4):(4@laneid,1@laneid)]'")
    assert _shown(page, "dtype-select")
    assert page.errors == []


def test_the_shape_box_shows_the_shape_drawn(page):
    page.open("?layout=" + quote("S[(8,16):(16,1)]"))
    assert page.page.input_value("[data-testid=shape-input]") == "8,16"  # a value, not a hint
    assert "shape" not in parse_qs(urlsplit(page.page.url).query)  # still the layout's own
    # a new layout of another shape: the box follows (no "shape field ignored")
    page.page.fill("[data-testid=layout-input]", "S[(4,4,2):(8,2,1)]")
    page.page.wait_for_function("window.__tl.state.data.size === 32")
    assert page.page.input_value("[data-testid=shape-input]") == "4,4,2"
    assert page.page.query_selector("[data-testid=shape-ignored]") is None
    # typed, it is the user's: it applies and goes into the link
    before = page.renders()
    page.page.fill("[data-testid=shape-input]", "4,8")
    page.wait_render(before)
    assert page.page.evaluate("window.__tl.state.data.shape") == [4, 8]
    assert parse_qs(urlsplit(page.page.url).query)["shape"] == ["4,8"]
    assert page.errors == []


def test_a_swizzled_layout_does_not_read_swizzle_none(page):
    page.open("?preset=smem.swizzle_atom&p.dtype=float16&p.mode=128B")
    sel = "[data-testid=swizzle-select]"
    assert page.page.is_disabled(sel)
    assert page.page.eval_on_selector(sel, "s => s.options[s.selectedIndex].text") == "in the layout"
    assert "Swizzle(3,3,3)" in page.page.get_attribute(sel, "title")
    # an unswizzled layout: the control is back, at none
    page.open("?layout=" + quote("S[(8,64):(64,1)]") + "&dtype=float16")
    assert not page.page.is_disabled(sel) and page.page.input_value(sel) == "none"
    assert page.page.eval_on_selector(sel, "s => [...s.options].every(o => !o.dataset.own)")
    before = page.renders()
    page.page.select_option(sel, "128B")
    page.wait_render(before)
    assert page.page.evaluate("window.__tl.state.data.swizzle") == "Swizzle(3,3,3)"
    assert not page.page.is_disabled(sel)  # the page's own swizzle, changeable
    assert page.errors == []


HEADS = """() => { const g = window.__tl.state.model.pgrid, ctx = g.canvas.getContext('2d');
  return [...Array(g.spec.ntiles).keys()].map((t) => g.headForm(ctx, t, g.width)); }"""


@pytest.mark.parametrize("size", [(1400, 900), (1000, 700), (700, 450)], ids=str)
def test_tile_headers_name_their_axis_alike(browser, explorer_url, size):
    from .conftest import Page

    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]})
    try:
        page = Page(ctx.new_page(), explorer_url)
        page.open("?preset=" + quote("tensor-core tile"))
        heads = page.page.evaluate(HEADS)
        # every tile "warpid N", or the first "warpid 5" and the others their value:
        # never "warpid 5", "warpid 6", "warpid 9" and then a bare "10"
        labels = [h[1] for h in heads]
        assert labels in (["warpid 5", "warpid 6", "warpid 9", "warpid 10"],
                          ["warpid 5", "6", "9", "10"]), labels
        assert page.errors == []
    finally:
        ctx.close()


def test_an_unused_finding_says_why_it_matters(page):
    page.open("?preset=" + quote("tensor-core tile"))
    page.page.wait_for_selector("[data-testid=finding][data-kind=unused] [data-testid=finding-why]")
    why = page.page.inner_text("[data-testid=finding-why]")
    assert why.startswith("warpid 7, 8 hold no element") and "normal for this layout" in why
    # idle coordinates need no fixing: the one-line summary says "legal", with a note
    assert page.page.inner_text("#analysis .oneline").startswith("legal · 1 note")
    assert page.errors == []
