"""Inverse queries (elements_at) against brute-force forward evaluation."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tilelayout as tl
from tests.strategies import shapes_for, tile_layouts
from tilelayout.eval.inverse import count_at, elements_at, solve

TC = "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid"


def brute(layout, query, shape):
    s = layout.check_shape(shape)
    hits = []
    for flat in range(math.prod(s)):
        if any(all(c[a] == v for a, v in query.items()) for c in layout.apply(flat, s)):
            hits.append(tl.core.shape.unflatten(flat, s))
    return tuple(sorted(hits))


@given(st.data())
def test_elements_at_matches_brute_force(data):
    L = data.draw(tile_layouts())
    shape = data.draw(shapes_for(L.size()))
    axes = data.draw(st.lists(st.sampled_from(L.axes), unique=True, max_size=3)) if L.axes else []
    # query values taken from a real coordinate (hits) or random (often misses)
    coords = L.apply(data.draw(st.integers(0, L.size() - 1)), L.size())
    c = data.draw(st.sampled_from(coords))
    query = {a: (c[a] if data.draw(st.booleans()) else data.draw(st.integers(-20, 40))) for a in axes}
    expected = brute(L, query, shape)
    assert elements_at(L, query, shape) == expected
    assert count_at(L, query, shape) == len(expected)


@given(st.data())
def test_elements_at_compose_matches_brute_force(data):
    L = data.draw(tile_layouts(allow_negative=False))
    if "m" not in L.axes:
        L = L.replace(offset={**L.offset, "m": 1})
    sw = tl.Swizzle(data.draw(st.integers(0, 2)), data.draw(st.integers(0, 2)), 2)
    C = tl.ComposeLayout(sw, L)
    target = C.apply(data.draw(st.integers(0, L.size() - 1)))[0]["m"]
    assert C.elements_at({"m": target}) == brute(C, {"m": target}, None)


def test_tensor_core_lane_5():
    L = tl.parse(TC)
    assert L.elements_at({"laneid": 5}, (8, 16)) == ((1, 2), (1, 3), (1, 10), (1, 11))
    # warps 6 and 10 (the replica) hold exactly the right half
    right = tuple((i, j) for i in range(8) for j in range(8, 16))
    assert L.elements_at({"warpid": 6}, (8, 16)) == right
    assert L.elements_at({"warpid": 10}, (8, 16)) == right
    assert L.elements_at({"warpid": 7}, (8, 16)) == ()
    assert L.elements_at({"warpid": 6, "m": 1}, (8, 16)) == tuple(p for p in right if p[1] % 2)


def test_huge_layout_point_query_is_exact():
    L = tl.parse("S[(1024,1024,1024,1024):(1@pid,1048576,1,1024)]")
    flat = 3 * 1024**3 + 5 * 1024**2 + 7 * 1024 + 9
    m = 5 * 1048576 + 7 + 9 * 1024
    assert L.elements_at({"pid": 3, "m": m}) == ((3, 5, 7, 9),)
    assert L.base(flat) == {"pid": 3, "m": m}
    assert solve(L, {"pid": 3}).count == 1024**3


def test_limit_and_errors():
    L = tl.parse("S[(64,64):(1@pid,1)]")
    with pytest.raises(tl.AlgebraError, match="limit"):
        L.elements_at({"pid": 0}, limit=10)
    assert len(L.elements_at({"pid": 0}, limit=None)) == 64
    with pytest.raises(tl.LayoutError, match="no axis 'laneid'"):
        L.elements_at({"laneid": 0})
    with pytest.raises(tl.UnknownAxisError):
        L.elements_at({"lane": 0})


def test_overlapping_iters_use_fallback_and_stay_exact():
    # 20 iters of stride 1 on one axis: the value is a sum of 20 bits
    L = tl.TileLayout([(2, 1, "laneid")] * 14)
    got = L.elements_at({"laneid": 13}, limit=None)
    assert len(got) == math.comb(14, 13)
    assert all(sum(ix) == 13 for ix in got)


@given(st.data())
def test_vectorized_fallback_agrees_with_search(data):
    import tilelayout.eval.inverse as inv

    L = data.draw(tile_layouts())
    if not L.axes:
        return
    a = data.draw(st.sampled_from(L.axes))
    v = data.draw(st.sampled_from(L.apply(0)))[a]
    searched = elements_at(L, {a: v})
    old = inv._SEARCH_BUDGET
    inv._SEARCH_BUDGET = 0  # force the per-axis scan
    try:
        scanned = elements_at(L, {a: v})
    finally:
        inv._SEARCH_BUDGET = old
    assert scanned == searched == brute(L, {a: v}, None)


@pytest.mark.parametrize("value", [10**30, -(10**30), 2**63])
def test_elements_at_huge_query_value_matches_nothing(value):
    M = tl.parse("S[(8,64):(64,1)] + R[2:1@pid]")
    assert M.elements_at({"m": value}) == ()
    assert tl.count_at(M, {"m": value, "pid": 1}) == 0
    C = tl.ComposeLayout(tl.Swizzle(3, 3, 3), tl.parse("S[(8,64):(64,1)]"))
    assert C.elements_at({"m": value}) == ()
