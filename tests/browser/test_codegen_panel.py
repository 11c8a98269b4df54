"""The "index code" side panel: POST /api/codegen in the page (language picker, inverse,
copy), equal to ``tl.codegen``."""

from __future__ import annotations

from urllib.parse import quote

import pytest

import tilelayout as tl

pytestmark = pytest.mark.browser

REF = "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid"


def _wait(page, lang, inverse):
    page.page.wait_for_function(
        "(w) => window.__tl.codegenFor === w", arg=f"{tl.parse(REF)}|{lang}|{'true' if inverse else 'false'}")


def test_code_panel_shows_tl_codegen_per_language_and_copies_it(page, context):
    page.open(f"?layout={quote(REF)}&shape=8,16")
    L = tl.parse(REF)
    # one line until opened
    assert not page.page.locator("[data-testid=codegen-code]").is_visible()
    page.page.click("[data-testid=codegen-toggle] summary")
    _wait(page, "python", False)
    assert page.page.text_content("[data-testid=codegen-code]") == tl.codegen(L, (8, 16), lang="python")
    for lang in ("cuda", "triton"):
        page.page.select_option("[data-testid=codegen-lang]", lang)
        _wait(page, lang, False)
        assert page.page.text_content("[data-testid=codegen-code]") == tl.codegen(L, (8, 16), lang=lang)
    page.page.select_option("[data-testid=codegen-lang]", "c")
    page.page.check("[data-testid=codegen-inverse]")
    _wait(page, "c", True)
    want = tl.codegen(L, (8, 16), lang="c", inverse=True)
    assert page.page.text_content("[data-testid=codegen-code]") == want
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=page.base)
    page.page.click("[data-testid=codegen-copy]")
    page.page.wait_for_function("window.__tl.lastCopied !== undefined")
    assert page.page.evaluate("navigator.clipboard.readText()") == want
    # a new layout while open: its code follows
    before = page.renders()
    page.page.fill("[data-testid=layout-input]", "S[(8,4):(4@laneid,1@laneid)]")
    page.page.fill("[data-testid=shape-input]", "8,4")
    page.wait_render(before)
    page.page.wait_for_function("window.__tl.codegenFor && window.__tl.codegenFor.startsWith('S[(8,4)')")
    assert page.page.text_content("[data-testid=codegen-code]") == \
        tl.codegen(tl.parse("S[(8,4):(4@laneid,1@laneid)]"), (8, 4), lang="c", inverse=True)
    assert page.errors == []
