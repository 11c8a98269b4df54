"""Triton presets against Triton's own lowering: for every parameter set of a grid, the
layout Triton builds (Gluon's ``to_linear_layout``, on the CPU) equals the preset exactly
(same owners, same register order), compared through the bases and through our
evaluation."""

from __future__ import annotations

import itertools
import math

import pytest

from tilelayout import presets
from tilelayout.interop.triton import to_triton_bases
from tilelayout.interop.triton_shared import to_triton_shared_bases

pytest.importorskip("triton.experimental.gluon", reason="Triton is the optional 'triton' extra")
from triton._C.libtriton import gluon_ir  # noqa: E402
from triton.experimental.gluon import language as ttgl  # noqa: E402

from ..triton_lowering import triton_bases  # noqa: E402


def assert_same(preset, obj, shape):
    ours = to_triton_bases(preset.layout, shape)
    theirs = triton_bases(obj, shape)
    assert ours == theirs, (preset.params, str(preset.layout), theirs)


def _pow2_splits(total: int, rank: int):
    bits = total.bit_length() - 1
    for cut in itertools.product(range(bits + 1), repeat=rank - 1):
        if sum(cut) <= bits:
            yield (*(1 << c for c in cut), 1 << (bits - sum(cut)))


BLOCKED_GRID = [
    (spt, tpw, wpc, order, shape)
    for spt in [(1, 1), (1, 4), (2, 2), (4, 1), (1, 8)]
    for tpw in _pow2_splits(32, 2)
    for wpc in [(1, 1), (2, 2), (4, 1), (1, 4), (8, 1), (2, 4)]
    for order in [(1, 0), (0, 1)]
    for shape in [(1, 32), (16, 16), (32, 64), (128, 8), (4, 4), (64, 256)]
]


def test_blocked_equals_triton_over_a_grid():
    """5 size_per_thread x 6 threads_per_warp x 6 warps_per_cta x 2 orders x 6 tile shapes
    (smaller than the CTA tile: broadcast; larger: repetitions) = 2160 layouts."""
    assert len(BLOCKED_GRID) == 2160
    for spt, tpw, wpc, order, shape in BLOCKED_GRID:
        p = presets.get("triton.blocked", size_per_thread=spt, threads_per_warp=tpw,
                        warps_per_cta=wpc, order=order, shape=shape)
        assert_same(p, ttgl.BlockedLayout(list(spt), list(tpw), list(wpc), list(order)), shape)


@pytest.mark.parametrize("rank", [1, 3])
def test_blocked_other_ranks(rank):
    count = 0
    for shape in itertools.product([2, 8, 32], repeat=rank):
        for order in itertools.permutations(range(rank)):
            spt = tuple([2] + [1] * (rank - 1))
            tpw = next(iter(_pow2_splits(32, rank)))
            wpc = tuple([1] * (rank - 1) + [4])
            p = presets.get("triton.blocked", size_per_thread=spt, threads_per_warp=tpw,
                            warps_per_cta=wpc, order=order, shape=shape,
                            ctas_per_cga=(1,) * rank, cta_split_num=(1,) * rank,
                            cta_order=tuple(reversed(range(rank))))
            assert_same(p, ttgl.BlockedLayout(list(spt), list(tpw), list(wpc), list(order)), shape)
            count += 1
    assert count == 3 ** rank * math.factorial(rank)


def test_blocked_with_cta_split():
    count = 0
    for ctas, split, cta_order, shape in itertools.product(
            [(2, 1), (1, 2), (2, 2), (4, 2)], [(1, 1), (2, 1), (1, 2), (2, 2)], [(1, 0), (0, 1)],
            [(64, 64), (16, 128), (4, 4)]):
        if any(c % s for c, s in zip(ctas, split, strict=True)):
            continue
        p = presets.get("triton.blocked", size_per_thread=(1, 4), threads_per_warp=(4, 8),
                        warps_per_cta=(2, 2), order=(1, 0), shape=shape, ctas_per_cga=ctas,
                        cta_split_num=split, cta_order=cta_order)
        cga = gluon_ir.make_cga_layout(list(ctas), list(split), list(cta_order))
        assert_same(p, ttgl.BlockedLayout([1, 4], [4, 8], [2, 2], [1, 0], cga), shape)
        count += 1
    assert count >= 60


