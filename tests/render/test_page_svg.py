"""The page's picture drawn on the server (render.page_svg): the explorer's SVG export."""

from __future__ import annotations

import dataclasses
import re
import xml.etree.ElementTree as ET

import pytest

import tilelayout as tl
from tilelayout.render.page_svg import page_svg, simple_view
from tilelayout.render.palette import colour_scale
from tilelayout.render.svg import RenderError

REF = "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid"
L = tl.parse(REF)


def _texts(svg: str, px: int) -> list[str]:
    """The cell texts of size px (a group of texts per view and size)."""
    out = []
    for body in re.findall(rf'<g font-size="{px}" font-family="[^"]*" fill="#1c1917"[^>]*>(.*?)</g>', svg):
        out += re.findall(r">([^<]*)</text>", body)
    return out


def _labels(svg: str) -> list[str]:
    return [t for body in re.findall(r'<g class="labels"[^>]*>(.*?)</g>', svg)
            for t in re.findall(r">([^<]*)</text>", body)]


def test_cells_sit_where_the_page_puts_them_rectangular_too():
    v = simple_view(L, (8, 16), cell=(20.0, 12.0))
    svg = page_svg(L, (8, 16), page=v)
    ET.fromstring(svg)
    fills = "".join(re.findall(r'<path fill="#(?!ffffff)[0-9a-f]{6}" d="([^"]*)"', svg))
    runs = re.findall(r"M([\d.]+) ([\d.]+)h([\d.]+)v([\d.]+)h-", fills)
    assert {float(h) for *_, h in runs} == {12.0}
    # the logical view's first row starts at its tile's corner, runs whole cells wide
    x0, y0 = v.logical.tiles[0]
    assert (str(int(x0)), str(int(y0))) in {(x, y) for x, y, *_ in runs}
    assert all(float(w) % 20 == 0 for *_, w, _ in runs)


def test_cell_text_is_the_colour_value_logically_and_the_index_physically():
    svg = page_svg(L, (8, 16), page=simple_view(L, (8, 16), font=7))
    lane = L.map_all((8, 16))["laneid"][..., 0].reshape(-1)
    texts = _texts(svg, 7)
    logical = [t for t in texts if "," not in t]
    physical = [t for t in texts if "," in t]
    assert sorted(logical) == sorted(str(v) for v in lane)
    # every (element, replica) pair has its own slot: 256 index texts, each element twice
    assert len(physical) == 256 and physical.count("7,15") == 2
    assert not re.search(r'<g font-size="\d+" font-family="[^"]*" fill="#1c1917" text-anchor',
                         page_svg(L, (8, 16), page=simple_view(L, (8, 16), font=0)))
    v = simple_view(L, (8, 16), font=7)
    two = page_svg(L, (8, 16), page=dataclasses.replace(
        v, physical=dataclasses.replace(v.physical, lines=2)))
    assert ">7,</text>" in two and ">15</text>" in two


def test_row_and_column_labels_on_both_views_mixed_axes_joined_like_the_page():
    svg = page_svg(L, (8, 16), page=simple_view(L, (8, 16)))
    labels = _labels(svg)
    # logical rows 0..7 and columns 0..15; physical lanes 0..31 (rows), slots 0..1 per tile
    assert {str(i) for i in range(32)} <= set(labels)
    assert len(labels) == 8 + 16 + 32 + 4 * 2
    # a physical grid whose columns are two axes: "TCol·m" labels, as the page writes them
    m = tl.parse("S[(4,2,2):(1@laneid,1@TCol,1@m)]")
    two = _labels(page_svg(m, (4, 2, 2), page=simple_view(m, (4, 2, 2))))
    assert ["0·0", "0·1", "1·0", "1·1"] == [t for t in two if "·" in t]


def test_colours_are_ranked_from_the_colour_scale_and_the_band_has_the_legend():
    m = tl.parse("S[(4,8):(8@laneid,1@laneid)]")
    svg = page_svg(m, (4, 8), "", "laneid", page=simple_view(m, (4, 8)))
    fills = set(re.findall(r'<path fill="(#[0-9a-f]{6})" d="M', svg)) - {"#ffffff", "#efedea"}
    assert fills == set(colour_scale(32))  # 32 lanes: 32 different colours, no repeat
    swatches = re.findall(r'y="57" width="10" height="10" fill="(#[0-9a-f]{6})"', svg)
    assert swatches == list(colour_scale(32)[:len(swatches)]) and len(swatches) >= 5
    assert "… 32 values, each its own colour" in svg  # the swatches that fit, then the count
    assert "colour = colour:" in svg and "shape (4, 8)" in svg


def test_the_selection_rings_what_the_page_rings_and_connects_the_element():
    # the page rings one selected slot (physical key 5), not every replica of its element
    v = simple_view(L, (8, 16), ring={"logical": [53], "physical": [5]})
    svg = page_svg(L, (8, 16), page=v)
    assert svg.count('class="ring"') == 2 and 'class="connector"' not in svg
    # an element selected: its logical cell ringed strongly, every owner ringed and joined
    v = simple_view(L, (8, 16), ring={"logical": [53], "physical": [7, 71]}, primary=53)
    svg = page_svg(L, (8, 16), page=v)
    assert svg.count('class="connector"') == 2 and 'stroke="#2563eb" stroke-width="2"' in svg
    assert svg.count('class="ring"') == 4
    assert 'fill="rgba(255,255,255,0.68)"' not in svg
    assert 'fill="rgba(255,255,255,0.68)"' in page_svg(L, (8, 16), page=v, dim=True)


def test_shared_slots_are_marked():
    m = tl.parse("S[(4,8):(1@laneid,1@laneid)]")  # lanes 0..10 hold several elements
    svg = page_svg(m, (4, 8), page=simple_view(m, (4, 8)))
    assert svg.count('class="shared"') == 1 and 'fill="#b91c1c"' in svg


def test_a_view_laid_out_for_another_grid_or_a_key_outside_it_is_refused():
    v = simple_view(L, (8, 16))
    with pytest.raises(RenderError, match="lays out"):
        page_svg(tl.parse("S[(4,8):(8@laneid,1@laneid)]"), (4, 8), page=v)
    bad = dataclasses.replace(v, physical=dataclasses.replace(v.physical, ring=(10**6,)))
    with pytest.raises(RenderError, match="cell keys"):
        page_svg(L, (8, 16), page=bad)
