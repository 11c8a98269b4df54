"""Triton's memory-layout presets against Triton's own lowering (Gluon's
``to_linear_layout`` on the CPU): NVMMA and swizzled shared layouts offset by offset, tensor
memory row / column by row / column, over parameter grids."""

from __future__ import annotations

import itertools

import pytest

from tilelayout import presets
from tilelayout.interop import InteropError
from tilelayout.interop.triton import from_triton, to_triton_bases
from tilelayout.interop.triton_shared import to_triton_shared_bases

pytest.importorskip("triton.experimental.gluon", reason="Triton is the optional 'triton' extra")
from triton.experimental.gluon import language as ttgl  # noqa: E402
from triton.experimental.gluon.language.nvidia import blackwell  # noqa: E402

from ..triton_lowering import lowered  # noqa: E402


def test_nvmma_shared_equals_triton():
    """4 swizzle widths x 4 element widths x transposed x 6 shapes, plus fp4 padded."""
    count = 0
    for width, bits, trans, shape in itertools.product(
            (0, 32, 64, 128), (8, 16, 32, 64), (False, True),
            [(8, 64), (64, 64), (16, 256), (512, 64), (128, 16), (32, 1024)]):
        obj = ttgl.NVMMASharedLayout(width, bits, transposed=trans)
        cols = shape[0] if trans else shape[1]
        if width and (cols < width * 8 // bits or shape[1 if trans else 0] < 8):
            continue  # Triton aborts on boxes smaller than the mode (refused by our preset)
        p = presets.get("triton.nvmma_shared", swizzle_byte_width=width, element_bitwidth=bits,
                        transposed=trans, shape=shape)
        assert to_triton_shared_bases(p.layout, shape) == lowered(obj, shape).offset_bases, (
            width, bits, trans, shape, str(p.layout))
        count += 1
    for trans, shape in itertools.product((False, True), [(64, 64), (128, 128), (8, 64)]):
        obj = ttgl.NVMMASharedLayout(128, 8, transposed=trans, fp4_padded=True)
        if trans and shape == (8, 64):  # 8 contiguous elements: Triton aborts, we refuse
            with pytest.raises(presets.PresetError, match="at least 8 rows of 64"):
                presets.get("triton.nvmma_shared", swizzle_byte_width=128, element_bitwidth=8,
                            transposed=True, fp4_padded=True, shape=shape)
            continue
        p = presets.get("triton.nvmma_shared", swizzle_byte_width=128, element_bitwidth=8,
                        transposed=trans, fp4_padded=True, shape=shape)
        assert to_triton_shared_bases(p.layout, shape) == lowered(obj, shape).offset_bases, (
            trans, shape, str(p.layout))
        count += 1
    assert count >= 150


def test_nvmma_shared_is_the_swizzle_of_its_mode():
    import tilelayout as tl

    for bits, mode in itertools.product((8, 16, 32), ("32B", "64B", "128B")):
        dtype = {8: "int8", 16: "float16", 32: "float32"}[bits]
        p = presets.get("triton.nvmma_shared", swizzle_byte_width=int(mode[:-1]),
                        element_bitwidth=bits, shape=(8, 1024 // bits))
        assert p.layout.swizzle == tl.Swizzle.for_dtype(dtype, mode)


def test_swizzled_shared_equals_triton():
    count = 0
    for vec, per, top, order, shape in itertools.product(
            (1, 2, 4, 8), (1, 2, 4), (1, 2, 4, 8), [(1, 0), (0, 1)],
            [(32, 32), (16, 64), (8, 8), (64, 4)]):
        obj = ttgl.SwizzledSharedLayout(vec, per, top, list(order))
        p = presets.get("triton.swizzled_shared", vec=vec, per_phase=per, max_phase=top,
                        order=order, shape=shape)
        assert to_triton_shared_bases(p.layout, shape) == lowered(obj, shape).offset_bases, (
            vec, per, top, order, shape)
        count += 1
    for order in itertools.permutations(range(3)):
        obj = ttgl.SwizzledSharedLayout(4, 1, 4, list(order))
        p = presets.get("triton.swizzled_shared", vec=4, per_phase=1, max_phase=4, order=order,
                        shape=(4, 16, 16))
        assert to_triton_shared_bases(p.layout, (4, 16, 16)) == lowered(obj, (4, 16, 16)).offset_bases
        count += 1
    assert count == 384 + 6


def test_tmem_equals_triton():
    count = 0
    for m, n, stride, shape in itertools.product(
            (64, 128), (16, 64, 128, 256), (1, 2, 4), [(128, 128), (64, 64), (128, 32), (256, 256),
                                                      (64, 256)]):
        obj = blackwell.TensorMemoryLayout((m, n), stride)
        if shape[0] < m:  # Triton asserts (aborts); the preset and from_triton refuse
            with pytest.raises(presets.PresetError, match=f"needs at least {m} rows"):
                presets.get("triton.tmem", block=(m, n), col_stride=stride, shape=shape)
            with pytest.raises(InteropError, match=f"at least {m} rows"):
                from_triton(obj, shape)
            continue
        p = presets.get("triton.tmem", block=(m, n), col_stride=stride, shape=shape)
        ll = lowered(obj, shape)
        want = {k: v for k, v in (("row", ll.rows), ("col", ll.cols)) if v}
        assert to_triton_bases(p.layout, shape) == want, (m, n, stride, shape, str(p.layout))
        count += 1
    assert count == 96


def test_tmem_scales_equals_triton_and_our_scale_factor_preset():
    for shape in [(128, 4), (128, 8), (256, 4), (64, 4), (32, 2), (128, 16), (512, 32)]:
        p = presets.get("triton.tmem_scales", shape=shape)
        ll = lowered(blackwell.TensorMemoryScalesLayout(), shape)
        cols = list(ll.cols)
        while cols and not any(cols[-1]):  # columns past the last element: allocation size,
            cols.pop()                     # not part of a layout (docs/interop/triton.md)
        assert to_triton_bases(p.layout, shape) == {"row": ll.rows, "col": cols}, shape
    ours = presets.get("tmem.scale_factors", rows=128, sf_per_row=4)
    assert ours.layout == presets.get("triton.tmem_scales", shape=(128, 4)).layout
