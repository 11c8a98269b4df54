"""Text tables, SVG pictures (structure, colours shared with the explorer, big tiles),
PNG output and the `tilelayout render` command."""

from __future__ import annotations

import math
import re
import shutil
import time
import xml.etree.ElementTree as ET

import pytest

import tilelayout as tl
from tilelayout.cli import main
from tilelayout.render.palette import PALETTE, color
from tilelayout.render.svg import RenderError, layout_svg
from tilelayout.render.table import layout_table

REF = "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid"


def test_table_lists_every_owner_like_print_layout():
    text = layout_table(tl.parse(REF), (8, 16))
    lines = text.splitlines()
    assert lines[0].endswith("cell = laneid,warpid,m")
    row7 = next(line for line in lines if line.lstrip().startswith("7 |"))
    cells = [c.strip() for c in row7.rstrip(" |").split(" | ")[1:]]
    # (7, 15): laneid 31, warps {6, 10}, m 1 -- the reference table's last row
    assert cells[15] == "31,6,1|31,10,1"
    assert cells[0] == "28,5,0|28,9,0"
    assert tl.parse(REF).table((8, 16)) == text


def test_table_shows_swizzled_addresses():
    L = tl.ComposeLayout(tl.Swizzle(3, 3, 3), tl.parse("S[(8,64):(64,1)]"))
    rows = layout_table(L).splitlines()
    row1 = [c.strip() for c in rows[5].split("|")[1:-1]]
    assert row1[0] == "72"  # addr(1, 0) = 64 + 8 * (0 ^ 1)


def _fills(svg: str) -> set[str]:
    return set(re.findall(r'<path fill="(#[0-9a-f]{6})"', svg))


def test_svg_is_well_formed_and_uses_the_shared_palette():
    svg = layout_svg(tl.parse(REF), (8, 16))
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    assert "warpid" in svg and "laneid" in svg
    # coloured by laneid: values 0..31 -> every palette colour
    assert _fills(svg) - {"#eeeeee"} == {color(v) for v in range(32)} == set(PALETTE)
    assert tl.parse(REF)._repr_svg_() == layout_svg(tl.parse(REF))


def test_svg_views_per_axis_kind():
    smem = tl.ComposeLayout(tl.Swizzle(3, 3, 3), tl.parse("S[(8,64):(64,1)]"))
    assert "line x bank" in layout_svg(smem, dtype="float16")
    assert "TLane x TCol" in layout_svg(tl.parse("S[(2,128,112):(112@TCol,1@TLane,1@TCol)]"))
    assert "partition P" in layout_svg(tl.parse("S[(128,64):(1@P,1@F)]"))
    tl.declare_axis("x", kind="device")
    assert "devices" in layout_svg(tl.parse("S[(2,4):(1@x,1)] + R[2:1@pid]"))


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
    assert svg.count("<path fill=") <= 2 * (len(PALETTE) + 1)
    ET.fromstring(svg)
    threads = layout_svg(tl.parse("S[(4,32,256):(1@warpid,1@laneid,1)]"), (128, 256))
    assert len(threads) < 1_500_000 and "warpid" in threads


def test_render_command_writes_svg_and_refuses_clearly(tmp_path, capsys):
    out = tmp_path / "mma.svg"
    assert main(["render", "S[(2,8,4,2):(2,4@laneid,1@laneid,1)]", "--shape", "16,8",
                 "-o", str(out)]) == 0
    ET.parse(out)
    assert main(["render", "S[8]", "-o", str(tmp_path / "x.gif")]) == 2
    assert "must end in .svg or .png" in capsys.readouterr().err
    assert main(["render", "S[(8,64):(64,1)]", "--dtype", "float16", "--swizzle", "128B",
                 "--text"]) == 0
    assert "72" in capsys.readouterr().out


