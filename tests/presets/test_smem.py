"""Shared-memory swizzle presets vs the PTX byte formula, CuTe's Swizzle<B,4,3> and the
PTX 16-byte-chunk tables (facts §6)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from tilelayout import presets
from tilelayout.presets.smem import tma_boxes

from .tables import preset_arrays, same_arrays

BYTES = {"float16": 2, "bfloat16": 2, "float8": 1, "e4m3": 1, "e5m2": 1, "int8": 1,
         "float32": 4, "tfloat32": 4}
K = {"none": 1, "32B": 2, "64B": 4, "128B": 8}
B = {"none": 0, "32B": 1, "64B": 2, "128B": 3}
WIDTH = {"none": 16, "32B": 32, "64B": 64, "128B": 128}


def ptx_phys(a, mode):
    """PTX 5.5.7 on byte addresses: phys = a ^ (((a >> 7) & (k - 1)) << 4)."""
    return a ^ (((a >> 7) & (K[mode] - 1)) << 4)


def cute_phys(a, mode):
    """CuTe Swizzle<B,4,3> on byte addresses: x ^ ((x & yyy_msk) >> S), yyy at [M+S, M+S+B)."""
    b, m, s = B[mode], 4, 3
    yyy = ((1 << b) - 1) << (m + s)
    return a ^ ((a & yyy) >> s)


def linear(rows, cols, width):
    """TMA's element address before the swizzle: boxes ``width`` wide, each holding all
    rows of its span of K row-major, one after the other along K."""
    r, c = np.meshgrid(np.arange(rows), np.arange(cols), indexing="ij")
    return (c // width) * rows * width + r * width + c % width


def expected(shape, dtype, mode, phys):
    rows, cols = shape
    nbytes = BYTES[dtype]
    width = cols if mode == "none" else min(cols, WIDTH[mode] // nbytes)
    byte = linear(rows, cols, width) * nbytes
    out = phys(byte, mode)
    assert (out % nbytes == 0).all()
    return {"m": out // nbytes}


@pytest.mark.parametrize(("dtype", "mode"), list(itertools.product(BYTES, K)))
def test_swizzle_atom_matches_ptx_and_cute(dtype, mode):
    p = presets.get("smem.swizzle_atom", dtype=dtype, mode=mode)
    assert p.shape == (8, WIDTH[mode] // BYTES[dtype])
    assert (p.dtype, p.swizzle_mode) == (dtype, mode)
    ptx = expected(p.shape, dtype, mode, ptx_phys)
    assert same_arrays(ptx, expected(p.shape, dtype, mode, cute_phys))
    assert same_arrays(preset_arrays(p), ptx)
    # a permutation of the atom's addresses
    assert sorted(ptx["m"].ravel().tolist()) == list(range(8 * p.shape[1]))


@pytest.mark.parametrize(("dtype", "mode", "shape"), [
    ("float16", "128B", (8, 64)), ("float16", "128B", (64, 64)), ("float16", "64B", (16, 32)),
    ("float8", "128B", (16, 128)), ("float32", "32B", (8, 8)), ("bfloat16", "128B", (32, 128)),
    ("float16", "none", (3, 5)), ("float32", "64B", (4, 96)),
])
def test_swizzled_tile_matches_ptx(dtype, mode, shape):
    p = presets.get("smem.tile", dtype=dtype, mode=mode, shape=shape)
    assert same_arrays(preset_arrays(p), expected(shape, dtype, mode, ptx_phys))


# PTX 5.5.7 tables: physical 16-byte chunk of logical chunk c in 128-byte line r
PTX_CHUNK_TABLE = {
    "32B": {1: [1, 0, 3, 2, 5, 4, 7, 6]},
    "64B": {2: [2, 3, 0, 1, 6, 7, 4, 5], 3: [3, 2, 1, 0, 7, 6, 5, 4]},
    "128B": {r: [c ^ r for c in range(8)] for r in range(8)},
}


@pytest.mark.parametrize("mode", list(PTX_CHUNK_TABLE))
def test_ptx_chunk_tables(mode):
    # an (8, 64) float16 tile is 128 // WIDTH boxes; TMA writes them one after the other,
    # so linear byte address a sits in 128-byte line a >> 7, 16-byte chunk (a >> 4) & 7
    p = presets.get("smem.tile", dtype="float16", mode=mode, shape=(8, 64))
    m = preset_arrays(p)["m"]
    a = linear(8, 64, WIDTH[mode] // 2) * 2
    for line, chunks in PTX_CHUNK_TABLE[mode].items():
        got = [int(m[(a >> 7 == line) & ((a >> 4) % 8 == c)][0]) * 2 % 128 // 16 for c in range(8)]
        assert got == chunks


@pytest.mark.parametrize(("params", "message"), [
    ({"shape": (8, 3)}, "whole 16-byte units"),
    ({"shape": (1, 8)}, "128-byte lines"),
    ({"shape": (2, 4, 8)}, "rows, cols"),
    ({"mode": "256B"}, "must be one of"),
    ({"dtype": "float64"}, "must be one of"),
])
def test_smem_tile_bad_params(params, message):
    with pytest.raises(presets.PresetError, match=message):
        presets.get("smem.tile", **params)


@pytest.mark.parametrize(("dtype", "mode", "shape", "boxes"), [
    ("float16", "128B", (128, 128), 2), ("float16", "128B", (8, 64), 1),
    ("float32", "64B", (4, 96), 6), ("int8", "32B", (16, 256), 8), ("float16", "none", (8, 256), 1),
])
def test_wide_tiles_are_boxes_rows_first_then_k(dtype, mode, shape, boxes):
    """A tile wider than the swizzle span is one TMA box per span of K: every row of a box
    before the next box (the issue's 128x128 float16 128B: (0, 64) is at m = 8192)."""
    count, (box_rows, width) = tma_boxes(dtype, mode, shape)
    assert count == boxes and box_rows == shape[0] and count * width == shape[1]
    p = presets.get("smem.tile", dtype=dtype, mode=mode, shape=shape)
    assert same_arrays(preset_arrays(p), expected(shape, dtype, mode, ptx_phys))
    if count > 1:  # the second box starts after all rows of the first (before the swizzle)
        assert p.layout.tile_layout.base((0, width), shape=shape)["m"] == shape[0] * width


def test_the_other_orders_are_keywords():
    k_first = presets.get("smem.tile", shape=(16, 128), atom_order="k_first")
    m = preset_arrays(k_first)["m"]
    # 8-row bands: rows 0..7 hold both boxes (2 x 512 elements) before row 8
    assert int(m[8, 0]) == 1024 and int(m[0, 64]) == 512
    assert sorted(m.ravel().tolist()) == list(range(16 * 128))
    one = presets.get("smem.tile", shape=(16, 64), atom_order="single_box")
    assert one.layout == presets.get("smem.tile", shape=(16, 64)).layout  # one span: the same


@pytest.mark.parametrize(("params", "message"), [
    ({"shape": (8, 128), "atom_order": "single_box"},
     r"one TMA box row is at most the 128B swizzle span, 128 bytes \(PTX ISA 9.7.9.27.1.1\)"),
    ({"shape": (8, 96)}, "whole boxes of 64 x float16"),
    ({"shape": (12, 128), "atom_order": "k_first"}, "8-row bands"),
    ({"atom_order": "n_first"}, "must be one of"),
])
def test_box_refusals_name_the_limit(params, message):
    with pytest.raises(presets.PresetError, match=message):
        presets.get("smem.tile", **params)


def test_bank_analysis_follows_the_boxes():
    """16-byte column reads of a 128x128 float16 128B tile: conflict-free as TMA writes it
    (boxes rows first), two-way conflicted under the old whole-row swizzle."""
    import tilelayout as tl

    boxes = presets.get("smem.tile", dtype="float16", mode="128B", shape=(128, 128)).layout
    whole_row = tl.ComposeLayout(tl.Swizzle.for_dtype("float16", "128B"),
                                 tl.parse("S[(128,128):(128,1)]"))
    got = {name: {r.order: (r.conflicts.wavefronts, r.conflicts.ideal)
                  for r in tl.tile_reads(L, (128, 128), "float16").reads}
           for name, L in (("boxes", boxes), ("whole_row", whole_row))}
    assert got == {"boxes": {"column": (256, 256), "row": (256, 256)},
                   "whole_row": {"column": (512, 256), "row": (256, 256)}}
