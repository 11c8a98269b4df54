"""Shared-memory swizzle presets vs the PTX byte formula, CuTe's Swizzle<B,4,3> and the
PTX 16-byte-chunk tables (facts §6)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from tilelayout import presets

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


def expected(shape, dtype, mode, phys):
    rows, cols = shape
    nbytes = BYTES[dtype]
    r, c = np.meshgrid(np.arange(rows), np.arange(cols), indexing="ij")
    byte = (r * cols + c) * nbytes
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
    p = presets.get("smem.tile", dtype="float16", mode=mode, shape=(8, 64))  # 128-B rows
    m = preset_arrays(p)["m"]
    for line, chunks in PTX_CHUNK_TABLE[mode].items():
        got = [int(m[line, 8 * c]) % 64 // 8 for c in range(8)]
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
