"""CuTe's printed layout text: shapes and strides (nested, ``_4`` static ints, default
column-major strides), the swizzle and a composed layout's offset, and refusals with the
column of the error."""

import pytest

import tilelayout as tl
from tilelayout.algebra.cute import CuteLayout
from tilelayout.core.errors import LayoutError
from tilelayout.interop.cute_text import as_shape_stride, parse_cute, read_cute


@pytest.mark.parametrize("text,shape,stride", [
    ("((4,8),2):((32,1),16)", ((4, 8), 2), ((32, 1), 16)),
    ("(_4,_8):(_8,_1)", (4, 8), (8, 1)),
    ("(4,(2,2))", (4, (2, 2)), (1, (4, 8))),   # CuTe's compact column-major default
    ("8", 8, 1),
    (" ( 2 , 3 ) : ( 3 , 1 ) \n", (2, 3), (3, 1)),  # spaces anywhere, a trailing newline
])
def test_shapes_and_strides(text, shape, stride):
    assert parse_cute(text) == (None, shape, stride)


def test_the_swizzle_is_cutes_bms_order_in_both_spellings():
    # CuTe Swizzle<B,M,S> is our Swizzle(M, B, S): B bits, M base, S shift
    assert read_cute("Sw<3,4,3> o _0 o (8,64):(64,1)") == (tl.Swizzle(4, 3, 3), 0, (8, 64),
                                                           (64, 1))
    assert read_cute("S<3,3,3> o 512 o (8,64):(64,1)")[:2] == (tl.Swizzle(3, 3, 3), 512)
    assert parse_cute("Swizzle<2,4,3> o (8,32):(32,1)")[0] == tl.Swizzle(4, 2, 3)


def test_a_negative_shift_is_an_xor_swizzle():
    sw, _, _ = parse_cute("Swizzle<2,0,-3> o (8,8):(8,1)")
    assert isinstance(sw, tl.XorSwizzle)


def test_an_offset_needs_read_cute():
    with pytest.raises(LayoutError, match="read_cute"):
        parse_cute("Sw<3,4,3> o 64 o (8,64):(64,1)")


@pytest.mark.parametrize("text", ["(4,8):(1,)", "(4,8):(1,4", "(4,8):(1,4) x", "",
                                  "(4,(2,2)):(1,4)", "Sw<3,4> o 8:1", "Sw<3,4,3> o -4 o 8:1"])
def test_bad_text_is_refused_with_a_layout_error(text):
    with pytest.raises(LayoutError):
        read_cute(text)


def test_other_sources():
    assert as_shape_stride(((4, 8), (8, 1))) == (None, (4, 8), (8, 1))
    assert as_shape_stride(CuteLayout((2, 3), (3, 1))) == (None, (2, 3), (3, 1))
    assert as_shape_stride("(2,3):(3,1)") == (None, (2, 3), (3, 1))
    with pytest.raises(LayoutError):
        as_shape_stride(((4, 8), (1,)))
    with pytest.raises(LayoutError, match="expected CuTe text"):
        as_shape_stride(42)


def test_pycute_layouts_are_read():
    pycute = pytest.importorskip("pycute", reason="pycute is the optional 'cute' extra")
    assert as_shape_stride(pycute.Layout((4, (2, 2)), (1, (4, 8)))) == (
        None, (4, (2, 2)), (1, (4, 8)))
