"""Exactness near int64: the vector path refuses what would overflow, the scalar path stays exact."""

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
