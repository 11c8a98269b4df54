"""The "In other tools" side panel in real Chromium: the CuTe TV text of the mma A
fragment is the library's to_cute_tv, copy puts it on the clipboard, and a swizzled
shared-memory tile shows the refusals greyed with their reasons."""

from __future__ import annotations

from urllib.parse import quote

import pytest

import tilelayout as tl
from tilelayout import presets
from tilelayout.interop import InteropError
from tilelayout.interop.convert import convert
from tilelayout.interop.cute import to_cute, to_cute_tv

from .conftest import ARTIFACTS

pytestmark = pytest.mark.browser


def _wait_convert(page, layout_text):
    page.page.wait_for_function("(t) => window.__tl.convertFor === t", arg=layout_text)


def test_panel_shows_cute_tv_of_the_mma_a_fragment_and_refusals_of_a_swizzled_tile(page, context):
    a = presets.get("mma.m16n8k16.A", dtype="float16")
    page.open("?preset=mma.m16n8k16.A&p.dtype=float16")
    _wait_convert(page, str(a.layout))
    panel = page.page.locator("[data-testid=convert]")
    assert panel.is_visible()
    # one line until opened: which notations can say it
    assert not page.page.locator("[data-testid=convert-text-cute-tv]").is_visible()
    assert "CuTe TV" in page.page.inner_text("[data-testid=convert-toggle] summary")
    page.page.click("[data-testid=convert-toggle] summary")
    # below the legality panel and the details (a click's details must stay in view)
    order = page.page.evaluate(
        "[...document.getElementById('side').children].map((e) => e.id)")
    assert order == ["analysis", "details", "convert", "codegen", "movedata"]
    text = page.page.inner_text("[data-testid=convert-text-cute-tv]")
    assert text == to_cute_tv(a.layout, a.shape) == "((4,8),(2,2,2)):((32,1),(16,8,128))"
    labels = page.page.eval_on_selector_all("#convert li b", "(els) => els.map((e) => e.textContent)")
    # the server's list (PANEL_TARGETS), the page names none itself
    assert labels == ["CuTe", "CuTe TV", "JAX", "Triton", "Gluon"]
    gluon = page.page.inner_text("[data-testid=convert-text-gluon]")
    assert gluon == convert(a.layout, a.shape, "gluon")["text"]
    assert "NVMMADistributedLayout(version=[2, 0]" in gluon
    # CuTe (plain) cannot say a two-axis fragment: greyed, with to_cute's own reason
    cute = page.page.locator("[data-testid=convert-cute]")
    assert "refused" in cute.get_attribute("class")
    with pytest.raises(InteropError) as err:
        to_cute(a.layout, a.shape)
    assert page.page.text_content("[data-testid=convert-reason-cute]") == str(err.value)
    # greyed in the page's muted text colour (readable: the axe check covers its contrast),
    # its reason one click away
    grey = page.page.eval_on_selector("[data-testid=convert-cute]", "(e) => getComputedStyle(e).color")
    assert grey == "rgb(87, 83, 78)"
    assert not page.page.locator("[data-testid=convert-reason-cute]").is_visible()
    # copy: the clipboard gets exactly the text shown
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=page.base)
    page.page.click("[data-testid=convert-copy-cute-tv]")
    page.page.wait_for_function("window.__tl.lastCopied !== undefined")
    assert page.page.evaluate("window.__tl.lastCopied") == text
    assert page.page.evaluate("navigator.clipboard.readText()") == text
    ARTIFACTS.mkdir(exist_ok=True)
    panel.screenshot(path=str(ARTIFACTS / "convert-panel-mma-a.png"))

    # a swizzled shared-memory tile: CuTe says it (Swizzle<3,3,3> o ...), Triton as a shared
    # linear layout, the others refuse
    smem = "S[(8,64):(64,1)]"
    page.open(f"?layout={quote(smem)}&shape=8,64&dtype=float16&swizzle=128B")
    L = tl.ComposeLayout(tl.Swizzle.for_dtype("float16", "128B"), tl.parse(smem))
    _wait_convert(page, str(L))
    page.page.click("[data-testid=convert-toggle] summary")  # a new page: folded again
    assert page.page.inner_text("[data-testid=convert-text-cute]") == to_cute(L) == \
        "Swizzle<3,3,3> o (8,64):(64,1)"
    assert "ttgl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16" in \
        page.page.inner_text("[data-testid=convert-text-gluon]")
    with pytest.raises(InteropError) as err:
        to_cute_tv(L, (8, 64))
    assert page.page.text_content("[data-testid=convert-reason-cute-tv]") == str(err.value)
    refused = page.page.eval_on_selector_all("#convert li.refused",
                                             "(els) => els.map((e) => e.dataset.target)")
    assert refused == ["cute-tv", "jax"]
    assert page.page.locator("[data-testid=convert-copy-cute-tv]").count() == 0
    panel.screenshot(path=str(ARTIFACTS / "convert-panel-smem-swizzled.png"))
    page.shot("convert-panel-page.png")
    assert page.errors == []


def test_panel_folds_and_stays_folded_for_the_next_layout(page):
    page.open("?preset=mma.m16n8k16.C")
    c = presets.get("mma.m16n8k16.C")
    _wait_convert(page, str(c.layout))
    # collapsed at first; opened, then folded again by hand
    assert not page.page.locator("[data-testid=convert-text-cute-tv]").is_visible()
    page.page.click("[data-testid=convert-toggle] summary")
    assert page.page.locator("[data-testid=convert-text-cute-tv]").is_visible()
    page.page.click("[data-testid=convert-toggle] summary")
    assert not page.page.locator("[data-testid=convert-text-cute-tv]").is_visible()
    before = page.renders()
    page.page.fill("[data-testid=layout-input]", "S[(8,4):(4@laneid,1@laneid)]")
    page.page.fill("[data-testid=shape-input]", "8,4")
    page.wait_render(before)
    _wait_convert(page, "S[(8,4):(4@laneid,1@laneid)]")
    assert page.page.evaluate("document.querySelector('[data-testid=convert-toggle]').open") is False
    page.page.click("[data-testid=convert-toggle] summary")
    assert page.page.inner_text("[data-testid=convert-text-cute-tv]") == "((4,8),1):((8,1),0)"
    assert page.errors == []
