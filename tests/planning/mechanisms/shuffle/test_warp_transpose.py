"""Warp exchanges as bit transpositions: the factorization is the conversion's
permutation, the counts are Triton's (FlashAttention-3's FP8 permute, the mma C -> B
pair Triton 3.9 compiles to 2 shfl.sync.idx + 4 prmt), and Triton's own rule for when
it shuffles."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tilelayout as tl
from tests.planning.scenarios.suite import DOT_A_FP8, MMA2, WGMMA_D
from tilelayout.planning.mechanisms.shuffle.warp_transpose import (
    counts,
    decompose,
    triton_shuffles,
)
from tilelayout.planning.model.bits import ThreadBits, thread_bits


def _compose(d):
    """The permutation of (register, lane) bit positions the factors make, as a dict."""
    pos = {}
    for i in range(d.regs):
        pos[(0, i)] = (0, d.reg_perm[i])
    for j in range(d.lanes):
        pos[(1, j)] = (1, d.lane_perm[j])
    return pos


@settings(max_examples=60, deadline=None)
@given(st.permutations(range(8)), st.integers(2, 4))
def test_every_warp_local_permutation_decomposes(perm, regs):
    vec = [1 << b for b in perm]
    src = ThreadBits(tuple(vec[:regs]), tuple(vec[regs:regs + 5]), (), 8)
    shuffled = list(vec)
    shuffled[0], shuffled[regs] = shuffled[regs], shuffled[0]
    dst = ThreadBits(tuple(shuffled[:regs]), tuple(shuffled[regs:regs + 5]), (), 8)
    d = decompose(src, dst, 32)
    assert d is not None
    assert len(d.mixed) <= 1 + (src.reg[0] != dst.reg[0])
    assert sorted(d.reg_perm) == list(range(d.regs))
    assert sorted(d.lane_perm) == list(range(d.lanes))


@pytest.mark.parametrize("src", [WGMMA_D[64], MMA2])
def test_fp8_d_to_a_is_flashattention3s_permute(src):
    """8 shfl, 8 selp, 8 prmt per warp: FlashAttention-3's permute_Cregs_fp8."""
    s, d = thread_bits(tl.parse(src), (64, 64)), thread_bits(tl.parse(DOT_A_FP8), (64, 64))
    dec = decompose(s, d, 8)
    assert dec.pack == 2 and len(dec.mixed) == 1
    c = counts(dec, 8)
    assert (c.shuffles, c.selects, c.permutes) == (8, 8, 8)
    assert triton_shuffles(s, d)


def test_mma_c_to_b_is_what_triton_emits():
    C, B = "S[(2,8,4,2):(2,4@laneid,1@laneid,1)]", "S[(2,4,2,8):(2,1@laneid,1,4@laneid)]"
    s, d = thread_bits(tl.parse(C), (16, 8)), thread_bits(tl.parse(B), (16, 8))
    c = counts(decompose(s, d, 16), 16)
    assert (c.shuffles, c.selects, c.permutes) == (2, 0, 4)


def test_a_lane_swap_ships_half_the_registers():
    src = ThreadBits((1,), (2, 4, 8, 16, 32), (), 6)
    dst = ThreadBits((2,), (1, 4, 8, 16, 32), (), 6)
    c = counts(decompose(src, dst, 32), 32)
    assert (c.form, c.shuffles, c.selects) == ("ship", 1, 3)


def test_a_transpose_has_five_transpositions_and_triton_stages_it():
    rows = thread_bits(tl.parse("S[(32,32):(1@laneid,1)]"), (32, 32))
    cols = thread_bits(tl.parse("S[(32,32):(1,1@laneid)]"), (32, 32))
    d = decompose(rows, cols, 32)
    assert len(d.mixed) == 5
    assert counts(d, 32).shuffles == 31  # every register but one crosses lanes
    assert not triton_shuffles(rows, cols)


def test_warps_that_need_other_registers_are_not_one_permutation():
    a = ThreadBits((1,), (2, 4, 8, 16, 32), (64,), 7)
    b = ThreadBits((64,), (2, 4, 8, 16, 32), (1,), 7)
    assert decompose(a, b, 32) is None


def test_copied_warps_that_need_other_lanes_shuffle_by_index():
    # source warps hold copies; destination warp 2 needs what source lanes 2.. hold
    src = ThreadBits((), (8, 16, 4, 2, 1), (0, 0), 5)
    dst = ThreadBits((8,), (0, 0, 1, 2, 4), (0, 16), 5)
    d = decompose(src, dst, 32)
    assert d.warp_lanes and d.lanes_permuted and triton_shuffles(src, dst)   # as Triton does
    c = counts(d, 32)
    assert (c.shuffles, c.selects, c.permutes) == (2, 0, 0)   # Triton: 2 shfl.sync.idx
