"""A bit staging in the planner's terms: its buffer layout's addresses, the reports of
its sides, and the execution staging the machine model runs."""

from __future__ import annotations

import numpy as np

import tilelayout as tl
from tilelayout.planning.mechanisms.staging.access import smem_addresses
from tilelayout.planning.mechanisms.staging.bit_reports import (
    access_report,
    buffer_layout,
    flat_addresses,
    smem_choice,
    stand_in,
)
from tilelayout.planning.mechanisms.staging.bit_staging import BitBuffer, best, candidates
from tilelayout.planning.mechanisms.staging.generic import triton_order
from tilelayout.planning.model.bits import thread_bits


def test_the_layout_puts_every_element_at_its_address_and_pass():
    buf = BitBuffer((2, 1, 8), (4,))
    addr = smem_addresses(buffer_layout(buf, (4, 4)), (4, 4))
    a, r = flat_addresses(buf, 4)
    for e in range(16):
        want_a = want_r = 0
        for p in range(4):
            if e >> p & 1:
                want_a ^= a[p]
                want_r ^= r[p]
        assert addr[e] == want_a | (want_r << 3)


def test_an_identity_buffer_is_the_plain_tile():
    assert str(buffer_layout(BitBuffer((1, 2, 4, 8), ()), (4, 4))) == "S[(4,4):(4,1)]"


def _pair():
    a = tl.parse("S[(4,2,8,8,4,2):(1@warpid,2,4@laneid,4,1@laneid,1)]")
    b = tl.parse("S[(32,2,4,16):(1,16@laneid,1@warpid,1@laneid)]")
    return a, b, thread_bits(a, (64, 64)), thread_bits(b, (64, 64))


def test_reports_count_one_pass_and_name_the_warps():
    a, b, s, d = _pair()
    c = best(candidates(s, d, 2, stmatrix=False, ldmatrix=True))
    r = access_report(s, a, c.buffer, c.store, "float16", 2, c.passes)
    assert r.requests == c.store.per_warp * c.store.warps // c.passes
    assert r.wavefronts == r.requests * c.store.request_wavefronts
    assert r.warps == tuple(((("warpid", w),)) for w in range(4))
    choice = smem_choice(c, s, d, a, b, (64, 64), "float16", "sm_90a", "given")
    staging = stand_in(choice, c)
    assert staging.wavefronts == c.wavefronts and staging.bytes == c.bytes


def test_a_conflicted_side_reports_its_worst_request():
    a, b, s, d = _pair()
    conflicted = [c for c in candidates(s, d, 2, stmatrix=False, ldmatrix=True,
                                        order=triton_order((64, 64)))
                  if c.store.request_wavefronts > c.store.request_ideal]
    assert conflicted
    c = conflicted[0]
    r = access_report(s, a, c.buffer, c.store, "float16", 2, c.passes)
    assert r.worst is not None and r.worst.wavefronts == c.store.request_wavefronts
    assert len(r.worst.byte_addresses) == 32 and r.worst.byte_addresses[0] == 0


def test_the_executed_plan_moves_every_element():
    a, b, _, _ = _pair()
    p = tl.plan_conversion(a, b, (64, 64), "float16", target="sm_90a")
    assert p.smem.family == "bits"
    out = p.execute()
    coords = b.map_all((64, 64))
    for e in range(0, 4096, 7):
        key = tuple(int(np.asarray(coords[ax]).reshape(4096, -1)[e, 0]) for ax in b.axes)
        assert out[key] == e


def test_a_conflicting_request_of_a_staging_on_bits_is_the_element_models():
    """Where a bit staging's requests conflict, its report names the first request as the
    element-by-element report does: each lane's first element and the lanes in the
    conflict. The staging is our reproduction of Triton's choice for an int64 exchange of
    the harness (pair 623 of seed 26: 16-byte vectors, 2-way conflicts on both sides);
    the planner itself takes a conflict-free buffer there."""
    from tilelayout.planning.mechanisms.staging.access import smem_access

    src = "S[(8,4,4,2):(4@laneid,2,1@laneid,1)] + R[4:1@warpid]"
    dst = "S[(4,2,2,2,2,2,2):(2@laneid,1,1@warpid,2@warpid,1@laneid,8@laneid,16@laneid)]"
    a, b = tl.parse(src), tl.parse(dst)
    s, d = thread_bits(a, (8, 32)), thread_bits(b, (8, 32))
    triton = candidates(s, d, 8, stmatrix=False, ldmatrix=True, order=triton_order((8, 32)))[0]
    choice = smem_choice(triton, s, d, a, b, (8, 32), "int64", "sm_80", "given")
    assert choice.family == "bits"
    for side, layout in ((choice.write, a), (choice.read, b)):
        assert side.worst is not None and side.wavefronts > side.ideal
        ref = smem_access(layout, choice.layout, (8, 32), "int64",
                          vector_bytes=side.vector_bytes).worst
        assert (side.worst.elements, side.worst.conflict_lanes, side.worst.banks,
                side.worst.wavefronts) == (ref.elements, ref.conflict_lanes, ref.banks,
                                           ref.wavefronts)
    plan = tl.plan_conversion(a, b, (8, 32), "int64", target="sm_80")
    assert plan.smem.write.wavefronts == plan.smem.write.ideal
    assert plan.smem.read.wavefronts == plan.smem.read.ideal
