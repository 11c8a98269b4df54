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


def test_eight_bit_stagings_the_writer_has_no_schedule_for_are_not_chosen():
    """A wgmma accumulator fragment to AMD's WMMA dot operand in int8 (a preset pair of
    bench_emit): a bit staging with ldmatrix.x4 (the m8n8 form) on 8-bit data was chosen
    and had no code; the choice now takes a staging the code writer has a schedule for."""
    p = tl.plan_conversion("S[(4,2,8,2,4,2):(1@wid_in_wg,2,4@laneid,4,1@laneid,1)]",
                           "S[(2,16,2,2,8):(2@warpid,1@laneid,8,16@laneid,1)] + R[2:1@warpid]",
                           (64, 16), "int8", target="sm_80")
    assert p.smem is not None and p.smem.family == "bits"
    assert "void convert(const int8_t* src, int8_t* dst, unsigned char* smem)" in p.code()
    assert p.execute() == expected(p.dst, p.shape)
