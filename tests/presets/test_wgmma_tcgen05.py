"""wgmma D and tcgen05.ld fragments vs the closed forms of facts §4-§5 (and CuTe's CLayout)."""

from __future__ import annotations

import numpy as np
import pytest

from tilelayout import presets

from . import cute_layout
from .tables import collect, of_preset, preset_arrays, same_arrays, scatter

N_ALL = presets.info("wgmma.m64nNk16.D").param("n").choices


def wgmma_formula(n):
    pairs = []
    for tid in range(128):
        warp, lane = tid // 32, tid % 32
        for i in range(n // 2):
            row = 16 * warp + (lane >> 2) + 8 * ((i >> 1) & 1)
            col = 8 * (i >> 2) + 2 * (lane % 4) + (i & 1)
            pairs.append(((row, col), {"wid_in_wg": warp, "laneid": lane, "m": i}))
    return collect(pairs)


def wgmma_cute(n):
    text = f"((4,8,4),(2,2,{n // 8})):((128,1,16),(64,8,512))"  # CLayout_64xN, idx = m + 64 n
    pairs = []
    for tid in range(128):
        for v in range(n // 2):
            idx = cute_layout.evaluate_modes(text, (tid, v))
            pairs.append(((idx % 64, idx // 64),
                          {"wid_in_wg": tid // 32, "laneid": tid % 32, "m": v}))
    return collect(pairs)


def wgmma_formula_arrays(n):
    """The same formula, vectorized over every (thread, register) pair."""
    tid, i = np.meshgrid(np.arange(128), np.arange(n // 2), indexing="ij")
    warp, lane = tid // 32, tid % 32
    row = 16 * warp + (lane >> 2) + 8 * ((i >> 1) & 1)
    col = 8 * (i >> 2) + 2 * (lane % 4) + (i & 1)
    return scatter((64, n), (row.ravel(), col.ravel()),
                   {"wid_in_wg": warp.ravel(), "laneid": lane.ravel(), "m": i.ravel()})


@pytest.mark.parametrize("n", (8, 24, 64, 256))
def test_wgmma_d_matches_formula_and_cute(n):
    p = presets.get("wgmma.m64nNk16.D", n=n)
    expected = wgmma_formula(n)
    assert len(expected) == 64 * n and all(len(v) == 1 for v in expected.values())
    assert wgmma_cute(n) == expected
    assert p.shape == (64, n)
    assert of_preset(p) == expected


@pytest.mark.parametrize("n", N_ALL)
def test_wgmma_d_every_n_matches_formula(n):
    p = presets.get("wgmma.m64nNk16.D", n=n)
    assert same_arrays(preset_arrays(p), wgmma_formula_arrays(n))


def test_wgmma_rejects_bad_n():
    with pytest.raises(presets.PresetError, match="must be one of"):
        presets.get("wgmma.m64nNk16.D", n=12)


# facts §5: (t = lane, r = register of one repetition group) -> (dp, col)
def ld_32x32b(t, r):
    return t, r


def ld_16x64b(t, r):
    return t // 4 + 8 * (t % 2), 2 * r + (t // 2) % 2


def ld_16x128b(t, r):
    return t // 4 + 8 * (r % 2), t % 4 + 4 * (r // 2)


def ld_16x256b(t, r):
    return t // 4 + 8 * ((r // 2) % 2), 2 * (t % 4) + r % 2 + 8 * (r // 4)


LD = {"32x32b": (ld_32x32b, 1), "16x64b": (ld_16x64b, 1), "16x128b": (ld_16x128b, 2),
      "16x256b": (ld_16x256b, 4)}


CAP = {"32x32b": 128, "16x64b": 128, "16x128b": 64, "16x256b": 32}  # PTX Table 49


@pytest.mark.parametrize("shape", list(LD))
@pytest.mark.parametrize("num", [1, 2, 4, "cap"])
def test_tcgen05_ld_matches_formula(shape, num):
    formula, regs = LD[shape]
    num = CAP[shape] if num == "cap" else num
    p = presets.get(f"tcgen05.ld.{shape}", num=num)
    expected = collect(
        (formula(t, r), {"laneid": t, "m": r}) for t in range(32) for r in range(regs * num)
    )
    lanes, cols = p.shape
    assert len(expected) == lanes * cols and all(len(v) == 1 for v in expected.values())
    assert of_preset(p) == expected


def test_tcgen05_ld_16x256b_is_the_mma_c_pattern():
    # facts §5: 16x256b x1 "= the mma C pattern over 16 lanes x 8 columns"
    assert of_preset(presets.get("tcgen05.ld.16x256b")) == of_preset(presets.get("mma.m16n8k16.C"))
