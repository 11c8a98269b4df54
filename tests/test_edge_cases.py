"""Edge cases found in review: exactness near int64, huge or odd text, shapes and indices."""

import numpy as np
import pytest

import tilelayout as tl
from tilelayout.core.errors import LayoutOverflowError

BIG = 1 << 70


# -- vectorized evaluation near and beyond int64 ------------------------------------------
def test_extent_one_iters_with_huge_strides_contribute_nothing():
    # values stay tiny: the extent-1 iter only ever contributes 0 * stride
    for text in (f"S[(1,4):({BIG},1)]", f"S[4:1] + R[1:{BIG}@pid]"):
        L = tl.parse(text)
        assert L.map_all()["m"].ravel().tolist() == [0, 1, 2, 3]
        assert [c["m"] for i in range(4) for c in L.apply(i)] == [0, 1, 2, 3]


def test_too_many_elements_is_an_overflow_error_not_a_numpy_error():
    for text in (f"S[{BIG}:0]", f"S[4:1] + R[{BIG}:0@pid]"):
        with pytest.raises(LayoutOverflowError):
            tl.parse(text).map_all()


def test_int64_bound_is_exact_at_the_boundary():
    edge = (1 << 62) - 1
    assert tl.parse(f"S[2:{edge}]").map_all()["m"].ravel().tolist() == [0, edge]
    with pytest.raises(LayoutOverflowError):
        tl.parse(f"S[2:{edge + 1}]").map_all()


@pytest.mark.parametrize("params", [(70, 1, 1), (0, 3, 62), (2, 40, 40), (60, 3, 3)])
def test_swizzle_with_wide_parameters_agrees_with_the_scalar_path(params):
    sw = tl.Swizzle(*params)
    values = [0, 1, 5, 64, 1 << 61, (1 << 62) - 1]
    assert sw.apply(np.array(values, dtype=np.int64)).tolist() == [sw.apply(v) for v in values]
    L = tl.ComposeLayout(sw, tl.parse("S[4:1]"))
    assert L.map_all()["m"].ravel().tolist() == [L.apply(i)[0]["m"] for i in range(4)]


def test_swizzle_of_negative_addresses_beyond_int64_is_refused_not_crashed():
    sw = tl.Swizzle(70, 1, 1)
    assert sw.apply(-5) == -(1 << 71) + (1 << 70) - 5  # exact on Python ints
    with pytest.raises(LayoutOverflowError):
        sw.apply(np.array([-5], dtype=np.int64))


def test_bank_map_refuses_byte_addresses_beyond_int64_instead_of_wrapping():
    L = tl.parse(f"S[2:{1 << 61}]")  # addresses fit int64, bytes (x8) do not
    with pytest.raises(LayoutOverflowError):
        tl.bank_map(L, "float64")
    low = tl.parse(f"S[2:-{1 << 60}]")  # -2**63 bytes still fits
    assert tl.bank_map(low, "float64")["byte"].ravel().tolist() == [0, -(1 << 63)]


# -- text form ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text, column, words",
    [
        ("S[(4,0):(1,1)]", 6, "extent must be >= 1"),  # the bad extent, not the '('
        ("S[4] + R[(2,-1):(1,1)]", 13, "extent must be >= 1"),
        ("S[(4,2@m):(1,1)]", 6, "extents carry no axis"),  # '@m' on an extent is not text
        ("S[2@m:1]", 3, "extents carry no axis"),
        ("S[４]", 3, "unexpected character"),  # only ASCII digits are integers
        ("S[4:" + "9" * 5000 + "]", 5, "too long"),  # beyond Python's int-from-str limit
        ("ComposeLayout(Swizzle(3,3,3), S[4]) + 5", 37, "put replicas and offsets on the tile"),
    ],
)
def test_parse_errors_point_at_the_offending_token(text, column, words):
    with pytest.raises(tl.LayoutParseError) as info:
        tl.parse(text)
    assert info.value.column == column and words in str(info.value)


# -- shapes and indices -----------------------------------------------------------------------
def test_numpy_arrays_are_indices_and_shapes():
    L = tl.parse("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid")
    want = L.apply((7, 15), shape=(8, 16))
    assert L.apply(np.array([7, 15]), shape=np.array([8, 16])) == want
    assert L.apply(np.int64(127)) == L.apply(np.array(127)) == L.apply(127)
    assert L.base(np.array([7, 15]), shape=(8, 16)) == L.base((7, 15), shape=(8, 16))
    assert L.map_all(np.array([8, 16]))["laneid"].shape == (8, 16, 2)
    with pytest.raises(tl.LayoutError):
        L.apply(np.array([7.0, 15.0]), shape=(8, 16))
    with pytest.raises(tl.IndexOutOfRangeError, match="the string"):
        L.apply("12")


def test_shape_error_counts_elements_in_good_english():
    with pytest.raises(tl.ShapeError, match=r"shape \(\) has 1 element but"):
        tl.parse("S[4:1]").apply(0, shape=())


def test_equal_layouts_each_keep_their_own_axis_order():
    a = tl.parse("S[4:1] + 1@warpid + 2@pid")
    b = tl.parse("S[4:1] + 2@pid + 1@warpid")
    assert a == b and hash(a) == hash(b)
    assert list(a.apply(0)[0]) == list(a.axes) == ["m", "warpid", "pid"]
    # b evaluated after a (same cache key before the fix) still follows b's own order
    assert list(b.apply(0)[0]) == list(b.axes) == ["m", "pid", "warpid"]
    assert list(b.base(0)) == list(b.axes)


# -- the Python builder ----------------------------------------------------------------------
def test_builder_mirrors_the_text_for_subtraction_lists_and_missing_strides():
    assert tl.S[4] - 3 @ tl.warpid == tl.parse("S[4] - 3@warpid")
    assert tl.S[[8, 2]:[2, 1]] == tl.parse("S[(8,2):(2,1)]")
    assert tl.TileLayout([[4, 1, "laneid"]]) == tl.parse("S[4:1@laneid]")
    for bad in (lambda: tl.S[8:], lambda: tl.S[:1]):  # the text S[8:] is an error too
        with pytest.raises(tl.LayoutError, match="both sides of the colon"):
            bad()
    with pytest.raises(tl.LayoutError, match="2 extents but 1 stride$"):
        tl.S[(8, 2):(1,)]
