"""SVG pictures: structure, colours shared with the explorer, big tiles, notebook display."""

from __future__ import annotations

import re
import time
import xml.etree.ElementTree as ET

import pytest

import tilelayout as tl
from tilelayout.render.palette import MAX_COLOURS, PALETTE, color, colour_scale
from tilelayout.render.svg import RenderError, layout_svg

REF = "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid"


def _fills(svg: str) -> set[str]:
    return set(re.findall(r'<path fill="(#[0-9a-f]{6})"', svg))


def _group_spans(svg: str) -> list[tuple[float, float]]:
    """(left, right) pixel extent of the cells of each translated group (view)."""
    spans = []
    for gx, body in re.findall(r'<g transform="translate\(([-\d.]+),[-\d.]+\)">(.*?)</g>', svg):
        rights = [float(x) + float(w) for x, w in re.findall(r"M([\d.]+) [\d.]+h([\d.]+)", body)]
        rights += [float(x) + float(w) for x, w in
                   re.findall(r'<rect x="([\d.]+)" y="[\d.]+" width="([\d.]+)"', body)]
        spans.append((float(gx), float(gx) + max(rights)))
    return spans


def test_svg_is_well_formed_and_colours_as_the_page_does():
    svg = layout_svg(tl.parse(REF), (8, 16))
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    assert "warpid" in svg and "laneid" in svg
    # coloured by laneid: lanes 0..31 -> 32 different colours, the page's (by rank from
    # the one colour scale), not the 16-colour palette twice
    assert _fills(svg) - {"#eeeeee"} == set(colour_scale(32)) > set(PALETTE)
    assert "32 values in all, each its own colour" in svg and "repeat" not in svg
    swatches = re.findall(r'width="12" height="12" fill="(#[0-9a-f]{6})"', svg)
    assert swatches == list(colour_scale(16))  # the legend's swatch for lane v is lane v's colour
    assert tl.parse(REF)._repr_svg_() == layout_svg(tl.parse(REF))


def test_more_values_than_colours_say_that_they_repeat():
    svg = layout_svg(tl.parse("S[(24,32):(32,1)]"), color="dim:1")  # 32 values: no repeat
    assert "each its own colour" in svg
    big = layout_svg(tl.parse("S[(2,600):(600,1)]"), color="dim:1")  # 600 values: repeat
    assert f"600 values in all, colours repeat every {MAX_COLOURS}" in big


def test_svg_views_per_axis_kind():
    smem = tl.ComposeLayout(tl.Swizzle(3, 3, 3), tl.parse("S[(8,64):(64,1)]"))
    assert "line x bank" in layout_svg(smem, dtype="float16")
    assert "TLane x TCol" in layout_svg(tl.parse("S[(2,128,112):(112@TCol,1@TLane,1@TCol)]"))
    assert "partition P" in layout_svg(tl.parse("S[(128,64):(1@P,1@F)]"))
    assert "devices" in layout_svg(tl.parse("S[(2,4):(1@x,1)] + R[2:1@pid]", axes=["x"]))


def test_svg_colour_key_choices_and_errors():
    L = tl.parse("S[(4,8):(8,1)]")
    one = layout_svg(L, color="dim:0")
    assert _fills(one) == {color(v) for v in range(4)}
    with pytest.raises(RenderError, match="unknown colour key"):
        layout_svg(L, color="laneid")
    with pytest.raises(RenderError, match="needs --dtype"):
        layout_svg(L, color="bank")
    with pytest.raises(RenderError, match="at most"):
        layout_svg(tl.parse("S[(1024,1024):(1024,1)]"))


def test_big_tiles_stay_compact_and_fast():
    L = tl.ComposeLayout(tl.Swizzle(3, 3, 3), tl.parse("S[(128,256):(256,1)]"))
    start = time.perf_counter()
    svg = layout_svg(L, dtype="float16")
    assert time.perf_counter() - start < 5
    assert len(svg) < 1_500_000  # 32768 elements: a few bytes per cell, one path per colour
    assert svg.count("<path fill=") <= 2 * (32 + 1)  # coloured by bank: 32 colours (+ empty)
    ET.fromstring(svg)
    threads = layout_svg(tl.parse("S[(4,32,256):(1@warpid,1@laneid,1)]"), (128, 256))
    assert len(threads) < 1_500_000 and "warpid" in threads


def test_every_owner_slot_is_drawn_with_its_element():
    """Regression: slots of neighbouring tiles were merged by rounding (warp 6 lost its m=1 column)."""
    L = tl.parse("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid")
    labels = re.findall(r">(\d+,\d+)</text>", layout_svg(L, (8, 16)))
    assert len(labels) == 128 * 2  # every (element, replica) pair has its own slot
    assert all(labels.count(f"{i},{j}") == 2 for i in range(8) for j in range(16))


