"""max_common_vector(a, b, shape) against its definition, counted element by element."""

import pytest

import tilelayout as tl
from tilelayout.algebra.common_vector import max_common_vector


def _brute(a, b, shape):
    """The largest N with a(b^-1(o_b + n)) == o_a + n for every n < N (at least 1)."""
    size = a.size()
    where_b = {b.base(i, shape)["m"]: i for i in range(size)}
    o_a = min(a.base(i, shape)["m"] for i in range(size))
    o_b = min(where_b)
    n = 0
    while o_b + n in where_b and a.base(where_b[o_b + n], shape)["m"] == o_a + n:
        n += 1
    return max(1, n)


@pytest.mark.parametrize(("a", "b", "shape"), [
    ("S[(8,64):(64,1)]", "S[(8,8,8):(8,64,1)]", (8, 64)),
    ("S[(8,64):(64,1)]", "S[(8,64):(64,1)]", None),
    ("S[(8,64):(1,8)]", "S[(8,64):(64,1)]", None),
    ("S[(4,6):(6,1)]", "S[(4,6):(8,1)]", None),
    ("S[(4,6):(6,1)]", "S[(2,2,6):(12,6,1)]", (4, 6)),
    ("S[(3,4):(4,1)]", "S[(3,4):(1,3)]", None),
    ("S[(2,4,4):(16,4,1)]", "S[(2,16):(16,1)]", (2, 16)),
])
def test_matches_the_definition(a, b, shape):
    A, B = tl.parse(a), tl.parse(b)
    assert max_common_vector(A, B, shape) == _brute(A, B, shape)


def test_a_swizzle_caps_the_vector_at_its_aligned_runs():
    row = tl.parse("S[(8,64):(64,1)]")
    assert max_common_vector(row, tl.ComposeLayout(tl.Swizzle(3, 3, 3), row)) == 8
    swizzled = tl.ComposeLayout(tl.Swizzle(2, 3, 3), row)
    assert max_common_vector(row, swizzled) == 4 <= _brute(row, swizzled, None)  # a lower bound
