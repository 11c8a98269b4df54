"""Triton's swizzle synthesis on bits: the F2 helpers against brute force, and the
synthesized buffers' properties (a basis of the tile, passes over registers both sides
hold, Triton's figures on the issue-26 example)."""

from __future__ import annotations

import itertools
import random

import pytest

import tilelayout as tl
from tilelayout.planning.mechanisms.staging.generic import (
    complement,
    intersection,
    orthogonal,
    pair_options,
    permute_bits,
    plain,
    segment,
    swizzle,
    tiles,
    triton_order,
)
from tilelayout.planning.model.bits import thread_bits


def _span(vectors):
    out = {0}
    for v in vectors:
        out |= {x ^ v for x in out}
    return out


@pytest.mark.parametrize("seed", range(20))
def test_the_f2_helpers_against_brute_force(seed):
    rng = random.Random(seed)
    dim = rng.randint(2, 6)
    a = [rng.randrange(1 << dim) for _ in range(rng.randint(0, dim))]
    b = [rng.randrange(1 << dim) for _ in range(rng.randint(0, dim))]
    space = range(1 << dim)
    ortho = {x for x in space if all(bin(x & v).count("1") % 2 == 0 for v in a)}
    assert _span(orthogonal(a, dim)) == ortho
    assert _span(intersection(a, b, dim)) == _span(a) & _span(b)
    comp = complement(a, dim)
    assert len(_span(a + comp)) == 1 << dim and all(c & (c - 1) == 0 for c in comp)


def test_segments_avoid_both_tiles_then_xor_them():
    assert segment([1, 2], [4, 8], 6, 2) == [16, 32]       # unit vectors neither tile uses
    assert segment([1, 2], [4, 8], 4, 2) == [5, 10]        # none left: a ^ b, conflict-free
    # too few: a ^ b where it can, then one 2-way conflict on each side
    assert segment([1, 2, 4], [8, 16, 32], 6, 4) == [18, 36, 1, 8]


def test_tiles_by_target_and_width():
    assert [t.name for t in tiles(32, False, False)[1]] == ["shared"]
    assert [t.name for t in tiles(16, True, True)[1]] == ["shared", "matrix", "matrix.trans"]
    assert [t.name for t in tiles(64, True, True)[0]] == ["shared"]


def _tri(layout, shape):
    tb = thread_bits(layout, shape).without_broadcast_registers()
    o = triton_order(shape)
    return tuple(tuple(permute_bits(v, o) for v in vs) for vs in (tb.reg, tb.lane, tb.warp))


CASES = [("triton.nvmma_distributed", {"version": 2, "warps_per_cta": (1, 4)},
          {"version": 2, "warps_per_cta": (4, 1)}, (256, 256), 16),
         ("triton.nvmma_distributed", {"version": 2, "warps_per_cta": (2, 2)},
          {"version": 2, "warps_per_cta": (4, 1)}, (64, 64), 32)]


@pytest.mark.parametrize("name,pa,pb,shape,bits", CASES)
@pytest.mark.parametrize("matrix", [False, True])
def test_every_buffer_is_a_basis_and_passes_are_shared_registers(name, pa, pb, shape, bits,
                                                                 matrix):
    src = _tri(tl.presets.get(name, **pa, shape=shape).layout, shape)
    dst = _tri(tl.presets.get(name, **pb, shape=shape).layout, shape)
    dim = sum(int(s).bit_length() - 1 for s in shape)
    options = [sw for _, sw in pair_options(src, dst, bits, dim, stmatrix=matrix,
                                            ldmatrix=matrix)] + [plain(src, dst, bits, dim)]
    for sw in options:
        assert len(_span(sw.address + sw.reps)) == 1 << dim
        assert set(sw.reps) <= set(src[0]) & set(dst[0])
    assert swizzle(src, dst, bits, dim, stmatrix=matrix, ldmatrix=matrix) in options


def test_triton_s_figures_on_the_issue_example():
    """mma v2 [1,4] -> [4,1], 256x256 fp16: Triton's buffer is 8,192 bytes (16 passes)."""
    shape = (256, 256)
    mk = lambda w: _tri(tl.presets.get("triton.nvmma_distributed", version=2,  # noqa: E731
                                       warps_per_cta=w, shape=shape).layout, shape)
    sw = swizzle(mk((1, 4)), mk((4, 1)), 16, 16)
    assert (1 << len(sw.address)) * 2 == 8192 and 1 << len(sw.reps) == 16


def test_triton_order_is_dimension_zero_lowest():
    for shape in [(2, 4), (8,), (4, 2, 8)]:
        order = triton_order(shape)
        assert sorted(order) == list(range(len(order)))
        # our row-major bit 0 is the last dimension's bit 0
        last = sum(int(s).bit_length() - 1 for s in shape[:-1])
        assert order[0] == last
    assert list(itertools.islice(triton_order((4, 4)), 4)) == [2, 3, 0, 1]


def test_the_plain_synthesis_puts_the_filling_sides_registers_lowest_in_the_bank():
    """Harness pair 542 (seed 26): a slice of an mma v2 accumulator (16 warps) -> a slice
    of a blocked layout, fp16 on sm_100a. No instruction pair fits; Triton 3.9's plain
    synthesis shares one register (a word: no fill-up) and, under four words a vector,
    moves the destination's registers to the bottom of the bank bits, so the load reads
    16 bytes a thread: Triton's PTX has 2 st.shared.b16 and 2 ld.shared.v4.b32, 160
    wavefronts, 512 bytes. The earlier reading (no reordering) loaded 4 bytes at a time."""
    src = tl.parse("S[(16,2,8):(1@warpid,1,4@laneid)] + R[4:1@laneid]")
    dst = tl.parse("S[(4,4,4,4):(4,1@warpid,1@laneid,1)] + R[(8,4):(4@laneid,4@warpid)]")
    s, d = _tri(src, (256,)), _tri(dst, (256,))
    sw = plain(s, d, 16, 8)
    assert pair_options(s, d, 16, 8, stmatrix=True, ldmatrix=True) == []  # the plain path
    # the destination's four registers are the lowest address bits (16 bytes and more)
    assert sorted(sw.vector + sw.bank[:3]) == sorted(d[0]) and sw.vector == (64,)
    p = tl.plan_conversion(src, dst, (256,), "float16", target="sm_100a")
    c = p.costs
    assert (c["smem_bytes"], c["wavefronts"], c["store_instruction"], c["load_instruction"]) == \
        (512, 160, "st.shared.b16", "ld.shared.v4.b32+packed")
