"""Plans found on bits: they execute to the destination layout, they are what
plan_conversion returns for bit maps, they are never worse than the compiler's own
choice (nor than the element search where it is not either), and layouts that are not
bit maps are left to the element planner."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tilelayout as tl
from tests.planning.conftest import expected
from tests.planning.mechanisms.staging.test_instructions import linear_pair
from tilelayout.planning import plan as plan_module
from tilelayout.planning.model.bits import thread_bits
from tilelayout.planning.model.placement import place
from tilelayout.planning.model.routing import route_between
from tilelayout.planning.on_bits import _in_threads, plan_on_bits
from tilelayout.planning.outcome import in_thread_permutes
from tilelayout.planning.problem.targeting import resolve_target


@settings(max_examples=30, deadline=None)
@given(linear_pair(), st.sampled_from(["float16", "float32", "int8"]),
       st.sampled_from(["sm_80", "sm_90a"]))
def test_plans_on_bits_deliver_and_never_cost_more(p, dtype, target):
    src, dst, n = p
    on = resolve_target(target)
    a, b = tl.parse(src), tl.parse(dst)
    found = plan_on_bits(a, b, (1 << n,), dtype, on)
    plan = tl.plan_conversion(src, dst, (1 << n,), dtype, target=target)
    assert plan.execute() == expected(plan.dst, plan.shape)
    if found is None:
        return
    # never worse than the compiler's own choice: in any count where we reproduce it
    # exactly, else in bytes and wavefronts (bit_choice); and, where the planner runs the
    # element search beside the plan on bits (small tiles, plan._searchable), that
    # search's plan never beats it in every count where it is no worse than the compiler's
    wave, nbytes, instr = _held_to_reference(found, plan)
    ref = found.reference
    if found.at_floor or not plan_module._searchable(found, (1 << n,), dtype, a, b):
        return
    element = plan_module._key(plan_module._plan_elements(a, b, (1 << n,), dtype, on))
    if element[0] <= ref[1] and element[1] <= ref[0] and element[2] <= ref[2]:
        ours = (wave, nbytes, instr)
        assert not (all(e <= o for e, o in zip(element, ours, strict=True)) and element != ours)


@settings(max_examples=20, deadline=None)
@given(linear_pair(), st.sampled_from(["float16", "int8"]), st.sampled_from(["sm_80", "sm_90a"]))
def test_an_unpacked_destination_is_held_to_the_compiler_too(p, dtype, target):
    # one value to a register (dst_packing): the candidates are compared without the
    # permutes that only pack, and the plan still delivers and is held to the compiler
    src, dst, n = p
    a, b = tl.parse(src), tl.parse(dst)
    found = plan_on_bits(a, b, (1 << n,), dtype, resolve_target(target), unpacked=True)
    plan = tl.plan_conversion(src, dst, (1 << n,), dtype, target=target,
                              dst_packing="unpacked")
    assert plan.execute() == expected(plan.dst, plan.shape)
    if found is not None:
        _held_to_reference(found, plan)


def _held_to_reference(found, plan: tl.ConversionPlan) -> tuple[float, float, float]:
    """The plan's key, asserted no worse than the compiler's choice ``found`` holds it to:
    in every count where we reproduce it exactly, else in bytes and wavefronts."""
    ref = found.reference
    wave, nbytes, instr = plan_module._key(plan)
    assert nbytes <= ref[0] and wave <= ref[1]
    assert instr <= ref[2] or not found.reference_exact
    return wave, nbytes, instr


def test_the_issue_example_is_planned_on_bits_in_passes():
    mma = [tl.presets.get("triton.nvmma_distributed", version=2, warps_per_cta=w,
                          shape=(256, 256)).layout for w in ((1, 4), (4, 1))]
    p = tl.plan_conversion(*mma, (256, 256), "float16", target="sm_80")
    assert p.smem.family == "bits"
    assert (p.costs["smem_bytes"], p.costs["wavefronts"]) == (8192, 2048)
    assert p.costs["passes"] == 16


def test_layouts_that_are_not_bit_maps_are_left_to_the_element_planner():
    on = resolve_target("sm_80")
    a = tl.parse("S[(4,32):(1@warpid,1@laneid)] + 1@warpid")
    b = tl.parse("S[(32,4):(1@laneid,1@warpid)]")
    assert plan_on_bits(a, b, (4, 32), "float32", on) is None
    assert plan_on_bits(tl.parse("S[(32,4):(1@laneid,1)]"), tl.parse("S[(32,4):(1,1@laneid)]"),
                        (32, 4), "float32", on) is None  # inside one warp: shuffles


def test_a_float32_source_converted_counts_its_registers():
    """A float32 accumulator stored as float16: the conversion count comes from the bit
    map (two values per cvt), without building the route."""
    src = tl.presets.get("triton.nvmma_distributed", version=2, warps_per_cta=(1, 4),
                         shape=(64, 64)).layout
    dst = tl.presets.get("triton.nvmma_distributed", version=2, warps_per_cta=(4, 1),
                         shape=(64, 64)).layout
    p = tl.plan_conversion(src, dst, (64, 64), "float16")
    assert p._route_value is None  # nothing was enumerated
    assert p.execute() == expected(p.dst, p.shape)


@pytest.mark.parametrize("dtype,bits", [("int8", 8), ("bfloat16", 16), ("float32", 32),
                                        ("float64", 64)])
def test_in_thread_selects_are_counted_on_bits_as_on_the_elements_route(dtype, bits):
    """Seed 27's harness pair 442: every thread already holds its elements, in one of 128
    threads holding copies; the selects and byte permutes counted from the bit maps'
    slots equal those counted on the elements' route (which enumerates every copy)."""
    src = tl.parse("S[(128,4,8):(8,1@laneid,1)] + R[(8,16):(4@laneid,1@warpid)]")
    dst = tl.parse("S[(16,32,8):(1@warpid,1@laneid,1)]")
    shape = (4096,)
    s, d = thread_bits(src, shape), thread_bits(dst, shape)
    found = _in_threads("registers", s, d, src, dst, shape, dtype)
    moved = found.costs["registers_moved"]
    route = route_between(*place(src, dst, shape), bits)
    want = {k: v for k, v in in_thread_permutes(route, moved).items() if v}
    assert want  # lane-dependent slots: work to count
    got = {k: found.costs[k] for k in ("shuffle_selects", "byte_permutes") if found.costs.get(k)}
    assert got == want


