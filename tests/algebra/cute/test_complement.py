"""complement, right_inverse and left_inverse: CuTe's definitions, checked as functions."""

import pytest

from tilelayout.algebra.cute.complement import complement, left_inverse, right_inverse
from tilelayout.algebra.cute.composition import composition
from tilelayout.algebra.cute.modes import CuteLayout
from tilelayout.core.errors import LayoutError


def test_complement_fills_the_gaps_without_overlap():
    A = CuteLayout((2, 4), (1, 4))
    C = complement(A, 32)
    image = {A(i) + C(j) for i in range(A.size) for j in range(C.size)}
    assert image == set(range(32)) and A.size * C.size == 32


def test_right_inverse_undoes_the_layout_on_its_image():
    A = CuteLayout((8, 4), (4, 1))
    R = right_inverse(A)
    assert all(A(R(i)) == i for i in range(R.size)) and R.size == 32


def test_left_inverse_recovers_the_index():
    A = CuteLayout((4, 2), (2, 8))
    L = left_inverse(A)
    assert all(L(A(i)) == i for i in range(A.size))
    assert [composition(L, A)(i) for i in range(A.size)] == list(range(A.size))


def test_a_broadcast_has_only_a_partial_right_inverse():
    R = right_inverse(CuteLayout((2, 4), (0, 1)))
    assert R.size == 4


def test_complement_of_an_overlapping_layout_is_refused():
    with pytest.raises(LayoutError):
        complement(CuteLayout((2, 2), (1, 1)), 8)
