"""``ldmatrix`` / ``stmatrix`` on hand-written PTX, every form the interpreter runs:
``m8n8.x{1,2,4}{.trans}.b16`` (PTX ISA 9.7.14.5.15 / .16: lanes 8j .. 8j+7 give matrix
j's row addresses, lane t holds row t/4, columns 2(t%4) and 2(t%4)+1 -- transposed with
``.trans``), and the 8-bit ``ldmatrix.m16n16.x{1,2}.trans.b8`` / ``stmatrix.m16n8.x{1,2,4}
.trans.b8`` (docs/hardware.md, "8-bit matrix forms"; the stmatrix rule is also checked
against the planner's ``byte_matrix.byte_lane_addresses``). A wrong fragment order is
caught; the wavefronts equal the replay's; the decompressing 6- / 4-bit forms are refused.
"""

from __future__ import annotations

import numpy as np
import pytest

from tilelayout.planning.mechanisms.staging.byte_matrix import byte_lane_addresses

from ..planning.scenarios.ptx_replay import replay
from .errors import UnknownInstruction
from .ptxkit import kernel, run

ROW = 32  # bytes between the rows of the test's matrices (two 16-byte halves)
FILL = ("shl.b32 %r8, %r1, 5;\nmul.wide.u32 %rd10, %r1, 32;\nadd.s64 %rd11, %rd1, %rd10;\n"
        "ld.global.v4.u32 {%r30, %r31, %r32, %r33}, [%rd11];\n"
        "ld.global.v4.u32 {%r34, %r35, %r36, %r37}, [%rd11+16];\n"
        "st.shared.v4.b32 [%r8], {%r30, %r31, %r32, %r33};\n"
        "st.shared.v4.b32 [%r8+16], {%r34, %r35, %r36, %r37};\nbar.warp.sync -1;\n")


def _image() -> np.ndarray:
    """1024 bytes of shared memory whose 16-bit half at address a holds a // 2."""
    return np.arange(512, dtype=np.uint16).view(np.uint8)


def _store_words(nregs: int) -> str:
    lines = [f"mul.wide.u32 %rd12, %r1, {4 * nregs};\nadd.s64 %rd13, %rd2, %rd12;"]
    lines += [f"st.global.u32 [%rd13+{4 * k}], %r{40 + k};" for k in range(nregs)]
    return "\n".join(lines)


