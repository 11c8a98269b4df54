"""The "move data" side panel: POST /api/plan (stages to step through) and POST /api/smem
from the drawn layout, and the chosen shared-memory layout shown with its worst request."""

from __future__ import annotations

from urllib.parse import quote

import pytest

from tilelayout.explorer.views.plan import plan_view
from tilelayout.explorer.views.smem import smem_view

pytestmark = pytest.mark.browser

SRC, DST = "S[(32,32):(1@laneid,1)]", "S[(32,32):(1,1@laneid)]"


def _open(page):
    page.page.click("[data-testid=move-toggle] summary")


def test_plan_stages_and_the_worst_read_shown_in_the_line_x_bank_view(page):
    page.open(f"?layout={quote(SRC)}&shape=32,32")
    want = plan_view({"src": SRC, "dst": DST, "shape": [32, 32], "dtype": "float32"})
    _open(page)
    page.page.fill("[data-testid=move-dst]", DST)
    page.page.select_option("[data-testid=move-dtype]", "float32")
    page.page.click("[data-testid=move-go]")
    page.page.wait_for_function("(d) => window.__tl.moveFor === 'plan|' + d", arg=DST)
    assert page.page.inner_text("[data-testid=move-kind]") == f"{want['kind']} via {want['mechanism']}"
    assert page.page.inner_text("[data-testid=move-stage]") == want["stages"][0]["text"]
    page.page.click("[data-step='1']")
    assert page.page.inner_text("[data-testid=move-stage]") == want["stages"][1]["text"]
    assert page.page.inner_text("[data-testid=move-smem]") == want["smem"]["layout"]
    # "show" the read side: the chosen layout drawn (line x bank), the worst request selected
    before = page.renders()
    page.page.click("[data-testid=move-result] [data-show=read]")
    page.wait_render(before)
    page.page.wait_for_function("window.__tl.highlight && window.__tl.highlight.logical.length > 0")
    assert page.page.evaluate("window.__tl.state.data.layout") == want["smem"]["layout"]
    assert page.page.evaluate("window.__tl.state.data.physical.kind") == "smem"
    worst = sorted(i * 32 + j for i, j in want["smem"]["read"]["worst"]["elements"])
    assert page.page.evaluate("window.__tl.highlight.logical") == worst
    assert page.errors == []


def test_smem_choice_for_a_preset_reader_and_a_refusal_in_words(page):
    writer = "S[(16,8):(1@laneid,16)]"
    page.open(f"?layout={quote(writer)}&shape=16,8")
    _open(page)
    page.page.select_option("[data-testid=move-mode]", "smem")
    page.page.fill("[data-testid=move-dst]", "mma.m16n8k16.C")
    page.page.click("[data-testid=move-go]")
    page.page.wait_for_function("window.__tl.moveFor === 'smem|mma.m16n8k16.C'")
    want = smem_view({"writer": writer, "reader": {"preset": "mma.m16n8k16.C"}, "shape": [16, 8],
                      "dtype": "float16"})
    assert page.page.inner_text("[data-testid=move-smem]") == want["layout"]
    # a destination of another shape: the library's one-line refusal, no console noise
    page.page.fill("[data-testid=move-dst]", "S[(8,8):(8,1@laneid)]")
    page.page.click("[data-testid=move-go]")
    page.page.wait_for_selector("[data-testid=move-result] .bad")
    assert page.errors == [] and page.http_errors == []


def test_dst_values_one_per_register_and_the_budget_reach_the_plan(page):
    src, dst = "S[(32,2):(1@laneid,1)]", "S[(2,32):(1,1@laneid)]"
    page.open(f"?layout={quote(src)}&shape=64")
    _open(page)
    page.page.fill("[data-testid=move-dst]", dst)
    page.page.select_option("[data-testid=move-dtype]", "float8")
    runs = page.page.evaluate("window.__tl.moveRuns || 0")
    page.page.click("[data-testid=move-go]")
    page.page.wait_for_function("(n) => window.__tl.moveRuns > n", arg=runs)
    packed = plan_view({"src": src, "dst": dst, "shape": [64], "dtype": "float8"})
    assert packed["reason"] in page.page.inner_text("[data-testid=move-result]")
    # one value to a register: the library's plan, its last stage without a prmt
    page.page.select_option("[data-testid=move-packing]", "unpacked")
    page.page.click("[data-testid=move-go]")
    page.page.wait_for_function("(n) => window.__tl.moveRuns > n + 1", arg=runs)
    loose = plan_view({"src": src, "dst": dst, "shape": [64], "dtype": "float8",
                       "dst_packing": "unpacked"})
    text = page.page.inner_text("[data-testid=move-result]")
    assert loose["reason"] in text and "dst_packing='unpacked'" in text
    page.page.click("[data-step='1']")
    page.page.click("[data-step='1']")
    assert page.page.inner_text("[data-testid=move-stage]") == loose["stages"][2]["text"]
    assert "0 prmt.b32" in loose["stages"][2]["text"]
    # a budget below what any plan of a transpose needs: refused in the library's words
    page.open(f"?layout={quote(SRC)}&shape=32,32")
    _open(page)
    page.page.fill("[data-testid=move-dst]", DST)
    page.page.select_option("[data-testid=move-dtype]", "float32")
    page.page.fill("[data-testid=move-budget]", "16")
    page.page.click("[data-testid=move-go]")
    page.page.wait_for_selector("[data-testid=move-result] .bad")
    assert "smem_budget=16" in page.page.inner_text("[data-testid=move-result] .bad")
    assert page.errors == [] and page.http_errors == []
