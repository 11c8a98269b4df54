"""The "move data" panel's costs, its line x bank / lanes picture stepped through the
plan's stages, and its URL state (movestages.js), against ``tl.plan_conversion`` and
``POST /api/plan``."""

from __future__ import annotations

from urllib.parse import parse_qs, quote, urlparse

import pytest

import tilelayout as tl
from tilelayout import presets
from tilelayout.explorer.views.plan import plan_view
from tilelayout.explorer.views.smem import smem_view

from .conftest import ARTIFACTS, Page
from .test_accessibility import _axe

pytestmark = pytest.mark.browser

SRC, DST = "S[(32,32):(1@laneid,1)]", "S[(32,32):(1,1@laneid)]"


def _plan(page, dst, dtype):
    page.page.click("[data-testid=move-toggle] summary")
    page.page.fill("[data-testid=move-dst]", dst)
    page.page.select_option("[data-testid=move-dtype]", dtype)
    before = page.page.evaluate("window.__tl.moveRuns || 0")
    page.page.click("[data-testid=move-go]")
    page.page.wait_for_function("(n) => (window.__tl.moveRuns || 0) > n", arg=before)


def _costs(page) -> dict[str, str]:
    # each item is <span class=k>name</span> <b>value</b> (a value may contain spaces)
    return dict(page.page.evaluate("""() => [...document.querySelectorAll(
        '[data-testid=move-costs] li')].map((li) => [li.querySelector('.k').textContent,
        li.querySelector('b').textContent])"""))


def _step(page, delta: int, want: int) -> None:
    page.page.click(f"[data-step='{delta}']")
    page.page.wait_for_function("(s) => window.__tl.moveStage === s", arg=want)


def test_mma_accumulator_to_b_operand_costs_lanes_and_url(page):
    C = presets.get("mma.m16n8k16.C").layout
    B = presets.get("mma.m16n8k16.B", dtype="float16").layout
    p = tl.plan_conversion(C, B, (16, 8), "float16")
    page.open("?preset=mma.m16n8k16.C")
    _plan(page, "mma.m16n8k16.B", "float16")
    assert page.page.inner_text("[data-testid=move-kind]") == f"{p.kind} via {p.mechanism}"
    assert _costs(page) == {k.replace("_", " "): str(v) for k, v in p.costs.items()}
    # the steps inside each lane (pack, select) show the lanes reading themselves; each
    # shuffle round highlights the lanes that read another lane's value
    assert [st.what for st in p.stages] == ["pack", "select", "shuffle", "shuffle", "select"]
    for k, st in enumerate(p.stages):
        if k:
            _step(page, 1, k)
        pic = page.page.evaluate("window.__tl.movePicture")
        assert pic["kind"] == "lanes" and pic["texts"] == 32
        src = st.data["src_lane"][0] if st.what == "shuffle" else list(range(32))
        want = [lane for lane, s in enumerate(src) if s >= 0 and s != lane]
        assert pic["highlighted"] == want
        assert bool(want) == (st.what == "shuffle")
    _step(page, -1, 3)
    _step(page, -1, 2)
    # the URL holds the panel and its stage; opening it gives the same picture
    url = page.page.url
    q = parse_qs(urlparse(url).query)
    assert (q["move"], q["to"], q["mdtype"], q["stage"]) == (["plan"], ["mma.m16n8k16.B"], ["float16"], ["3"])
    page.page.goto(url)
    page.page.wait_for_function("window.__tl.moveStage === 2")
    assert page.page.inner_text("[data-testid=move-stage]") == p.stages[2].text
    assert page.page.url == url
    assert page.errors == []


def test_mma_accumulator_to_a_operand_is_refused_in_words(page):
    # C is 16 x 8, A is 16 x 16: the plan needs two layouts of one tile
    page.open("?preset=mma.m16n8k16.C")
    page.page.click("[data-testid=move-toggle] summary")
    page.page.fill("[data-testid=move-dst]", "mma.m16n8k16.A")
    page.page.click("[data-testid=move-go]")
    page.page.wait_for_selector("[data-testid=move-result] .bad")
    assert "different tiles" in page.page.inner_text("[data-testid=move-result]")
    assert page.errors == []


