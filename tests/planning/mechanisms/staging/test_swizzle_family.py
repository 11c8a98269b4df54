"""The hardware swizzle family: each mode is the PTX pattern (docs/hardware.md#swizzle-modes) and the
acceptance notes follow the TMA / wgmma / tcgen05 rules (§4)."""

from __future__ import annotations

import numpy as np
import pytest

import tilelayout as tl
from tilelayout.planning.mechanisms.staging.swizzle_family import hardware_modes, swizzle_candidates


@pytest.mark.parametrize("dtype", ["float8", "float16", "float32", "float64"])
def test_modes_are_the_ptx_byte_patterns(dtype):
    nb = tl.dtype_bytes(dtype)
    a = np.arange(0, 1 << 13, nb)          # byte addresses of elements
    ptx = {"none": a, "32B": a ^ (((a >> 7) & 1) << 4), "64B": a ^ (((a >> 7) & 3) << 4),
           "128B": a ^ (((a >> 7) & 7) << 4),
           "128B_atom32B": a ^ (((a >> 7) & 3) << 5),      # 32-byte atomicity
           "128B_atom64B": a ^ (((a >> 7) & 1) << 6),      # 64-byte atomicity
           "96B": a ^ (((a >> 7) & 1) << 4)}               # the 32B pattern
    for mode in hardware_modes(dtype):
        got = a if mode.swizzle is None else mode.swizzle.apply(a // nb) * nb
        assert np.array_equal(got, ptx[mode.name]), mode.name


def _by_name(shape, dtype):
    return {c.name: c for c in swizzle_candidates(shape, dtype)}


def test_acceptance_follows_the_hardware_rules():
    c = _by_name((64, 64), "float16")
    assert c["rows(0,1) 128B"].accepted_by[0] == "TMA SWIZZLE_128B (one box)"
    assert any(m.startswith("wgmma descriptor layout_type 1") for m in c["rows(0,1) 128B"].accepted_by)
    assert any(m.startswith("tcgen05 descriptor layout_type 2") for m in c["rows(0,1) 128B"].accepted_by)
    # 32-byte atomicity: TMA (sm_100) and tcgen05 MN-major only, never wgmma
    atom32 = c["rows(0,1) 128B_atom32B"].accepted_by
    assert not any(m.startswith("wgmma") for m in atom32)
    assert any("MN-major operands only" in m for m in atom32)
    # a 64-byte swizzle over 128-byte rows is no hardware mode's layout
    assert c["rows(0,1) 64B"].accepted_by == ()
    # the no-swizzle canonical layout: 8 rows x 16 B core matrices
    assert any(m.startswith("wgmma descriptor layout_type 0") for m in c["atoms(0,1) none"].accepted_by)
    wide = _by_name((64, 64), "float32")      # 256-byte rows: TMA needs two 128-byte boxes
    assert wide["rows(0,1) 128B"].accepted_by == ()
    assert wide["atoms(0,1) 128B"].accepted_by[0] == "TMA SWIZZLE_128B (2 boxes of 32 along dim 1)"
    # wgmma does not read float32 operands (tf32 only)
    assert not any(m.startswith("wgmma") for m in wide["atoms(0,1) 128B"].accepted_by)


def test_candidates_are_bijections_of_the_tile():
    for shape, dtype in (((128, 128), "float16"), ((24, 40), "float16"), ((4, 8, 8), "float32")):
        n = int(np.prod(shape))
        for c in swizzle_candidates(shape, dtype):
            addr = c.layout.map_all(shape)["m"].reshape(-1)
            assert sorted(addr.tolist()) == list(range(n)), c.name
