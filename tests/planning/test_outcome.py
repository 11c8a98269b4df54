"""The outcomes of the mechanisms that need no search: registers, collectives, and
staging through shared memory (between warps, or to and from a shared-memory tile)."""

from __future__ import annotations

import numpy as np
import pytest

import tilelayout as tl
from tilelayout.planning.machine import execute, source_values
from tilelayout.planning.mechanisms.collective import classify
from tilelayout.planning.model.placement import place
from tilelayout.planning.model.routing import route_between
from tilelayout.planning.outcome import (
    Outcome,
    between_warps,
    in_registers,
    in_thread_permutes,
    over_devices,
    slot_permutes,
    store_rows,
    through_smem,
    try_staging,
)
from tilelayout.planning.problem.targeting import resolve_target

from .conftest import expected

ON = resolve_target(None)
REVERSED = ("S[(2,32):(1,1@laneid)]", "S[(2,32):(-1,1@laneid)] + 1")  # slots swap in-thread


def route_of(src: str, dst: str, bits: int = 32, shape=None):
    return route_between(*place(tl.parse(src), tl.parse(dst), shape), bits)


def delivers(out: Outcome, dst: str) -> bool:
    route = out.route
    return execute(route, source_values(route.src, None)) == expected(tl.parse(dst),
                                                                        route.src.shape)


def test_an_outcome_is_a_plain_value():
    out = Outcome("none", "nothing to move")
    assert (out.stages, dict(out.costs), out.route, out.smem) == ((), {}, None, None)
    with pytest.raises(AttributeError):
        out.mechanism = "registers"  # frozen


@pytest.mark.parametrize("bits,extra", [(32, {}), (16, {"register_repacks": 1}),
                                        (8, {"register_repacks": 1})])
def test_in_registers_charges_nothing_for_a_renaming(bits, extra):
    # the same two slots swap in every thread: a renaming at any width (Triton holds
    # sub-word values unpacked); packed code rebuilds one word with a prmt
    out = in_registers(route_of(*REVERSED, bits), 64)
    assert out.mechanism == "registers" and out.costs["registers_moved"] == 64
    assert {k: v for k, v in out.costs.items() if k != "registers_moved"} == extra
    assert out.stages[0].data["moved"] == 64 and "64 values change slot" in out.stages[0].text
    assert ("a renaming" in out.stages[0].text) == bool(extra)


def test_in_thread_permutes_are_free_when_nothing_moves():
    assert in_thread_permutes(route_of(*REVERSED, 16), 0) == {}


@pytest.mark.parametrize("bits", [8, 16])
def test_lane_dependent_sub_word_slots_cost_byte_permutes(bits):
    # lane 1 takes its destination slot 0 from source slot 1, lane 0 from slot 0
    z, lanes = np.zeros(2, np.int64), np.array([0, 1])
    work = slot_permutes(z, lanes, np.array([0, 0]), np.array([0, 1]), 1, bits)
    assert work["byte_permutes"] == 1 and "register_repacks" not in work
    # the same choice in every lane is a renaming: free
    assert "byte_permutes" not in slot_permutes(z, lanes, np.array([0, 0]), np.array([1, 1]),
                                                 1, bits)


@pytest.mark.parametrize("bits,received", [(32, (8, 8)), (16, (4, 4)), (4, (1.0, 1.0))])
def test_over_devices_counts_the_bytes_of_each_device(bits, received):
    # devices 0 and 1 each hold half; both want all four elements: an all-gather
    coll = classify(np.array([0, 0, 1, 1]), np.array([0, 1, 2, 3]),
                    np.array([0, 0, 0, 0, 1, 1, 1, 1]), np.array([0, 1, 2, 3] * 2), 2)
    route = route_of("S[4:1@laneid]", "S[4:1@laneid]")
    out = over_devices(coll, bits, route)
    assert out.mechanism == "collective" and [s.what for s in out.stages] == ["collective"]
    assert out.costs["bytes_received_per_device"] == received
    assert out.costs["total_bytes"] == int(sum(received))
    assert out.route.collective is coll and route.collective is None  # a new route