def test_a_renaming_of_sub_word_values_is_free_and_never_staged():
    """Seed 28's harness pair 474: every lane holds the whole 16 x 8 half tile on both
    sides, in another slot order: a renaming (Triton 3.9 emits nothing for it). The
    plan charges no instruction and searches no staging."""
    src = "S[(2,4,2,2,2,2):(1,4,64,2,16,32)] + R[32:1@laneid]"
    dst = "S[(16,8):(8,1)] + R[32:1@laneid]"
    p = tl.plan_conversion(src, dst, (16, 8), "float16", target="sm_90a")
    assert p.mechanism == "registers" and p._bits is not None
    assert not p.costs.get("byte_permutes") and not p.costs.get("shuffle_selects")
    assert p.costs["register_repacks"] == 64       # every packed word is rebuilt
    assert "a renaming" in p.stages[0].text
    assert p.execute() == expected(p.dst, p.shape)


def test_replicas_past_the_element_limit_are_planned_on_bits_and_execute_only_when_raised():
    """Seed 29's harness pair 776 (int8 256 x 128, 16 warps): the destination, a dot
    operand of a blocked parent, holds 8,192 values per thread, 4,194,304 rows with its
    replicas. Planning on bits never looks at them; executing the plan does, so it takes
    a raised limit."""
    src = "S[(2,2,8,8,8,4,4):(32,8@warpid,4@laneid,4,1@warpid,1@laneid,1)]"
    dst = "S[(256,4,2,2,8):(8,2048,1@warpid,1@laneid,1)] + R[(16,8):(2@laneid,2@warpid)]"
    p = tl.plan_conversion(src, dst, (256, 128), "int8", target="sm_80")
    assert p._bits is not None and p._route_value is None
    assert (p.costs["smem_bytes"], p.costs["wavefronts"]) == (8192, 33024)   # as Triton
    with pytest.raises(tl.LayoutError, match="raise it"):
        p.execute()
