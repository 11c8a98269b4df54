"""Shapes and indices: numpy values, element counts in errors."""

import numpy as np
import pytest

import tilelayout as tl


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