def test_store_rows_keep_one_holder_per_element():
    ps, _ = place(tl.parse("S[4:1] + R[2:1@laneid]"), tl.parse("S[4:1]"), None)
    rows = store_rows(ps)
    assert sorted(ps.element[rows].tolist()) == [0, 1, 2, 3]
    shared, _ = place(tl.parse("S[(4,32):(32,1)]"), tl.parse("S[(4,32):(1,1@laneid)]"), None)
    assert shared.role == "shared" and store_rows(shared).tolist() == list(range(128))


def test_between_warps_stages_and_delivers():
    dst = "S[(4,8):(1@laneid,1@warpid)]"
    out = between_warps(route_of("S[(4,8):(1@laneid,1)]", dst), "float32", ON)
    assert out.mechanism == "shared-memory" and out.smem is not None
    assert "warps (or CTAs) exchange data" in out.reason
    assert [s.what for s in out.stages] == ["store", "barrier", "load"]
    assert delivers(out, dst)


def test_between_warps_into_a_shared_memory_tile_is_a_store():
    dst = "S[(32,32):(32,1)]"  # only axis m: a shared-memory tile
    out = between_warps(route_of("S[(32,32):(1@laneid,1)]", dst), "float32", ON)
    assert out.reason.startswith("the destination is a shared-memory tile")
    assert [s.what for s in out.stages] == ["store"]


def test_between_warps_refuses_to_cross_ctas_in_one_line():
    route = route_of("S[(2,32,4):(1@bx,1@laneid,1)]", "S[(2,32,4):(1,1@laneid,1@bx)]")
    with pytest.raises(tl.LayoutError, match="elements move between CTAs") as info:
        between_warps(route, "float32", ON)
    assert "\n" not in str(info.value)
    staging, why_not = try_staging(route, "float32", ON)
    assert staging is None and "one CTA" in why_not


def test_through_smem_in_one_warp_syncs_the_warp_only():
    route = route_of("S[(32,32):(1@laneid,1)]", "S[(32,32):(1,1@laneid)]")
    staging, why_not = try_staging(route, "float32", ON)
    assert why_not == ""
    local = through_smem(route, staging, "a transpose", warp_local=True)
    cta = through_smem(route, staging, "a transpose", warp_local=False)
    assert local.reason.startswith("a transpose") and local.route.staging is staging
    assert "__syncwarp" in local.stages[1].text and "__syncwarp" not in cta.stages[1].text
    assert delivers(local, "S[(32,32):(1,1@laneid)]")


def test_slot_permutes_under_a_limit_is_exact_up_to_it_and_none_beyond():
    """A registers-level plan's selects and permutes are searched only under the staging
    it competes with: a limit at or above the count gives the count itself, one below it
    None (the staging wins), never a smaller count."""
    import numpy as np

    from tilelayout.planning.outcome import slot_permutes

    rng = np.random.default_rng(5)
    lane = np.repeat(np.arange(32), 8)
    warp = np.zeros_like(lane)
    dst = np.tile(np.arange(8), 32)
    src = np.concatenate([rng.permutation(8) for _ in range(32)])  # lane-dependent slots
    full = slot_permutes(warp, lane, dst, src, 1, 8)
    count = full["byte_permutes"] + full["shuffle_selects"]
    assert count > 2
    assert slot_permutes(warp, lane, dst, src, 1, 8, limit=count) == full
    assert slot_permutes(warp, lane, dst, src, 1, 8, limit=count + 3) == full
    assert slot_permutes(warp, lane, dst, src, 1, 8, limit=count - 1) is None
    assert slot_permutes(warp, lane, dst, src, 1, 8, limit=0) is None
