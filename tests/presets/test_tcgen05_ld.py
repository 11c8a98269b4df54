"""tcgen05.ld .num caps (PTX Table 49) and the .16x32bx2 shape vs the formula of
docs/hardware-facts.md#tensor-memory and CuTe's SM100_TMEM_LOAD_16dp32b{N}x DstLayout (pycute)."""

from __future__ import annotations

import pytest
from pycute import Layout

from tilelayout import presets

from .tables import collect, of_preset

CAP = {"32x32b": 128, "16x64b": 128, "16x128b": 64, "16x256b": 32, "16x32bx2": 128}
REGS_PER_REP = {"32x32b": 1, "16x64b": 1, "16x128b": 2, "16x256b": 4, "16x32bx2": 1}


@pytest.mark.parametrize("shape", list(CAP))
def test_num_is_capped_per_table_49(shape):
    name = f"tcgen05.ld.{shape}"
    assert max(presets.info(name).param("num").choices) == CAP[shape]
    p = presets.get(name, num=CAP[shape])
    # the cap is 128 32-bit registers per thread, and stays inside 512 TMEM columns
    assert p.layout.size() // 32 == REGS_PER_REP[shape] * CAP[shape] == 128
    assert p.shape[1] <= 512
    if CAP[shape] < 128:
        with pytest.raises(presets.PresetError, match=r"up to x\d+ \(PTX ISA 9.7.16.2.3, Table 49"):
            presets.get(name, num=2 * CAP[shape])


def x2_formula(num, imm):
    """facts §5: dp = t % 16, column slot c = r + num (t // 16); TMEM column r + imm (t // 16)."""
    return collect(((t % 16, r + num * (t // 16)), {"laneid": t, "m": r})
                   for t in range(32) for r in range(num))


@pytest.mark.parametrize("num", (1, 2, 8, 128))
def test_16x32bx2_matches_formula_and_cute(num):
    p = presets.get("tcgen05.ld.16x32bx2", num=num)
    assert p.shape == (16, 2 * num) and p.params["imm"] is None
    table = x2_formula(num, num)
    assert len(table) == 32 * num and all(len(v) == 1 for v in table.values())
    # CuTe (imm = num): DstLayout ((16,2),32N):((64N,32N),1), bit = 64N dp + 32 column + b
    dst = Layout(((16, 2), 32 * num), ((64 * num, 32 * num), 1))
    cute = collect(((dst(t, 32 * r) // (64 * num), dst(t, 32 * r) % (64 * num) // 32),
                    {"laneid": t, "m": r}) for t in range(32) for r in range(num))
    assert cute == table
    assert of_preset(p) == table


def test_16x32bx2_imm_places_the_second_access():
    p = presets.get("tcgen05.ld.16x32bx2", num=4, imm=64)
    assert p.params["imm"] == 64
    assert of_preset(p) == x2_formula(4, 64)  # the slots are the same; imm is where they live
    assert "imm + c - num" in p.doc
    with pytest.raises(presets.PresetError,
                       match=r"outside tensor memory.s 512 columns \(PTX ISA 9.7.16.1\)"):
        presets.get("tcgen05.ld.16x32bx2", num=128, imm=400)
    assert presets.parse_params("tcgen05.ld.16x32bx2", {"imm": ""}) == {"imm": None}
