"""Register exchanges as CUDA: the statements are the plan's (one shuffle per round,
selects and permutes as the cost model charges them), and a round where every lane
reads ``lane ^ c`` is ``__shfl_xor_sync``."""

from __future__ import annotations

import numpy as np

import tilelayout as tl
from tilelayout.planning.code.cuda_exchange import assemble, emit_exchange
from tilelayout.planning.code.cuda_text import Writer
from tilelayout.planning.code.exchange import Exchange
from tilelayout.planning.code.program import program_of


def test_a_uniform_xor_pattern_is_a_butterfly_shuffle():
    t = np.arange(32)
    take = np.zeros((32, 1, 2), np.int64)
    take[:, 0, 0] = 1
    ex = Exchange(32, 1, np.zeros((1, 32, 1), np.int64), (t ^ 5)[None], take)
    w = Writer("f")
    assert emit_exchange(w, ex, ["s[0]"]) == ["t0"]
    assert "__shfl_xor_sync(0xffffffffu, s[0], 5)" in "\n".join(w.body)


def test_assembling_a_word():
    w = Writer("f")
    one = np.zeros((32, 2), np.int64)
    assert assemble(w, one, np.tile([0, 1], (32, 1)), ["a"], "x", 16) == "a"  # as it is
    swapped = assemble(w, one, np.tile([1, 0], (32, 1)), ["a"], "x", 16)
    assert "__byte_perm(a, a, 0x1032)" in w.body[-1] and swapped == "x"
    two = np.tile([0, 1], (32, 1))
    assemble(w, two, np.zeros((32, 2), np.int64), ["a", "b"], "y", 16)
    assert "__byte_perm(a, b, 0x5410)" in w.body[-1]
    none = np.full((32, 2), -1)
    assert assemble(w, none, none, ["a"], "z", 16) is None
    assert w.counts == {"prmt": 2}


def test_registers_only_plans_move_words():
    p = tl.plan_conversion("S[(32,4):(1@laneid,1)]", "S[(32,4):(1@laneid,-1)] + 3", None,
                           "float32")
    w = Writer("f")
    assert emit_exchange(w, program_of(p).exchange, ["s[0]", "s[1]", "s[2]", "s[3]"]) == \
        ["s[3]", "s[2]", "s[1]", "s[0]"]
    assert w.counts == {}


def test_a_register_that_receives_and_keeps_two_own_registers_values_claims_its_permute():
    # lane 0 keeps its own values of two source registers in destination register 0,
    # which the other lanes receive: a byte permute joins them (the payload cost model
    # counts each own source register as an operand, as the code builds it)
    from .emitted import prove
    from .test_cuda_unit import need_nvcc

    p = tl.plan_conversion("S[(2,2,2,5,3,2,2):(1,1@warpid,5@laneid,1@laneid,10@laneid,2,2@warpid)]",
                           "S[(2,2,2,5,3,2,2):(2@laneid,1@warpid,1@laneid,2,4@laneid,1,2@warpid)]",
                           None, "float16", target="sm_80")
    assert (p.costs["shuffle_instructions"], p.costs["shuffle_selects"],
            p.costs["shuffle_packs"]) == (5, 9, 7)
    need_nvcc()
    proof = prove(p, "sm_80")
    assert proof.wrong == 0 and proof.measured == proof.claimed == {"shfl": 5, "selp+prmt": 16}


def test_one_offered_word_serves_every_lane_that_reads_it():
    # seed 29 of the Triton harness, pair 968 (int8, 16 warps): each source word is read
    # by the 8 lanes of a destination that holds copies; one shfl.sync.idx serves them
    # all, so 2 rounds and a byte permute do what Triton's 2 shfl + 4 selp do (the
    # scheduler's matchings, one reader per lane a round, took 8 rounds)
    from ..conftest import expected
    from .emitted import explain, prove
    from .test_cuda_unit import need_nvcc

    p = tl.plan_conversion("S[(16,2):(1@laneid,1)] + R[(2,16):(16@laneid,1@warpid)]",
                           "S[(2,2,8):(4@warpid,1,4@laneid)] + R[(4,2,4):(1@laneid,8@warpid,"
                           "1@warpid)]", (32,), "int8", target="sm_80")
    c = p.costs
    assert p.mechanism == "warp-shuffle" and \
        (c["shuffle_instructions"], c.get("shuffle_selects", 0), c["byte_permutes"]) == (2, 0, 1)
    assert p.execute() == expected(p.dst, p.shape)  # the machine model delivers dst
    need_nvcc()
    proof = prove(p, "sm_80")
    assert proof.wrong == 0 and proof.measured["shfl"] == 2
    # the test kernel's two single-byte slots cost nvcc one prmt (not the function's)
    assert set(explain(p, proof).values()) <= {"extract"}


def test_a_receiver_first_broadcast_schedule_shuffles_two_rounds():
    # seed 29's pair 127 (int8): lanes choose, those waiting for the most words first,
    # so each round's offers serve every reader: 2 shfl of whole registers, 2 selects and
    # 1 prmt, no shared memory (Triton stages: 128 B, 20 wavefronts, 11 instructions)
    from .emitted import prove
    from .test_cuda_unit import need_nvcc

    p = tl.plan_conversion("S[(2,4,4,4):(4,1@laneid,4@laneid,1)] + R[(2,2):(16@laneid,1@warpid)]",
                           "S[(2,2,2,2,2,2,2):(4@laneid,16@laneid,1,1@warpid,1@laneid,2@laneid,"
                           "8@laneid)]", (8, 16), "int8", target="sm_90a")
    c = p.costs
    assert p.mechanism == "warp-shuffle" and \
        (c["shuffle_instructions"], c["shuffle_selects"], c["byte_permutes"]) == (2, 2, 1)
    need_nvcc()
    proof = prove(p, "sm_90a")
    assert proof.wrong == 0 and proof.measured == proof.claimed
