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


def test_group_drops_unit_iters_and_never_leaves_a_group_empty():
    # TIRx's rule (issue 11): strictly increasing seps, one extent-1 iter per size-1 dim
    assert tl.parse("S[(14,4):(4,1)]").group((14, 1, 4)) == (
        tl.parse("S[(14,1,4):(4,4,1)]"), (0, 1, 2, 3))
    assert tl.parse("S[(8,5,1):(5,1,1)]").group((40,)) == (tl.parse("S[(8,5):(5,1)]"), (0, 2))
    assert tl.parse("S[(14,4):(3@laneid,7)]").group((1, 14, 4))[0] == tl.parse(
        "S[(1,14,4):(42@laneid,3@laneid,7)]")
    G, seps = tl.parse("S[(1,3,1):(9,2@laneid,5)]").group((1, 1, 3, 1))
    assert seps == (0, 1, 2, 3, 4) and G == tl.parse("S[(1,1,3,1):(9,9,2@laneid,2@laneid)]")
