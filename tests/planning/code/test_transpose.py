"""A lane exchange by bit transpositions as data: the steps deliver every element on
element numbers, a wrong step is caught before any code is written, and a claim no code
of the decomposition's shape meets falls back to the element planner's schedule."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

import tilelayout as tl
from tilelayout.planning.code.program import check, program_of
from tilelayout.planning.code.transpose import lane_transpose, run

from .test_cuda_transpose import SAMPLE

#: a one-sided transposition on a packed register bit: the source's copies along a lane
#: bit become the destination's low register bit, so each packed pair comes from two lanes
ONE_SIDED_PACKED = ("S[(2,2,2,2,2,2,2,2,2):(16@laneid,2@laneid,1@laneid,1@warpid,4@warpid,1,"
                    "4@laneid,8@laneid,2@warpid)]", "S[(2,2,2,2,2,2,2,2,2):(1,4@laneid,8@laneid,"
                    "1@warpid,4@warpid,2,1@laneid,2@laneid,2@warpid)] + R[2:16@laneid]", (512,),
                    "float16")


@pytest.mark.parametrize("row", SAMPLE, ids=[row[0] for row in SAMPLE])
def test_the_steps_deliver_every_element(row):
    _, a, b, n, dtype, arch = row
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


def test_a_claim_below_any_code_falls_back_to_the_element_schedule():
    p = tl.plan_conversion(*ONE_SIDED_PACKED, target="sm_80")
    d = p._bits.shuffle
    assert d.one_sided == 1 and d.pack == 1 and not d.mixed
    # the claim: 2 shuffles for 2 packed registers and nothing else, but each register's
    # two values sit in two lanes
    assert (p.costs["shuffle_instructions"], p.costs["shuffle_selects"],
            p.costs["byte_permutes"]) == (2, 0, 0)
    prog = program_of(p)
    assert lane_transpose(d, p._bits.src, p._bits.dst, 16, prog.src_units,
                          prog.dst_units) is None
    assert prog.transpose is None and prog.exchange is not None and prog.exchange.rounds
