"""A lane exchange by bit transpositions as data: the steps deliver every element on
element numbers, a wrong step is caught before any code is written, and a claim no code
of the decomposition's shape meets falls back to the element planner's schedule."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

import tilelayout as tl
from tilelayout.planning.code.program import check, program_of
from tilelayout.planning.code.transpose import run

from .emitted import on_bits_only, prove
from .test_cuda_transpose import SAMPLE
from .test_cuda_unit import need_nvcc

#: a one-sided transposition on a packed register bit: the source's copies along a lane
#: bit become the destination's low register bit, so each packed pair comes from two lanes
ONE_SIDED_PACKED = ("S[(2,2,2,2,2,2,2,2,2):(16@laneid,2@laneid,1@laneid,1@warpid,4@warpid,1,"
                    "4@laneid,8@laneid,2@warpid)]", "S[(2,2,2,2,2,2,2,2,2):(1,4@laneid,8@laneid,"
                    "1@warpid,4@warpid,2,1@laneid,2@laneid,2@warpid)] + R[2:16@laneid]", (512,),
                    "float16")


@pytest.mark.parametrize("row", SAMPLE, ids=[row[0] for row in SAMPLE])
def test_the_steps_deliver_every_element(row):
    _, a, b, n, dtype, arch = row
    with on_bits_only():
        p = tl.plan_conversion(a, b, (n,), dtype, target=arch)
    prog = program_of(p)
    assert prog.mechanism == "warp-shuffle" and prog.exchange is None
    got = run(prog.transpose, prog.src_units)
    want = prog.dst_units
    assert ((want < 0) | (got[:, :want.shape[1]] == want)).all()


def test_a_wrong_select_is_caught_before_any_code_is_written():
    p = tl.plan_conversion(*SAMPLE[6][1:3], (SAMPLE[6][3],), SAMPLE[6][4])
    prog = program_of(p)
    tr = prog.transpose
    s = tr.pre[0]
    flipped = replace(tr, pre=(replace(s, trade=1 - np.asarray(s.trade)),) + tr.pre[1:])
    with pytest.raises(tl.LayoutError, match="internal: the code of this plan would put"):
        check(replace(prog, transpose=flipped))


def test_a_one_sided_transposition_into_a_packed_bit_keeps_its_values_one_to_a_register():
    # each destination register's two 16-bit values would sit in two lanes, which one
    # shuffle per packed register cannot fill: the values stay one to a register (as
    # Triton holds them), one shuffle each, joined into words by register moves
    p = tl.plan_conversion(*ONE_SIDED_PACKED, target="sm_80")
    d = p._bits.shuffle
    assert d.one_sided == 1 and d.pack == 0 and not d.mixed
    assert (p.costs["shuffle_instructions"], p.costs["shuffle_selects"],
            p.costs["byte_permutes"]) == (4, 0, 0)
    prog = program_of(p)
    assert prog.transpose is not None and prog.exchange is None  # the claim's own code
    got = run(prog.transpose, prog.src_units)
    want = prog.dst_units
    assert ((want < 0) | (got[:, :want.shape[1]] == want)).all()
    need_nvcc()
    proof = prove(p, "sm_80")
    assert proof.wrong == 0 and proof.measured == proof.claimed


def test_8_bit_values_a_transposition_leaves_one_to_a_register_are_packed_by_claimed_permutes():
    # seed 29 of the Triton harness, pair 52: a one-sided transposition into a packed
    # byte bit; each destination word is built from four registers (three prmt each)
    # (the element search's whole-register shuffles, which a lane's word serves for all
    # the lanes reading it, take 16 shfl + 16 prmt: that plan is the planner's choice)
    pair = ("S[(32,8):(1,4@laneid)] + R[4:1@laneid]",
            "S[(32,4,2):(2,1@laneid,1)] + R[8:4@laneid]", (256,), "int8")
    chosen = tl.plan_conversion(*pair, target="sm_80")
    assert chosen._bits is None and (chosen.costs["shuffle_instructions"],
                                     chosen.costs["byte_permutes"]) == (16, 16)
    with on_bits_only():
        p = tl.plan_conversion(*pair, target="sm_80")
    assert p._bits.shuffle.pack == 0
    assert (p.costs["shuffle_instructions"], p.costs["byte_permutes"]) == (64, 48)
    need_nvcc()
    proof = prove(p, "sm_80")
    assert proof.wrong == 0 and proof.measured == proof.claimed