MMA_WARPS = [(1, 1), (2, 2), (4, 1), (1, 4), (2, 4), (8, 1)]
SHAPES_2D = [(16, 8), (8, 8), (16, 16), (64, 64), (128, 32), (32, 256), (16, 4)]


def test_nvmma_distributed_equals_triton():
    count = 0
    for warps, shape in itertools.product(MMA_WARPS, SHAPES_2D):
        p = presets.get("triton.nvmma_distributed", version=2, warps_per_cta=warps,
                        instr_shape=(16, 8), shape=shape)
        assert_same(p, ttgl.NVMMADistributedLayout([2, 0], list(warps), [16, 8]), shape)
        count += 1
    for warps, n, shape in itertools.product([(4, 1), (4, 2), (8, 1), (2, 2)], [8, 16, 64, 128, 256],
                                             [(64, 64), (128, 256), (16, 32), (64, 8)]):
        p = presets.get("triton.nvmma_distributed", version=3, warps_per_cta=warps,
                        instr_shape=(16, n, 16), shape=shape)
        assert_same(p, ttgl.NVMMADistributedLayout([3, 0], list(warps), [16, n, 16]), shape)
        count += 1
    for warps, n, shape in itertools.product(MMA_WARPS, [16, 32], [(64, 64), (16, 8)]):
        p = presets.get("triton.nvmma_distributed", version=2, warps_per_cta=warps,
                        instr_shape=(16, n), shape=shape)
        assert_same(p, ttgl.NVMMADistributedLayout([2, 0], list(warps), [16, n]), shape)
        count += 1
    assert count == 42 + 80 + 24


def test_dot_operand_equals_triton_for_every_k_width():
    """mma v2 A and B, every k_width 1..16, 6 warp splits, 5 shapes; mma v3 A; FMA (blocked
    parent) A and B."""
    count = 0
    for op, kw, warps, shape in itertools.product(
            (0, 1), (1, 2, 4, 8, 16), MMA_WARPS, [(16, 16), (64, 64), (32, 128), (128, 16), (8, 8)]):
        mma = ttgl.NVMMADistributedLayout([2, 0], list(warps), [16, 8])
        p = presets.get("triton.dot_operand", operand_index=op, k_width=kw, parent="mma_v2",
                        warps_per_cta=warps, instr_shape=(16, 8), shape=shape)
        assert_same(p, ttgl.DotOperandLayout(op, mma, kw), shape)
        count += 1
    for kw, warps, shape in itertools.product((1, 2, 4, 8), [(4, 1), (4, 2), (8, 1)],
                                              [(64, 16), (64, 64), (128, 32)]):
        mma = ttgl.NVMMADistributedLayout([3, 0], list(warps), [16, 64, 16])
        p = presets.get("triton.dot_operand", operand_index=0, k_width=kw, parent="mma_v3",
                        warps_per_cta=warps, instr_shape=(16, 64, 16), shape=shape)
        assert_same(p, ttgl.DotOperandLayout(0, mma, kw), shape)
        count += 1
    for op, spt, order, shape in itertools.product((0, 1), [(1, 4), (2, 2), (1, 1)],
                                                   [(1, 0), (0, 1)], [(16, 64), (64, 16), (4, 4)]):
        blocked = ttgl.BlockedLayout(list(spt), [4, 8], [2, 2], list(order))
        p = presets.get("triton.dot_operand", operand_index=op, k_width=0, parent="blocked",
                        warps_per_cta=(2, 2), size_per_thread=spt, threads_per_warp=(4, 8),
                        order=order, shape=shape)
        assert_same(p, ttgl.DotOperandLayout(op, blocked, 0), shape)
        count += 1
    assert count == 300 + 36 + 36


def test_k_width_8_is_not_the_mma_a_fragment():
    """kWidth=8 keeps 8 K-consecutive elements in one thread: at (0, 2) Triton has register 2
    of lane 0, the PTX m16n8k16 A fragment register 0 of lane 1."""
    p = presets.get("triton.dot_operand", operand_index=0, k_width=8, warps_per_cta=(1, 1),
                    shape=(16, 32))
    ptx = presets.get("mma.m16n8k16.A", dtype="float16")
    assert dict(p.layout.base((0, 2), shape=(16, 32))) == {"m": 2, "laneid": 0}
    assert dict(ptx.layout.base((0, 2), shape=(16, 16))) == {"m": 0, "laneid": 1}
    k2 = presets.get("triton.dot_operand", operand_index=0, k_width=2, warps_per_cta=(1, 1),
                     shape=(16, 16))
    assert k2.layout.equivalent(ptx.layout, (16, 16))  # kWidth=2 is the PTX fragment


