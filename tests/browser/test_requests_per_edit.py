"""One edit of the layout text is one request: /api/layout answers for the drawing and for
the side panels (legality, other tools, text table, and the code panel while it is open)."""

from __future__ import annotations

from urllib.parse import quote

import pytest

pytestmark = pytest.mark.browser


def api_requests(page):
    seen: list[str] = []
    page.page.on("request", lambda r: seen.append(r.url.split("?")[0].split("/api/")[-1])
                 if "/api/" in r.url else None)
    return seen


def edit(page, text):
    before = page.renders()
    page.page.fill("[data-testid=layout-input]", text)
    page.wait_render(before)
    page.page.wait_for_function(f"window.__tl.state.data.text === {text!r}")


def test_an_edit_is_one_request_and_fills_every_panel(page):
    page.open("?layout=" + quote("S[(8,64):(64,1)]") + "&dtype=float16")
    seen = api_requests(page)
    edit(page, "S[(8,64):(1,8)]")
    page.page.wait_for_timeout(300)  # a late request would be counted too
    assert seen == ["layout"]
    # what the panels show is for the new layout
    assert page.page.evaluate("window.__tl.analysisFor") == "S[(8,64):(1,8)]"
    assert page.page.evaluate("window.__tl.convertFor") == "S[(8,64):(1,8)]"
    assert page.page.evaluate("window.__tl.tableFor") == "S[(8,64):(1,8)]"
    assert page.page.evaluate("window.__tl.state.analysis.conflicts") is not None
    table = page.page.text_content("#table-text")
    assert table.startswith("S[(8,64):(1,8)] over (8, 64)")
    assert "CuTe" in page.page.text_content("#convert")
    assert page.errors == []


def test_with_the_code_panel_open_an_edit_is_still_one_request(page):
    page.open("?layout=" + quote("S[(4,8):(8,1)]"))
    page.page.click("[data-testid=codegen-toggle] summary")
    page.page.wait_for_function("(window.__tl.codegenFor || '').startsWith('S[(4,8):(8,1)]|')")
    seen = api_requests(page)
    edit(page, "S[(4,8):(1,4)]")
    page.page.wait_for_function("window.__tl.codegenFor === 'S[(4,8):(1,4)]|python|false'")
    page.page.wait_for_timeout(300)
    assert seen == ["layout"]
    assert "def layout_fn" in page.page.inner_text("[data-testid=codegen-code]")
    assert page.errors == []


def test_legality_findings_come_with_the_drawing(page):
    # a thread layout whose values leave the lanes: the legality finding is in the answer
    page.open("?layout=" + quote("S[64:1@laneid]"))
    seen = api_requests(page)
    edit(page, "S[(2,32):(32@laneid,1@laneid)]")
    page.page.wait_for_timeout(300)
    assert seen == ["layout"]
    assert page.page.evaluate("window.__tl.state.analysis.legality.ok") is False
    assert page.page.evaluate("window.__tl.analysisFor") == "S[(2,32):(32@laneid,1@laneid)]"
    assert page.errors == []
