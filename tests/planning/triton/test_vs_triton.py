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


def triton_code(src: str, dst: str, shape, dtype: str, warps: int) -> TritonCode:
    """Compile a Gluon kernel that loads a tile in ``src``, converts it to ``dst`` and
    stores it, for sm90 on the CPU (the scenario suite's ``convert`` kernel); count its PTX."""
    from ..scenarios.triton_kernels import compile_scenario

    c = compile_scenario("convert", src, dst, shape, dtype, "sm_90", warps)
    return count_ptx(c.ptx, warps, c.smem_bytes)


def ours(src: str, dst: str, shape, dtype: str) -> tuple[tl.ConversionPlan, int, int]:
    p = tl.plan_conversion(src, dst, shape, dtype)
    return p, int(p.costs.get("smem_bytes", 0)), int(p.costs.get("wavefronts", 0))


@pytest.fixture(scope="module")
def compiled():
    return {c[0]: triton_code(*c[1:]) for c in CASES}


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
    assert smem <= t.smem_bytes, (smem, t)
    assert waves <= t.wavefronts, (waves, t)


def test_the_two_former_gaps_use_the_instructions_triton_uses():
    """The cases where consecutive-slot vectors lose: a float16 transpose closes with
    ldmatrix.trans (and packed 16-byte stores), the wgmma D -> transposed lanes staging
    with packed stores and ldmatrix loads."""
    p = tl.plan_conversion(*CASES[1][1:5])
    assert p.smem.read.mechanism == "ldmatrix.x4.trans"
    assert p.smem.write.mechanism == "packed" and p.smem.write.vector_bytes == 16
    q = tl.plan_conversion(*CASES[-1][1:5])
    assert q.smem.read.mechanism.startswith("ldmatrix")
    assert q.smem.write.mechanism == "packed" and q.smem.write.vector_bytes >= 4
    for plan in (p, q):
        out = plan.execute()
        r = plan._route.dst
        assert all(out[tuple(c)] == e for c, e in zip(r.coords.tolist(), r.element.tolist(),
                                                       strict=True))


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
