"""Cross-check with Triton's own conversion code: Gluon kernels that ``convert_layout``
between the same two layouts (ours, turned into Gluon ``DistributedLinearLayout``s) are
compiled for sm90 on the CPU (``triton.compile`` yields PTX without a GPU). Our plan may
use no more shared-memory bytes and no more wavefronts than Triton's generated code.

Triton's wavefronts are measured by replaying its PTX per thread
(``tests/planning/scenarios/ptx_replay.py``: every shared-memory request's lane addresses
costed with the bank model). Shared-memory bytes are the kernel's allocation.

``python -m tests.planning.triton.test_vs_triton`` prints the table recorded in
docs/data-movement.md.
"""

from __future__ import annotations

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
    wavefronts: int  # of its shared-memory requests, replayed per thread (all warps)
    stores: int
    loads: int
    shuffles: int
    instructions: str


def triton_code(src: str, dst: str, shape, dtype: str, warps: int) -> TritonCode:
    """Compile a Gluon kernel that loads a tile in ``src``, converts it to ``dst`` and
    stores it, for sm90 on the CPU (the scenario suite's ``convert`` kernel); replay its
    PTX (``tests/planning/scenarios/ptx_replay.py``)."""
    from ..scenarios.triton_kernels import compile_scenario

    c = compile_scenario("convert", src, dst, shape, dtype, "sm_90", warps)
    r = c.replay
    stores = sum(a.name.startswith(("st", "stmatrix")) for a in r.accesses)
    shown = {k: n for k, n in r.counts.items() if k.startswith(("st", "ld", "shfl"))}
    text = ", ".join(f"{n} {k}" for k, n in sorted(shown.items())) or "none"
    return TritonCode(c.smem_bytes, r.wavefronts, stores, len(r.accesses) - stores,
                      r.count("shfl"), text)


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


def table() -> str:
    rows = ["| conversion | warps | ours: kind / mechanism | ours: smem B | ours: wavefronts | "
            "Triton: smem B | Triton: wavefronts | Triton's instructions (per thread) |",
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