def test_transpose_line_x_bank_view_steps_through_store_barrier_load(page):
    p = tl.plan_conversion(SRC, DST, (32, 32), "float32")
    want = plan_view({"src": SRC, "dst": DST, "shape": [32, 32], "dtype": "float32"})
    page.open(f"?layout={quote(SRC)}&shape=32,32")
    _plan(page, DST, "float32")
    assert _costs(page) == {k.replace("_", " "): str(v) for k, v in p.costs.items()}
    pic = page.page.evaluate("window.__tl.movePicture")
    assert pic["kind"] == "banks" and pic["rows"] == want["grid"]["lines"] == 32 and pic["cols"] == 32
    # element numbers (up to 1023) do not fit a 360-pixel panel's cells: none drawn, said so
    assert pic["fits"] is False and pic["texts"] == 0
    assert "when the cells are wide enough" in page.page.inner_text("[data-testid=move-caption]")
    # stage 1 (store): the worst store request's cells; its lanes' first elements among them
    write = sorted(c["element"] for c in want["worst_cells"]["write"])
    assert pic["highlighted"] == write
    firsts = {i * 32 + j for i, j in want["smem"]["write"]["worst"]["elements"]}
    assert firsts <= set(write) and len(write) == 32 * p.smem.write.vector_bytes // 4
    assert "worst store request" in page.page.inner_text("[data-testid=move-caption]")
    _step(page, 1, 1)  # barrier: nothing moves
    assert page.page.evaluate("window.__tl.movePicture.highlighted") == []
    _step(page, 1, 2)  # load: the worst read request
    assert page.page.evaluate("window.__tl.movePicture.highlighted") == \
        sorted(c["element"] for c in want["worst_cells"]["read"])
    _step(page, -1, 1)
    # keyboard: the stage buttons and the picture take focus; the picture has a label
    canvas = page.page.locator("[data-testid=move-canvas]")
    assert "line by bank" in canvas.get_attribute("aria-label")
    canvas.focus()
    assert page.page.evaluate("document.activeElement.dataset.testid") == "move-canvas"
    page.page.focus("[data-step='1']")
    page.page.keyboard.press("Enter")
    page.page.wait_for_function("window.__tl.moveStage === 2")
    assert page.errors == []


@pytest.mark.parametrize("w,h", [(1400, 900), (1000, 700), (700, 450)])
def test_readable_at_window_sizes(browser, explorer_url, w, h):
    ctx = browser.new_context(viewport={"width": w, "height": h}, device_scale_factor=2)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(f"{explorer_url}/?layout={quote(SRC)}&shape=32,32&move=plan&to={quote(DST)}&mdtype=float32")
    pg.wait_for_function("window.__tl.movePicture && window.__tl.movePicture.kind === 'banks'")
    pic = pg.evaluate("window.__tl.movePicture")
    box = pg.locator(".mv-pic").bounding_box()
    side = pg.locator("[data-testid=movedata]").bounding_box()
    canvas = pg.locator("[data-testid=move-canvas]").bounding_box()
    assert pic["cw"] >= 6 and pic["ch"] >= 14   # cells big enough to see
    # all 32 banks in view: the picture fits its panel (no horizontal scrolling)
    assert box["x"] >= side["x"] and box["x"] + box["width"] <= side["x"] + side["width"] + 1
    assert canvas["x"] + canvas["width"] <= box["x"] + box["width"] + 1
    pg.locator("[data-testid=movedata]").scroll_into_view_if_needed()
    ARTIFACTS.mkdir(exist_ok=True)
    pg.locator("[data-testid=movedata]").screenshot(path=str(ARTIFACTS / f"move-data-{w}x{h}.png"))
    if (w, h) == (1000, 700):
        pg.screenshot(path=str(ARTIFACTS / "move-data-page-1000x700.png"))
    assert errors == []
    ctx.close()


