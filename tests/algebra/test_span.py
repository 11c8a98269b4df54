"""span: the covered extent per axis, against brute force."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import tilelayout as tl
from tests.strategies import AXES, tile_layouts


# -- span / size -----------------------------------------------------------------------
@given(tile_layouts(), st.sampled_from(AXES))
def test_span_is_covered_extent(L, axis):
    values = [c.get(axis, 0) for f in range(L.size()) for c in L.apply(f)]
    assert L.span(axis) == max(values) - min(values) + 1
    assert tl.value_range(L, axis) == (min(values), max(values))
