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

pytest.importorskip("triton.experimental.gluon", reason="Triton is the optional 'triton' extra")
from triton._C.libtriton import gluon_ir, ir  # noqa: E402
from triton.experimental.gluon import language as ttgl  # noqa: E402

_CTX = ir.context()
ir.load_dialects(_CTX)
_B = gluon_ir.GluonOpBuilder(_CTX)


def triton_bases(obj, shape) -> dict[str, list[list[int]]]:
    """Triton's lowering of a Gluon layout: its non-empty bases per input dimension."""
    ll = _B.to_linear_layout(obj._to_ir(_B), list(shape))
    out = {"register": ll.reg_bases, "lane": ll.lane_bases, "warp": ll.warp_bases,
           "block": ll.block_bases}
    return {k: [list(v) for v in vs] for k, vs in out.items() if vs}


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
