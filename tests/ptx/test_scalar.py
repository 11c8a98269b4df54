"""The interpreter's per-thread instructions on hand-written PTX: integer and logic ops,
``prmt`` in every mode, ``selp`` / ``setp``, ``mov`` packing, ``cvt`` between integer
widths and to / from f16, bf16, e4m3 and e5m2 (with the x2 packing order). Each result
is checked against a reference written from the PTX ISA's text (pure Python, lane by
lane, or ml_dtypes for the float formats); each family also has a deliberately wrong
program whose output the same check rejects."""

from __future__ import annotations

import numpy as np
import pytest

from .errors import PtxError, UnknownInstruction
from .ptxkit import run, words

RNG = np.random.default_rng(27)
X = RNG.integers(0, 1 << 32, 32, dtype=np.uint64).astype(np.uint32)
LANE = np.arange(32)
M32 = 0xFFFFFFFF


def sb(v: int) -> int:
    """A signed byte."""
    v &= 0xFF
    return v - 256 if v >> 7 else v


def sh(v: int) -> int:
    """A signed 16-bit half."""
    v &= 0xFFFF
    return v - (1 << 16) if v >> 15 else v


def s32(v: int) -> int:
    v &= M32
    return v - (1 << 32) if v >> 31 else v


CASES = [  # (body computing %r20 from %r10 = x and %r2 = lane, reference per (x, lane))
    ("add.s32 %r20, %r10, %r2;", lambda x, t: x + t),
    ("sub.s32 %r20, %r2, %r10;", lambda x, t: t - x),
    ("mul.lo.s32 %r20, %r10, 7;", lambda x, t: x * 7),
    ("mul.hi.u32 %r20, %r10, 0x9E3779B9;", lambda x, t: x * 0x9E3779B9 >> 32),
    ("mul.hi.s32 %r20, %r10, -12345;", lambda x, t: s32(x) * -12345 >> 32),
    ("mul.wide.s32 %rd10, %r10, -3;\nshr.u64 %rd11, %rd10, 32;\ncvt.u32.u64 %r20, %rd11;",
     lambda x, t: s32(x) * -3 >> 32),
    ("mad.lo.s32 %r20, %r10, %r2, 5;", lambda x, t: x * t + 5),
    ("shl.b32 %r20, %r10, %r2;", lambda x, t: x << t),
    ("shr.u32 %r20, %r10, %r2;", lambda x, t: x >> t),
    ("shr.s32 %r20, %r10, %r2;", lambda x, t: s32(x) >> t),
    ("add.s32 %r30, %r2, 20;\nshl.b32 %r20, %r10, %r30;", lambda x, t: x << (t + 20) if t < 12 else 0),
    ("and.b32 %r20, %r10, 0xF0F0F0F0;", lambda x, t: x & 0xF0F0F0F0),
    ("or.b32 %r20, %r10, %r2;", lambda x, t: x | t),
    ("xor.b32 %r20, %r10, -1;", lambda x, t: ~x),
    ("not.b32 %r20, %r10;", lambda x, t: ~x),
    ("min.s32 %r20, %r10, %r2;", lambda x, t: min(s32(x), t)),
    ("max.u32 %r20, %r10, 0x80000000;", lambda x, t: max(x, 0x80000000)),
    ("abs.s32 %r20, %r10;", lambda x, t: abs(s32(x))),
    ("neg.s32 %r20, %r10;", lambda x, t: -x),
    ("popc.b32 %r20, %r10;", lambda x, t: bin(x).count("1")),
    ("clz.b32 %r20, %r10;", lambda x, t: 32 - x.bit_length()),
    ("brev.b32 %r20, %r10;", lambda x, t: int(f"{x:032b}"[::-1], 2)),
    ("bfe.u32 %r20, %r10, %r2, 5;", lambda x, t: x >> t & 31),
    # bfe.s32: the field's top bit fills the rest; past bit 31 the sign of x
    ("bfe.s32 %r20, %r10, %r2, 5;",
     lambda x, t: (x >> t & 31) - (32 if (x >> min(t + 4, 31)) & 1 else 0) if t < 28
     else s32(x) >> t),
    ("bfi.b32 %r20, %r2, %r10, 8, 5;", lambda x, t: (x & ~(31 << 8)) | (t & 31) << 8),
    ("lop3.b32 %r20, %r10, %r2, 0x0F0F0F0F, 0x96;", lambda x, t: x ^ t ^ 0x0F0F0F0F),
    ("lop3.b32 %r20, %r10, %r2, 0x0F0F0F0F, 0xE8;",  # majority
     lambda x, t: (x & t) | (x & 0x0F0F0F0F) | (t & 0x0F0F0F0F)),
    ("add.s32 %r30, %r2, 1;\ndiv.u32 %r20, %r10, %r30;", lambda x, t: x // (t + 1)),
    ("add.s32 %r30, %r2, 1;\nrem.s32 %r20, %r10, %r30;",
     lambda x, t: int(np.fmod(s32(x), t + 1))),
    ("add.s32 %r30, %r2, 1;\ndiv.s32 %r20, %r10, %r30;", lambda x, t: int(s32(x) / (t + 1))),
    ("setp.lt.s32 %p1, %r10, 0;\nselp.b32 %r20, %r2, 77, %p1;",
     lambda x, t: t if s32(x) < 0 else 77),
    ("setp.lt.u32 %p1, %r2, 16;\nsetp.gt.and.u32 %p2|%p3, %r10, 0x40000000, %p1;\n"
     "selp.b32 %r20, 1, 0, %p2;\nselp.b32 %r21, 2, 0, %p3;\nor.b32 %r20, %r20, %r21;",
     lambda x, t: (1 if x > 0x40000000 and t < 16 else 0) |
     (2 if not x > 0x40000000 and t < 16 else 0)),
    ("slct.b32.s32 %r20, %r2, 99, %r10;", lambda x, t: t if s32(x) >= 0 else 99),
    ("shf.l.wrap.b32 %r20, %r10, %r2, 8;", lambda x, t: ((t << 32 | x) << 8) >> 32),
    ("shf.r.clamp.b32 %r20, %r10, %r2, 40;", lambda x, t: t),  # shift clamped to 32
    ("cvt.u16.u32 %rs1, %r10;\ncvt.s32.s16 %r20, %rs1;",
     lambda x, t: (x & 0xFFFF) - (0x10000 if x & 0x8000 else 0)),
    ("cvt.s8.s32 %rs1, %r10;\ncvt.u32.u16 %r20, %rs1;",
     lambda x, t: ((x & 0xFF) - (0x100 if x & 0x80 else 0)) & 0xFFFF),
    ("cvt.sat.u8.s32 %r20, %r10;", lambda x, t: min(max(s32(x), 0), 255)),
    ("cvt.u64.u32 %rd10, %r10;\nshl.b64 %rd11, %rd10, 20;\nshr.u64 %rd12, %rd11, 24;\n"
     "cvt.u32.u64 %r20, %rd12;", lambda x, t: (x << 20) >> 24),
    # integer dot products (PTX ISA "dp4a", "dp2a"; nvcc folds address arithmetic into them)
    ("dp4a.u32.u32 %r20, %r10, 0x01020304, %r2;",
     lambda x, t: t + sum((x >> 8 * i & 0xFF) * (4 - i) for i in range(4))),
    ("dp4a.s32.s32 %r20, %r10, 0xFF7F8001, %r2;",
     lambda x, t: t + sum(sb(x >> 8 * i) * sb(0xFF7F8001 >> 8 * i) for i in range(4))),
    ("dp2a.lo.u32.u32 %r20, %r10, 0x2405, %r2;",
     lambda x, t: t + (x & 0xFFFF) * 5 + (x >> 16) * 0x24),
    ("dp2a.hi.s32.u32 %r20, %r10, 0x09FF0000, %r2;",
     lambda x, t: t + sh(x) * 0xFF + sh(x >> 16) * 9),
]


@pytest.mark.parametrize("body,ref", CASES, ids=[c[0].split()[0] + str(i) for i, c in
                                                 enumerate(CASES)])
def test_integer_and_logic(body, ref):
    got = words(body, X)
    want = [ref(int(x), t) & M32 for x, t in zip(X, LANE)]
    assert got.tolist() == want


def test_a_wrong_program_is_caught():
    """The same check rejects a program that computes something else (shl for shr)."""
    got = words("shl.b32 %r20, %r10, %r2;", X)
    assert got.tolist() != [int(x) >> t for x, t in zip(X, LANE)]


def prmt_reference(a: int, b: int, c: int, mode: str | None) -> int:
    """PTX ISA "prmt", byte by byte."""
    src = [(a >> 8 * i) & 0xFF for i in range(4)] + [(b >> 8 * i) & 0xFF for i in range(4)]
    out = 0
    for i in range(4):
        if mode is None:
            sel = (c >> 4 * i) & 0xF
            byte = src[sel & 7]
            if sel & 8:
                byte = 0xFF if byte & 0x80 else 0
        else:
            k = c & 3
            table = {"f4e": [k + i], "b4e": [(k - i) % 8], "rc8": [k],
                     "ecl": [max(i, k)], "ecr": [min(i, k)],
                     "rc16": [(2 * (k % 2)) + i % 2]}[mode]
            byte = src[table[0]]
        out |= byte << 8 * i
    return out


@pytest.mark.parametrize("mode", [None, "f4e", "b4e", "rc8", "ecl", "ecr", "rc16"])
def test_prmt_every_mode(mode):
    sel = RNG.integers(0, 1 << 16, 32, dtype=np.uint64).astype(np.uint32)
    b = RNG.integers(0, 1 << 32, 32, dtype=np.uint64).astype(np.uint32)
    x = np.concatenate([X, b, sel])
    body = ("ld.global.u32 %r11, [%rd4+128];\nld.global.u32 %r12, [%rd4+256];\n"
            f"prmt.b32{'.' + mode if mode else ''} %r20, %r10, %r11, %r12;")
    got = run(body, x, out_words=96).buffers[1][:32]
    want = [prmt_reference(int(a), int(bb), int(c), mode) for a, bb, c in zip(X, b, sel)]
    assert got.tolist() == want
    # __byte_perm's documented example: bytes 0x7531 of {0x07060504, 0x03020100}
    if mode is None:
        one = run("mov.u32 %r11, 0x03020100;\nmov.u32 %r12, 0x07060504;\n"
                  "prmt.b32 %r20, %r11, %r12, 0x7531;").buffers[1]
        assert int(one[0]) == 0x07050301


def test_prmt_wrong_selector_is_caught():
    want = [prmt_reference(int(x), 0x77665544, 0x5410, None) for x in X]
    assert words("mov.u32 %r11, 0x77665544;\nprmt.b32 %r20, %r10, %r11, 0x5410;", X).tolist() \
        == want
    assert words("mov.u32 %r11, 0x77665544;\nprmt.b32 %r20, %r10, %r11, 0x1054;", X).tolist() \
        != want


def test_mov_packs_low_first():
    got = words("cvt.u16.u32 %rs1, %r2;\nmov.u16 %rs2, 0xABCD;\nmov.b32 %r20, {%rs1, %rs2};\n"
                "mov.b32 {%rs3, %rs4}, %r20;\nmov.b32 %r21, {%rs4, %rs3};\n"
                "mov.b64 %rd10, {%r20, %r21};\nmov.b64 {%r22, %r23}, %rd10;\n"
                "xor.b32 %r20, %r22, %r23;")
    assert got.tolist() == [(t | 0xABCD << 16) ^ (0xABCD | t << 16) for t in range(32)]


def _floats(body: str, values: np.ndarray) -> np.ndarray:
    return words(body, np.asarray(values, np.float32).view(np.uint32))


def test_f32_to_f16_and_bf16_round_to_nearest_even():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    vals = np.array([1.0, 1 + 2 ** -11, 1 + 3 * 2 ** -11, 65504.0, 65520.0, -2.5e-8, 1e-30,
                     np.inf, -0.0, 3.14159, 1 + 2 ** -8, 1 + 3 * 2 ** -8] * 3, np.float32)[:32]
    got = _floats("cvt.rn.f16.f32 %rs1, %r10;\ncvt.u32.u16 %r20, %rs1;", vals)
    with np.errstate(over="ignore"):
        assert got.tolist() == vals.astype(np.float16).view(np.uint16).tolist()
    got = _floats("cvt.rn.bf16.f32 %rs1, %r10;\ncvt.u32.u16 %r20, %rs1;", vals)
    assert got.tolist() == vals.astype(ml_dtypes.bfloat16).view(np.uint16).tolist()
    # .satfinite clamps to the largest finite value
    got = _floats("cvt.rn.satfinite.f16.f32 %rs1, %r10;\ncvt.u32.u16 %r20, %rs1;", vals)
    assert got[4] == 0x7BFF and got[7] == 0x7BFF


@pytest.mark.parametrize("dst", ["f16x2", "bf16x2"])
def test_packed_pairs_put_a_in_the_upper_half(dst):
    """PTX ISA "cvt": ``cvt.rn.f16x2.f32 d, a, b`` -- a's value in d[31:16]."""
    ml_dtypes = pytest.importorskip("ml_dtypes")
    a = (np.arange(32) * 0.75 - 7).astype(np.float32)
    b = (np.arange(32) * -1.25 + 3).astype(np.float32)
    x = np.concatenate([a, b]).view(np.uint32)
    got = run(f"ld.global.u32 %r11, [%rd4+128];\ncvt.rn.{dst}.f32 %r20, %r10, %r11;", x,
              out_words=64).buffers[1][:32]
    ty = np.float16 if dst == "f16x2" else ml_dtypes.bfloat16
    want = (a.astype(ty).view(np.uint16).astype(np.uint32) << 16) | b.astype(ty).view(np.uint16)
    assert got.tolist() == want.tolist()
    swapped = (b.astype(ty).view(np.uint16).astype(np.uint32) << 16) | a.astype(ty).view(np.uint16)
    assert got.tolist() != swapped.tolist()  # the other packing order is caught


@pytest.mark.parametrize("fmt", ["e4m3", "e5m2"])
def test_fp8_pairs_round_saturate_and_pack(fmt):
    ml_dtypes = pytest.importorskip("ml_dtypes")
    ty = ml_dtypes.float8_e4m3fn if fmt == "e4m3" else ml_dtypes.float8_e5m2
    big = 448.0 if fmt == "e4m3" else 57344.0
    a = np.array([1.0, 1.0625, 1.1875, -3.5, 0.001953125, 0.0029296875, 240.0, 500.0, 1e6,
                  -1e6, 0.0, -0.0, 17.0, 0.3, 100.0, 2.0 ** -10] * 2, np.float32)
    b = a[::-1].copy() * -0.5
    x = np.concatenate([a, b]).view(np.uint32)
    got = run(f"ld.global.u32 %r11, [%rd4+128];\n"
              f"cvt.rn.satfinite.{fmt}x2.f32 %rs1, %r10, %r11;\ncvt.u32.u16 %r20, %rs1;", x,
              out_words=64).buffers[1][:32]
    clip = lambda v: np.clip(v, -big, big)  # noqa: E731  (satfinite, then RNE as ml_dtypes)
    want = (clip(a).astype(ty).view(np.uint8).astype(np.uint32) << 8) | \
        clip(b).astype(ty).view(np.uint8)
    assert got.tolist() == want.tolist()
    # and back up: e4m3x2 / e5m2x2 -> f16x2, upper byte to the upper half, exactly
    back = run(f"ld.global.u32 %r11, [%rd4+128];\n"
               f"cvt.rn.satfinite.{fmt}x2.f32 %rs1, %r10, %r11;\n"
               f"cvt.rn.f16x2.{fmt}x2 %r20, %rs1;", x, out_words=64).buffers[1][:32]
    hi = (back >> 16).astype(np.uint16).view(np.float16).astype(np.float32)
    lo = (back & 0xFFFF).astype(np.uint16).view(np.float16).astype(np.float32)
    assert hi.tolist() == clip(a).astype(ty).astype(np.float32).tolist()
    assert lo.tolist() == clip(b).astype(ty).astype(np.float32).tolist()


def test_f16x2_to_fp8_pairs():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    h = (np.arange(64) * 0.375 - 9).astype(np.float16)
    x = h.view(np.uint32)  # word t holds h[2t] (low) and h[2t+1] (high)
    got = words("cvt.rn.satfinite.e4m3x2.f16x2 %rs1, %r10;\ncvt.u32.u16 %r20, %rs1;", x)
    e = h.astype(np.float32).astype(ml_dtypes.float8_e4m3fn).view(np.uint8).astype(np.uint32)
    assert got.tolist() == (e[1::2] << 8 | e[0::2]).tolist()


def test_float_arithmetic_and_conversions():
    vals = (np.arange(32) * 1.5 - 10).astype(np.float32)
    got = _floats("mov.b32 %f1, %r10;\nmul.rn.f32 %f2, %f1, 0f40000000;\n"
                  "add.f32 %f3, %f2, 0f3F800000;\nfma.rn.f32 %f4, %f3, %f1, %f1;\n"
                  "cvt.rzi.s32.f32 %r20, %f4;", vals)
    want = np.trunc((vals * 2 + 1) * vals + vals).astype(np.int64) & M32
    assert got.tolist() == want.tolist()
    got = words("cvt.rn.f32.s32 %f1, %r10;\nmov.b32 %r20, %f1;",
                np.array([-5, 7, 1 << 25 | 1, -(1 << 30) - 3] * 8, np.int32).view(np.uint32))
    assert got.view(np.float32).tolist() == [-5.0, 7.0, float(1 << 25), float(-(1 << 30))] * 8


def test_unknown_instructions_are_refused_with_their_line():
    with pytest.raises(UnknownInstruction, match=r"line 21 \(wgmma.fence.sync.aligned\): "
                                                 r"wgmma.fence.sync.aligned is not implemented"):
        words("wgmma.fence.sync.aligned;\nmov.u32 %r20, 0;")
    with pytest.raises(UnknownInstruction, match=r"prmt.b32.xyz is not implemented"):
        words("prmt.b32.xyz %r20, %r10, %r10, 0;")
    with pytest.raises(UnknownInstruction, match="carry"):
        words("add.cc.u32 %r20, %r10, 1;")
    with pytest.raises(PtxError, match="register %r50 is read before any thread wrote it"):
        words("add.s32 %r20, %r50, 1;")
    with pytest.raises(PtxError, match="integer division by zero"):
        words("div.u32 %r20, %r10, 0;")
    with pytest.raises(PtxError, match="is neither a declared register nor a known symbol"):
        words("mov.u32 %r20, undeclared;")
