"""Layouts as bit maps (Triton's linear-layout bases): each axis bit moves one logical bit."""

import pytest

import tilelayout as tl
from tilelayout.algebra.bits import bases_layout, dim_bits, layout_bases, log2_exact, squeeze
from tilelayout.core.errors import AlgebraError

CASES = [
    ("S[(2,8,4,2):(2,4@laneid,1@laneid,1)]", (16, 8)),
    ("S[(4,8):(1@warpid,1@laneid)] + R[2:1]", (4, 8)),
    ("S[(2,2,32):(1@warpid,1,1@laneid)]", (4, 32)),
    ("S[(8,64):(64,1)]", (8, 64)),
]


@pytest.mark.parametrize(("text", "shape"), CASES)
def test_the_element_at_a_basis_vector_sits_at_that_bit(text, shape):
    L = tl.parse(text)
    bases = layout_bases(L, shape)
    for axis, vectors in bases.items():
        for k, v in enumerate(vectors):
            if any(v):
                assert L.base(tuple(v), shape)[axis] == 1 << k, (axis, k, v)
            else:  # a replica bit: the element at 0 is also at bit k
                assert {c[axis] for c in L.apply(0, shape)} >= {0, 1 << k}


@pytest.mark.parametrize(("text", "shape"), CASES)
def test_bases_read_back_as_the_same_layout(text, shape):
    L = tl.parse(text)
    back = bases_layout(layout_bases(L, shape), shape)
    assert all(set(back.apply(i, shape)) == set(L.apply(i, shape)) for i in range(L.size()))


@pytest.mark.parametrize("text", ["S[4:1] + 1", "S[3:1]", "S[4:3]", "S[(2,2):(1,1)]", "S[4:-1]"])
def test_what_is_not_a_bit_map_is_refused(text):
    with pytest.raises(AlgebraError):
        layout_bases(tl.parse(text))


def test_an_xor_basis_is_refused_with_its_reason():
    with pytest.raises(AlgebraError):
        bases_layout({"m": [[0, 1], [1, 1]]}, (2, 2))


def test_helpers():
    assert log2_exact(8, "extent") == 3
    with pytest.raises(AlgebraError):
        log2_exact(6, "extent")
    assert dim_bits((2, 4)) == [(1, 0), (1, 1), (0, 0)]  # (dim, bit) of each flat bit, low first


def test_squeeze_drops_a_unit_dimension_and_its_register_copies():
    L = tl.parse("S[(32,2):(1@laneid,2)] + R[2:1]")
    assert squeeze(L, (1, 32, 2), 0) == tl.parse("S[(32,2):(1@laneid,1)]")
    with pytest.raises(AlgebraError):
        squeeze(L, (1, 32, 2), 1)
