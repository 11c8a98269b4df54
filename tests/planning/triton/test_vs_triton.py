"""Cross-check with Triton's own conversion code: Gluon kernels that ``convert_layout``
between the same two layouts (ours, turned into Gluon ``DistributedLinearLayout``s) are
compiled for sm90 on the CPU (``triton.compile`` yields PTX without a GPU). Our plan may
use no more shared-memory bytes and no more wavefronts than Triton's generated code.

Triton's wavefronts are counted from its PTX at their *ideal* (a lower bound on what it
really costs): a ``st.shared`` / ``ld.shared`` of ``b`` bytes per lane costs at least
``ceil(32*b / 128)`` wavefronts per warp, an ``ldmatrix`` / ``stmatrix`` ``.xN`` at least
``N``; every warp runs the PTX once. Shared-memory bytes are the kernel's allocation.

Run this file as a script to print the table recorded in docs/data-movement.md.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import pytest

import tilelayout as tl
from tilelayout.interop.triton import to_triton_bases

triton = pytest.importorskip("triton")

#: (name, src, dst, shape, dtype, warps)
CASES = [
    ("32x32 float32 transpose", "S[(32,32):(1@laneid,1)]", "S[(32,32):(1,1@laneid)]",
     (32, 32), "float32", 1),
    ("32x32 float16 transpose", "S[(32,32):(1@laneid,1)]", "S[(32,32):(1,1@laneid)]",
     (32, 32), "float16", 1),
    ("mma C -> next mma A (16x16 f16)", "S[(2,8,2,4,2):(2,4@laneid,4,1@laneid,1)]",
     "S[(2,8,2,4,2):(2,4@laneid,4,1@laneid,1)]", (16, 16), "float16", 1),
    ("mma C -> B operand (16x8 f16)", "S[(2,8,4,2):(2,4@laneid,1@laneid,1)]",
     "S[(2,4,2,8):(2,1@laneid,1,4@laneid)]", (16, 8), "float16", 1),
    ("mma C -> lane-per-row (16x8 f32)", "S[(2,8,4,2):(2,4@laneid,1@laneid,1)]",
     "S[(16,2,4):(2@laneid,1@laneid,1)]", (16, 8), "float32", 1),
    ("register reorder (32x32 f32)", "S[(32,32):(1@laneid,1)]", "S[(32,2,16):(1@laneid,1,2)]",
     (32, 32), "float32", 1),
    ("lane swap, 1 register (16x2 f32)", "S[(16,2):(2@laneid,1@laneid)]",
     "S[(16,2):(1@laneid,16@laneid)]", (16, 2), "float32", 1),
    ("wgmma D -> lane-per-row (64x64 f16, 4 warps)",
     "S[(4,2,8,8,4,2):(1@warpid,2,4@laneid,4,1@laneid,1)]",
     "S[(4,16,2,32):(1@warpid,1@laneid,16@laneid,1)]", (64, 64), "float16", 4),
    ("rows over warps -> columns over warps (64x32 f32, 2 warps)",
     "S[(2,32,32):(1@warpid,1@laneid,1)]", "S[(32,2,2,16):(1,16@laneid,1@warpid,1@laneid)]",
     (64, 32), "float32", 2),
    ("wgmma D -> transposed lanes (64x64 f16, 4 warps)",
     "S[(4,2,8,8,4,2):(1@warpid,2,4@laneid,4,1@laneid,1)]",
     "S[(32,2,4,16):(1,16@laneid,1@warpid,1@laneid)]", (64, 64), "float16", 4),
]


@dataclass(frozen=True)
class TritonCode:
    smem_bytes: int
    wavefronts: int  # ideal wavefronts of its shared-memory instructions (lower bound)
    stores: int
    loads: int
    shuffles: int
    instructions: str


_SMEM = re.compile(r"^\s*(?:@!?%\w+\s+)?(st|ld)\.shared(?:\.v(\d))?\.[bfsu](\d+)")
_MATRIX = re.compile(r"^\s*(?:@!?%\w+\s+)?(ldmatrix|stmatrix)\.sync\.aligned\.\w+\.x(\d)")
_SHFL = re.compile(r"^\s*(?:@!?%\w+\s+)?shfl\.")


def count_ptx(ptx: str, warps: int, smem_bytes: int) -> TritonCode:
    """Shared-memory and shuffle instructions of Triton's PTX, and their ideal wavefronts."""
    waves = stores = loads = shuffles = 0
    seen: dict[str, int] = {}
    for line in ptx.splitlines():
        if m := _SMEM.match(line):
            nbytes = int(m.group(2) or 1) * int(m.group(3)) // 8
            waves += max(1, math.ceil(32 * nbytes / 128))
            stores += m.group(1) == "st"
            loads += m.group(1) == "ld"
            key = f"{m.group(1)}.shared.{'v' + m.group(2) if m.group(2) else 's'}.b{m.group(3)}"
        elif m := _MATRIX.match(line):
            waves += int(m.group(2))
            stores += m.group(1) == "stmatrix"
            loads += m.group(1) == "ldmatrix"
            key = f"{m.group(1)}.x{m.group(2)}"
        elif _SHFL.match(line):
            shuffles += 1
            key = "shfl"
        else:
            continue
        seen[key] = seen.get(key, 0) + 1
    text = ", ".join(f"{n} {k}" for k, n in sorted(seen.items())) or "none"
    return TritonCode(smem_bytes, waves * warps, stores, loads, shuffles, text)


def _gluon_layout(ttgl, text: str, shape):
    b = to_triton_bases(tl.parse(text), shape)
    return ttgl.DistributedLinearLayout(b.get("register", []), b.get("lane", []),
                                        b.get("warp", []), [], list(shape))


