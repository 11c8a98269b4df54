"""``dst_packing``: a destination that holds its sub-word values one to a register does
without the byte permutes that only pack them (planning/delivery.py), claims exactly
what its code writes, and its code still delivers every element (compiled and run)."""

from __future__ import annotations

import pytest

import tilelayout as tl
from tilelayout.planning.code.cuda_unit import code_counts
from tilelayout.planning.delivery import destination_permutes, dst_packing_of, unpacked
from tilelayout.planning.ranking import plan_key

from .code.emitted import explain, prove
from .code.test_cuda_staging import BYTE_STAGINGS
from .code.test_cuda_unit import need_nvcc

#: a lane exchange of 8-bit (16-bit) values whose packed delivery takes one prmt per warp
#: (shape of the losses to Triton on seeds 29-31, whose values are one to a register)
EXCHANGE = ("S[(32,2):(1@laneid,1)]", "S[(2,32):(1,1@laneid)]", (64,))
#: a transposition of 8-bit quads whose permutes gather source bytes (nothing to save)
TRANSPOSE = ("S[(2,2,2,2,2,2,2,2,2):(1@laneid,1,4,8@laneid,2@warpid,1@warpid,2@laneid,2,"
             "4@laneid)] + R[2:16@laneid]", "S[(2,2,2,2,2,2,2,2,2):(2,1,4,8@laneid,2@warpid,"
             "1@warpid,2@laneid,1@laneid,4@laneid)] + R[2:16@laneid]", (512,))


def _permutes(p: tl.ConversionPlan) -> int:
    return int(p.costs.get("byte_permutes", 0) or 0)


@pytest.mark.parametrize("bad", ["loose", 1, "PACKED", ("unpacked",),
                                 pytest.param(10 ** 5000, id="a-huge-int")])
def test_an_unknown_packing_is_refused_in_one_line(bad):
    with pytest.raises(tl.LayoutError, match="dst_packing is 'packed'"):
        tl.plan_conversion(*EXCHANGE, "int8", dst_packing=bad)
    with pytest.raises(tl.LayoutError):
        dst_packing_of(bad)


def test_words_of_32_bits_are_unchanged():
    a, b, shape = EXCHANGE
    p = tl.plan_conversion(a, b, shape, "float32")
    q = tl.plan_conversion(a, b, shape, "float32", dst_packing="unpacked")
    assert q.dst_packing == "unpacked" and p.dst_packing == "packed"
    assert dict(q.costs) == dict(p.costs) and q.reason == p.reason
    assert q.to_dict()["dst_packing"] == "unpacked"


@pytest.mark.parametrize("dtype", ["int8", "float16"])
def test_an_exchange_writes_no_packing_permute(dtype):
    p = tl.plan_conversion(*EXCHANGE, dtype, target="sm_90a")
    q = tl.plan_conversion(*EXCHANGE, dtype, target="sm_90a", dst_packing="unpacked")
    assert p.mechanism == q.mechanism == "warp-shuffle"
    assert p.costs["shuffle_instructions"] == q.costs["shuffle_instructions"] == 2
    assert _permutes(p) == 1 and _permutes(q) == 0
    assert destination_permutes(p) == 1
    assert "dst_packing='unpacked'" in q.reason and "dst_packing" not in p.reason
    # the code writes what each claims
    assert code_counts(p).get("prmt", 0) == 1 and code_counts(q).get("prmt", 0) == 0
    need_nvcc()
    for plan in (p, q):
        proof = prove(plan, "sm_90a")
        assert proof.wrong == 0 and proof.checked > 0
        # 8-bit: the harness's own byte extraction is the one known difference
        assert set(explain(plan, proof).values()) <= {"extract"}, explain(plan, proof)


@pytest.mark.parametrize("src,dst,shape,dtype,target", BYTE_STAGINGS)
def test_a_stagings_load_side_permutes_are_left_out(src, dst, shape, dtype, target):
    p = tl.plan_conversion(src, dst, shape, dtype, target=target)
    q = tl.plan_conversion(src, dst, shape, dtype, target=target, dst_packing="unpacked")
    assert p.mechanism == q.mechanism == "shared-memory"
    assert _permutes(q) == _permutes(p) - destination_permutes(p) < _permutes(p)
    assert code_counts(q).get("prmt", 0) == _permutes(q)
    need_nvcc()
    proof = prove(q, target)
    assert proof.wrong == 0 and proof.differences() == {}, explain(q, proof)


def test_permutes_that_gather_source_bytes_stay():
    p = tl.plan_conversion(*TRANSPOSE, "int8", target="sm_100a")
    q = tl.plan_conversion(*TRANSPOSE, "int8", target="sm_100a", dst_packing="unpacked")
    assert p._bits is not None and _permutes(p) == _permutes(q) == 3
    need_nvcc()
    proof = prove(q, "sm_100a")
    assert proof.wrong == 0 and proof.differences() == {}, explain(q, proof)


def test_unpacking_a_plan_twice_changes_nothing_more():
    p = tl.plan_conversion(*EXCHANGE, "int8")
    q = unpacked(p)
    assert _permutes(q) == 0 and unpacked(q).costs == q.costs
    assert "destination_permutes" not in q.costs


def test_the_choice_among_stagings_costs_an_unpacked_destination_as_it_is():
    # seed 31's pair 565: Triton stores byte pairs and loads single bytes into registers
    # of their own (2048 B / 192 wavefronts / 49 instructions per warp). Packed, byte
    # loads cost a prmt per byte, and an ldmatrix staging is cheaper (80 wavefronts, 48
    # prmt); unpacked, byte loads need none: the plan beats Triton in every count
    src = "S[(2,2,4,4,32):(32,1@warpid,1@laneid,4@laneid,1)] + R[(2,2):(16@laneid,2@warpid)]"
    dst = "S[(4,4,4,32):(1@warpid,1,4,1@laneid)]"
    p = tl.plan_conversion(src, dst, (16, 128), "e4m3", target="sm_100a")
    q = tl.plan_conversion(src, dst, (16, 128), "e4m3", target="sm_100a",
                           dst_packing="unpacked")
    assert p._bits is not None and q._bits is not None
    assert p.costs["load_instruction"].startswith("ldmatrix") and _permutes(p) == 48
    assert q.costs["load_instruction"] == "ld.shared.b8" and _permutes(q) == 0
    waves, nbytes, issued = plan_key(q)  # Triton's: 192, 2048, 49
    assert waves < 192 and nbytes <= 2048 and issued < 49
    need_nvcc()
    proof = prove(q, "sm_100a")
    assert proof.wrong == 0 and proof.differences() == {}, explain(q, proof)
