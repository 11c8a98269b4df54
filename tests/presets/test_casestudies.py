"""The reference document's case studies as presets reproduce its tables (layout.rst)."""

from __future__ import annotations

import pytest

from tilelayout import bank_of, presets

# layout.rst, "Case study: NVIDIA tensor-core tile": (i, j) -> laneid, warpid set, m
TC_TABLE = [((0, 0), 0, {5, 9}, 0), ((0, 1), 0, {5, 9}, 1), ((0, 2), 1, {5, 9}, 0),
            ((1, 0), 4, {5, 9}, 0), ((0, 8), 0, {6, 10}, 0), ((7, 15), 31, {6, 10}, 1)]
# layout.rst, "Case study: Blackwell tensor memory": (a, l, c) -> TLane, TCol
TMEM_TABLE = [((0, 0, 0), 0, 0), ((0, 5, 3), 5, 3), ((1, 0, 0), 0, 112),
              ((1, 127, 111), 127, 223)]


@pytest.mark.parametrize(("index", "lane", "warps", "m"), TC_TABLE)
def test_tensor_core_tile_table(index, lane, warps, m):
    p = presets.get("case.tensor_core_tile")
    coords = p.layout.apply(index, shape=p.shape)
    assert {c["laneid"] for c in coords} == {lane}
    assert {c["warpid"] for c in coords} == warps
    assert {c["m"] for c in coords} == {m}


def test_tensor_core_tile_closed_form():
    p = presets.get("case.tensor_core_tile")
    for i in range(8):
        for j in range(16):
            got = {(c["laneid"], c["warpid"], c["m"]) for c in p.layout.apply((i, j), p.shape)}
            assert got == {(4 * i + (j // 2) % 4, j // 8 + 5 + 4 * r, j % 2) for r in (0, 1)}


@pytest.mark.parametrize(("index", "lane", "col"), TMEM_TABLE)
def test_tmem_tile_table(index, lane, col):
    p = presets.get("case.tmem_2x128x112")
    assert p.shape == (2, 128, 112)
    assert p.layout.apply(index, shape=p.shape) == ({"TLane": lane, "TCol": col},)


@pytest.mark.parametrize("sf", [1, 2, 4, 7])
def test_scale_factor_atom(sf):
    p = presets.get("case.scale_factor_atom", sf_per_mma=sf)
    assert str(p.layout) == f"S[(32,{sf}):(1@TLane,1@TCol)] + R[4:32@TLane]"
    for lane in range(32):
        for s in range(sf):
            got = {(c["TLane"], c["TCol"]) for c in p.layout.apply((lane, s), p.shape)}
            assert got == {(lane + 32 * r, s) for r in range(4)}


def test_swizzle_column_read_banks():
    # layout.rst worked example: column j = 0 down 8 rows -> addr 72 i, banks 0, 4, .., 28
    p = presets.get("case.swizzle_8x64_float16")
    addrs = [p.layout.base((i, 0), shape=p.shape)["m"] for i in range(8)]
    assert addrs == [72 * i for i in range(8)]
    assert [bank_of(a, "float16")[1] for a in addrs] == [0, 4, 8, 12, 16, 20, 24, 28]
    assert p.layout == presets.get("smem.tile").layout
    assert (p.dtype, p.swizzle_mode) == ("float16", "128B")
