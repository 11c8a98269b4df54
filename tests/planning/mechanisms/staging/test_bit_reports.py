"""A bit staging in the planner's terms: its buffer layout's addresses, the reports of
its sides, and the execution staging the machine model runs."""

from __future__ import annotations

import numpy as np

import tilelayout as tl
from tilelayout.planning.mechanisms.staging.access import smem_addresses
from tilelayout.planning.mechanisms.staging.bit_choice import best
from tilelayout.planning.mechanisms.staging.bit_reports import (
    access_report,
    buffer_layout,
    flat_addresses,
    smem_choice,
    stand_in,
)
from tilelayout.planning.mechanisms.staging.bit_staging import BitBuffer, candidates
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


#: pair 52 of the harness (seed 26, int64): some of its candidate buffers conflict on
#: both sides with plain (unpacked) vectors
CONFLICTED = ("S[(2,2,2,2,2,2,2):(2@laneid,1@warpid,1@laneid,8@laneid,4@laneid,1,16@laneid)]",
              "S[(2,8,4,2):(2,4@laneid,1@laneid,1)] + R[2:1@warpid]", (16, 8))


def _conflicted():
    src, dst, shape = CONFLICTED
    a, b = tl.parse(src), tl.parse(dst)
    s, d = thread_bits(a, shape), thread_bits(b, shape)
    both = [c for c in candidates(s, d, 8, stmatrix=False, ldmatrix=True,
                                  order=triton_order(shape))
            if all(x.request_wavefronts > x.request_ideal and x.kind == "vector"
                   and not x.packed for x in (c.store, c.load))]
    assert both
    return a, b, s, d, both[0]


def test_a_conflicted_side_reports_its_worst_request():
    a, _, s, _, c = _conflicted()
    r = access_report(s, a, c.buffer, c.store, "int64", 8, c.passes)
    assert r.worst is not None and r.worst.wavefronts == c.store.request_wavefronts


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
    conflict (a candidate buffer of pair 52 of the harness)."""
    from tilelayout.planning.mechanisms.staging.access import smem_access

    a, b, s, d, triton = _conflicted()
    shape = CONFLICTED[2]
    choice = smem_choice(triton, s, d, a, b, shape, "int64", "sm_80", "given")
    assert choice.family == "bits"
    for side, layout in ((choice.write, a), (choice.read, b)):
        assert side.worst is not None and side.wavefronts > side.ideal
        ref = smem_access(layout, choice.layout, shape, "int64",
                          vector_bytes=side.vector_bytes).worst
        assert (side.worst.elements, side.worst.conflict_lanes, side.worst.banks,
                side.worst.wavefronts) == (ref.elements, ref.conflict_lanes, ref.banks,
                                           ref.wavefronts)
