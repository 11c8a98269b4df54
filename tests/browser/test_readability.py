"""The explorer is readable at every window size, for every preset (issue 12).

Three windows (1400x900, 1000x700, 700x450) at device scale 2; one page per window, every
preset loaded in it once through the preset picker, many checks per load:

* no text overlaps another or leaves its canvas or its cell (the grids record the box of
  every label and cell text they draw);
* layouts of up to 2,048 elements open with every cell of both views 14 px high or more;
* the zoom indicator gives the real cell size (the grid's cell pitch);
* the shared-memory line x bank view has text in every cell it shows;
* captions say what text and colour mean; legends never show two identical swatches;
* nothing in the console.
"""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest

from tilelayout.explorer.views.presets import presets as preset_catalog

pytestmark = pytest.mark.browser

SIZES = [(1400, 900), (1000, 700), (700, 450)]
PRESETS = [p["name"] for p in preset_catalog()["presets"] if not p.get("error")]
READABLE = 14        # px: the smallest cell a layout of up to 2,048 elements opens with
READABLE_ELEMENTS = 2048

STATE = """() => {
  const m = window.__tl.state.model, d = window.__tl.state.data;
  if (!m) return {drawn: false, n: d.size};
  const g = (grid, v) => ({
    w: grid.sw, h: grid.ch, px: grid.labelPx(), painted: grid.painted.labelled,
    filled: grid.painted.filled,
    pitch: grid.spec.nrows > 1 ? grid.rowY[1] - grid.rowY[0] : grid.ch,
    cellW: grid.cellRect(0, 0, 0, grid.sub > 1 ? 0 : -1)[2],
    label: document.querySelector(`[data-testid=zoom-label-${v}]`).textContent,
  });
  const swatches = [...document.querySelectorAll('#legend .sw')].map((e) => e.style.background);
  return {drawn: true, n: d.size, kind: d.physical.kind, problems: window.__tl.textProblems(),
          L: g(m.lgrid, 'logical'), P: g(m.pgrid, 'physical'), swatches,
          captions: [document.getElementById('logical-caption').textContent,
                     document.getElementById('physical-caption').textContent],
          colour: window.__tl.state.color};
}"""


@pytest.fixture(scope="module")
def windows(browser, explorer_url):
    """One page per window size (device scale 2), reused by every preset."""
    from .conftest import Page

    out, contexts = {}, []
    for w, h in SIZES:
        ctx = browser.new_context(viewport={"width": w, "height": h}, device_scale_factor=2)
        contexts.append(ctx)
        page = Page(ctx.new_page(), explorer_url)
        page.open("?preset=" + quote(PRESETS[0]))
        out[(w, h)] = page
    yield out
    for ctx in contexts:
        ctx.close()


def _load(page, name):
    if page.page.input_value("[data-testid=preset-select]") != name:
        before = page.renders()
        page.page.select_option("[data-testid=preset-select]", label=name)
        page.wait_render(before)
    page.page.wait_for_function("window.__tl.state.data && window.__tl.ready")


def _indicated(label):
    """The cell size the zoom indicator gives: (width, height)."""
    m = re.match(r"([\d.]+)(?:x([\d.]+))? px", label)
    assert m, label
    return (float(m[1]), float(m[2])) if m[2] else (float(m[1]), float(m[1]))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", PRESETS)
def test_every_preset_is_readable(windows, size, name):
    page = windows[size]
    _load(page, name)
    s = page.page.evaluate(STATE)
    assert s["drawn"], (name, s)
    for view in ("logical", "physical"):
        assert s["problems"][view] == [], (name, size, view, s["problems"][view][:3])
        g = s["L" if view == "logical" else "P"]
        if s["n"] <= READABLE_ELEMENTS:
            assert g["h"] >= READABLE, (name, size, view, g)
        # the indicator is the real cell size: the row pitch and the drawn cell's width
        w, h = _indicated(g["label"])
        assert (w, h) == (round(g["w"], 2), round(g["h"], 2)) and abs(g["pitch"] - h) < 0.01, g
        assert abs(g["cellW"] - w) < 0.01, g
    if s["kind"] == "smem" and s["n"] <= READABLE_ELEMENTS:
        # the line x bank view names the element in each half-word it shows
        assert s["P"]["px"] >= 7 and s["P"]["painted"] == s["P"]["filled"] > 0, s["P"]
    # the legend never shows two identical swatches; both views say what text and colour are
    assert len(set(s["swatches"])) == len(s["swatches"]) > 0
    assert all(len(c) > 40 for c in s["captions"]), s["captions"]
    assert page.errors == [] and page.http_errors == []


def test_caption_follows_colour_by_and_colours_do_not_repeat(page):
    page.open("?preset=" + quote("tensor-core tile"))
    assert "laneid" in page.page.inner_text("[data-testid=caption-logical]")
    # 32 lanes: 32 different colours (the 16-colour palette used to repeat lanes 0 and 16)
    colours = page.page.evaluate("[...Array(128).keys()].map((e) => window.__tl.colorOf(e))")
    lanes = page.page.evaluate("[...Array(128).keys()].map((e) => window.__tl.state.model.cval[e])")
    by_lane = {}
    for lane, colour in zip(lanes, colours, strict=True):
        by_lane.setdefault(lane, set()).add(colour)
    assert len(by_lane) == 32 and all(len(c) == 1 for c in by_lane.values())
    assert len({next(iter(c)) for c in by_lane.values()}) == 32
    page.page.select_option("[data-testid=color-select]", "dim:1")
    for v in ("logical", "physical"):
        assert "logical j" in page.page.inner_text(f"[data-testid=caption-{v}]")
    assert page.errors == []
