"""Staging costed on bits equals staging costed element by element, on every buffer the
bit planner builds (the closed forms of bit_staging against the access model of
access.py / instructions.py), and the choice is never worse than Triton's own."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tilelayout as tl
from tests.planning.mechanisms.staging.test_instructions import linear_pair
from tilelayout.planning.mechanisms.staging.access import smem_addresses
from tilelayout.planning.mechanisms.staging.bit_choice import best
from tilelayout.planning.mechanisms.staging.bit_reports import buffer_layout
from tilelayout.planning.mechanisms.staging.bit_staging import (
    BitBuffer,
    candidates,
    floors,
    reaches_floors,
    side_access,
    vector_choices,
)
from tilelayout.planning.mechanisms.staging.generic import triton_order
from tilelayout.planning.mechanisms.staging.instructions import best_access
from tilelayout.planning.model.bits import ThreadBits, thread_bits
from tilelayout.planning.model.threads import register_file, writer_of


def _element_cost(layout, buf: BitBuffer, shape, dtype, store, kinds):
    addr = smem_addresses(buffer_layout(buf, shape), shape)
    rf = register_file(writer_of(layout) if store else layout, shape)
    r = best_access(rf, addr, dtype, store, kinds=kinds)
    return r.wavefronts, r.requests


@settings(max_examples=40, deadline=None)
@given(linear_pair(), st.sampled_from(["float16", "float32", "int8"]))
def test_bit_costs_equal_the_element_model(p, dtype):
    """For every candidate buffer, each side's wavefronts and instructions on bits are
    what the element-level access model measures for the same layout and kind."""
    src, dst, n = p
    shape = (1 << n,)
    a, b = tl.parse(src), tl.parse(dst)
    s, d = thread_bits(a, shape), thread_bits(b, shape)
    nbytes = {"float16": 2, "float32": 4, "int8": 1}[dtype]
    for c in candidates(s, d, nbytes, stmatrix=False, ldmatrix=False):
        if c.passes > 1:
            continue
        for layout, acc, store in ((a, c.store, True), (b, c.load, False)):
            want = _element_cost(layout, c.buffer, shape, dtype, store, ("vector", "packed"))
            assert (acc.wavefronts, acc.per_warp * acc.warps) == want, (c.buffer, store)


@settings(max_examples=30, deadline=None)
@given(linear_pair(), st.sampled_from(["float16", "float32"]))
def test_matrix_costs_equal_the_element_model(p, dtype):
    """With ldmatrix / stmatrix allowed, the cheapest kind on bits costs no more than the
    element model's cheapest kind (fewest wavefronts, then instructions): the element
    model fixes which register pairs into a matrix row, the bit model chooses the one
    that spreads the rows over the banks (as Triton's row permutation does). The first
    candidate, the compiler's own buffer, takes the instructions its lowering uses
    instead; the same buffer with the cheapest kinds follows it."""
    src, dst, n = p
    shape = (1 << n,)
    a, b = tl.parse(src), tl.parse(dst)
    s, d = thread_bits(a, shape), thread_bits(b, shape)
    nbytes = 2 if dtype == "float16" else 4
    for c in candidates(s, d, nbytes, stmatrix=True, ldmatrix=True)[1:]:
        if c.passes > 1:
            continue
        for layout, acc, store in ((a, c.store, True), (b, c.load, False)):
            want = _element_cost(layout, c.buffer, shape, dtype, store,
                                 ("vector", "packed", "matrix"))
            assert (acc.wavefronts, acc.per_warp * acc.warps) <= want, (c.buffer, store)


def test_the_triton_candidate_comes_first_and_the_choice_never_loses_to_it():
    """mma v2 accumulators with warps [1, 4] -> [4, 1] on a 256x256 fp16 tile: Triton
    stages in passes through 8,192 bytes at 2,048 wavefronts (issue 26); so do we."""
    mma = [tl.presets.get("triton.nvmma_distributed", version=2, warps_per_cta=w,
                          shape=(256, 256)).layout for w in ((1, 4), (4, 1))]
    s, d = (thread_bits(x, (256, 256)) for x in mma)
    cs = candidates(s, d, 2, stmatrix=False, ldmatrix=True, order=triton_order((256, 256)))
    assert cs[0].buffer.name == "triton"
    assert (cs[0].bytes, cs[0].wavefronts) == (8192, 2048)
    chosen = best(cs, reference=cs[0])
    assert chosen.wavefronts <= 2048 and chosen.bytes <= 8192
    assert chosen.instructions <= cs[0].instructions


def test_a_budget_caps_the_bytes():
    rows = ThreadBits((1, 2, 4), (8, 16, 32, 64, 128), (256, 512), 10)
    cols = ThreadBits((128, 256, 512), (1, 2, 4, 8, 16), (32, 64), 10)
    cs = candidates(rows, cols, 4, stmatrix=False, ldmatrix=False)
    assert best(cs, budget=10 ** 6).bytes == min(c.bytes for c in cs)


def test_vector_choices_are_registers_both_sides_hold_then_one_sides_extras():
    rows = ThreadBits((1, 2, 4), (8, 16, 32, 64, 128), (), 8)
    cols = ThreadBits((1, 64, 128), (2, 4, 8, 16, 32), (), 8)
    v = vector_choices(rows, cols, 2)
    assert v[0] == (1, 2, 4)   # the common register, widened by the rows' registers
    assert {(1, 64, 128), (1,), (), (2, 4), (64, 128)} <= set(v)


def test_a_buffer_a_lane_crosses_passes_is_refused():
    side = ThreadBits((1,), (2, 4, 8, 16, 32), (), 6)
    assert side_access(side, BitBuffer((1, 4, 8, 16, 32), (2,)), 4, True) is None


@pytest.mark.parametrize("dtype,nbytes", [("float16", 2), ("float32", 4)])
def test_every_candidate_buffer_is_a_bijection(dtype, nbytes):
    a = tl.parse("S[(4,2,8,8,4,2):(1@warpid,2,4@laneid,4,1@laneid,1)]")
    b = tl.parse("S[(32,2,4,16):(1,16@laneid,1@warpid,1@laneid)]")
    s, d = thread_bits(a, (64, 64)), thread_bits(b, (64, 64))
    for c in candidates(s, d, nbytes, stmatrix=True, ldmatrix=True):
        addr = smem_addresses(buffer_layout(c.buffer, (64, 64)), (64, 64))
        assert sorted(addr.tolist()) == list(range(4096))
        assert np.all(addr < 4096)


@settings(max_examples=60, deadline=None)
@given(linear_pair(), st.sampled_from(["float16", "float32", "int8"]))
def test_costing_only_what_an_unbudgeted_choice_can_take_never_changes_it(p, dtype):
    """With no budget, buffers larger than the compiler's choice are not costed, nor any
    other when that choice reaches both floors: the choice is the whole list's."""
    src, dst, n = p
    shape = (1 << n,)
    s, d = thread_bits(tl.parse(src), shape), thread_bits(tl.parse(dst), shape)
    nbytes = {"float16": 2, "float32": 4, "int8": 1}[dtype]
    args = dict(stmatrix=True, ldmatrix=True, order=triton_order(shape))
    every = candidates(s, d, nbytes, **args)
    some = candidates(s, d, nbytes, **args, no_budget=True)
    if not every:
        assert not some
        return
    key = lambda c: (c.wavefronts, c.instructions, c.bytes, c.barriers)  # noqa: E731
    assert key(best(some, reference=some[0])) == key(best(every, reference=every[0]))
    assert all(c.bytes <= some[0].bytes for c in some)
    fitting = [c for c in every[1:] if c.bytes <= every[0].bytes]
    if len(some) == 1 and fitting:  # it stopped: the reference reaches both floors
        assert reaches_floors(some[0], floors(s, d, nbytes))


def test_an_exchange_at_the_floors_is_costed_alone():
    # 4 consecutive float32 per lane, and lanes 0 and 1 swap their groups: Triton's
    # buffer moves 16-byte vectors on both sides without a conflict
    rows = ThreadBits((1, 2), (4, 8, 16, 32, 64), (), 7)
    cols = ThreadBits((1, 2), (8, 4, 16, 32, 64), (), 7)
    assert len(candidates(rows, cols, 4, stmatrix=False, ldmatrix=False,
                          no_budget=True)) == 1
    assert len(candidates(rows, cols, 4, stmatrix=False, ldmatrix=False)) > 1
