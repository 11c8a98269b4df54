"""slice and permute_dims, against brute force; swizzles survive them."""

from __future__ import annotations

import math

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import tilelayout as tl
from tests.strategies import shapes_for, tile_layouts
from tilelayout.core.shape import unflatten


def cset(layout, index, shape, axes):
    return frozenset(tuple(c.get(a, 0) for a in axes) for c in layout.apply(index, shape))


# -- slice / permute -------------------------------------------------------------------
@given(st.data())
def test_slice_matches_brute_force(data):
    L = data.draw(tile_layouts())
    shape = data.draw(shapes_for(L.size()))
    region = []
    for n in shape:
        a = data.draw(st.integers(0, n - 1))
        b = data.draw(st.integers(a + 1, n))
        region.append((a, b))
    try:
        S = L.slice(shape, region)
    except tl.AlgebraError:
        assume(False)
    sub = tuple(b - a for a, b in region)
    axes = tuple(dict.fromkeys(L.axes + S.axes))
    for f in range(math.prod(sub)):
        y = unflatten(f, sub)
        x = tuple(a + yy for (a, _), yy in zip(region, y, strict=True))
        assert cset(S, y, sub, axes) == cset(L, x, shape, axes)


def test_slice_unaligned_region_is_refused():
    with pytest.raises(tl.AlgebraError, match="not a strided layout"):
        tl.parse("S[(3,4):(1,3)]").slice((12,), ((2, 7),))


@given(st.data())
def test_permute_dims_matches_brute_force(data):
    L = data.draw(tile_layouts())
    shape = data.draw(shapes_for(L.size()))
    perm = tuple(data.draw(st.permutations(range(len(shape)))))
    try:
        P = L.permute_dims(perm, shape)
    except tl.AlgebraError:
        assume(False)
    new = tuple(shape[p] for p in perm)
    axes = L.axes
    for f in range(L.size()):
        y = unflatten(f, new)
        x = [0] * len(shape)
        for j, p in enumerate(perm):
            x[p] = y[j]
        assert cset(P, y, new, axes) == cset(L, tuple(x), shape, axes)


# -- compose layouts -------------------------------------------------------------------
def test_compose_slice_permute_group_keep_swizzle():
    L = tl.ComposeLayout(tl.Swizzle(3, 3, 3), tl.parse("S[(8,64):(64,1)]"))
    S = L.slice((8, 64), ((0, 8), (8, 16)))
    assert [S.base((i, 0), (8, 8))["m"] for i in range(8)] == [L.base((i, 8))["m"]
                                                               for i in range(8)]
    P = L.permute_dims((1, 0), (8, 64))
    assert all(P.base((j, i), (64, 8)) == L.base((i, j)) for i in range(8) for j in range(64))
    G, seps = L.group((8, 64))
    assert isinstance(G, tl.ComposeLayout) and seps == (0, 1, 2)
