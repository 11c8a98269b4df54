"""lane_exchange: lanes of one warp exchange data by shuffles, whole-register shuffles
with byte permutes, or shared memory, whichever costs fewest units; every outcome runs
on the machine model and delivers each element."""

from __future__ import annotations

import math

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import tilelayout as tl
from tilelayout.planning.lane_exchange import lane_exchange, payload_floor, payload_shuffles
from tilelayout.planning.machine import execute, source_values
from tilelayout.planning.model.placement import place
from tilelayout.planning.model.routing import route_between
from tilelayout.planning.problem.targeting import resolve_target

from .conftest import expected
from .scenarios.suite import DOT_A_FP8, WGMMA_D
from .test_random_pairs import pair

ON = resolve_target(None)
TRANSPOSE = ("S[(32,32):(1@laneid,1)]", "S[(32,32):(1,1@laneid)]")
SWAP = ("S[(16,2):(2@laneid,1@laneid)]", "S[(16,2):(1@laneid,16@laneid)]")


def exchange(src: str, dst: str, shape, dtype: str, on=ON):
    """The outcome of ``src`` -> ``dst`` and the route it ran on, checked on the machine."""
    ps, pd = place(tl.parse(src), tl.parse(dst), shape)
    route = route_between(ps, pd, tl.dtype_bits(dtype))
    assert int(route.level.max()) == 2, "a lane exchange"
    out = lane_exchange(route, dtype, 0, on)
    assert execute(out.route, source_values(ps, None)) == expected(tl.parse(dst), ps.shape)
    return out


def test_one_round_swap_is_a_shuffle():
    out = exchange(*SWAP, None, "float32")
    assert out.mechanism == "warp-shuffle" and out.smem is None
    assert out.costs["shuffle_rounds"] == 1 and out.route.shuffle.rounds == 1
    assert [s.what for s in out.stages] == ["shuffle"]
    assert "cost no more than staging through shared memory" in out.reason


def test_a_transpose_is_cheaper_through_shared_memory():
    out = exchange(*TRANSPOSE, None, "float32")
    assert out.mechanism == "shared-memory" and out.route.staging is not None
    # 31 shuffle rounds with their selects are costed and named in the reason, then
    # staging wins
    assert out.costs["shuffle_rounds"] == 31
    assert "31 shfl.sync and 1953 register selects (1007.5 units) cost more" in out.reason
    assert out.costs["smem_cost_units"] == 67 and out.smem is out.route.staging.choice
    assert [s.what for s in out.stages] == ["store", "barrier", "load"]


def test_without_shared_memory_the_shuffles_stay_and_say_why():
    # each CTA converts its own tile: staging would span two CTAs
    out = exchange("S[(2,32,4):(1@bx,1@laneid,1)]", "S[(2,32,4):(1@bx,1,1@laneid)]", None,
                   "float32")
    assert out.mechanism == "warp-shuffle"
    assert out.costs["smem_cost_units"] is None
    assert "shared memory cannot be planned" in out.reason


def test_sub_word_values_pack_payloads():
    # mma C (fp16) -> B: 2 shfl.sync of packed halves and 4 prmt packs
    out = exchange("S[(2,8,4,2):(2,4@laneid,1@laneid,1)]", "S[(2,4,2,8):(2,1@laneid,1,4@laneid)]",
                   (16, 8), "float16")
    c = out.costs
    assert (c["shuffle_instructions"], c["shuffle_selects"], c["shuffle_packs"]) == (2, 0, 4)
    assert out.route.epw == 2 and out.route.byte_permute is None


@pytest.mark.parametrize("target", ["sm_90a", "sm_89"])
def test_fp8_whole_registers_with_byte_permutes_win(target):
    out = exchange(WGMMA_D[64], DOT_A_FP8, (64, 64), "e4m3", resolve_target(target))
    c = out.costs
    assert (c["shuffle_instructions"], c["shuffle_selects"], c["byte_permutes"]) == (8, 8, 8)
    assert "shuffle_packs" not in c and out.route.byte_permute is not None
    assert "prmt.b32" in out.reason