@pytest.mark.parametrize("num", [1, 2, 4])
@pytest.mark.parametrize("trans", [False, True])
def test_ldmatrix_m8n8_fragments(num, trans):
    regs = ", ".join(f"%r{40 + k}" for k in range(num))
    half = 16 if trans else 0  # the second 16-byte half of each 32-byte row
    body = (FILL + f"shl.b32 %r9, %r2, 5;\nadd.s32 %r9, %r9, {half};\n"
            f"ldmatrix.sync.aligned.m8n8.x{num}{'.trans' if trans else ''}.shared.b16 "
            f"{{{regs}}}, [%r9];\n" + _store_words(num))
    r = run(body, _image().view(np.uint32), out_words=32 * num, smem=1024, store=False)
    got = r.buffers[1].reshape(32, num)

    def element(j, row, col):  # matrix j's row `row` starts at ROW * (8j + row) + half
        return (ROW * (8 * j + row) + half) // 2 + col

    for t in range(32):
        for j in range(num):
            lo, hi = ((element(j, 2 * (t % 4), t // 4), element(j, 2 * (t % 4) + 1, t // 4))
                      if trans else (element(j, t // 4, 2 * (t % 4)),
                                     element(j, t // 4, 2 * (t % 4) + 1)))
            assert int(got[t, j]) == lo | hi << 16, (t, j)
    # the other fragment order (no .trans for .trans) is caught by the same check
    if trans:
        wrong = run(body.replace(".trans", ""), _image().view(np.uint32), out_words=32 * num,
                    smem=1024, store=False).buffers[1].reshape(32, num)
        assert (wrong != got).any()
    assert r.counts.uniform()[f"ldmatrix.x{num}{'.trans' if trans else ''}"] == 1


@pytest.mark.parametrize("num", [1, 2, 4])
@pytest.mark.parametrize("trans", [False, True])
def test_stmatrix_m8n8_then_ldmatrix_round_trips(num, trans):
    """stmatrix writes the fragment rule's memory; the same ldmatrix reads it back."""
    regs = ", ".join(f"%r{40 + k}" for k in range(num))
    tr = ".trans" if trans else ""
    body = ("".join(f"mad.lo.s32 %r{40 + k}, %r1, 0x00020002, {0x00010000 + 0x40 * k};\n"
                    for k in range(num)) +
            f"shl.b32 %r9, %r2, 4;\nstmatrix.sync.aligned.m8n8.x{num}{tr}.shared.b16 [%r9], "
            f"{{{regs}}};\nbar.warp.sync -1;\n"
            f"ldmatrix.sync.aligned.m8n8.x{num}{tr}.shared.b16 {{{regs}}}, [%r9];\n"
            + _store_words(num))
    r = run(body, out_words=32 * num, smem=512, store=False)
    want = [[(t * 0x00020002 + 0x00010000 + 0x40 * k) & 0xFFFFFFFF for k in range(num)]
            for t in range(32)]
    assert r.buffers[1].reshape(32, num).tolist() == want
    # the memory the store wrote: row i of matrix j at 16 (8j + i); lane t's halves
    body_mem = body.split("bar.warp.sync")[0] + ("bar.warp.sync -1;\nshl.b32 %r8, %r1, 2;\n"
                                                 "ld.shared.b32 %r20, [%r8];")
    mem = run(body_mem, out_words=32, smem=512).buffers[1]
    halves = mem.view(np.uint16)
    for t in range(32):
        for k in range(num):
            for h in range(2):
                row, col = (2 * (t % 4) + h, t // 4) if trans else (t // 4, 2 * (t % 4) + h)
                if 16 * (8 * k + row) + 2 * col < 128:
                    value = (want[t][k] >> 16 * h) & 0xFFFF
                    assert int(halves[(16 * (8 * k + row) + 2 * col) // 2]) == value


def test_ldmatrix_m16n16_b8_fragments():
    """Lane t, register R, byte B: matrix R // 2, row 4 (t % 4) + B, byte t // 4 + 8 (R % 2)
    of the rows lanes 16 j + i address."""
    img = (np.arange(1024) % 251).astype(np.uint8)
    body = (FILL + "shl.b32 %r9, %r2, 5;\n"
            "ldmatrix.sync.aligned.m16n16.x2.trans.shared.b8 {%r40, %r41, %r42, %r43}, [%r9];\n"
            + _store_words(4))
    r = run(body, img.view(np.uint32), out_words=128, smem=1024, store=False)
    got = r.buffers[1].reshape(32, 4)
    for t in range(32):
        for R in range(4):
            want = [int(img[ROW * (16 * (R // 2) + 4 * (t % 4) + B) + t // 4 + 8 * (R % 2)])
                    for B in range(4)]
            assert [int(got[t, R]) >> 8 * B & 0xFF for B in range(4)] == want, (t, R)
    assert r.counts.uniform()["ldmatrix.x2.trans.m16n16.b8"] == 1


@pytest.mark.parametrize("num", [1, 2, 4])
def test_stmatrix_m16n8_b8_matches_the_planners_rule(num):
    regs = ", ".join(f"%r{40 + k}" for k in range(num))
    body = ("".join(f"mad.lo.s32 %r{40 + k}, %r1, 0x04040404, {0x03020100 + k};\n"
                    for k in range(num)) +
            f"shl.b32 %r9, %r2, 4;\n"
            f"stmatrix.sync.aligned.m16n8.x{num}.trans.shared.b8 [%r9], {{{regs}}};\n"
            f"bar.warp.sync -1;\nshl.b32 %r8, %r1, 4;\n"
            f"ld.shared.v4.b32 {{%r40, %r41, %r42, %r43}}, [%r8];\n" + _store_words(4))
    mem = run(body, out_words=128, smem=512, store=False).buffers[1].view(np.uint8)
    rows = np.full((1, 1, 32), -1)
    rows[0, 0, :8 * num] = 16 * np.arange(8 * num)
    for j in range(num):
        for e in range(4):
            addr = byte_lane_addresses(rows, "m16n8", 0, j, e)[0]
            for t in range(32):
                value = ((t * 0x04040404 + 0x03020100 + j) >> 8 * e) & 0xFF
                assert int(mem[addr[t]]) == value, (j, e, t)


def test_matrix_wavefronts_equal_the_replay():
    for stride in (16, 128, 144):
        body = (f"mul.lo.s32 %r9, %r2, {stride};\n"
                "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r40, %r41, %r42, %r43}, [%r9];\n"
                "mov.u32 %r20, %r40;")
        rp = replay(kernel(body))
        # every byte read must be written first: fill the whole span
        fill = (f"mul.lo.s32 %r8, %r1, {stride};\n"
                "st.shared.v4.b32 [%r8], {%r10, %r10, %r10, %r10};\nbar.warp.sync -1;\n")
        got = run(fill + body, smem=32 * stride)
        ld = [a for a in got.counts.accesses if a.name.startswith("ldmatrix")]
        assert [int(a.wavefronts.sum()) for a in ld] == [a.wavefronts for a in rp.accesses]


def test_the_decompressing_forms_are_refused():
    with pytest.raises(UnknownInstruction, match="6- and 4-bit"):
        run("ldmatrix.sync.aligned.m8n16.x1.shared.b8x16.b6x16_p32 {%r40}, [%r9];")
    with pytest.raises(UnknownInstruction, match=r"\.m16n16 requires \.trans"):
        run("ldmatrix.sync.aligned.m16n16.x1.shared.b8 {%r40, %r41}, [%r9];")
