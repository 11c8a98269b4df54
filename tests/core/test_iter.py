"""Iter (extent, stride, axis) and as_int, the integer check every model value goes through."""

import numpy as np
import pytest

from tilelayout.core.budget import MAX_INT_BITS
from tilelayout.core.errors import LayoutError
from tilelayout.core.iter import Iter, as_int


def test_fields_and_defaults():
    it = Iter(8, -1)
    assert (it.extent, it.stride, it.axis) == (8, -1, "m")
    assert Iter(np.int32(4), np.int64(2), "laneid") == Iter(4, 2, "laneid")
    assert type(Iter(np.int32(4), 1).extent) is int


def test_of_coerces_tuples_lists_and_iters():
    it = Iter(8, 4, "laneid")
    assert Iter.of(it) is it
    assert Iter.of((8, 4, "laneid")) == Iter.of([8, 4, "laneid"]) == it
    assert Iter.of((8, 4)) == Iter(8, 4, "m")


@pytest.mark.parametrize("spec", [(0, 1), (-2, 1), (2.0, 1), (2, "1"), (2, 1, "no axis"),
                                  (2,), (1, 2, 3, 4), "S"])
def test_bad_iters_are_layout_errors(spec):
    with pytest.raises(LayoutError):
        Iter.of(spec)  # type: ignore[arg-type]


def test_frozen_and_hashable():
    it = Iter(2, 1)
    with pytest.raises(AttributeError):
        it.extent = 3  # type: ignore[misc]
    assert len({Iter(2, 1), Iter(2, 1, "m"), Iter(2, 2)}) == 2


def test_as_int():
    assert as_int(np.uint8(7), "x") == 7 and type(as_int(np.uint8(7), "x")) is int
    for bad in (True, 1.0, "1", None):
        with pytest.raises(LayoutError, match="x must be an integer"):
            as_int(bad, "x")
    with pytest.raises(LayoutError):
        as_int(1 << MAX_INT_BITS, "x")
    assert as_int(-(1 << (MAX_INT_BITS - 2)), "x") < 0