def test_registers_moved_inside_a_thread_are_a_stage_of_their_own():
    ps, pd = place(tl.parse(SWAP[0]), tl.parse(SWAP[1]), None)
    out = lane_exchange(route_between(ps, pd, 32), "float32", 3, ON)
    assert out.costs["registers_moved"] == 3
    assert [s.what for s in out.stages] == ["registers", "shuffle"]


def test_a_staged_lane_exchange_whose_source_warps_hold_copies_synchronizes_the_cta():
    """AMD's WMMA dot operand to its accumulator in fp16 (a preset pair of bench_emit):
    the source's two warps hold the same elements, so one copy stores each element --
    maybe another warp's than the one that loads it -- and a __syncwarp would race (the
    emitted code's *race*); the plan says bar.sync and costs it."""
    p = tl.plan_conversion("S[(2,16,2,2,8):(2@warpid,1@laneid,8,16@laneid,1)] + R[2:1@warpid]",
                           "S[(2,2,8,2,16):(2@warpid,16@laneid,1,1@warpid,1@laneid)]",
                           (32, 32), "float16", target="sm_80")
    assert p.kind == "warp-shuffle" and p.mechanism == "shared-memory"
    assert p.costs["barrier_instruction"] == "bar.sync" and "bar.sync" in p.reason
    q = tl.plan_conversion("S[(32,32):(1@laneid,1)]", "S[(32,32):(1,1@laneid)]", (32, 32),
                           "float32")
    assert q.costs["barrier_instruction"] == "bar.warp.sync"  # no copies: one warp's sync


@settings(max_examples=80, deadline=None)
@given(pair(axes=("laneid", "m")), st.sampled_from([8, 16]))
def test_the_payload_floor_never_exceeds_the_payload_shuffles(p, bits):
    """The bound that lets a lane exchange skip its payload shuffles when a staging
    already costs less (payload_floor) is a lower bound on both their variants, on the
    routes a lane exchange plans: lanes of one warp exchange (where a value crosses warps
    the plan stages, and neither is computed)."""
    src, dst, extents = p
    route = route_between(*place(tl.parse(src), tl.parse(dst), (math.prod(extents),)), bits)
    assume(int(route.level.max(initial=0)) == 2)
    epw = 32 // bits
    assert payload_floor(route, epw) <= payload_shuffles(route, epw, 1)[0]


def test_no_staging_is_costed_beside_a_plan_without_shared_memory():
    # the 32 x 32 transpose stages (67 units against 31 shuffle rounds); a caller that
    # holds a plan in registers (max_bytes=0) gets the shuffles: no staging could win
    transpose = place(tl.parse("S[(32,32):(1@laneid,1)]"), tl.parse("S[(32,32):(1,1@laneid)]"),
                      None)
    route = route_between(*transpose, 32)
    assert lane_exchange(route, "float32", 0, resolve_target(None)).mechanism == "shared-memory"
    out = lane_exchange(route, "float32", 0, resolve_target(None), max_bytes=0)
    assert out.mechanism == "warp-shuffle" and out.costs["smem_cost_units"] is None
    assert "not costed" in out.reason
    assert execute(out.route, source_values(out.route.src, None)) == \
        expected(tl.parse("S[(32,32):(1,1@laneid)]"), (32, 32))


def test_shuffles_dearer_than_the_callers_plan_leave_the_staging_to_compete():
    # seed 30's pair 678 of the Triton harness (int64, 4 warps): the lane exchange's
    # shuffles (8 shfl + 32 selects) cost fewer units than its staging, but more
    # instructions than the plan on bits (13), so they cannot replace it; its staging can,
    # at 32 wavefronts where the plan on bits takes 80 (Triton: 80)
    from .conftest import expected

    p = tl.plan_conversion("S[(4,8,2,4):(4,1@laneid,8@laneid,1)] + R[(2,2):(16@laneid,1@warpid)]",
                           "S[(2,2,8,4,2):(2,1@warpid,1@laneid,8@laneid,1)]", (32, 8), "int64",
                           target="sm_80")
    c = p.costs
    assert p.mechanism == "shared-memory" and p._bits is None
    assert (c["wavefronts"], c["smem_bytes"], c["store_requests"], c["load_requests"],
            c["barriers"]) == (32, 1024, 8, 4, 3)
    assert p.execute() == expected(p.dst, p.shape)
