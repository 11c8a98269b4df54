"""tcgen05.ld presets: where each register of each lane reads tensor memory."""

import pytest

from tilelayout import presets
from tilelayout.presets.registry import PresetError

FORMULAS = {
    "32x32b": lambda t, r, num: (t, r),
    "16x64b": lambda t, r, num: (t // 4 + 8 * (t % 2), 2 * r + (t // 2) % 2),
    "16x128b": lambda t, r, num: (t // 4 + 8 * (r % 2), t % 4 + 4 * (r // 2)),
    "16x256b": lambda t, r, num: (t // 4 + 8 * ((r // 2) % 2), 2 * (t % 4) + r % 2 + 8 * (r // 4)),
}
REGS = {"32x32b": 1, "16x64b": 1, "16x128b": 2, "16x256b": 4}


@pytest.mark.parametrize("shape", FORMULAS)
@pytest.mark.parametrize("num", [1, 2, 4])
def test_each_shape_reads_by_its_formula(shape, num):
    p = presets.get(f"tcgen05.ld.{shape}", num=num)
    seen = set()
    for t in range(32):
        for r in range(REGS[shape] * num):
            dp, col = FORMULAS[shape](t, r, num)
            assert p.layout.base((dp, col), p.shape) == {"laneid": t, "m": r}, (t, r)
            seen.add((dp, col))
    assert len(seen) == p.shape[0] * p.shape[1] == 32 * REGS[shape] * num


@pytest.mark.parametrize("num", [1, 4])
def test_16x32bx2_halves(num):
    p = presets.get("tcgen05.ld.16x32bx2", num=num, imm=num)
    for t in range(32):
        for r in range(num):
            assert p.layout.base((t % 16, r + num * (t // 16)), p.shape) == {"laneid": t, "m": r}


def test_16x32bx2_second_half_must_fit_tensor_memory():
    with pytest.raises(PresetError, match="outside tensor memory"):
        presets.get("tcgen05.ld.16x32bx2", num=4, imm=510)