def test_png_without_a_rasterizer_is_a_clear_error(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("TILELAYOUT_CHROMIUM", str(tmp_path / "no-such-browser"))
    pytest.importorskip("tilelayout.render.raster")
    try:
        import cairosvg  # noqa: F401
        pytest.skip("cairosvg is installed, so a PNG can always be made")
    except (ImportError, OSError):
        pass
    assert main(["render", "S[8]", "-o", str(tmp_path / "x.png")]) == 2
    assert "cannot write PNG" in capsys.readouterr().err


@pytest.mark.skipif(shutil.which("chromium") is None,
                    reason="PNG output rasterizes with Debian's chromium (scripts/ensure-chromium.sh)")
def test_png_through_headless_chromium(tmp_path):
    out = tmp_path / "c.png"
    assert main(["render", "S[(2,8,4,2):(2,4@laneid,1@laneid,1)]", "--shape", "16,8",
                 "-o", str(out)]) == 0
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width = int.from_bytes(data[16:20], "big")
    assert width == 1100


def test_every_owner_slot_is_drawn_with_its_element():
    """Regression: slots of neighbouring tiles were merged by rounding (warp 6 lost its m=1 column)."""
    L = tl.parse("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid")
    labels = re.findall(r">(\d+,\d+)</text>", layout_svg(L, (8, 16)))
    assert len(labels) == 128 * 2  # every (element, replica) pair has its own slot
    assert all(labels.count(f"{i},{j}") == 2 for i in range(8) for j in range(16))


def _group_spans(svg: str) -> list[tuple[float, float]]:
    """(left, right) pixel extent of the cells of each translated group (view)."""
    spans = []
    for gx, body in re.findall(r'<g transform="translate\(([-\d.]+),[-\d.]+\)">(.*?)</g>', svg):
        rights = [float(x) + float(w) for x, w in re.findall(r"M([\d.]+) [\d.]+h([\d.]+)", body)]
        rights += [float(x) + float(w) for x, w in
                   re.findall(r'<rect x="([\d.]+)" y="[\d.]+" width="([\d.]+)"', body)]
        spans.append((float(gx), float(gx) + max(rights)))
    return spans


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


@pytest.mark.parametrize("name,params,title", [
    ("trainium.psum", {}, "Bank tiles; Trainium PSUM: partition P x free F"),
    ("trainium.sbuf", {}, "Trainium scratchpad: partition P x free F"),
    ("tmem.accumulator", {"datapath": "B", "n": 32}, "cbx tiles; tensor memory: TLane x TCol"),
    ("mma.m16n8k16.C", {}, "laneid rows; register slots m"),
])
def test_physical_view_titles_name_the_hardware(name, params, title):
    from tilelayout.render.physical import physical_view

    p = tl.presets.get(name, **params)
    flat = {a: v.reshape(-1) for a, v in p.layout.map_all(p.shape).items()}
    view = physical_view(flat, p.layout.size(), p.layout.replica_count, None, None, p.shape)
    assert view["title"] == title


def test_notebook_display_falls_back_to_text_for_huge_layouts():
    huge = tl.parse("S[(4096,4096):(4096,1)]")
    assert huge._repr_svg_() is None  # too many cells: Jupyter shows repr() instead
    assert repr(huge) == "parse('S[(4096,4096):(4096,1)]')"


def _view(text, shape, order=None):
    from tilelayout.render.physical import physical_view

    L = tl.parse(text)
    flat = {a: v.reshape(-1) for a, v in L.map_all(shape).items()}
    return physical_view(flat, math.prod(shape), L.replica_count, None, None, shape, order)


WGMMA = "S[(2,4,2,8,32,4,2):(1@wgid,1@wid_in_wg,2,4@laneid,4,1@laneid,1)]"


def test_two_tile_axes_of_any_kind_make_a_2d_grid_of_tiles():
    # wgid x wid_in_wg: 2 x 4 warps, wgid down and wid_in_wg across (was: wrapped 3 per row)
    v = _view(WGMMA, (128, 256))
    assert v["tile_axes"] == ["wgid", "wid_in_wg"]
    assert v["mesh"] == {"rows": [0, 1], "cols": [0, 1, 2, 3]}
    # one tile axis: no mesh, the tiles wrap
    assert _view(REF, (8, 16))["mesh"] is None
    # the SVG picture places the 8 tiles the same way: 2 rows of 4 tile labels
    svg = layout_svg(tl.parse(WGMMA), (128, 256))
    pos = {m[2]: (float(m[0]), float(m[1])) for m in
           re.findall(r'<text x="([\d.]+)" y="([\d.]+)"[^>]*>(wgid=\d, wid_in_wg=\d)</text>', svg)}
    assert len(pos) == 8
    assert len({y for _, y in pos.values()}) == 2 and len({x for x, _ in pos.values()}) == 4
    assert pos["wgid=1, wid_in_wg=0"][1] > pos["wgid=0, wid_in_wg=3"][1]
    assert pos["wgid=0, wid_in_wg=3"][0] > pos["wgid=0, wid_in_wg=2"][0]


def test_one_tile_axis_wraps_into_full_rows_in_the_svg():
    # 4 warps: 2 + 2 or 4 in a row, never 3 + 1
    svg = layout_svg(tl.parse("S[(4,32,2):(1@warpid,1@laneid,1)]"), (4, 64))
    ys = [float(y) for y in re.findall(r'<text x="[\d.]+" y="([\d.]+)"[^>]*>warpid=\d</text>', svg)]
    assert len(ys) == 4 and len(set(ys)) in (1, 2) and all(ys.count(y) == 4 // len(set(ys)) for y in ys)


def test_tile_axes_follow_the_preferred_order():
    p = tl.presets.get("mesh.shard", mesh={"dp": 2, "tp": 2}, spec=(None, "tp"))
    text, shape = str(p.layout), p.shape
    assert p.layout.axes.index("tp") < p.layout.axes.index("dp")  # the layout's own order
    v = _view(text, shape)
    assert v["tile_axes"] == ["tp", "dp"] and "tp x dp" in v["title"]
    v = _view(text, shape, order=["dp", "tp"])  # the mesh's order
    assert v["tile_axes"] == ["dp", "tp"] and "devices (dp x tp)" in v["title"]
    assert v["mesh"] == {"rows": [0, 1], "cols": [0, 1]}
    assert [(t["dp"], t["tp"]) for t in v["tiles"]] == [(0, 0), (0, 1), (1, 0), (1, 1)]
    # every pair's tile has the dp / tp value the library gives it
    flat = {a: x.reshape(-1) for a, x in p.layout.map_all(shape).items()}
    for q in range(0, len(v["tile"]), 7):
        t = v["tiles"][v["tile"][q]]
        assert (t["dp"], t["tp"]) == (flat["dp"][q], flat["tp"][q])
