"""Regression tests for defects found in review (each failed before its fix)."""

from __future__ import annotations

import pytest

import tilelayout as tl

from .strategies import brute_equivalent

RECOVERY = [
    # tiled inner_of where the outer has replicas: the inner's span must include its own
    # replicas before the outer's replica strides can be matched in L
    ("S[4:-9@pid] + R[(2,3):(9@laneid,-5@laneid)] + 1@warpid",
     "S[(2,3):(-8@laneid,-7@pid)] + -3@warpid", (4, 1), (2, 3), True),
    ("S[3:7@pid] + R[(2,3):(-7@warpid,-9@laneid)] + 4 + 5@pid",
     "S[(2,4):(6@warpid,7@warpid)] + R[3:-2@warpid] + -1@laneid + 2@warpid", (3,), (8,), True),
    # the inner's replicas fuse on their own (R[6:2]) but sit apart in L
    ("S[(3,2):(5,-3@warpid)] + R[3:-3] + 5@warpid",
     "S[(2,3):(-3@pid,-6)] + R[(3,2):(-2,-6)] + 1", (6,), (6,), False),
    # the outer's replica is the middle digit of a fused replica of L
    ("S[()] + R[2:2]", "S[3:-7] + R[(2,2):(4,1)]", (1, 1), (1, 3), False),
]


@pytest.mark.parametrize(("outer", "inner", "outs", "ins", "tiled"), RECOVERY)
def test_recover_operands_with_replicas(outer, inner, outs, ins, tiled):
    O, I = tl.parse(outer), tl.parse(inner)
    L = I.tile(O, outs, ins) if tiled else tl.direct_sum(O, I, outs, ins)
    for built in (L, L.canonicalize()):
        o = tl.outer_of(built, I, outs, ins, tiled=tiled)
        i = tl.inner_of(built, O, outs, ins, tiled=tiled)
        for rebuilt in ((I.tile(o, outs, ins), i.tile(O, outs, ins)) if tiled else
                        (tl.direct_sum(o, I, outs, ins), tl.direct_sum(O, i, outs, ins))):
            assert brute_equivalent(rebuilt, L)
