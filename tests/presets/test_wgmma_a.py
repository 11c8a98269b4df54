"""wgmma m64nNkK register-A fragments vs docs/hardware-facts.md#wgmma's formulas and CuTe's
SM90::GMMA::ALayout_64x{8,16,32} evaluated with pycute (index = m + 64 k)."""

from __future__ import annotations

import pytest
from pycute import Layout

from tilelayout import presets

from .tables import collect, of_preset

CUTE = {  # include/cute/atom/mma_traits_sm90_gmma.hpp
    8: Layout(((4, 8, 4), (2, 2)), ((64, 1, 16), (8, 256))),
    16: Layout(((4, 8, 4), (2, 2, 2)), ((128, 1, 16), (64, 8, 512))),
    32: Layout(((4, 8, 4), (4, 2, 2)), ((256, 1, 16), (64, 8, 1024))),
}
K = {"float16": 16, "bfloat16": 16, "tfloat32": 8, "int8": 32, "uint8": 32, "e4m3": 32,
     "e5m2": 32}


def formula(k, w, lane, i):
    g, q = lane >> 2, lane & 3
    if k == 16:
        return 16 * w + g + 8 * ((i >> 1) & 1), 2 * q + (i & 1) + 8 * (i >> 2)
    if k == 8:
        return 16 * w + g + 8 * (i & 1), q + 4 * (i >> 1)
    return 16 * w + g + 8 * ((i >> 2) & 1), 4 * q + (i & 3) + 16 * (i >> 3)


def threads_values(k):
    return [(tid, i) for tid in range(128) for i in range(64 * k // 128)]


@pytest.mark.parametrize("dtype", list(K))
def test_register_a_matches_formula_and_cute(dtype):
    k = K[dtype]
    p = presets.get("wgmma.m64nNkK.A", dtype=dtype)
    assert p.shape == (64, k) and p.dtype == dtype
    table = collect((formula(k, tid // 32, tid % 32, i),
                     {"wid_in_wg": tid // 32, "laneid": tid % 32, "m": i})
                    for tid, i in threads_values(k))
    assert len(table) == 64 * k and all(len(v) == 1 for v in table.values())
    cute = collect(((CUTE[k](tid, i) % 64, CUTE[k](tid, i) // 64),
                    {"wid_in_wg": tid // 32, "laneid": tid % 32, "m": i})
                   for tid, i in threads_values(k))
    assert cute == table
    assert of_preset(p) == table


def test_k16_is_the_mma_m16n8k16_a_pattern_per_warp():
    warp0 = {idx: c for idx, c in of_preset(presets.get("wgmma.m64nNkK.A")).items() if idx[0] < 16}
    mma = of_preset(presets.get("mma.m16n8k16.A", dtype="float16"))
    assert {idx: frozenset(tuple(x for x in c if x[0] != "wid_in_wg") for c in cs)
            for idx, cs in warp0.items()} == mma


def test_unknown_dtype_is_refused():
    with pytest.raises(presets.PresetError, match="must be one of"):
        presets.get("wgmma.m64nNkK.A", dtype="float64")
