"""ldmatrix .m16n16 (.trans, 8-bit) and .m8n16 (6-/4-bit unpacked) vs docs/hardware-facts.md#ldmatrix's
formulas and CuTe's SM100 LDSM Copy_Traits evaluated with pycute."""

from __future__ import annotations

import pytest
from pycute import Layout

from tilelayout import presets

from .tables import collect, of_preset

# (SrcLayout, DstLayout) of include/cute/atom/copy_traits_sm100.hpp: (thread, value) -> bit;
# the source thread i supplies the 128-bit row that starts at bit Src(i, 0)
M16N16 = {
    1: (Layout(((2, 2, 4, 2), 128), ((128, 1024, 256, 0), 1)),                # U8x8_LDSM_T
        Layout(((4, 8), (8, 2, 2, 2)), ((256, 8), (1, 128, 64, 1024)))),
    2: (Layout(((2, 2, 4, 2), 128), ((128, 1024, 256, 2048), 1)),             # U8x16_LDSM_T
        Layout(((4, 8), (8, 2, 2, 4)), ((256, 8), (1, 128, 64, 1024)))),
}
M8N16 = {  # SM100_SU{4,6}_DU8x16_x{1,2,4}_LDSM_N (SU4 and SU6 have the same layouts)
    1: (Layout(((8, 4), 128), ((128, 0), 1)), Layout((32, 32), (32, 1))),
    2: (Layout(((16, 2), 128), ((128, 0), 1)), Layout((32, (32, 2)), (32, (1, 1024)))),
    4: (Layout((32, 128), (128, 1)), Layout((32, (32, 4)), (32, (1, 1024)))),
}


def m16n16_formula(num):
    """facts §3b: byte B of register R of lane t -> (R // 2, 4 (t % 4) + B, t // 4 + 8 (R % 2))."""
    return collect(((R // 2, 4 * (t % 4) + B, t // 4 + 8 * (R % 2)), {"laneid": t, "m": 4 * R + B})
                   for t in range(32) for R in range(2 * num) for B in range(4))


def m8n16_formula(num):
    """facts §3b: byte B of register R of lane t -> (R, t // 4, 4 (t % 4) + B)."""
    return collect(((R, t // 4, 4 * (t % 4) + B), {"laneid": t, "m": 4 * R + B})
                   for t in range(32) for R in range(num) for B in range(4))


def cute_table(src, dst, rows_per_matrix, matrices, registers, unshuffle):
    row_of = {src(i, 0): i for i in range(rows_per_matrix * matrices)}
    pairs = []
    for t in range(32):
        for v in range(0, 32 * registers, 8):  # one byte = 8 consecutive value bits
            bit = dst(t, v)
            i = row_of[bit - bit % 128]
            R, B = unshuffle(v // 32, v // 8 % 4)
            pairs.append(((i // rows_per_matrix, i % rows_per_matrix, bit % 128 // 8),
                          {"laneid": t, "m": 4 * R + B}))
    return collect(pairs)


def undo_cute_byte_shuffle(R, B):
    # CuTe's registers after dst0 = {tmp0.x, tmp0.y, tmp1.x, tmp1.y},
    # dst1 = {tmp0.z, tmp0.w, tmp1.z, tmp1.w} (per matrix) -> the instruction's own bytes
    j = R // 2
    return 2 * j + B // 2, 2 * (R % 2) + B % 2


@pytest.mark.parametrize("num", (1, 2))
@pytest.mark.parametrize("dtype", ("b8", "b6x16_p32", "b4x16_p64"))
def test_m16n16_matches_formula_and_cute(num, dtype):
    p = presets.get("ldmatrix.m16n16", num=num, dtype=dtype)
    assert p.shape == (num, 16, 16)
    table = m16n16_formula(num)
    assert len(table) == num * 256 and all(len(v) == 1 for v in table.values())
    src, dst = M16N16[num]
    assert cute_table(src, dst, 16, num, 2 * num, undo_cute_byte_shuffle) == table
    assert of_preset(p) == table


def test_m16n16_transposed_view_is_the_mma_m16n8k32_a_pattern():
    # facts §3b: logical row t//4 + 8(R%2), column 4(t%4) + B
    p = presets.get("ldmatrix.m16n16")
    for (_, row, byte), coords in of_preset(p).items():
        (c,) = coords
        t, m = dict(c)["laneid"], dict(c)["m"]
        R, B = m // 4, m % 4
        assert (byte, row) == (t // 4 + 8 * (R % 2), 4 * (t % 4) + B)


@pytest.mark.parametrize("num", (1, 2, 4))
@pytest.mark.parametrize("dtype", ("b6x16_p32", "b4x16_p64"))
def test_m8n16_matches_formula_and_cute(num, dtype):
    p = presets.get("ldmatrix.m8n16", num=num, dtype=dtype)
    assert p.shape == (num, 8, 16)
    table = m8n16_formula(num)
    assert len(table) == num * 128 and all(len(v) == 1 for v in table.values())
    src, dst = M8N16[num]
    assert cute_table(src, dst, 8, num, num, lambda R, B: (R, B)) == table
    assert of_preset(p) == table


def test_refusals():
    with pytest.raises(presets.PresetError, match=r"x1 or x2 only \(PTX ISA 9.7.14.5.15\)"):
        presets.get("ldmatrix.m16n16", num=4)
    with pytest.raises(presets.PresetError, match=r"b6x16_p32 / .b4x16_p64 sources \(PTX"):
        presets.get("ldmatrix.m8n16", dtype="b8")
    with pytest.raises(presets.PresetError, match="must be one of 1, 2, 4"):
        presets.get("ldmatrix.m8n16", num=3)
