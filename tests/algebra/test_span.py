"""span: TIRx's 1 + O + sum((e-1)*s) by default, the covered extent on request, against
brute force."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import tilelayout as tl
from tests.strategies import AXES, tile_layouts


# -- span / size -----------------------------------------------------------------------
@given(tile_layouts(), st.sampled_from(AXES))
def test_covered_span_is_covered_extent(L, axis):
    values = [c.get(axis, 0) for f in range(L.size()) for c in L.apply(f)]
    assert L.span(axis, covered=True) == max(values) - min(values) + 1
    assert tl.value_range(L, axis) == (min(values), max(values))


@given(tile_layouts(), st.sampled_from(AXES))
def test_span_is_tirx_formula(L, axis):
    values = [c.get(axis, 0) for f in range(L.size()) for c in L.apply(f)]
    iters = [i for i in L.shard + L.replica if i.axis == axis]
    assert L.span(axis) == 1 + L.offset.get(axis, 0) + sum((i.extent - 1) * i.stride for i in iters)
    if all(i.stride >= 0 for i in iters) and L.offset.get(axis, 0) >= 0:
        assert L.span(axis) == max(values) + 1  # one past the largest value


def test_span_examples():
    L = tl.parse("S[4:-1] + 10")
    assert (L.span("m"), L.span("m", covered=True), L.span(None)) == (8, 4, 8)
    assert tl.parse("S[4:-1]").span("m") == -2
    assert tl.parse("S[4:1@laneid]").span("m") == 1 == tl.parse("S[4:1@laneid]").span("m", covered=True)


def test_span_none_sums_the_memory_axes_as_tirx():
    # TIRx's default span: 1 + sum(span(a) - 1) over m, TLane, TCol, P, F, Bank; thread
    # axes do not count (values checked against apache-tvm-tirx in tests/tirx/test_api.py)
    cases = {"S[(2,4):(3@TLane,1)]": 7, "S[(2,4):(3@TLane,1@TCol)]": 7, "S[4:1@laneid]": 1,
             "S[(2,4):(3@TLane,1)] + 5@TLane": 12, "S[(2,4):(-3@TLane,1)]": 1,
             "S[(2,4):(3@TLane,1)] + R[2:10@TLane]": 17, "S[(2,4):(3@laneid,1)] + 7@laneid": 4}
    for text, want in cases.items():
        L = tl.parse(text)
        assert tl.span(L, None) == want, text
        assert tl.span(L, None) == 1 + sum(tl.span(L, a) - 1 for a in ("m", "TLane", "TCol"))
