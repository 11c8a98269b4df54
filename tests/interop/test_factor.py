"""split_by_shape and first_difference, shared by the converters."""

import itertools

import pytest

import tilelayout as tl
from tilelayout.core.iter import Iter
from tilelayout.interop import InteropError
from tilelayout.interop.factor import first_difference, split_by_shape


@pytest.mark.parametrize(("text", "shape"), [
    ("S[32:1]", (4, 8)), ("S[(8,4):(4@laneid,1@laneid)]", (2, 16)),
    ("S[(2,8,4,2):(2,4@laneid,1@laneid,1)]", (16, 8)), ("S[(4,1,6):(6,9,1)]", (2, 2, 6)),
])
def test_the_groups_rebuild_the_same_map_per_dimension(text, shape):
    L = tl.parse(text)
    groups = split_by_shape(L.shard, shape)
    assert len(groups) == len(shape)
    assert all(it.extent != 1 for g in groups for it in g)
    assert [_size(g) for g in groups] == list(shape)
    regrouped = tl.TileLayout([it for g in groups for it in g])
    for index in itertools.product(*(range(n) for n in shape)):
        assert regrouped.base(index, shape) == L.base(index, shape)


def _size(group):
    n = 1
    for it in group:
        n *= it.extent
    return n


def test_a_boundary_inside_an_iter_that_does_not_divide_is_refused():
    with pytest.raises(InteropError):  # the 4-iter straddles the 3 | 4 boundary
        split_by_shape([Iter(4, 3), Iter(3, 1)], (3, 4))


def test_first_difference():
    a = tl.parse("S[(4,4):(4,1)]")
    assert first_difference(a, a, (4, 4)) is None
    assert first_difference(a, tl.parse("S[(4,4):(1,4)]"), (4, 4)) == 1
    # replicas compare as sets; an extra axis counts as a difference
    r1 = tl.parse("S[4:1] + R[2:1@pid]")
    r2 = tl.parse("S[4:1] + R[(2,2):(1@pid,0@pid)]")
    assert first_difference(r1, r2, (4,)) is None
    assert first_difference(r1, tl.parse("S[4:1] + 1@pid"), (4,)) == 0
