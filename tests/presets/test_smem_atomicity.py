"""The 128B swizzle with 32-/64-byte atomicity and the 96B mode (facts §6): presets and
Swizzle.for_dtype vs the PTX 5.5.7 byte formulas and CuTe's Swizzle functor (pycute)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from pycute import Swizzle as CuteSwizzle

import tilelayout as tl
from tilelayout import presets
from tilelayout.analysis.conflicts import bank_conflicts
from tilelayout.core.swizzle_modes import SWIZZLE_MODE_TABLE, mode_info
from tilelayout.presets.smem import encodings

from .tables import preset_arrays, same_arrays

BYTES = {"float16": 2, "bfloat16": 2, "float8": 1, "int8": 1, "float32": 4, "tfloat32": 4}
MODES = ("128B_atom32B", "128B_atom64B", "96B")


def ptx_phys(a, mode):
    """docs/hardware.md#swizzle-modes, on byte addresses a (128-byte line r = a >> 7)."""
    if mode == "128B_atom32B":  # 32-byte units, line r: unit ^ (r & 3)
        return a ^ (((a >> 7) & 3) << 5)
    if mode == "128B_atom64B":  # lines alternate 0..7 / 4 5 6 7 0 1 2 3 (16-byte units)
        return a ^ (((a >> 7) & 1) << 6)
    if mode == "128B":  # 16-byte atomicity: chunk ^ line
        return a ^ (((a >> 7) & 7) << 4)
    return a ^ (((a >> 7) & 1) << 4)  # 96B: the 32B mode's pattern


#: CuTe Swizzle<B, M, S> on bytes: Layout_MN_SW128_32B_Atom's Swizzle<2,5,2>; the 64-B
#: atomicity pattern is Swizzle<1,6,1> (CuTe has no atom for it); 96B = SW32's <1,4,3>
CUTE = {"128B_atom32B": CuteSwizzle(2, 5, 2), "128B_atom64B": CuteSwizzle(1, 6, 1),
        "96B": CuteSwizzle(1, 4, 3)}


def table(shape, dtype, phys, span=None):
    """Addresses of a TMA-written tile: boxes ``span`` bytes wide (rows first, then K)."""
    rows, cols = shape
    nbytes = BYTES[dtype]
    width = cols if span is None else min(cols, span // nbytes)
    r, c = np.meshgrid(np.arange(rows), np.arange(cols), indexing="ij")
    out = np.vectorize(phys)(((c // width) * rows * width + r * width + c % width) * nbytes)
    assert (out % nbytes == 0).all()
    return {"m": out // nbytes}


@pytest.mark.parametrize(("dtype", "mode"), list(itertools.product(BYTES, MODES)))
def test_atom_matches_ptx_and_cute(dtype, mode):
    p = presets.get("smem.swizzle_atom", dtype=dtype, mode=mode)
    width = 32 if mode == "96B" else 128
    assert p.shape == (8, width // BYTES[dtype]) and p.swizzle_mode == mode
    ptx = table(p.shape, dtype, lambda a: ptx_phys(a, mode))
    assert same_arrays(ptx, table(p.shape, dtype, CUTE[mode]))
    assert same_arrays(preset_arrays(p), ptx)
    assert sorted(ptx["m"].ravel().tolist()) == list(range(p.shape[0] * p.shape[1]))


@pytest.mark.parametrize(("dtype", "mode", "shape"), [
    ("float16", "128B_atom32B", (64, 64)), ("float8", "128B_atom32B", (16, 128)),
    ("float32", "128B_atom64B", (32, 32)), ("bfloat16", "128B_atom64B", (8, 128)),
    ("float16", "96B", (16, 48)), ("int8", "96B", (8, 96)), ("float32", "96B", (4, 8)),
])
def test_tile_matches_ptx(dtype, mode, shape):
    p = presets.get("smem.tile", dtype=dtype, mode=mode, shape=shape)
    span = 96 if mode == "96B" else 128
    assert same_arrays(preset_arrays(p), table(shape, dtype, lambda a: ptx_phys(a, mode), span))


def test_for_dtype_names_every_mode():
    assert tl.Swizzle.for_dtype("float16", "128B_atom32B") == tl.Swizzle(4, 2, 2)
    assert tl.Swizzle.for_dtype("float16", "128B_atom64B") == tl.Swizzle(5, 1, 1)
    assert tl.Swizzle.for_dtype("int8", "96B") == tl.Swizzle.for_dtype("int8", "32B")
    assert {"128B_atom32B", "128B_atom64B", "96B"} <= set(tl.SWIZZLE_MODES)


def test_refusals_name_the_rule():
    with pytest.raises(presets.PresetError, match=r"whole 32-byte units .*PTX 5.5.7"):
        presets.get("smem.tile", dtype="float16", mode="128B_atom32B", shape=(8, 72))
    with pytest.raises(presets.PresetError, match=r"at most the 96B swizzle span, 96 bytes .*9.7.9.27.1.1"):
        presets.get("smem.tile", dtype="float16", mode="96B", shape=(8, 64))


@pytest.mark.parametrize(("mode", "unit", "wavefronts"), [
    ("128B", 8, 1), ("128B_atom32B", 16, 2), ("128B_atom64B", 32, 4), ("96B", 8, 1)])
def test_bank_analysis_of_the_new_modes(mode, unit, wavefronts):
    # the swizzled unit (16/32/64 B = 8/16/32 float16) stays contiguous; an 8 x 16-byte
    # column read sees the pattern's period: 8 lines (128B), 4 (32-B atomicity: 2-way
    # conflict), 2 (64-B atomicity: 4-way); 96B rows of 32 B put 4 rows on a line
    shape = (8, 64) if mode != "96B" else (8, 16)
    p = presets.get("smem.tile", dtype="float16", mode=mode, shape=shape)
    m = preset_arrays(p)["m"]
    for r in range(shape[0]):
        for u in range(0, shape[1], unit):
            assert np.array_equal(np.diff(m[r, u:u + unit]), np.ones(unit - 1))
    column = [[(r, j) for j in range(8)] for r in range(8)]
    report = bank_conflicts(p.layout, "float16", column, shape=shape)
    assert report.byte_addresses[:8] == tuple(ptx_phys(r * shape[1] * 2, mode) for r in range(8))
    assert (report.wavefronts, report.ideal) == (wavefronts, 1)


def test_encodings_say_which_descriptors_accept_each_mode():
    assert mode_info("128B_atom32B").encodings()["tcgen05"].startswith("1 (MN-major")
    assert mode_info("128B_atom64B").encodings()["tcgen05"] is None
    assert mode_info("96B").encodings()["wgmma"] is None
    assert "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B" in encodings("128B_atom64B")
    assert "wgmma descriptor: not encodable" in encodings("128B_atom64B")
    assert set(SWIZZLE_MODE_TABLE) == set(tl.SWIZZLE_MODES)
