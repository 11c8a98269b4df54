"""CuteLayout: CuTe's nested modes, its column-major evaluation and the map to our layouts."""

import itertools

import pytest

import tilelayout as tl
from tilelayout.algebra.cute.modes import CuteLayout, as_cute, leaves, of_tile, size_of
from tilelayout.core.errors import LayoutError


def test_evaluation_is_column_major_over_nested_modes():
    L = CuteLayout(((4, 8), 2), ((32, 1), 16))
    # the 1-D index walks the leaves column-major: i = a + 4*b + 32*c
    for a, b, c in itertools.product(range(4), range(8), range(2)):
        assert L(a + 4 * b + 32 * c) == 32 * a + b + 16 * c
    assert L(5, 1) == L(5 + 32)
    assert (L.size, L.rank, L.dims) == (64, 2, (32, 2))
    assert L.cosize == max(L(i) for i in range(L.size)) + 1


def test_modes_and_leaves():
    L = CuteLayout(((2, 2), 4), ((1, 8), 2))
    assert [str(m) for m in L.modes()] == ["(2,2):(1,8)", "4:2"]
    assert leaves(((4, 8), (2, (1, 3)))) == [4, 8, 2, 1, 3] and size_of(((4, 8), 2)) == 64


def test_our_layout_agrees_with_cute_on_every_index():
    L = CuteLayout((4, 3), (3, 1))
    m = L.index_layout()
    assert [int(m.base(i)["m"]) for i in range(12)] == [L(i) for i in range(12)]
    assert as_cute(L.layout, (4, 3)) == L


def test_of_tile_reads_a_plain_tile_back():
    T = tl.parse("S[(8,4,2):(1,32,16)]")
    C = of_tile(T, (32, 2))
    # our row-major (8,4) is CuTe's column-major (4,8); the function is the same
    assert str(C) == "((4,8),2):((32,1),16)" and C.layout == T and C.dims == (32, 2)
    assert C(5, 1) == 32 * 1 + 1 * 1 + 16  # (row 5 of 32: leaf (1, 1)) x column 1


@pytest.mark.parametrize("shape,stride", [((4, 2), (1,)), ((4, (2, 2)), (1, 4)), ("a", 1)])
def test_incongruent_or_non_integer_modes_are_refused(shape, stride):
    with pytest.raises(LayoutError):
        CuteLayout(shape, stride)