def test_slice_equals_triton():
    count = 0
    for dim, spt, tpw, warps, order, shape in itertools.product(
            (0, 1), [(1, 4), (2, 1)], [(4, 8), (32, 1)], [(2, 2), (1, 4)], [(1, 0), (0, 1)],
            [(64,), (8,), (256,)]):
        parent = ttgl.BlockedLayout(list(spt), list(tpw), list(warps), list(order))
        p = presets.get("triton.slice", dim=dim, parent="blocked", size_per_thread=spt,
                        threads_per_warp=tpw, warps_per_cta=warps, order=order, shape=shape)
        assert_same(p, ttgl.SliceLayout(dim, parent), shape)
        count += 1
    for dim, warps, shape in itertools.product((0, 1), MMA_WARPS, [(64,), (16,), (8,)]):
        mma = ttgl.NVMMADistributedLayout([2, 0], list(warps), [16, 8])
        p = presets.get("triton.slice", dim=dim, parent="mma_v2", warps_per_cta=warps,
                        instr_shape=(16, 8), shape=shape)
        assert_same(p, ttgl.SliceLayout(dim, mma), shape)
        count += 1
    assert count == 96 + 36


def test_tritons_own_conversion_test_expectations_equal_our_presets():
    """Triton's LinearLayoutConversionsTest expectations (tests/presets/triton_conversions.py,
    transcribed with the revision named) equal our presets' bases, and Triton 3.x's Python
    lowering of the same Gluon layouts still gives them (except where Triton changed since)."""
    from tests.presets.triton_conversions import CASES, CHANGED

    differ = []
    for name, preset, params, shape, want in CASES:
        p = presets.get(preset, shape=shape, **params)
        shared = preset.endswith("_shared")
        ours = ({"offset": to_triton_shared_bases(p.layout, shape)} if shared
                else to_triton_bases(p.layout, shape))
        if name in CHANGED:  # Triton changed since: ours is what the installed Triton gives
            assert ours != want
            assert triton_bases(CHANGED[name][1](ttgl), shape) == ours, name
            continue
        if ours != want:
            differ.append((name, ours, want))
    assert not differ, differ
    assert len(CASES) == 76 + 21 + 53 + 5 + 8 + 24 + 2 and len(CHANGED) == 3


def test_rank3_mma_and_dot_operands_equal_triton():
    """A batch dimension first: mma v2 (instr (1, 16, 8)) over 5 warp splits x 5 shapes;
    its dot operands A and B for k_width 1..8 x 4 warp splits x 4 shapes; FMA operands of
    a rank-3 blocked parent (3 orders, 3 shapes)."""
    count = 0
    warp3 = [(1, 1, 1), (2, 2, 1), (1, 2, 2), (4, 1, 1), (2, 1, 4)]
    for warps, shape in itertools.product(warp3, [(2, 32, 32), (4, 16, 16), (1, 64, 8), (8, 16, 64),
                                                  (2, 8, 8)]):
        p = presets.get("triton.nvmma_distributed", version=2, warps_per_cta=warps,
                        instr_shape=(1, 16, 8), shape=shape)
        assert_same(p, ttgl.NVMMADistributedLayout([2, 0], list(warps), [1, 16, 8]), shape)
        count += 1
    for op, kw, warps, shape in itertools.product((0, 1), (1, 2, 4, 8), warp3[:3] + warp3[4:],
                                                  [(2, 32, 32), (4, 16, 64), (1, 64, 16), (2, 8, 8)]):
        mma = ttgl.NVMMADistributedLayout([2, 0], list(warps), [1, 16, 8])
        p = presets.get("triton.dot_operand", operand_index=op, k_width=kw, parent="mma_v2",
                        warps_per_cta=warps, instr_shape=(1, 16, 8), shape=shape)
        assert_same(p, ttgl.DotOperandLayout(op, mma, kw), shape)
        count += 1
    for op, spt, order, shape in itertools.product((0, 1), [(1, 1, 4), (1, 2, 2)],
                                                   [(2, 1, 0), (1, 2, 0), (0, 1, 2)],
                                                   [(2, 32, 8), (4, 8, 32), (1, 4, 4)]):
        blocked = ttgl.BlockedLayout(list(spt), [1, 4, 8], [2, 2, 1], list(order))
        p = presets.get("triton.dot_operand", operand_index=op, k_width=0, parent="blocked",
                        warps_per_cta=(2, 2, 1), size_per_thread=spt, threads_per_warp=(1, 4, 8),
                        order=order, shape=shape)
        assert_same(p, ttgl.DotOperandLayout(op, blocked, 0), shape)
        count += 1
    assert count == 25 + 128 + 36


