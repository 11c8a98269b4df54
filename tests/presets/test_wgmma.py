"""wgmma presets against their closed forms (PTX figures 148/149 as CuTe writes them)."""

import pytest

from tilelayout import presets
from tilelayout.presets.registry import PresetError


@pytest.mark.parametrize("n", [8, 64, 256])
def test_accumulator_d_formula(n):
    L = presets.get("wgmma.m64nNk16.D", n=n).layout
    seen = set()
    for w in range(4):
        for lane in range(32):
            for i in range(n // 2):
                row = 16 * w + (lane >> 2) + 8 * ((i >> 1) & 1)
                col = 8 * (i >> 2) + 2 * (lane % 4) + (i & 1)
                assert L.base((row, col), (64, n)) == {"wid_in_wg": w, "laneid": lane, "m": i}
                seen.add((row, col))
    assert len(seen) == 64 * n


@pytest.mark.parametrize(("dtype", "k"), [("float16", 16), ("tfloat32", 8), ("e4m3", 32)])
def test_register_a_formula(dtype, k):
    p = presets.get("wgmma.m64nNkK.A", dtype=dtype)
    assert p.shape == (64, k)
    for w in range(4):
        for lane in range(32):
            g, q = lane >> 2, lane & 3
            for i in range(k // 2):  # a0..a7 (16-bit), a0..a3 (tf32), a0..a15 (8-bit)
                if k == 16:
                    row, col = 16 * w + g + 8 * ((i >> 1) & 1), 2 * q + (i & 1) + 8 * (i >> 2)
                elif k == 8:
                    row, col = 16 * w + g + 8 * (i & 1), q + 4 * (i >> 1)
                else:
                    row, col = 16 * w + g + 8 * ((i >> 2) & 1), 4 * q + (i & 3) + 16 * (i >> 3)
                assert p.layout.base((row, col), p.shape) == {"wid_in_wg": w, "laneid": lane, "m": i}


@pytest.mark.parametrize("n", [0, 12, 264])
def test_bad_n_is_refused(n):
    with pytest.raises(PresetError):
        presets.get("wgmma.m64nNk16.D", n=n)
