"""AMD matrix-core presets against Triton's own lowering (Gluon's ``to_linear_layout``)."""

from __future__ import annotations

import itertools

import pytest

from tilelayout import presets
from tilelayout.interop.triton import to_triton_bases

pytest.importorskip("triton.experimental.gluon", reason="Triton is the optional 'triton' extra")
from triton._C.libtriton import gluon_ir  # noqa: E402
from triton.experimental.gluon.language import amd  # noqa: E402

from ..triton_lowering import lowered, triton_bases  # noqa: E402


def test_mfma_equals_triton():
    """32x32 and 16x16, transposed or not, 32- and 64-bit results, tiles per warp, 5 warp
    splits, 5 shapes (smaller than a tile: broadcast; larger: repetitions)."""
    count = 0
    for (m, k), trans, bits, tiles, warps, shape in itertools.product(
            [(32, 8), (16, 16)], (False, True), (32, 64), [(1, 1), (2, 1), (1, 2)],
            [(1, 1), (2, 2), (4, 1), (1, 4), (2, 4)], [(64, 64), (32, 32), (16, 16), (128, 256),
                                                       (256, 32)]):
        obj = amd.AMDMFMALayout(3, [m, m, k], trans, list(warps), bits, list(tiles))
        p = presets.get("amd.mfma", version=3, instr_shape=(m, m, k), transposed=trans,
                        warps_per_cta=warps, element_bitwidth=bits, tiles_per_warp=tiles,
                        shape=shape)
        assert to_triton_bases(p.layout, shape) == triton_bases(obj, shape), (
            m, trans, bits, tiles, warps, shape, str(p.layout))
        count += 1
    assert count == 2 * 2 * 2 * 3 * 5 * 5


def test_wmma_equals_triton():
    count = 0
    for version, trans, (warps, regs), shape in itertools.product(
            (1, 2), (False, True),
            [([], []), ([[0, 1], [1, 0]], []), ([[1, 0], [2, 0]], [[0, 1]]), ([[0, 1]], [[1, 0]])],
            [(16, 16), (32, 32), (64, 64), (128, 32)]):
        need = [16 * (1 + max([b[d] for b in warps + regs] or [0])) for d in range(2)]
        if shape[0] < need[0] or shape[1] < need[1]:
            continue
        obj = amd.AMDWMMALayout(version, trans, warps, regs)
        p = presets.get("amd.wmma", version=version, transposed=trans,
                        warp_bases=tuple((str(a), str(b)) for a, b in warps),
                        reg_bases=tuple((str(a), str(b)) for a, b in regs), shape=shape)
        assert to_triton_bases(p.layout, shape) == triton_bases(obj, shape), (
            version, trans, warps, regs, shape, str(p.layout))
        count += 1
    assert count >= 40


def test_rank3_mfma_and_wmma_equal_triton():
    """A batch dimension first: MFMA 32x32 / 16x16, transposed, 32/64-bit, 4 warp splits, 4
    shapes (128); WMMA v1/v2, transposed, 4 sets of (b, i, j) warp / register bases, 4
    shapes, where the bases fit (40)."""
    count = 0
    for (m, k), trans, bits, warps, shape in itertools.product(
            [(32, 8), (16, 16)], (False, True), (32, 64), [(1, 1, 1), (2, 1, 2), (1, 2, 2), (4, 1, 1)],
            [(2, 64, 64), (4, 32, 32), (1, 16, 16), (8, 128, 32)]):
        obj = amd.AMDMFMALayout(3, [m, m, k], trans, list(warps), bits)
        p = presets.get("amd.mfma", version=3, instr_shape=(m, m, k), transposed=trans,
                        warps_per_cta=warps, element_bitwidth=bits, tiles_per_warp=(1, 1, 1),
                        shape=shape)
        assert to_triton_bases(p.layout, shape) == triton_bases(obj, shape), (m, trans, warps, shape)
        count += 1
    for version, trans, (warps, regs), shape in itertools.product(
            (1, 2), (False, True),
            [([], []), ([[0, 0, 1], [0, 1, 0]], []), ([[1, 0, 0], [0, 1, 0]], [[0, 0, 1]]),
             ([[0, 0, 1]], [[1, 0, 0], [0, 1, 0]])],
            [(2, 32, 32), (4, 32, 64), (2, 16, 16), (8, 64, 16)]):
        need = [16 * (1 + max([b[d] for b in warps + regs] or [0])) for d in (1, 2)]
        if shape[1] < need[0] or shape[2] < need[1]:
            continue
        obj = amd.AMDWMMALayout(version, trans, warps, regs, rank=3)
        p = presets.get("amd.wmma", version=version, transposed=trans,
                        warp_bases=tuple(",".join(map(str, b)) for b in warps),
                        reg_bases=tuple(",".join(map(str, b)) for b in regs), shape=shape)
        assert to_triton_bases(p.layout, shape) == triton_bases(obj, shape), (version, warps, regs, shape)
        count += 1
    assert count == 128 + 40


def test_mfma_and_wmma_split_over_a_cluster_equal_triton():
    """AMDMFMALayout / AMDWMMALayout with a cga_layout (CTAs of a cluster): 3 clusters x 4
    splits x 2 CTA orders x 3 shapes where the split divides, each kind (96)."""
    count = 0
    for kind, ctas, split, order, shape in itertools.product(
            ("mfma", "wmma"), [(2, 1), (1, 2), (2, 2)], [(1, 1), (2, 1), (1, 2), (2, 2)], [(1, 0), (0, 1)],
            [(64, 64), (32, 128), (16, 16)]):
        if any(c % s for c, s in zip(ctas, split, strict=True)):
            continue
        cga = gluon_ir.make_cga_layout(list(ctas), list(split), list(order))
        cluster = {"ctas_per_cga": ctas, "cta_split_num": split, "cta_order": order}
        if kind == "mfma":
            obj = amd.AMDMFMALayout(3, [32, 32, 8], False, [2, 2], 32, [1, 1], cga)
            p = presets.get("amd.mfma", version=3, instr_shape=(32, 32, 8), warps_per_cta=(2, 2),
                            shape=shape, **cluster)
        else:
            obj = amd.AMDWMMALayout(2, False, [[0, 1], [1, 0]], [], None, cga)
            p = presets.get("amd.wmma", version=2, shape=shape, **cluster)
        ll = lowered(obj, shape)
        want = {k: v for k, v in (("register", ll.reg_bases), ("lane", ll.lane_bases),
                                  ("warp", ll.warp_bases), ("block", ll.block_bases)) if v}
        assert to_triton_bases(p.layout, shape) == want, (kind, ctas, split, order, shape)
        count += 1
    assert count == 96
