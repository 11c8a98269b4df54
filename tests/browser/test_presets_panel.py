"""The preset parameter widgets in real Chromium: they rebuild the layout and live in the URL."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from tilelayout import presets

pytestmark = pytest.mark.browser


def test_preset_parameters_rebuild_and_live_in_the_url(page):
    page.open("?preset=wgmma.m64nNk16.D")
    assert page.page.input_value("[data-testid=param-n]") == "64"
    before = page.renders()
    page.page.select_option("[data-testid=param-n]", "16")
    page.wait_render(before)
    want = presets.get("wgmma.m64nNk16.D", n=16)
    page.page.wait_for_function(f"window.__tl.state.data.layout === {str(want.layout)!r}")
    assert page.page.input_value("[data-testid=layout-input]") == str(want.layout)
    assert page.page.input_value("[data-testid=shape-input]") == "64,16"
    params = parse_qs(urlsplit(page.page.url).query)
    assert params["p.n"] == ["16"] and params["preset"] == ["wgmma.m64nNk16.D"]
    # the link reproduces the parameters
    page.open("?" + urlsplit(page.page.url).query)
    assert page.page.evaluate("window.__tl.state.data.layout") == str(want.layout)
    assert page.page.input_value("[data-testid=param-n]") == "16"
    # a hand-written link with parameters only
    page.open("?preset=mma.m16n8k16.A&p.dtype=bfloat16")
    assert page.page.evaluate("window.__tl.state.data.layout") == \
        str(presets.get("mma.m16n8k16.A", dtype="bfloat16").layout)
    # checkbox and text widgets
    page.page.select_option("[data-testid=preset-select]", "ldmatrix.x4")
    page.page.wait_for_selector("[data-testid=param-trans]")
    before = page.page.evaluate("window.__tl.presetBuilds || 0")
    page.page.check("[data-testid=param-trans]")
    page.page.wait_for_function(f"window.__tl.presetBuilds > {before}")
    assert page.page.evaluate("window.__tl.state.data.layout") == \
        str(presets.get("ldmatrix.x4", trans=True).layout)
    page.page.select_option("[data-testid=preset-select]", "mesh.shard")
    page.page.wait_for_selector("[data-testid=param-mesh]")
    before = page.page.evaluate("window.__tl.presetBuilds || 0")
    page.page.fill("[data-testid=param-mesh]", "dp=4,tp=2")
    page.page.fill("[data-testid=param-shape]", "16,4")
    page.page.wait_for_function(
        f"window.__tl.presetBuilds > {before} && "
        f"window.__tl.state.data.layout === "
        f"{str(presets.get('mesh.shard', mesh={'dp': 4, 'tp': 2}, shape=(16, 4)).layout)!r}")
    # a refused value: the error names it, the widget is marked, the last picture stays
    page.page.select_option("[data-testid=preset-select]", "tmem.scale_factors")
    shown = str(presets.default("tmem.scale_factors").layout)
    page.page.wait_for_function(f"window.__tl.state.data.layout === {shown!r}")
    page.page.fill("[data-testid=param-rows]", "3")
    page.page.wait_for_selector("[data-testid=error]:not([hidden])")
    assert "multiple of 32" in page.page.inner_text("[data-testid=error]")
    assert "bad" in page.page.get_attribute("[data-testid=param-rows]", "class")
    assert page.page.evaluate("window.__tl.state.data.layout") == shown
    page.page.fill("[data-testid=param-rows]", "64")
    page.page.wait_for_selector("[data-testid=error]", state="hidden")
    assert page.page.evaluate("window.__tl.state.data.layout") == \
        str(presets.get("tmem.scale_factors", rows=64).layout)
    # editing the layout text leaves the preset: no parameter widgets
    page.page.fill("[data-testid=layout-input]", "S[(4,8):(8@laneid,1@laneid)]")
    page.page.wait_for_selector("[data-testid=params]", state="hidden")
    assert page.errors == []