def triton_code(src: str, dst: str, shape, dtype: str, warps: int) -> TritonCode:
    """Compile a Gluon kernel that loads a tile in ``src``, converts it to ``dst`` and
    stores it, for sm90 on the CPU; count its PTX."""
    from triton.backends.compiler import GPUTarget
    from triton.experimental import gluon
    from triton.experimental.gluon import language as ttgl
    from triton.experimental.gluon._runtime import GluonASTSource

    @gluon.jit
    def convert(x_ptr, M: ttgl.constexpr, N: ttgl.constexpr, SRC: ttgl.constexpr,
                DST: ttgl.constexpr):
        rm = ttgl.arange(0, M, layout=ttgl.SliceLayout(1, SRC))
        rn = ttgl.arange(0, N, layout=ttgl.SliceLayout(0, SRC))
        x = ttgl.load(x_ptr + rm[:, None] * N + rn[None, :])
        y = ttgl.convert_layout(x, DST)
        sm = ttgl.arange(0, M, layout=ttgl.SliceLayout(1, DST))
        sn = ttgl.arange(0, N, layout=ttgl.SliceLayout(0, DST))
        ttgl.store(x_ptr + M * N + sm[:, None] * N + sn[None, :], y)

    ty = {"float32": "*fp32", "float16": "*fp16"}[dtype]
    source = GluonASTSource(
        fn=convert,
        signature={"x_ptr": ty, "M": "constexpr", "N": "constexpr", "SRC": "constexpr",
                   "DST": "constexpr"},
        constexprs={"M": shape[0], "N": shape[1], "SRC": _gluon_layout(ttgl, src, shape),
                    "DST": _gluon_layout(ttgl, dst, shape)})
    compiled = triton.compile(source, target=GPUTarget("cuda", 90, 32),
                              options={"num_warps": warps})
    return count_ptx(compiled.asm["ptx"], warps, int(compiled.metadata.shared))


def ours(src: str, dst: str, shape, dtype: str) -> tuple[tl.ConversionPlan, int, int]:
    p = tl.plan_conversion(src, dst, shape, dtype)
    return p, int(p.costs.get("smem_bytes", 0)), int(p.costs.get("wavefronts", 0))


@pytest.fixture(scope="module")
def compiled():
    return {c[0]: triton_code(*c[1:]) for c in CASES}


#: where our plan uses more than Triton's code today, the measured figures and why
#: (docs/data-movement.md); an improvement or a regression fails the test either way
KNOWN_GAPS = {
    # Triton loads with ldmatrix.trans from a layout that puts the 16-byte rows of the
    # transposed 8x8 b16 matrices together; our candidates are row/column-major tiles
    # with hardware swizzles, and our loads are plain ld.shared
    "32x32 float16 transpose": {"smem": 2048, "wavefronts": 48},
    # Triton moves 4 bytes per lane on both sides (ld/st.shared.v2.b16), pairing
    # registers that are not adjacent slots; SPEC 6's requests move consecutive slots, and
    # this destination's consecutive slots are rows 2 apart: 2-byte loads (our ideal: 192)
    "wgmma D -> transposed lanes (64x64 f16, 4 warps)": {"smem": 8192, "wavefronts": 192},
}


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_no_more_smem_or_wavefronts_than_triton(case, compiled):
    name, src, dst, shape, dtype, _ = case
    t = compiled[name]
    p, smem, waves = ours(src, dst, shape, dtype)
    if p.mechanism in ("none", "registers", "warp-shuffle"):
        assert smem == 0 and waves == 0
    if t.smem_bytes == 0 and t.shuffles == 0:  # Triton moved nothing across threads
        assert p.mechanism in ("none", "registers")
    if t.smem_bytes == 0 and t.shuffles:  # Triton shuffles: so do we, no more rounds
        assert p.mechanism == "warp-shuffle" and p.costs["shuffle_rounds"] <= t.shuffles
    if name in KNOWN_GAPS:
        assert {"smem": smem, "wavefronts": waves} == KNOWN_GAPS[name]
        assert smem > t.smem_bytes or waves > t.wavefronts
    else:
        assert smem <= t.smem_bytes, (smem, t)
        assert waves <= t.wavefronts, (waves, t)


def test_most_cases_hold():
    assert len(CASES) - len(KNOWN_GAPS) >= 8


def test_ptx_counter():
    ptx = "\n".join(["\tst.shared.v4.b32 \t[%r1], {%r1, %r2, %r3, %r4};",
                     "\t@%p1 ld.shared.b16 %rs1, [%r2];",
                     "\tldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r1, %r2, %r3, %r4}, [%r9];",
                     "\tshfl.sync.idx.b32 %r5, %r6, %r7, 31, -1;"])
    c = count_ptx(ptx, 2, 0)
    assert (c.wavefronts, c.stores, c.loads, c.shuffles) == (2 * (4 + 1 + 4), 1, 2, 1)


def table() -> str:
    rows = ["| conversion | warps | ours: kind / mechanism | ours: smem B | ours: wavefronts | "
            "Triton: smem B | Triton: wavefronts (ideal) | Triton's instructions (per thread) |",
            "|---|---|---|---|---|---|---|---|"]
    for name, src, dst, shape, dtype, warps in CASES:
        t = triton_code(src, dst, shape, dtype, warps)
        p, smem, waves = ours(src, dst, shape, dtype)
        rounds = p.costs.get("shuffle_rounds")
        mech = p.mechanism + (f" ({rounds} shfl rounds)" if p.mechanism == "warp-shuffle" else "")
        rows.append(f"| {name} | {warps} | {p.kind} / {mech} | {smem} | {waves} | "
                    f"{t.smem_bytes} | {t.wavefronts} | {t.instructions} |")
    return "\n".join(rows)


if __name__ == "__main__":
    print(table())
