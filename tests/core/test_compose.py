"""ComposeLayout: a swizzle over the ``m`` address of a tile layout; tile_of, rewrap,
value_range."""

import pickle

import pytest

import tilelayout as tl
from tilelayout.core.compose import ComposeLayout, rewrap, tile_of, value_range
from tilelayout.core.errors import LayoutTypeError, SwizzleError

TILE = tl.parse("S[(8,64):(64,1)]")
SW = tl.Swizzle(3, 3, 3)


def test_swizzle_applies_to_m_only():
    L = ComposeLayout(SW, tl.parse("S[(8,64):(64,1)] + R[2:1@pid]"))
    for index in [(0, 0), (1, 0), (7, 63), (3, 17)]:
        plain = L.tile_layout.apply(index)
        swizzled = L.apply(index)
        assert [c["pid"] for c in swizzled] == [c["pid"] for c in plain]
        assert {c["m"] for c in swizzled} == {SW(plain[0]["m"])}


def test_parts_and_sizes_are_the_tile_s():
    L = ComposeLayout(SW, TILE)
    assert (L.swizzle, L.tile_layout) == (SW, TILE)
    assert L.size() == 512 and L.axes == TILE.axes
    assert L.check_shape(None) == (8, 64) and L.admits((64, 8)) and not L.admits((3,))


def test_value_semantics():
    a, b = ComposeLayout(SW, TILE), ComposeLayout(tl.Swizzle(3, 3, 3), tl.parse("S[(8,64):(64,1)]"))
    assert a == b and hash(a) == hash(b) and a != TILE and a != ComposeLayout(tl.Swizzle(2, 3, 3), TILE)
    assert pickle.loads(pickle.dumps(a)) == a
    assert tl.parse(str(a)) == a


def test_refuses_what_is_not_a_swizzle_over_m():
    with pytest.raises(LayoutTypeError):
        ComposeLayout(TILE, TILE)  # type: ignore[arg-type]
    with pytest.raises(LayoutTypeError):
        ComposeLayout(SW, "S[8:1]")  # type: ignore[arg-type]
    with pytest.raises(SwizzleError, match="'m'"):
        ComposeLayout(SW, tl.parse("S[32:1@laneid]"))


def test_tile_of_and_rewrap():
    L = ComposeLayout(SW, TILE)
    assert tile_of(L) is TILE and tile_of(TILE) is TILE
    canon = rewrap(L, lambda t: t.canonicalize())
    assert isinstance(canon, ComposeLayout) and canon.swizzle == SW
    assert canon.tile_layout == tl.parse("S[512:1]")
    assert rewrap(TILE, lambda t: t.canonicalize()) == tl.parse("S[512:1]")


def test_value_range_is_the_min_and_max_over_every_element():
    L = tl.parse("S[(4,3):(-5,2@laneid)] + R[2:7@laneid] + 1@laneid + 9")
    for axis in ("m", "laneid", "pid"):
        values = [c.get(axis, 0) for i in range(L.size()) for c in L.apply(i)]
        assert value_range(L, axis) == (min(values), max(values))