def test_slices_of_dot_operands_equal_triton():
    """SliceLayout of a DotOperandLayout: mma v2 A/B for k_width 1..8 (256), mma v3 A (54),
    FMA A/B (48)."""
    count = 0
    for dim, op, kw, warps, shape in itertools.product((0, 1), (0, 1), (1, 2, 4, 8), MMA_WARPS[:4],
                                                       [(16,), (64,), (8,), (256,)]):
        dot = ttgl.DotOperandLayout(op, ttgl.NVMMADistributedLayout([2, 0], list(warps), [16, 8]), kw)
        p = presets.get("triton.slice", dim=dim, parent="dot_mma_v2", operand_index=op, k_width=kw,
                        warps_per_cta=warps, instr_shape=(16, 8), shape=shape)
        assert_same(p, ttgl.SliceLayout(dim, dot), shape)
        count += 1
    for dim, kw, warps, shape in itertools.product((0, 1), (1, 2, 4), [(4, 1), (4, 2), (8, 1)],
                                                   [(16,), (64,), (128,)]):
        dot = ttgl.DotOperandLayout(0, ttgl.NVMMADistributedLayout([3, 0], list(warps), [16, 64, 16]), kw)
        p = presets.get("triton.slice", dim=dim, parent="dot_mma_v3", operand_index=0, k_width=kw,
                        warps_per_cta=warps, instr_shape=(16, 64, 16), shape=shape)
        assert_same(p, ttgl.SliceLayout(dim, dot), shape)
        count += 1
    for dim, op, spt, order, shape in itertools.product((0, 1), (0, 1), [(1, 4), (2, 2)], [(1, 0), (0, 1)],
                                                        [(16,), (64,), (4,)]):
        dot = ttgl.DotOperandLayout(op, ttgl.BlockedLayout(list(spt), [4, 8], [2, 2], list(order)), 0)
        p = presets.get("triton.slice", dim=dim, parent="dot_blocked", operand_index=op, k_width=0,
                        warps_per_cta=(2, 2), size_per_thread=spt, threads_per_warp=(4, 8),
                        order=order, shape=shape)
        assert_same(p, ttgl.SliceLayout(dim, dot), shape)
        count += 1
    assert count == 256 + 54 + 48


