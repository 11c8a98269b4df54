"""Every table of the reference document (TVM TIRx's layout document, reference/layout.rst), exactly."""

import numpy as np
import pytest

import tilelayout as tl
from tilelayout.eval.forward import components

TC = "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid"

# (i, j), flat, (c0..c3), laneid, warpid set, m  -- the tensor-core tile table
TC_ROWS = [
    ((0, 0), 0, (0, 0, 0, 0), 0, {5, 9}, 0),
    ((0, 1), 1, (0, 0, 0, 1), 0, {5, 9}, 1),
    ((0, 2), 2, (0, 0, 1, 0), 1, {5, 9}, 0),
    ((1, 0), 16, (1, 0, 0, 0), 4, {5, 9}, 0),
    ((0, 8), 8, (0, 1, 0, 0), 0, {6, 10}, 0),
    ((7, 15), 127, (7, 1, 3, 1), 31, {6, 10}, 1),
]


@pytest.mark.parametrize("row", TC_ROWS, ids=lambda r: str(r[0]))
def test_tensor_core_tile_table(row):
    index, flat, comps, lane, warps, m = row
    L = tl.parse(TC)
    e = tl.explain(L, index, (8, 16))
    assert e.flat == flat
    assert e.components == comps == components(L, flat)
    coords = L.apply(index, shape=(8, 16))
    assert {c["laneid"] for c in coords} == {lane}
    assert {c["warpid"] for c in coords} == warps
    assert {c["m"] for c in coords} == {m}
    assert len(coords) == 2
    assert L.base(index, shape=(8, 16)) == {"laneid": lane, "warpid": min(warps), "m": m}


def test_tensor_core_tile_closed_form_every_element():
    """laneid = 4i + floor(j/2) mod 4, warpid = floor(j/8) + 5 + 4r, m = j mod 2."""
    got = tl.parse(TC).map_all((8, 16))
    i, j = np.meshgrid(np.arange(8), np.arange(16), indexing="ij")
    for r in (0, 1):
        assert (got["laneid"][..., r] == 4 * i + (j // 2) % 4).all()
        assert (got["warpid"][..., r] == j // 8 + 5 + 4 * r).all()
        assert (got["m"][..., r] == j % 2).all()


TMEM_ROWS = [((0, 0, 0), 0, 0), ((0, 5, 3), 5, 3), ((1, 0, 0), 0, 112), ((1, 127, 111), 127, 223)]


@pytest.mark.parametrize("row", TMEM_ROWS, ids=lambda r: str(r[0]))
def test_tmem_table(row):
    index, lane, col = row
    L = tl.parse("S[(2,128,112):(112@TCol,1@TLane,1@TCol)]")
    assert L.apply(index) == ({"TCol": col, "TLane": lane},)


def test_tmem_covers_128_lanes_by_224_columns_once():
    got = tl.parse("S[(2,128,112):(112@TCol,1@TLane,1@TCol)]").map_all()
    pairs = got["TLane"].ravel() * 1000 + got["TCol"].ravel()
    assert len(np.unique(pairs)) == 2 * 128 * 112
    assert got["TLane"].max() == 127 and got["TCol"].max() == 223


def test_swizzle_column_banks_128B_float16():
    L = tl.ComposeLayout(tl.Swizzle.for_dtype("float16", "128B"), tl.parse("S[(8,64):(64,1)]"))
    assert L.swizzle == tl.Swizzle(3, 3, 3)
    banks = tl.bank_map(L, "float16")
    assert banks["bank"][:, 0, 0].tolist() == [0, 4, 8, 12, 16, 20, 24, 28]
    # addr(i, j) = 64 i + 8 (floor(j/8) xor i) + j mod 8
    i, j = np.meshgrid(np.arange(8), np.arange(64), indexing="ij")
    assert (banks["address"][..., 0] == 64 * i + 8 * ((j // 8) ^ i) + j % 8).all()
    assert (banks["address"][:, 0, 0] == 72 * np.arange(8)).all()


def test_unswizzled_column_is_one_bank():
    L = tl.parse("S[(8,64):(64@m,1@m)]")
    banks = tl.bank_map(L, "float16")
    for j in range(64):
        assert set(banks["bank"][:, j, 0].tolist()) == {j // 2}


@pytest.mark.parametrize("mode", ["32B", "64B", "128B"])
@pytest.mark.parametrize("dtype", ["float8", "float16", "bfloat16", "float32", "tfloat32", "float64"])
def test_any_8x16B_column_read_is_conflict_free(dtype, mode):
    """Rows as wide as the swizzle (32/64/128 bytes): the eight 16-byte pieces of any
    16-byte column of 8 rows land on eight distinct groups of 4 banks -- all 32 banks
    once, one wavefront. Unswizzled, the same read is 2/4/8-way conflicted (32B/64B/128B)."""
    nbytes = tl.dtype_bytes(dtype)
    width = int(mode[:-1])  # row width in bytes
    per16, row = 16 // nbytes, width // nbytes
    tile = tl.parse(f"S[(8,{row}):({row},1)]")
    swizzled = tl.ComposeLayout(tl.Swizzle.for_dtype(dtype, mode), tile)
    for layout, distinct in ((swizzled, 8), (tile, 128 // width)):
        words = tl.bank_map(layout, dtype)["bankword"][..., 0]
        for col in range(0, row, per16):
            piece = words[:, col : col + per16]  # 8 rows x one 16-byte chunk
            groups = {int(w) % 32 // 4 for w in piece[:, 0]}
            assert len(groups) == distinct
