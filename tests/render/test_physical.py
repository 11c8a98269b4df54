"""The physical view: titles naming the hardware, tiles laid out in a grid in the preferred order."""

from __future__ import annotations

import re

import pytest

import tilelayout as tl
from tilelayout.render.physical import physical_view
from tilelayout.render.svg import layout_svg

REF = "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid"


def _view(text, shape, order=None):
    return physical_view(tl.parse(text, axes=["dp", "tp"]), shape, order=order).to_dict()


WGMMA = "S[(2,4,2,8,32,4,2):(1@wgid,1@wid_in_wg,2,4@laneid,4,1@laneid,1)]"


@pytest.mark.parametrize("name,params,title", [
    ("trainium.psum", {}, "Bank tiles; Trainium PSUM: partition P x free F"),
    ("trainium.sbuf", {}, "Trainium scratchpad: partition P x free F"),
    ("tmem.accumulator", {"datapath": "B", "n": 32}, "cbx tiles; tensor memory: TLane x TCol"),
    ("mma.m16n8k16.C", {}, "laneid rows; register slots m"),
])
def test_physical_view_titles_name_the_hardware(name, params, title):
    p = tl.presets.get(name, **params)
    assert physical_view(p.layout, p.shape).title == title


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


def test_physical_view_is_frozen_and_carries_the_arrays_it_was_built_from():
    L = tl.ComposeLayout(tl.Swizzle.for_dtype("float16", "128B"), tl.parse("S[(8,64):(64,1)]"))
    v = physical_view(L, (8, 64), "float16")
    assert v.kind == "smem" and v.sub == 2 and v.subpos is not None
    assert v.coords["m"].tolist() == L.map_all((8, 64))["m"].reshape(-1).tolist()
    assert v.col.tolist() == v.banks["bank"].tolist()
    with pytest.raises(ValueError):
        v.row[0] = 1
    with pytest.raises(TypeError):
        v.tiles[0]["x"] = 1
