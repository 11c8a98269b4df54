"""ldmatrix fragments vs the PTX-derived formula and CuTe's LDSM DstLayouts (facts §3)."""

from __future__ import annotations

import pytest

from tilelayout import presets

from . import cute_layout
from .tables import collect, of_preset

# CuTe Copy_Traits DstLayouts (include/cute/atom/copy_traits_sm75.hpp), (thread, value) -> bit
# of the loaded data, bit = 1024 matrix + 128 row + 16 col + b
CUTE = {
    ("x1", False): "(32,32):(32,1)",                               # SM75_U32x1_LDSM_N
    ("x2", False): "(32,(32,2)):(32,(1,1024))",                    # SM75_U32x2_LDSM_N
    ("x4", False): "(32,(32,4)):(32,(1,1024))",                    # SM75_U32x4_LDSM_N
    ("x1", True): "((4,8),(16,2)):((256,16),(1,128))",             # SM75_U16x2_LDSM_T
    ("x2", True): "((4,8),(16,2,2)):((256,16),(1,128,1024))",      # SM75_U16x4_LDSM_T
    ("x4", True): "((4,8),(16,2,4)):((256,16),(1,128,1024))",      # SM75_U16x8_LDSM_T
}
MATRICES = {"x1": 1, "x2": 2, "x4": 4}


def ptx_table(k, trans):
    """facts §3: lane l, register j, half h -> (j, l/4, 2(l%4)+h) or (j, 2(l%4)+h, l/4)."""
    pairs = []
    for lane in range(32):
        for j in range(k):
            for h in range(2):
                row, col = lane // 4, 2 * (lane % 4) + h
                if trans:
                    row, col = col, row
                pairs.append(((j, row, col), {"laneid": lane, "m": 2 * j + h}))
    return collect(pairs)


def cute_table(text):
    threads, values = cute_layout.mode_sizes(text)
    pairs = []
    for t in range(threads):
        for v in range(0, values, 16):  # one 16-bit element = 16 consecutive value bits
            bit = cute_layout.evaluate_modes(text, (t, v))
            assert bit % 16 == 0
            index = (bit // 1024, bit % 1024 // 128, bit % 128 // 16)
            pairs.append((index, {"laneid": t, "m": v // 16}))
    return collect(pairs)


@pytest.mark.parametrize("x", ["x1", "x2", "x4"])
@pytest.mark.parametrize("trans", [False, True])
def test_ldmatrix_matches_ptx_and_cute(x, trans):
    p = presets.get(f"ldmatrix.{x}", trans=trans)
    k = MATRICES[x]
    assert p.shape == (k, 8, 8)
    ptx = ptx_table(k, trans)
    assert len(ptx) == k * 64 and all(len(v) == 1 for v in ptx.values())
    assert cute_table(CUTE[(x, trans)]) == ptx
    assert of_preset(p) == ptx


def test_trans_must_be_a_bool():
    with pytest.raises(presets.PresetError, match="True or False"):
        presets.get("ldmatrix.x4", trans="yes")
