"""Stagings as CUDA: the plan's instructions with the plan's barriers, pass by pass;
addresses as a base and constant offsets (loops where they step regularly); registers
repacked with mov.b32, never prmt."""

from __future__ import annotations

import tilelayout as tl
from tilelayout.planning.code.cuda_staging import BARRIER_ID, emit_staging, pack
from tilelayout.planning.code.cuda_text import Writer
from tilelayout.planning.code.program import program_of

from ..scenarios.suite import SCENARIOS
from ..scenarios.suite import plan as scenario_plan


def _emit(p: tl.ConversionPlan) -> tuple[Writer, str]:
    prog = program_of(p)
    w = Writer("f")
    own = [f"s[{i}]" for i in range(-(-prog.src_slots * prog.bits // 32))]
    emit_staging(w, prog.staging, [] if prog.src_shared else own, prog.threads)
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
