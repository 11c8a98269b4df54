"""AMD matrix-core dot operands (``presets/amd_dot.py``: DotOperandLayout of an MFMA or WMMA
parent) against Triton's own lowering (Gluon's ``to_linear_layout``), and their refusals."""

from __future__ import annotations

import itertools

import pytest

from tilelayout import presets
from tilelayout.core.errors import LayoutError
from tilelayout.interop.triton import to_triton_bases

pytest.importorskip("triton.experimental.gluon", reason="Triton is the optional 'triton' extra")
from triton.experimental.gluon.language import amd  # noqa: E402

from ..triton_lowering import triton_bases  # noqa: E402


def test_mfma_dot_operands_equal_triton():
    """A and B of MFMA parents: k_width 4, 8, 16 x 32x32 / 16x16 x 5 warp splits x 5
    shapes (300); with versions 3 / 4, transposed parents and tiles per warp (288); rank 3
    (24)."""
    from triton.experimental.gluon import language as ttgl

    count = 0
    for op, kw, (m, k), warps, shape in itertools.product(
            (0, 1), (4, 8, 16), [(32, 8), (16, 16)], [(1, 1), (2, 2), (1, 8), (4, 1), (2, 4)],
            [(32, 32), (128, 128), (16, 16), (64, 256), (256, 64)]):
        obj = ttgl.DotOperandLayout(op, amd.AMDMFMALayout(3, [m, m, k], False, list(warps)), kw)
        p = presets.get("amd.mfma_dot_operand", operand_index=op, k_width=kw, instr_shape=(m, m, k),
                        warps_per_cta=warps, shape=shape)
        assert to_triton_bases(p.layout, shape) == triton_bases(obj, shape), (op, kw, m, warps, shape)
        count += 1
    for op, kw, (v, m, k), trans, tiles, warps, shape in itertools.product(
            (0, 1), (4, 8), [(3, 32, 8), (4, 16, 32), (4, 32, 16)], (False, True),
            [(1, 1), (2, 1), (1, 2)], [(2, 2), (1, 4)], [(64, 64), (128, 32)]):
        parent = amd.AMDMFMALayout(v, [m, m, k], trans, list(warps), 32, list(tiles))
        p = presets.get("amd.mfma_dot_operand", operand_index=op, k_width=kw, instr_shape=(m, m, k),
                        warps_per_cta=warps, tiles_per_warp=tiles, shape=shape)
        assert to_triton_bases(p.layout, shape) == triton_bases(ttgl.DotOperandLayout(op, parent, kw),
                                                                shape), (op, kw, v, m, tiles, shape)
        count += 1
    for op, kw, warps, shape in itertools.product((0, 1), (4, 8), [(1, 1, 1), (2, 2, 1), (1, 2, 2)],
                                                  [(2, 64, 64), (4, 32, 32)]):
        obj = ttgl.DotOperandLayout(op, amd.AMDMFMALayout(3, [32, 32, 8], False, list(warps)), kw)
        p = presets.get("amd.mfma_dot_operand", operand_index=op, k_width=kw, instr_shape=(32, 32, 8),
                        warps_per_cta=warps, shape=shape)
        assert to_triton_bases(p.layout, shape) == triton_bases(obj, shape), (op, kw, warps, shape)
        count += 1
    assert count == 300 + 288 + 24


WMMA_DOT_PARENTS = [([[0, 1], [0, 2], [1, 0]], []), ([[0, 1], [1, 0]], [[2, 0]]),
                    ([[1, 0], [0, 1]], [[0, 2]]), ([], []), ([[1, 0]], [[0, 1], [2, 0]])]


def test_wmma_dot_operands_equal_triton():
    """A and B of WMMA parents v1..v3, k_width 4..16, transposed or not, 5 parents, 4 shapes
    (the ones Triton accepts: 640), and rank 3 (48)."""
    from triton.experimental.gluon import language as ttgl

    count = 0
    for v, op, kw, trans, (wb, rb), shape in itertools.product(
            (1, 2, 3), (0, 1), (4, 8, 16), (False, True), WMMA_DOT_PARENTS,
            [(64, 128), (32, 32), (16, 16), (128, 64)]):
        if v == 1 and kw == 4:
            continue  # Triton: kWidth must be 8 or 16 for WMMA v1
        k = {1: 16, 2: 16, 3: 64 if kw == 16 else 32}[v]
        obj = ttgl.DotOperandLayout(op, amd.AMDWMMALayout(v, trans, wb, rb, [16, 16, k]), kw)
        p = presets.get("amd.wmma_dot_operand", operand_index=op, k_width=kw, version=v,
                        warp_bases=tuple(",".join(map(str, b)) for b in wb),
                        reg_bases=tuple(",".join(map(str, b)) for b in rb), k=k, shape=shape)
        assert to_triton_bases(p.layout, shape) == triton_bases(obj, shape), (v, op, kw, wb, rb, shape)
        count += 1
    for v, op, kw, (wb, rb), shape in itertools.product(
            (1, 2), (0, 1), (8, 16), [([[0, 1, 0], [0, 2, 0], [1, 0, 0]], []), ([[0, 0, 1], [1, 0, 0]],
                                                                               [[0, 1, 0]])],
            [(2, 32, 16), (4, 128, 32), (1, 16, 16)]):
        obj = ttgl.DotOperandLayout(op, amd.AMDWMMALayout(v, False, wb, rb, rank=3), kw)
        p = presets.get("amd.wmma_dot_operand", operand_index=op, k_width=kw, version=v,
                        warp_bases=tuple(",".join(map(str, b)) for b in wb),
                        reg_bases=tuple(",".join(map(str, b)) for b in rb), shape=shape)
        assert to_triton_bases(p.layout, shape) == triton_bases(obj, shape), (v, op, kw, wb, shape)
        count += 1
    assert count == 640 + 48


def test_the_documented_operand_is_lanes_then_k_registers():
    p = presets.get("amd.mfma_dot_operand", operand_index=0, k_width=4, instr_shape=(32, 32, 8),
                    warps_per_cta=(1, 1), shape=(32, 8))
    L = p.layout
    # lane l < 32 holds row l, k 0..3; lanes 32..63 hold k 4..7
    assert (L.base((5, 2), (32, 8))["laneid"], L.base((5, 2), (32, 8))["m"]) == (5, 2)
    assert (L.base((5, 6), (32, 8))["laneid"], L.base((5, 6), (32, 8))["m"]) == (37, 2)


@pytest.mark.parametrize("name,params", [
    ("amd.mfma_dot_operand", {"operand_index": 2}),
    ("amd.mfma_dot_operand", {"k_width": 3}),
    ("amd.wmma_dot_operand", {"version": 7}),
])
def test_bad_parameters_are_refused(name, params):
    with pytest.raises(LayoutError):
        presets.get(name, **params)