def test_mma_and_slices_with_cta_splits_equal_triton():
    """NVMMADistributedLayout split over a cluster's CTAs (rank 2: 4 clusters x 4 splits x 2
    CTA orders x 2 warp splits x 3 shapes, where the split divides; rank 3); SliceLayout of
    split blocked and MMA parents (192)."""
    count = 0
    for ctas, split, order, warps, shape in itertools.product(
            [(2, 1), (1, 2), (2, 2), (4, 2)], [(1, 1), (2, 1), (1, 2), (2, 2)], [(1, 0), (0, 1)],
            [(2, 2), (4, 1)], [(64, 64), (16, 128), (16, 8)]):
        if any(c % s for c, s in zip(ctas, split, strict=True)):
            continue
        cga = gluon_ir.make_cga_layout(list(ctas), list(split), list(order))
        p = presets.get("triton.nvmma_distributed", version=2, warps_per_cta=warps, instr_shape=(16, 8),
                        shape=shape, ctas_per_cga=ctas, cta_split_num=split, cta_order=order)
        assert_same(p, ttgl.NVMMADistributedLayout([2, 0], list(warps), [16, 8], cga), shape)
        count += 1
    for ctas, split, order, shape in itertools.product(
            [(1, 4, 2), (4, 2, 2)], [(1, 4, 2), (4, 2, 1), (2, 1, 1)], [(2, 1, 0), (0, 1, 2)],
            [(64, 128, 128), (1, 128, 128), (8, 16, 16)]):
        if any(c % s for c, s in zip(ctas, split, strict=True)):
            continue
        cga = gluon_ir.make_cga_layout(list(ctas), list(split), list(order))
        p = presets.get("triton.nvmma_distributed", version=2, warps_per_cta=(16, 1, 1),
                        instr_shape=(1, 16, 8), shape=shape, ctas_per_cga=ctas, cta_split_num=split,
                        cta_order=order)
        assert_same(p, ttgl.NVMMADistributedLayout([2, 0], [16, 1, 1], [1, 16, 8], cga), shape)
        count += 1
    assert count == 162
    count = 0
    for dim, parent, ctas, split, order, shape in itertools.product(
            (0, 1), ("blocked", "mma_v2"), [(2, 1), (1, 2), (2, 2)], [(1, 1), (2, 1), (1, 2), (2, 2)],
            [(1, 0), (0, 1)], [(128,), (16,), (4,)]):
        if any(c % s for c, s in zip(ctas, split, strict=True)):
            continue
        cga = gluon_ir.make_cga_layout(list(ctas), list(split), list(order))
        obj = (ttgl.BlockedLayout([2, 4], [4, 8], [2, 2], [1, 0], cga) if parent == "blocked"
               else ttgl.NVMMADistributedLayout([2, 0], [2, 2], [16, 8], cga))
        p = presets.get("triton.slice", dim=dim, parent=parent, size_per_thread=(2, 4),
                        threads_per_warp=(4, 8), warps_per_cta=(2, 2), order=(1, 0), instr_shape=(16, 8),
                        shape=shape, ctas_per_cga=ctas, cta_split_num=split, cta_order=order)
        assert_same(p, ttgl.SliceLayout(dim, obj), shape)
        count += 1
    assert count == 192


def test_dot_operands_of_split_parents_equal_triton():
    """A DotOperandLayout of an MMA or blocked parent split over a cluster's CTAs: the CTAs
    that split the parent along K hold copies (256)."""
    count = 0
    for op, kw, parent, ctas, split, order, shape in itertools.product(
            (0, 1), (2, 8), ("mma_v2", "blocked"), [(2, 1), (1, 2), (2, 2)],
            [(1, 1), (2, 1), (1, 2), (2, 2)], [(1, 0), (0, 1)], [(64, 64), (16, 128)]):
        if any(c % s for c, s in zip(ctas, split, strict=True)):
            continue
        cga = gluon_ir.make_cga_layout(list(ctas), list(split), list(order))
        obj = (ttgl.NVMMADistributedLayout([2, 0], [2, 2], [16, 8], cga) if parent == "mma_v2"
               else ttgl.BlockedLayout([1, 4], [4, 8], [2, 2], [1, 0], cga))
        k = kw if parent == "mma_v2" else 0
        p = presets.get("triton.dot_operand", operand_index=op, k_width=k, parent=parent,
                        warps_per_cta=(2, 2), instr_shape=(16, 8), size_per_thread=(1, 4),
                        threads_per_warp=(4, 8), order=(1, 0), shape=shape, ctas_per_cga=ctas,
                        cta_split_num=split, cta_order=order)
        assert_same(p, ttgl.DotOperandLayout(op, obj, k), shape)
        count += 1
    assert count == 256


def test_a_warp_of_more_than_64_lanes_is_refused():
    """issue 29: threads_per_warp=(1048576, 64) built a warp of 2**26 lanes (Triton's
    verifier wants the module's 32 or 64); what a warp may hold still equals Triton."""
    with pytest.raises(presets.PresetError, match="a warp has at most 64"):
        presets.get("triton.blocked", threads_per_warp=(1048576, 64))
    for bad in [{"element_bitwidth": 8.0}, {"element_bitwidth": True}]:
        with pytest.raises(presets.PresetError, match="must be one of"):
            presets.get("triton.nvmma_shared", **bad)
    for name, bad in [("triton.tmem", {"block": (128,)}), ("amd.mfma", {"instr_shape": (8,)}),
                      ("triton.blocked", {"warps_per_cta": (1 << 40, 1)})]:
        with pytest.raises(presets.PresetError) as info:
            presets.get(name, **bad)
        assert "\n" not in str(info.value)
    p = presets.get("triton.blocked", threads_per_warp=(8, 8), shape=(64, 64))
    assert_same(p, ttgl.BlockedLayout([1, 4], [8, 8], [2, 2], [1, 0]), (64, 64))
