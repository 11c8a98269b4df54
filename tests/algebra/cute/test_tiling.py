"""The divides and products: tiles hold the elements CuTe's definitions say they hold."""

from tilelayout.algebra.cute.modes import CuteLayout
from tilelayout.algebra.cute.tiling import (
    blocked_product,
    logical_divide,
    logical_product,
    raked_product,
    tiled_divide,
    zipped_divide,
)


def _values(L: CuteLayout) -> list[int]:
    return [L(i) for i in range(L.size)]


def test_logical_divide_regroups_the_same_function():
    A, T = CuteLayout(16, 1), CuteLayout(4, 2)
    D = logical_divide(A, T)
    assert sorted(_values(D)) == list(range(16)) and str(D) == "(4,(2,2)):(2,(1,8))"
    assert [D(i) for i in range(4)] == [0, 2, 4, 6]  # the first tile is the tiler's image


def test_zipped_and_tiled_divide_hold_the_tiles_in_mode_0():
    A = CuteLayout((8, 8), (8, 1))
    Z = zipped_divide(A, (2, 4))
    assert str(Z) == "((2,4),(4,2)):((8,1),(16,4))" and Z.dims == (8, 8)
    tile = {Z(i) for i in range(8)}  # the first 2x4 tile: rows 0-1, columns 0-3
    assert tile == {8 * r + c for r in range(2) for c in range(4)}
    T = tiled_divide(A, (2, 4))
    assert sorted(_values(T)) == sorted(_values(Z)) and T.rank == 3


def test_products_repeat_the_block():
    B = CuteLayout((2, 2), (4, 1))
    P = logical_product(B, CuteLayout(6, 1))
    assert P.size == 24 and sorted(_values(P)) == list(range(24))
    assert [P(i) for i in range(4)] == _values(B)


def test_blocked_versus_raked_product():
    blocked = blocked_product(CuteLayout(4, 1), CuteLayout(3, 1))
    raked = raked_product(CuteLayout(4, 1), CuteLayout(3, 1))
    # blocked: a block's 4 elements are consecutive coordinates; raked: consecutive
    # coordinates visit element 0 of each of the 3 blocks first (the blocks interleave)
    assert _values(blocked) == list(range(12)) and str(blocked) == "(4,3):(1,4)"
    assert [raked(i) for i in range(4)] == [0, 4, 8, 1] and str(raked) == "(3,4):(4,1)"
    assert sorted(_values(raked)) == list(range(12))
