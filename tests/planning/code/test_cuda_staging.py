"""Stagings as CUDA: the plan's instructions with the plan's barriers, pass by pass;
addresses as a base and constant offsets (loops where they step regularly); registers
repacked with mov.b32 (16-bit halves) or prmt (bytes), the prmt the plan claims."""

from __future__ import annotations

import pytest

import tilelayout as tl
from tilelayout.planning.code.cuda_staging import (
    BARRIER_ID,
    emit_staging,
    pack,
    pack_permutes,
    staging_permutes,
)
from tilelayout.planning.code.cuda_text import Writer
from tilelayout.planning.code.program import program_of

from ..scenarios.suite import SCENARIOS
from ..scenarios.suite import plan as scenario_plan
from .emitted import explain, prove
from .test_cuda_unit import need_nvcc


def _emit(p: tl.ConversionPlan) -> tuple[Writer, str]:
    prog = program_of(p)
    w = Writer("f")
    own = [f"s[{i}]" for i in range(-(-prog.src_slots * prog.bits // 32))]
    emit_staging(w, prog.staging, [] if prog.src_shared else own, prog.threads,
                 unpacked=prog.unpacked)
    return w, "\n".join(w.body)


def test_passes_reuse_the_buffer_behind_barriers():
    p = scenario_plan(next(s for s in SCENARIOS if s.name.startswith("Triton V")))
    w, body = _emit(p)
    assert p.costs["passes"] == 4 and w.counts["bar.sync"] == p.costs["barriers"] == 7
    assert body.count(f"bar.sync {BARRIER_ID}, {p.threads};") == 7
    assert "pass 4 of 4" in body
    warps = p.threads // 32
    assert w.counts["ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16"] == \
        p.costs["load_requests"] // warps


def test_regular_accesses_are_one_loop():
    p = tl.plan_conversion("preset:wgmma.m64nNk16.D:n=128", "tma", dtype="bfloat16",
                           target="sm_90a")
    w, body = _emit(p)
    assert "#pragma unroll\n" in body and "for (int i = 0; i < 3; ++i)" in body
    assert "(store_offset ^ (0x20u + 32 * i))" in body
    assert w.counts == {"stmatrix.sync.aligned.m8n8.x4.shared.b16": 8}
    assert "bar.sync" not in body  # the caller synchronizes before using the tile


def test_a_lane_exchange_synchronizes_its_warp_only():
    p = tl.plan_conversion("S[(32,32):(1@laneid,1)]", "S[(32,32):(1,1@laneid)]", (32, 32),
                           "float32")
    w, body = _emit(p)
    assert "__syncwarp();" in body and w.counts["bar.warp.sync"] == 1


def test_packing_is_one_byte_permute_per_further_register():
    w = Writer("f")
    assert pack(w, [("a", 0), ("a", 1)], 16) == "a"
    pack(w, [("a", 3), ("b", 0), None, ("a", 0)], 8)
    assert w.body[-1].endswith("__byte_perm(a, b, 0x243);")     # bytes a3, b0, -, a0
    pack(w, [("a", 1), ("a", 0), ("b", 2), ("b", 3)], 8)
    assert w.body[-1].endswith("__byte_perm(a, b, 0x7601);")    # a1, a0, b2, b3: one
    assert w.counts == {"prmt": 2}


def test_16_bit_halves_are_packed_by_register_moves():
    w = Writer("f")
    pack(w, [("a", 1), ("b", 0)], 16)                               # a's half 1, b's half 0
    assert w.body[-1].endswith("f_detail::halves<1, 0>(a, b);")
    pack(w, [("a", 1), ("a", 0)], 16)                               # inside one register
    assert w.body[-1].endswith("f_detail::halves<1, 0>(a, a);")
    assert pack(w, [None, ("b", 1)], 16) == "b"                     # a free half: any
    pack(w, [None, ("b", 0)], 16)
    assert w.body[-1].endswith("f_detail::halves<0, 0>(b, b);")
    assert w.counts == {} and w.helpers == {"halves"}


def test_the_permutes_counted_are_the_permutes_packing_writes():
    import itertools

    for parts in itertools.product([None, ("a", 0), ("a", 1), ("a", 3), ("b", 0), ("b", 2),
                                    ("c", 1)], repeat=4):
        w = Writer("f")
        pack(w, list(parts), 8)
        assert pack_permutes(list(parts), 8) == w.counts.get("prmt", 0), parts


#: element-by-element stagings of 8-bit values whose words are built from several
#: registers (seed 29 of the Triton harness, pairs 999 and 764)
BYTE_STAGINGS = [
    ("S[(8,2,8):(1,1@warpid,1@laneid)] + R[4:8@laneid]", "S[(2,32,2):(1@warpid,1@laneid,1)]",
     (128,), "int8", "sm_80"),
    ("S[(8,8):(1,4@laneid)] + R[(4,4):(1@laneid,1@warpid)]",
     "S[(32,2):(1@laneid,1)] + R[4:1@warpid]", (64,), "int8", "sm_80"),
]


@pytest.mark.parametrize("src,dst,shape,dtype,target", BYTE_STAGINGS)
def test_an_element_stagings_byte_permutes_are_claimed(src, dst, shape, dtype, target):
    p = tl.plan_conversion(src, dst, shape, dtype, target=target)
    assert p._bits is None and p.mechanism == "shared-memory"  # planned element by element
    w, _ = _emit(p)
    total, packing = staging_permutes(program_of(p).staging)
    assert p.costs["byte_permutes"] == w.counts["prmt"] == total > 0
    # one value to a register: the destination's permutes are not written, nor claimed
    q = tl.plan_conversion(src, dst, shape, dtype, target=target, dst_packing="unpacked")
    wq, _ = _emit(q)
    assert q.costs.get("byte_permutes", 0) == wq.counts.get("prmt", 0) == total - packing
    # and the compiled code executes exactly the claimed counts, every element right
    need_nvcc()
    for plan in (p, q):
        proof = prove(plan, target)
        assert proof.wrong == 0 and proof.checked > 0
        assert proof.differences() == {}, explain(plan, proof)


def test_a_destination_word_held_twice_claims_its_permutes_once():
    # emit_staging builds a word the destination holds twice once: so does the claim
    import numpy as np

    from tilelayout.planning.code.staging import StagingProgram

    word = [(0, 1), (0, 0), (1, 2), (1, 3)]  # bytes of two loaded registers: one prmt
    take = np.array([[word[u % 4] for u in range(8)]] * 32, dtype=np.int64)
    s = StagingProgram(8, (), (), 1, None, 0, take)
    assert pack_permutes(word, 8) == 1 and staging_permutes(s) == (1, 1)
