"""equivalent, against brute force (and the brute force itself is not trivial)."""

from __future__ import annotations

from hypothesis import given

import tilelayout as tl
from tests.strategies import brute_equivalent, coord_sets, tile_layouts


# -- equivalence -----------------------------------------------------------------------
@given(tile_layouts(), tile_layouts())
def test_equivalent_matches_brute_force(a, b):
    if a.size() != b.size():
        assert not a.equivalent(b)
        return
    assert a.equivalent(b) == brute_equivalent(a, b)
    assert a.equivalent(a.canonicalize())


def test_coord_sets_helper_is_not_trivial():
    # guards the oracle itself: two different layouts must differ under it
    assert coord_sets(tl.parse("S[4:1]")) != coord_sets(tl.parse("S[4:2]"))