def test_destination_preset_with_parameters_as_the_cli_writes_them(page):
    dst = "mma.m16n8k16.B:dtype=int8"
    B = presets.get("mma.m16n8k16.B", dtype="int8").layout
    assert B != presets.get("mma.m16n8k16.B", dtype="float16").layout  # the parameter matters
    src = "S[(16,8):(1@laneid,16)]"   # row i in lane i
    page.open(f"?layout={quote(src)}&shape=16,8")
    _plan(page, dst, "float8")   # an 8-bit element, as int8
    p = tl.plan_conversion(tl.parse(src), B, (16, 8), "float8")
    assert page.page.inner_text("[data-testid=move-kind]") == f"{p.kind} via {p.mechanism}"
    assert _costs(page) == {k.replace("_", " "): str(v) for k, v in p.costs.items()}
    assert parse_qs(urlparse(page.page.url).query)["to"] == [dst]
    assert page.errors == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_wcag_violations_with_the_panels_open(browser, explorer_url, scheme):
    ctx = browser.new_context(viewport={"width": 1400, "height": 900}, color_scheme=scheme)
    pg = Page(ctx.new_page(), explorer_url)
    pg.open(f"?layout={quote(SRC)}&shape=32,32&move=plan&to={quote(DST)}&mdtype=float32&stage=3")
    pg.page.wait_for_function("window.__tl.moveStage === 2")
    pg.page.click("[data-testid=codegen-toggle] summary")
    pg.page.wait_for_function("window.__tl.codegenFor !== undefined")
    violations = _axe(pg)
    assert violations == [], violations
    assert pg.errors == []
    ctx.close()


def test_smem_mode_picture_highlights_the_worst_read(page):
    writer = "S[(16,8):(1@laneid,16)]"
    want = smem_view({"writer": writer, "reader": {"preset": "mma.m16n8k16.C"}, "shape": [16, 8],
                      "dtype": "float16"})
    page.open(f"?layout={quote(writer)}&shape=16,8&move=smem&to=mma.m16n8k16.C&mdtype=float16")
    page.page.wait_for_function("window.__tl.movePicture && window.__tl.movePicture.kind === 'banks'")
    pic = page.page.evaluate("window.__tl.movePicture")
    assert pic["rows"] == want["grid"]["lines"]
    assert pic["highlighted"] == sorted(c["element"] for c in want["worst_cells"]["read"])
    assert "worst load request" in page.page.inner_text("[data-testid=move-caption]")
    assert page.errors == []


def test_the_target_select_decides_the_instructions_and_is_stated(page):
    """An 8-bit transpose: sm_100a has the 8-bit ldmatrix form, the default sm_90a not."""
    page.open("?layout=" + quote(SRC))
    page.page.click("[data-testid=move-toggle] summary")
    page.page.fill("[data-testid=move-dst]", DST)
    page.page.select_option("[data-testid=move-dtype]", "float8")
    for target, load in (("", "ld.shared.v4.b32"), ("sm_100a", "ldmatrix.m16n16.x2.trans.b8")):
        page.page.select_option("[data-testid=move-target]", target)
        before = page.page.evaluate("window.__tl.moveRuns || 0")
        page.page.click("[data-testid=move-go]")
        page.page.wait_for_function("(n) => (window.__tl.moveRuns || 0) > n", arg=before)
        p = tl.plan_conversion(SRC, DST, (32, 32), "float8", target=target or None)
        assert p.costs["load_instruction"] == load
        assert page.page.inner_text("[data-testid=move-planned-target]") == \
            f"for {p.target} ({p.target_from})"
        assert _costs(page)["load instruction"] == load


def test_the_code_tab_shows_the_plans_cuda_with_a_copy_button(page):
    p = tl.plan_conversion(SRC, DST, (32, 32), "float16")
    page.open(f"?layout={quote(SRC)}&shape=32,32")
    _plan(page, DST, "float16")
    page.page.click("[data-testid=move-code] summary")
    assert page.page.inner_text("[data-testid=move-code] pre").strip() == p.code().strip()
    page.page.click("[data-testid=move-copy]")
    page.page.wait_for_function(
        "document.querySelector('[data-testid=move-copy]').textContent !== 'copy'")
    assert page.page.inner_text("[data-testid=move-copy]") in (
        "copied", "copy refused", "copy: no clipboard here")
    assert page.errors == []
