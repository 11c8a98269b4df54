"""Typing, parse errors and clicks in real Chromium: what is drawn is what was asked
about, nothing stale stays."""

from __future__ import annotations

from urllib.parse import parse_qs, quote, urlsplit

import pytest

import tilelayout as tl

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
