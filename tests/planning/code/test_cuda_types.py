"""CUDA's names for the element types and the conversions a plan's code performs."""

from __future__ import annotations

import pytest

import tilelayout as tl
from tilelayout.planning.code.cuda_types import TYPES, conversion, cuda_type, header


def test_every_dtype_the_library_knows_has_a_cuda_type():
    for name in tl.core.dtypes.DTYPE_BITS:
        assert cuda_type(name) in {t for t, _ in TYPES.values()}
    assert (cuda_type("float32"), cuda_type("fp16"), cuda_type("bf16")) == \
        ("float", "__half", "__nv_bfloat16")
    assert header("e5m2") == "<cuda_fp8.h>" and header("int8") is None


def test_the_conversions_are_ptxs_packed_pairs():
    c = conversion("float32", "e4m3")
    assert (c.instruction, c.per_instruction, c.out_bits) == \
        ("cvt.rn.satfinite.e4m3x2.f32", 2, 8)
    assert conversion("float32", "float16").instruction == "cvt.rn.f16x2.f32"
    with pytest.raises(tl.LayoutError, match="float32 to 16- or 8-bit"):
        conversion("float16", "float32")
    with pytest.raises(tl.LayoutError, match="no CUDA type"):
        cuda_type("complex64")
