"""coalesce and composition: same function as CuTe's, checked by evaluating both sides."""

from tilelayout.algebra.cute.composition import coalesce, coalesce_leaves, composition
from tilelayout.algebra.cute.modes import CuteLayout


def _values(L: CuteLayout) -> list[int]:
    return [L(i) for i in range(L.size)]


def test_coalesce_keeps_the_function_and_merges_modes():
    A = CuteLayout((2, (1, 6)), (1, (7, 2)))
    C = coalesce(A)
    assert _values(C) == _values(A) and str(C) == "12:1"
    assert coalesce_leaves([2, 1, 6], [1, 7, 2]) == ([12], [1])


def test_coalesce_by_profile_keeps_the_rank():
    A = CuteLayout(((2, 2), (2, 2)), ((1, 2), (8, 16)))
    C = coalesce(A, (1, 1))
    assert C.rank == 2 and _values(C) == _values(A)


def test_composition_is_function_composition():
    A, B = CuteLayout((4, 3), (3, 1)), CuteLayout((6, 2), (2, 1))
    R = composition(A, B)
    assert [R(i) for i in range(B.size)] == [A(B(i)) for i in range(B.size)]


def test_composition_by_mode_with_a_tiler():
    A = CuteLayout((8, 8), (8, 1))
    R = composition(A, (4, None))
    assert str(R) == "(4,8):(8,1)"
