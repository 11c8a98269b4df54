"""The page's one store (static/state.js): every field is declared there and the store is
sealed, so the panels' state (index code, move data, other tools, panning, colours) is
read and written through it and no module adds fields on the side."""

from __future__ import annotations

from urllib.parse import quote

import pytest

pytestmark = pytest.mark.browser

REF = "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid"
KEYS = "Object.keys(window.__tl.state).sort()"


def test_store_is_sealed_and_keeps_its_fields_through_use(page):
    page.open(f"?layout={quote(REF)}&shape=8,16")
    assert page.page.evaluate("Object.isSealed(window.__tl.state)")
    keys = page.page.evaluate(KEYS)
    assert {"codegen", "move", "moveView", "convertOpen", "pointer", "theme", "sel"} <= set(keys)
    # an undeclared field cannot be added (module code is strict: it would throw)
    assert page.page.evaluate("(() => { 'use strict'; try { window.__tl.state.extra = 1; return false; }"
                              " catch (e) { return true; } })()")
    # the panels write their state into the store
    page.page.click("[data-testid=codegen-toggle] summary")
    page.page.wait_for_function("window.__tl.codegenFor !== undefined")
    page.page.select_option("[data-testid=codegen-lang]", "cuda")
    page.page.wait_for_function("window.__tl.codegenFor && window.__tl.codegenFor.includes('|cuda|')")
    assert page.page.evaluate("window.__tl.state.codegen.open && window.__tl.state.codegen.lang") == "cuda"
    page.page.wait_for_function("window.__tl.convertFor !== undefined")
    page.page.click("[data-testid=convert-toggle] summary")
    page.page.wait_for_function("window.__tl.state.convertOpen === true")
    page.click_at("window.__tl.logicalCenter(3)")
    page.page.wait_for_function("window.__tl.state.sel && window.__tl.state.sel.type === 'element'")
    assert page.page.evaluate(KEYS) == keys
    assert page.errors == []
