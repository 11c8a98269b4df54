"""pack, unpack and storage, against brute force."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import tilelayout as tl
from tests.strategies import brute_equivalent, tile_layouts


def cset(layout, index, shape, axes):
    return frozenset(tuple(c.get(a, 0) for a in axes) for c in layout.apply(index, shape))


# -- pack / unpack / storage -----------------------------------------------------------
@given(tile_layouts(max_size=64), st.integers(1, 4), st.sampled_from(["m", "TCol"]))
def test_unpack_then_pack(L, n, axis):
    U = L.unpack(n, axis)
    axes = tuple(dict.fromkeys(L.axes + (axis,)))
    for f in range(U.size()):
        x, j = divmod(f, n)
        want = {tuple(c.get(a, 0) * n + j if a == axis else c.get(a, 0) for a in axes)
                for c in L.apply(x)}
        assert cset(U, f, None, axes) == want
    assert brute_equivalent(U.pack(n, axis), L)


def test_pack_scale_factors_and_refusals():
    L = tl.parse("S[(32,16):(1@TLane,1@TCol)] + R[4:32@TLane]")
    P = L.pack(4, "TCol")
    assert P == tl.parse("S[(32,4):(1@TLane,1@TCol)] + R[4:32@TLane]")
    for f in range(P.size()):
        for j in range(4):  # element 4f+j sits in cell TCol//4 of packed element f
            assert {(c["TLane"], c["TCol"] // 4) for c in L.apply(4 * f + j)} == {
                (c["TLane"], c["TCol"]) for c in P.apply(f)}
    with pytest.raises(tl.AlgebraError, match="consecutive"):
        tl.parse("S[(4,2):(1,4)]").pack(2)
    with pytest.raises(tl.AlgebraError, match="offset"):
        tl.parse("S[4:1] + 1").pack(2)


@given(st.sampled_from(["float8", "float16", "float32"]), st.sampled_from(["32B", "64B", "128B"]),
       st.sampled_from([2, 4]))
def test_pack_compose_adjusts_swizzle(dtype, mode, n):
    sw = tl.Swizzle.for_dtype(dtype, mode)
    assume(sw.per_element >= n.bit_length() - 1)
    L = tl.ComposeLayout(sw, tl.parse("S[(8,128):(128,1)]"))
    P = L.pack(n)
    assert P.swizzle.per_element == sw.per_element - (n.bit_length() - 1)
    for f in range(P.size()):
        assert P.base(f)["m"] * n == L.base(f * n)["m"]
    U = P.unpack(n)
    assert U.swizzle == sw
    assert U.equivalent(L)


@given(tile_layouts())
def test_storage_drops_thread_axes(L):
    S = L.storage()
    mem = [a for a in L.axes if tl.axis(a).kind != "thread"]
    assert not any(tl.axis(a).kind == "thread" for a in S.axes)
    for f in range(L.size()):
        want = {tuple(c.get(a, 0) for a in mem) for c in L.apply(f)}
        assert {tuple(c.get(a, 0) for a in mem) for c in S.apply(f)} == want


def test_pack_and_unpack_by_one_are_the_identity():
    import tilelayout as tl

    for text in ["S[(4,2):(1@laneid,3)] + R[2:1@pid] + 2", "ComposeLayout(Swizzle(3,3,3), S[(8,64):(64,1)])"]:
        L = tl.parse(text)
        assert L.unpack(1) == L and L.pack(1) == L
        assert L.unpack(1, "laneid") == L
