"""Issue 11's presets in real Chromium: the registry-driven widgets (an optional integer, an
optional choice) rebuild the layout; the swizzle menu offers the new shared-memory modes."""

from __future__ import annotations

import pytest

import tilelayout as tl
from tilelayout import presets

pytestmark = pytest.mark.browser


def _wait_layout(page, layout) -> None:
    page.page.wait_for_function(f"window.__tl.state.data.layout === {str(layout)!r}")


def test_new_preset_widgets_rebuild(page):
    page.open("?preset=tcgen05.ld.16x32bx2")
    assert page.page.input_value("[data-testid=param-imm]") == ""  # unset: imm = num
    assert page.page.evaluate(
        "[...document.querySelectorAll('[data-testid=param-num] option')].map(o => o.value)"
    )[-1] == "128"
    page.page.select_option("[data-testid=param-num]", "4")
    _wait_layout(page, presets.get("tcgen05.ld.16x32bx2", num=4).layout)
    before = page.page.evaluate("window.__tl.presetBuilds || 0")
    page.page.fill("[data-testid=param-imm]", "64")
    page.page.wait_for_function(f"window.__tl.presetBuilds > {before}")
    assert page.page.evaluate("window.__tl.state.preset.params[1].value") == 64
    # tmem.accumulator: the optional kind and Table 39's refusal
    page.page.select_option("[data-testid=preset-select]", "tmem.accumulator")
    page.page.wait_for_selector("[data-testid=param-kind]")
    page.page.select_option("[data-testid=param-datapath]", "E")
    _wait_layout(page, presets.get("tmem.accumulator", datapath="E", n=128).layout)
    page.page.select_option("[data-testid=param-n]", "8")
    page.page.wait_for_selector("[data-testid=error]:not([hidden])")
    assert "Table 39" in page.page.inner_text("[data-testid=error]")
    page.page.select_option("[data-testid=param-n]", "64")
    page.page.select_option("[data-testid=param-kind]", "i8")
    _wait_layout(page, presets.get("tmem.accumulator", datapath="E", n=64, kind="i8").layout)
    # ldmatrix.m16n16 and wgmma register-A
    page.page.select_option("[data-testid=preset-select]", "ldmatrix.m16n16")
    page.page.wait_for_selector("[data-testid=param-dtype]")
    page.page.select_option("[data-testid=param-num]", "2")
    _wait_layout(page, presets.get("ldmatrix.m16n16", num=2).layout)
    page.page.select_option("[data-testid=preset-select]", "wgmma.m64nNkK.A")
    page.page.wait_for_selector("[data-testid=param-dtype]")
    page.page.select_option("[data-testid=param-dtype]", "e4m3")
    _wait_layout(page, presets.get("wgmma.m64nNkK.A", dtype="e4m3").layout)
    assert page.errors == []


def test_swizzle_menu_offers_the_new_modes(page):
    page.open("?layout=S[(8,64):(64,1)]&dtype=float16")
    options = page.page.evaluate(
        "[...document.querySelectorAll('[data-testid=swizzle-select] option')].map(o => o.value)")
    assert list(tl.SWIZZLE_MODES) == options
    page.page.select_option("[data-testid=swizzle-select]", "128B_atom32B")
    page.page.wait_for_function("window.__tl.state.data.swizzle === 'Swizzle(4,2,2)'")
    assert page.errors == []


def test_swizzle_menu_describes_each_mode(page):
    page.open("?layout=S[(8,64):(64,1)]&dtype=float16")
    titles = page.page.evaluate(
        "Object.fromEntries([...document.querySelectorAll('[data-testid=swizzle-select] option')]"
        ".map(o => [o.value, o.title]))")
    from tilelayout.core.swizzle_modes import SWIZZLE_MODE_TABLE

    assert titles == {n: m.describe() for n, m in SWIZZLE_MODE_TABLE.items()}
    assert page.errors == []
