"""The "index code" panel (codegen.js) on a registry preset: the text equals
``tl.codegen`` in two languages, the copy button copies it, and an inverse that does not
exist is refused in words."""

from __future__ import annotations

from urllib.parse import quote

import pytest

import tilelayout as tl
from tilelayout import presets

pytestmark = pytest.mark.browser


def _wait(page, layout, lang, inverse):
    page.page.wait_for_function("(w) => window.__tl.codegenFor === w",
                                arg=f"{layout}|{lang}|{'true' if inverse else 'false'}")


def test_preset_code_in_two_languages_copied(page, context):
    p = presets.get("mma.m16n8k16.C")
    page.open("?preset=mma.m16n8k16.C")
    page.page.click("[data-testid=codegen-toggle] summary")
    _wait(page, p.layout, "python", False)
    for lang in ("cpp", "triton"):
        page.page.select_option("[data-testid=codegen-lang]", lang)
        _wait(page, p.layout, lang, False)
        want = tl.codegen(p.layout, p.shape, lang=lang)
        assert page.page.text_content("[data-testid=codegen-code]") == want
    page.page.check("[data-testid=codegen-inverse]")
    _wait(page, p.layout, "triton", True)
    want = tl.codegen(p.layout, p.shape, lang="triton", inverse=True)
    assert page.page.text_content("[data-testid=codegen-code]") == want
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=page.base)
    page.page.click("[data-testid=codegen-copy]")
    page.page.wait_for_function("(w) => window.__tl.lastCopied === w", arg=want)
    assert page.page.evaluate("navigator.clipboard.readText()") == want
    assert page.errors == []


def test_inverse_refused_in_plain_words(page):
    text = "S[(4,2):(1@laneid,1@laneid)]"   # (0, 1) and (1, 0) share lane 1
    L = tl.parse(text)
    with pytest.raises(tl.LayoutError) as exc:
        tl.codegen(L, (4, 2), lang="c", inverse=True)
    page.open(f"?layout={quote(text)}&shape=4,2")
    page.page.click("[data-testid=codegen-toggle] summary")
    page.page.select_option("[data-testid=codegen-lang]", "c")
    page.page.check("[data-testid=codegen-inverse]")
    _wait(page, L, "c", True)
    page.page.wait_for_selector("[data-testid=codegen-code].refused")
    shown = page.page.text_content("[data-testid=codegen-code]")
    assert shown.startswith("No inverse code for this layout: ")
    assert "share a coordinate" in shown and str(exc.value).split(": ", 1)[-1] in shown
    assert page.page.locator("[data-testid=codegen-code].refused").count() == 1
    # nothing to copy from a refusal
    assert page.page.evaluate("window.__tl.lastCopied") is None
    assert page.errors == []


def test_a_late_answer_to_an_earlier_choice_is_not_shown(page):
    """The flake of test_inverse_refused_in_plain_words (issue 28): choosing C and then
    the inverse asks twice; under load the refused inverse (quick) could be answered
    before the C code (slow), and the late C code replaced it, so the panel never showed
    the inverse. Here the first answer is held back until the second one is shown."""
    text = "S[(4,2):(1@laneid,1@laneid)]"
    L = tl.parse(text)
    page.open(f"?layout={quote(text)}&shape=4,2")
    page.page.click("[data-testid=codegen-toggle] summary")
    _wait(page, L, "python", False)
    held = []
    page.page.route("**/api/codegen?*", lambda route: held.append(route)
                    if '"inverse":false' in (route.request.post_data or "") else route.continue_())
    answers = page.page.evaluate("window.__tl.codegenAnswers || 0")
    page.page.select_option("[data-testid=codegen-lang]", "c")  # asks for C, held
    page.page.check("[data-testid=codegen-inverse]")            # asks for the inverse
    _wait(page, L, "c", True)
    assert len(held) == 1
    held[0].continue_()  # the C code arrives late
    page.page.wait_for_function(f"window.__tl.codegenAnswers >= {answers + 2}")
    assert page.page.evaluate("window.__tl.codegenFor") == f"{L}|c|true"
    assert page.page.text_content("[data-testid=codegen-code]").startswith(
        "No inverse code for this layout: ")
    page.page.unroute("**/api/codegen?*")
    assert page.errors == []
