"""A staging as code sees it: read from an element-by-element plan's route, every
destination unit comes from the buffer where the source stored it; a replicated
source whose stores cross warps gets a barrier of the CTA."""

from __future__ import annotations

import numpy as np
import pytest

import tilelayout as tl
from tilelayout.planning.code.program import program_of
from tilelayout.planning.code.staging import (
    crosses_warps,
    from_route,
    op_name,
    registers,
    run,
)

PLANS = [
    ("S[(4,8):(1@laneid,1)]", "S[(4,8):(1@laneid,1@warpid)]", None, "float32"),
    ("S[(32,32):(1@laneid,1)]", "S[(32,32):(1,1@laneid)]", (32, 32), "float16"),
    ("S[(32,32):(1@laneid,1)]", "S[(32,32):(1,1@laneid)]", (32, 32), "float32"),
    ("S[(4,4,4,8,8):(8,1@warpid,8@laneid,1@laneid,1)]",
     "S[(8,8,4,4,4):(1@laneid,1,8,1@warpid,8@laneid)]", (64, 64), "int8"),
]


@pytest.mark.parametrize("src, dst, shape, dtype", PLANS)
def test_every_destination_unit_comes_from_the_buffer(src, dst, shape, dtype):
    p = tl.plan_conversion(src, dst, shape, dtype, target="sm_100a")
    prog = program_of(p)
    st = prog.staging
    assert st is not None and st.store and st.load
    got, _ = run(st, prog.src_units)
    want = prog.dst_units
    assert ((got[:, :want.shape[1]] == want) | (want < 0)).all()
    if p._bits is None:
        assert [a.op for a in from_route(p._route, prog.threads).store] == \
            [a.op for a in st.store]


def test_a_shared_memory_side_is_the_tile():
    p = tl.plan_conversion("preset:wgmma.m64nNk16.D:n=64", "tma", dtype="float16",
                           target="sm_90a")
    st = program_of(p).staging
    assert st.barrier is None and not st.load and len(st.store) == 4  # in every warp


def test_stores_that_cross_warps_are_ordered_by_a_barrier_of_the_cta():
    # the source is replicated over two warps; each element is stored once (by warp 0)
    # and loaded by both: __syncwarp cannot order that, and the plan says so too
    src = "S[(2,16,2,2,8):(2@warpid,1@laneid,8,16@laneid,1)] + R[2:1@warpid]"
    dst = "S[(4,2,8,2,4,2):(1@wid_in_wg,2,4@laneid,4,1@laneid,1)]"
    p = tl.plan_conversion(src, dst, (32, 32), "float16")
    assert p.costs["barrier_instruction"] == "bar.sync"
    st = program_of(p).staging
    assert st.barrier == "bar.sync" and crosses_warps(st)
    ok = program_of(tl.plan_conversion(*PLANS[1])).staging
    assert not crosses_warps(ok)


def test_names_and_registers():
    assert op_name(True, "matrix", count=2, form="m16n8") == \
        "stmatrix.sync.aligned.m16n8.x2.trans.shared.b8"
    assert op_name(False, "vector", 2) == "ld.shared.b16"
    assert registers([0, 1, 2, 3], 16) == ((0, 1), (2, 3))
    assert registers([4, 5], 8) == ((4, 5),)          # a narrow access: one register
    assert registers([1], 64) == ((2,), (3,))         # a 64-bit value: two words
    assert np.asarray(program_of(tl.plan_conversion(*PLANS[0])).staging.take).shape[2] == 2
