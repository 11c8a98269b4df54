"""The page's view state drawn by render.svg: the picture the explorer's SVG export saves."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import tilelayout as tl
from tilelayout.render.page_view import PageView, PageViewError, cell_text, rank_colours
from tilelayout.render.palette import colour_scale
from tilelayout.render.svg import layout_svg

REF = "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid"


def _page(lcell=(28.0, 28.0), lfont=9, pcell=(28.0, 18.0), pfont=8, lines=(1, 1)) -> PageView:
    return PageView(lcell, lfont, pcell, pfont, "laneid", ("logical: one", "physical: two"), lines)


def _cells(svg: str) -> list[tuple[float, float]]:
    """(width, height) of every rectangle of the cell fills (runs are whole cells wide)."""
    return [(float(w), float(h)) for w, h in re.findall(r"h([\d.]+)v([\d.]+)h-", svg)]


def test_the_page_view_draws_the_pages_cell_sizes_rectangular_cells_too():
    svg = layout_svg(tl.parse(REF), (8, 16), page=_page(lcell=(20.0, 12.0), pcell=(30.0, 10.0)))
    ET.fromstring(svg)
    heights = {h for _, h in _cells(svg)}
    assert heights == {12.0, 10.0}
    widths = {w for w, _ in _cells(svg)}
    assert all(w % 20 == 0 or w % 30 == 0 for w in widths)


def test_cell_text_is_the_colour_value_logically_and_the_index_physically_at_the_pages_size():
    svg = layout_svg(tl.parse(REF), (8, 16), page=_page(lfont=9, pfont=7))
    texts = re.findall(r'<text [^>]*font-size="(\d+)"[^>]*fill="#1c1917">([^<]*)</text>', svg)
    logical = [t for px, t in texts if px == "9"]
    physical = [t for px, t in texts if px == "7"]
    lane = tl.parse(REF).map_all((8, 16))["laneid"][..., 0].reshape(-1)
    assert sorted(logical) == sorted(str(v) for v in lane)
    # every (element, replica) pair has its own slot: 256 index texts, each element twice
    assert len(physical) == 256 and physical.count("7,15") == 2
    # no text when the page writes none; two lines when the page breaks them
    assert 'fill="#1c1917"' not in layout_svg(tl.parse(REF), (8, 16), page=_page(lfont=0, pfont=0))
    two = layout_svg(tl.parse(REF), (8, 16), page=_page(lfont=0, pfont=7, lines=(1, 2)))
    assert ">7,</text>" in two and ">15</text>" in two


def test_row_and_column_labels_on_both_views():
    svg = layout_svg(tl.parse(REF), (8, 16), page=_page())
    labels = re.findall(r'fill="#78716c">([^<]*)</text>', svg)
    # logical rows 0..7 and columns 0..15; physical lanes 0..31 (rows), slots 0..1 per tile
    assert {str(i) for i in range(32)} <= set(labels)
    assert len(labels) == 8 + 16 + 32 + 4 * 2


def test_colours_are_ranked_from_the_colour_scale_like_the_page():
    idx, scale = rank_colours(np.array([100, 5, 100, 7]))
    assert idx.tolist() == [2, 0, 2, 1] and scale == colour_scale(3)
    svg = layout_svg(tl.parse("S[(4,8):(8@laneid,1@laneid)]"), (4, 8), color="laneid", page=_page())
    fills = set(re.findall(r'<path fill="(#[0-9a-f]{6})"', svg))
    assert fills == set(colour_scale(32))  # 32 lanes: 32 different colours, no repeat
    swatches = re.findall(r'y="57" width="10" height="10" fill="(#[0-9a-f]{6})"', svg)
    assert swatches == list(colour_scale(32)[:len(swatches)]) and len(swatches) >= 16


def test_the_band_carries_the_layout_captions_and_legend_and_the_picture_is_wide_enough():
    page = PageView((28.0, 28.0), 9, (28.0, 18.0), 8, "laneid", ("logical: " + "x" * 300, "p"))
    svg = layout_svg(tl.parse(REF), (8, 16), page=page)
    assert "colour = laneid:" in svg and "logical: xxx" in svg and "shape (8, 16)" in svg
    assert float(re.match(r'<svg [^>]*width="(\d+)"', svg).group(1)) >= 6.7 * 300


def test_a_selection_is_ringed_and_connected_in_the_page_picture():
    svg = layout_svg(tl.parse(REF), (8, 16), selected=53, page=_page())
    assert svg.count('class="connector"') == 2 and svg.count('class="ring"') == 3


@pytest.mark.parametrize("bad", [
    None, [], {"logical": {"cell": [0, 5], "font": 7}, "physical": {"cell": [5, 5], "font": 7}},
    {"logical": {"cell": [5, 5], "font": 7.5}, "physical": {"cell": [5, 5], "font": 7}},
    {"logical": {"cell": [5, 5], "font": 7}, "physical": {"cell": [5, 5], "font": 7, "lines": 3}},
    {"logical": {"cell": [5, 5], "font": 7}, "physical": {"cell": [5, 5], "font": 7},
     "captions": "x"},
])
def test_bad_view_state_is_one_line_error(bad):
    with pytest.raises(PageViewError):
        PageView.parse(bad)


def test_cell_text_escapes():
    assert "&lt;" in cell_text(0, 0, "<", 7)
