"""group: splitting a layout by a shape, against brute force."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tilelayout as tl
from tests.strategies import brute_equivalent, shapes_for, tile_layouts


# -- group -----------------------------------------------------------------------------
@given(st.data())
def test_group_splits_by_shape(data):
    L = data.draw(tile_layouts())
    shape = data.draw(shapes_for(L.size()))
    try:
        G, seps = L.group(shape)
    except tl.AlgebraError:
        # impossible only when a boundary cuts an iter at a non-divisor
        return
    assert brute_equivalent(L, G)
    assert seps[0] == 0 and seps[-1] == len(G.shard) and len(seps) == len(shape) + 1
    for d, n in enumerate(shape):
        assert math.prod(i.extent for i in G.shard[seps[d]:seps[d + 1]]) == n


def test_group_errors_and_examples():
    assert tl.parse("S[6:1]").group((2, 3)) == (tl.parse("S[(2,3):(3,1)]"), (0, 1, 2))
    with pytest.raises(tl.AlgebraError, match="neither divides"):
        tl.parse("S[(6,2):(1,7)]").group((4, 3))
    with pytest.raises(tl.ShapeError):
        tl.parse("S[6:1]").group((4,))
