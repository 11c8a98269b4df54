"""A staging found on bits as code: its instructions are the bit staging's (kind and
count per warp), and every destination unit comes from where its element was stored."""

from __future__ import annotations

import numpy as np
import pytest

import tilelayout as tl
from tilelayout.planning.code.bit_staging_program import from_bits
from tilelayout.planning.code.program import program_of
from tilelayout.planning.code.staging import run

from ..conftest import expected
from ..scenarios.suite import SCENARIOS
from ..scenarios.suite import plan as scenario_plan
from .emitted import explain, prove
from .test_cuda_unit import need_nvcc

BITS = [s.name for s in SCENARIOS if s.xla is None and scenario_plan(s)._bits is not None
        and scenario_plan(s)._bits.staging is not None]


def test_the_suite_has_bit_plans():
    assert len(BITS) >= 4


@pytest.mark.parametrize("name", BITS)
def test_a_bit_staging_is_the_plans(name):
    p = scenario_plan(next(s for s in SCENARIOS if s.name == name))
    st = from_bits(p._bits, p, p.threads)
    bs = p._bits.staging
    warps = p.threads // 32
    for side, acc in ((st.store, bs.store), (st.load, bs.load)):
        assert {a.op.split(".")[0] for a in side} == {acc.instruction.split(".")[0]}
        per_warp = max(sum(bool((a.address.reshape(warps, 32)[w] >= 0).any()) for a in side)
                       for w in range(warps))
        assert per_warp == acc.per_warp
    assert st.passes == bs.passes and st.bytes == bs.bytes
    prog = program_of(p)
    got, _ = run(st, prog.src_units)
    assert ((got == prog.dst_units) | (prog.dst_units < 0)).all()


def test_a_bit_program_of_another_mechanism_is_refused():
    p = scenario_plan(next(s for s in SCENARIOS if s.name == BITS[0]))

    class Other:
        mechanism = "shuffle"
        staging = None

    with pytest.raises(tl.LayoutError, match="no code for a bit program of mechanism"):
        from_bits(Other(), p, p.threads)
    assert np.all(np.asarray(p._program.dst_units).shape)


#: pairs of the Triton harness (seed 26) staged with the m8n8 .b16 matrix forms on 8-bit
#: data: (src, dst, shape, dtype, target, the bit staging's instructions, the m8n8 op,
#: copies of each destination element)
M8N8_BYTES = [("S[(4,8,8,2,4):(1@warpid,1@laneid,1,4@warpid,8@laneid)]",  # pair 168
               "S[(8,4,2,4,8):(1,1@laneid,8,1@warpid,4@laneid)] + R[2:4@warpid]", (32, 64),
               "int8", "sm_80", ("st.shared.v2.b8", "ldmatrix.x4"),
               "ldmatrix.sync.aligned.m8n8.x4.shared.b16", 2),
              # seed 27's pair 305 of the Triton harness: the loading lanes 2-4 hold
              # copies, so each of them supplies its row's address
              ("S[(8,16):(1@laneid,1)] + R[4:8@laneid]",
               "S[(16,4,2):(2,1@laneid,1)] + R[8:4@laneid]", (128,), "e4m3", "sm_90a",
               ("st.shared.v4.b32", "ldmatrix.x4"), "ldmatrix.sync.aligned.m8n8.x4.shared.b16",
               8)]


@pytest.mark.parametrize("src,dst,shape,dtype,target,instructions,op,copies", M8N8_BYTES)
def test_eight_bit_data_moves_in_the_m8n8_form_four_bytes_a_register(
        src, dst, shape, dtype, target, instructions, op, copies):
    """The bit staging moves 8-bit data with ldmatrix / stmatrix .m8n8 .b16 (lane t:
    bytes 4(t%4) .. 4(t%4)+3 of row t/4); its code issues exactly that and delivers every
    element, in the schedule's run and in the PTX interpreter."""
    p = tl.plan_conversion(src, dst, shape, dtype, target=target)
    bs = p._bits.staging
    assert (bs.store.instruction, bs.load.instruction) == instructions
    st = from_bits(p._bits, p, p.threads)
    side = st.load if op.startswith("ldmatrix") else st.store
    assert {a.op for a in side} == {op}
    assert all(len(r) == 4 for a in side for r in a.regs)  # four bytes a register
    prog = program_of(p)
    got, _ = run(st, prog.src_units)
    assert ((got == prog.dst_units) | (prog.dst_units < 0)).all()
    assert p.execute() == expected(p.dst, p.shape)
    need_nvcc()
    proof = prove(p, target)
    assert proof.wrong == 0 and proof.checked == 2 * int(np.prod(shape)) * copies
    # equal to the claim, the byte permutes that repack an m8n8 register's bytes included
    assert explain(p, proof) == {}
    assert proof.measured == proof.claimed


def test_an_m8n8_registers_byte_permutes_are_costed_and_can_decide():
    # seed 26's pair 176: stmatrix.x2 (m8n8 .b16) needs a byte permute per loaded register
    # to put its bytes in slot order; the 8-bit stmatrix form stores them in order, at the
    # same wavefronts and instructions, so it is chosen
    p = tl.plan_conversion("S[(4,4,2,8):(1,1@laneid,4,4@laneid)]",
                           "S[(4,4,16):(16,1@laneid,1)] + R[8:4@laneid]", (16, 16), "e4m3",
                           target="sm_100a")
    c = p.costs
    assert (c["store_instruction"], c["wavefronts"], c.get("byte_permutes", 0)) == \
        ("stmatrix.m16n8.x2.trans.b8", 18, 0)
    need_nvcc()
    proof = prove(p, "sm_100a")
    assert proof.wrong == 0 and proof.measured == proof.claimed
