"""Lane exchanges found on bits, emitted from their own transpositions: a fixed sample
(the ship form's ``shfl.bfly`` and the swap form's ``shfl.idx``; selects and byte
permutes; 8-, 16-, 32- and 64-bit values; 1, 4 and 8 warps; source lanes that depend on
the warp; a source register bit of copies sent to a lane) compiled by nvcc for
sm_80 / sm_90a / sm_100a and executed by the PTX interpreter: every element right, and
the executed shuffles, selects and permutes exactly the plan's claim."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

import tilelayout as tl
from tilelayout.planning.code.cuda_text import Writer
from tilelayout.planning.code.cuda_transpose import emit_transpose

from ...ptx import toolchain
from .emitted import compile_batch, on_bits_only, prove

# (what it covers, src, dst, elements, dtype, target)
SAMPLE = [
    ("ship, selects, 32-bit, 1 warp", "S[(2,2,2,2,2,2):(8@laneid,1@laneid,2@laneid,1,16@laneid,"
     "4@laneid)]", "S[(2,2,2,2,2,2):(8@laneid,1@laneid,2@laneid,4@laneid,16@laneid,1)]", 64,
     "float32", "sm_80"),
    ("ship, permutes, 16-bit pairs, 1 warp", "S[(2,2,2,2,2,2,2):(16@laneid,2@laneid,2,8@laneid,"
     "4@laneid,1,1@laneid)]", "S[(2,2,2,2,2,2,2):(16@laneid,2@laneid,2,8@laneid,4@laneid,"
     "1@laneid,1)]", 128, "float16", "sm_90a"),
    ("ship, permutes, 8-bit quads, 4 warps", "S[(2,2,2,2,2,2,2,2,2):(1@laneid,1,4,8@laneid,"
     "2@warpid,1@warpid,2@laneid,2,4@laneid)] + R[2:16@laneid]",
     "S[(2,2,2,2,2,2,2,2,2):(2,1,4,8@laneid,2@warpid,1@warpid,2@laneid,1@laneid,4@laneid)]"
     " + R[2:16@laneid]", 512, "int8", "sm_100a"),
    ("ship, 64-bit, 8 warps", "S[(2,2,2,2,2,2,2,2,2):(1@laneid,2@laneid,1,4@warpid,1@warpid,2,"
     "4@laneid,2@warpid,8@laneid)] + R[2:16@laneid]", "S[(2,2,2,2,2,2,2,2,2):(1,2@laneid,"
     "1@laneid,4@warpid,1@warpid,2,4@laneid,2@warpid,8@laneid)] + R[2:16@laneid]", 512,
     "float64", "sm_80"),
    ("swap, idx, 8-bit, permutes, 1 warp", "S[(2,2,2,2,2,2):(1@laneid,8@laneid,1,2,4@laneid,"
     "2@laneid)] + R[2:16@laneid]", "S[(2,2,2,2,2,2):(2@laneid,4@laneid,8@laneid,1,1@laneid,"
     "16@laneid)]", 64, "int8", "sm_90a"),
    ("swap, idx, 8-bit, 8 warps", "S[(2,2,2,2,2,2,2):(4@warpid,1@warpid,4@laneid,1@laneid,"
     "2@laneid,8@laneid,2@warpid)] + R[2:16@laneid]", "S[(2,2,2,2,2,2,2):(4@warpid,1@warpid,"
     "2@laneid,8@laneid,4@laneid,1@laneid,2@warpid)] + R[2:16@laneid]", 128, "int8", "sm_100a"),
    ("swap, idx, 16-bit, permutes, 4 warps", "S[(2,2,2,2,2,2,2,2,2):(1,1@warpid,2,1@laneid,"
     "8@laneid,4,2@warpid,4@laneid,2@laneid)] + R[2:16@laneid]", "S[(2,2,2,2,2,2,2,2,2):"
     "(4@laneid,1@warpid,2,8@laneid,2@laneid,1,2@warpid,16@laneid,1@laneid)]", 512, "float16",
     "sm_80"),
    ("swap, idx, 16-bit, lanes that depend on the warp, 8 warps", "S[(2,2,2,2,2,2,2):(4@laneid,"
     "2@warpid,2@laneid,8@laneid,1@laneid,16@laneid,1@warpid)] + R[2:4@warpid]",
     "S[(2,2,2,2,2,2,2):(8@laneid,2@warpid,1@laneid,4@warpid,2@laneid,4@laneid,1@warpid)]"
     " + R[2:16@laneid]", 128, "float16", "sm_90a"),
    ("swap, idx, 32-bit, a register bit of copies to a lane, 8 warps",
     "S[(2,2,2,2,2,2,2,2):(2@warpid,1@warpid,16@laneid,1@laneid,4@laneid,4@warpid,2@laneid,"
     "8@laneid)]", "S[(2,2,2,2,2,2,2,2):(2@warpid,1@warpid,4@laneid,1,2@laneid,4@warpid,"
     "1@laneid,8@laneid)] + R[2:16@laneid]", 256, "float32", "sm_80"),
    ("swap, idx, 64-bit, 1 warp", "S[(2,2,2,2,2,2,2):(16@laneid,1,2@laneid,8@laneid,2,4@laneid,"
     "1@laneid)]", "S[(2,2,2,2,2,2,2):(2@laneid,1,4@laneid,1@laneid,8@laneid,16@laneid,2)]",
     128, "float64", "sm_90a"),
    ("swap, idx, 64-bit, lanes that depend on the warp, 4 warps", "S[(2,2,2,2,2,2,2,2,2):"
     "(16@laneid,1,8@laneid,4,1@laneid,2@laneid,4@laneid,1@warpid,2)] + R[2:2@warpid]",
     "S[(2,2,2,2,2,2,2,2,2):(1@laneid,1,8@laneid,2@laneid,4,4@laneid,2@warpid,1@warpid,2)]"
     " + R[2:16@laneid]", 512, "float64", "sm_100a"),
]


def need_nvcc() -> None:
    if toolchain.tools().nvcc is None:
        pytest.skip("nvcc is not installed: run scripts/ensure-cuda.sh")


@cache
def plans() -> list[tl.ConversionPlan]:
    # the bit transpositions' own plans (the element search may find another mechanism
    # cheaper for some: the sample is of the transpositions' code)
    with on_bits_only():
        return [tl.plan_conversion(a, b, (n,), dtype, target=arch)
                for _, a, b, n, dtype, arch in SAMPLE]


@cache
def batch(arch: str) -> str:
    return compile_batch({f"u{i}": p for i, (p, row) in enumerate(zip(plans(), SAMPLE,
                                                                        strict=True))
                          if row[5] == arch}, arch)


@pytest.mark.parametrize("i", range(len(SAMPLE)), ids=[row[0] for row in SAMPLE])
def test_the_transpositions_move_every_element_at_exactly_the_claimed_counts(i):
    need_nvcc()
    p, arch = plans()[i], SAMPLE[i][5]
    proof = prove(p, arch, name=f"u{i}", ptx=batch(arch))
    assert proof.wrong == 0 and proof.checked == 2 * int(np.prod(p.shape)) * \
        p.dst.replica_count
    assert proof.measured == proof.claimed
    assert proof.claimed.get("shfl", 0) > 0


def test_the_sample_covers_both_forms_widths_and_warps():
    progs = [p._program for p in plans()]
    forms = {(pr.transpose.form, "idx" if (pr.transpose.src_lane >= 0).any() else "bfly")
             for pr in progs}
    assert forms == {("ship", "bfly"), ("swap", "idx")}
    assert {pr.bits for pr in progs} == {8, 16, 32, 64}
    assert {pr.threads // 32 for pr in progs} == {1, 4, 8}
    assert any(not s.plain for pr in progs for s in pr.transpose.pre + pr.transpose.post)
    decs = [p._bits.shuffle for p in plans()]
    assert any(d.warp_lanes for d in decs) and any(d.one_sided for d in decs)


def test_the_code_is_the_transpositions_stages():
    p = plans()[4]  # 8-bit pairs: a byte-permute stage before and after the shuffles
    w = Writer("f")
    words = emit_transpose(w, p._program.transpose, ["s[0]"])
    body = "\n".join(w.body)
    assert body.count("__shfl_sync(") == 1 and body.count("#pragma unroll") == 3
    assert "before the shuffles" in body and "after the shuffles" in body
    assert "__byte_perm(a, b, low_sel)" in body
    assert "uint32_t v[kRegs] = {s[0], (s[0] >> 16)};" in body  # the pairs, unpermuted
    assert w.counts == {"prmt": 4, "shfl": 2}
    assert words == ["v[0]"]
    ship = "\n".join(tl.plan_conversion(*SAMPLE[0][1:3], (64,), "float32").code().splitlines())
    assert "__shfl_xor_sync(0xffffffffu, high ? a : b, 4)" in ship


#: lane exchanges whose destination needs fewer registers than the source holds: the
#: plan claims the gather form (warp_transpose.counts), as Triton's PTX has it
GATHER = [
    # seed 27's pair 611 of the differential harness: the source's warps hold copies
    ("S[(4,2,2,8,2,4,4):(16,2@warpid,4,4@laneid,8,1@laneid,1)] + R[2:1@warpid]",
     "S[(4,2,2,8,2,2,4,2):(8,2@warpid,2,4@laneid,4,1@warpid,1@laneid,1)]", (128, 32),
     (64, 32), "float32"),
    # a lane bit of copies in the source
    ("S[(2,2,2,2,2,2,2,2):(2,1@warpid,1@laneid,2@laneid,2@warpid,4@laneid,1,8@laneid)]"
     " + R[2:16@laneid]", "S[(2,2,2,2,2,2,2,2):(4@laneid,1@warpid,2@laneid,8@laneid,2@warpid,"
     "16@laneid,1,1@laneid)]", (256,), (4, 2), "float32"),
    # seed 28's pair 979: a kWidth-4 dot operand -> its mma v2, bfloat16 pairs gathered
    # whole (Triton 3.9: 64 shfl.sync.idx and 32 selp.b32)
    ("S[(4,2,2,8,4,4,4):(32,2@warpid,4,4@laneid,8,1@laneid,1)] + R[2:1@warpid]",
     "S[(4,2,2,8,4,2,4,2):(16,2@warpid,2,4@laneid,4,1@warpid,1@laneid,1)]", (128, 64),
     (64, 32), "bfloat16"),
]


@pytest.mark.parametrize("src,dst,shape,claim,dtype", GATHER)
def test_a_gather_exchange_moves_every_element_at_exactly_the_claimed_counts(src, dst, shape,
                                                                              claim, dtype):
    """Each destination register shuffles every candidate source register and keeps the
    one its lane needs: 2**m shfl.sync.idx and 2**m - 1 selp per register, as claimed;
    16-bit values packed two to a register when both sides pack them alike."""
    need_nvcc()
    p = tl.plan_conversion(src, dst, shape, dtype, target="sm_100a")
    assert (p.costs["shuffle_instructions"], p.costs["shuffle_selects"]) == claim
    assert p._program.transpose is not None and p._program.transpose.form == "gather"
    proof = prove(p, "sm_100a")
    assert proof.wrong == 0 and proof.checked == 2 * int(np.prod(shape))
    assert proof.measured == proof.claimed == {"shfl": claim[0], "selp+prmt": claim[1]}