@pytest.mark.parametrize("text", ["S[(128,2,512):(1@P,1@Bank,1@F)]", "S[(4,300):(300,1)]",
                                  "S[(2,2048):(2048,1)]"])
def test_wide_layouts_fit_the_picture_without_overlap(text):
    # wide shapes used to be drawn at a 2-pixel minimum cell: the logical view ran under
    # the physical one and both ran past the picture's right edge (clipped)
    svg = layout_svg(tl.parse(text))
    width = float(re.search(r'<svg[^>]*width="(\d+)"', svg).group(1))
    (l_left, l_right), (p_left, p_right) = _group_spans(svg)
    assert l_right <= p_left
    assert p_right <= width


def test_notebook_display_falls_back_to_text_for_huge_layouts():
    huge = tl.parse("S[(4096,4096):(4096,1)]")
    assert huge._repr_svg_() is None  # too many cells: Jupyter shows repr() instead
    assert repr(huge) == "parse('S[(4096,4096):(4096,1)]')"


def test_one_tile_axis_wraps_into_full_rows_in_the_svg():
    # 4 warps: 2 + 2 or 4 in a row, never 3 + 1
    svg = layout_svg(tl.parse("S[(4,32,2):(1@warpid,1@laneid,1)]"), (4, 64))
    ys = [float(y) for y in re.findall(r'<text x="[\d.]+" y="([\d.]+)"[^>]*>warpid=\d</text>', svg)]
    assert len(ys) == 4 and len(set(ys)) in (1, 2) and all(ys.count(y) == 4 // len(set(ys)) for y in ys)


def _rings(svg: str) -> list[tuple[float, float, float, float, str]]:
    return [(float(x), float(y), float(w), float(h), c) for x, y, w, h, c in re.findall(
        r'<rect class="ring" x="([-\d.]+)" y="([-\d.]+)" width="([\d.]+)" height="([\d.]+)" '
        r'fill="none" stroke="(#[0-9a-f]+)"', svg)]


def test_a_selection_rings_the_element_and_every_cell_holding_it_and_joins_them():
    L = tl.parse(REF)
    flat = 3 * 16 + 5
    svg = layout_svg(L, (8, 16), selected=flat)
    ET.fromstring(svg)
    owners = L.apply((3, 5), shape=(8, 16))
    rings = _rings(svg)
    assert [c for *_, c in rings].count("#2563eb") == 1  # the element, in blue
    assert len(rings) == 1 + len(owners)  # ... and each physical cell holding it
    ends = re.findall(r'<path class="connector" d="M([\d.]+) ([\d.]+)C[^"]* ([\d.]+) ([\d.]+)"', svg)
    assert len(ends) == len(owners)
    blue = next(r for r in rings if r[4] == "#2563eb")
    for x1, y1, x2, y2 in ends:  # from the element's right edge to each owner's left edge
        assert abs(float(x1) - (blue[0] + blue[2] - 1)) < 0.6
        assert blue[1] < float(y1) < blue[1] + blue[3]
        assert any(abs(float(x2) - (r[0] - 0.5)) < 1.1 and r[1] < float(y2) < r[1] + r[3]
                   for r in rings if r[4] == "#111")
    assert 'fill-opacity="0.68"' not in svg
    assert 'fill-opacity="0.68"' in layout_svg(L, (8, 16), selected=flat, dim=True)


def test_a_highlight_rings_the_cells_of_a_set_without_connectors():
    L = tl.parse("S[(8,4):(4@laneid,1@laneid)]")
    svg = layout_svg(L, (8, 4), highlight=[0, 1, 2, 3])
    assert len(_rings(svg)) == 8 and 'class="connector"' not in svg
    assert _rings(layout_svg(L, (8, 4))) == []
    for bad in ([32], [-1], [True], ["0"]):
        with pytest.raises(RenderError, match="flat element indices"):
            layout_svg(L, (8, 4), highlight=bad)


def test_tiles_per_row_sets_the_physical_tile_grid():
    L = tl.parse("S[(4,32,2):(1@warpid,1@laneid,1)]")
    for per_row, rows in ((1, 4), (2, 2), (4, 1), (9, 1)):
        svg = layout_svg(L, (4, 64), tiles_per_row=per_row)
        ys = re.findall(r'<text x="[\d.]+" y="([\d.]+)"[^>]*>warpid=\d</text>', svg)
        assert len(set(ys)) == rows, (per_row, ys)
    for bad in (0, True, 1.5):
        with pytest.raises(RenderError, match="tiles_per_row"):
            layout_svg(L, (4, 64), tiles_per_row=bad)
