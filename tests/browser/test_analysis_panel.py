"""The analysis panel in real Chromium: legality findings and bank-conflict requests
highlight their elements."""

from __future__ import annotations

from urllib.parse import quote

import pytest

import tilelayout as tl
from tilelayout.explorer import examples
from tilelayout.explorer.views.analysis import analysis_view
from tilelayout.explorer.views.layout import layout_view

from .test_explorer import physical_cell

pytestmark = pytest.mark.browser


def test_legality_findings_highlight_their_elements(page):
    e = examples.get("1-D shard")
    page.open(f"?preset={quote(e.name)}")
    page.page.wait_for_selector("[data-testid=finding][data-kind=out_of_range]")
    text = page.page.inner_text("[data-testid=finding][data-kind=out_of_range]")
    assert "laneid 63 does not exist" in text and "32 elements" in text and "(32)" in text
    page.page.click("[data-testid=finding][data-kind=out_of_range]")
    page.page.wait_for_function("window.__tl.highlight.logical.length > 0")
    L = tl.parse(e.layout)
    want = [i for i in range(64) if any(c["laneid"] >= 32 for c in L.apply(i))]
    assert page.page.evaluate("window.__tl.highlight.logical") == want
    phys = page.page.evaluate("window.__tl.highlight.physical")
    view = layout_view({"layout": e.layout})["physical"]
    assert sorted(phys) == sorted(physical_cell(view, c) for i in want for c in L.apply(i))
    assert "active" in page.page.get_attribute(
        "[data-testid=finding][data-kind=out_of_range]", "class")
    # a duplicate finding
    page.page.fill("[data-testid=shape-input]", "")
    page.page.fill("[data-testid=layout-input]", "S[(4,8):(1@laneid,1@laneid)]")
    page.page.wait_for_selector("[data-testid=finding][data-kind=duplicate]")
    page.page.click("[data-testid=finding][data-kind=duplicate]")
    page.page.wait_for_function("window.__tl.highlight.logical.length > 0")
    assert page.page.evaluate("window.__tl.highlight.logical") == list(range(1, 31))
    # the tensor-core tile: idle coordinates are reported, but they hold no element
    page.open("?preset=" + quote("tensor-core tile"))
    page.page.wait_for_selector("[data-testid=finding][data-kind=unused]")
    assert page.page.get_attribute("[data-testid=finding][data-kind=unused]", "data-finding") is None
    page.open("?preset=" + quote("shard to lanes"))
    page.page.wait_for_selector("[data-testid=legal]", state="attached")  # in the folded one-liner
    assert page.errors == []


def test_bank_conflict_summary_and_requests(page):
    page.open("?preset=" + quote("smem 8x64 float16, no swizzle"))
    page.page.wait_for_selector("[data-testid=conflict-column]")
    col = page.page.inner_text("[data-testid=conflict-column]")
    assert "64 wavefronts vs ideal 8" in col and "8-way" in col and "banks 0–15" in col
    assert "conflict-free" in page.page.inner_text("[data-testid=conflict-row]")
    a = analysis_view({"layout": "S[(8,64):(64,1)]", "dtype": "float16"})
    page.page.click("[data-testid=conflict-column] .chips button:nth-child(2)")
    page.page.wait_for_selector("[data-testid=access]")
    want = sorted(a["conflicts"]["reads"][0]["requests"][1]["elements"])
    assert page.page.evaluate("window.__tl.highlight.logical") == want
    assert "8-way" in page.page.inner_text("[data-testid=access]")
    page.shot("conflicts-none.png")
    before = page.renders()
    page.page.select_option("[data-testid=swizzle-select]", "128B")
    page.wait_render(before)
    page.page.wait_for_function(
        "document.querySelector('[data-testid=conflict-column]')?.textContent.includes('conflict-free')")
    assert "8 wavefronts vs ideal 8" in page.page.text_content("[data-testid=conflict-column]")
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
