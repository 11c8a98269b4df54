"""Memory layouts from offset bases: the element at XOR of the bases of o sits at offset o."""

import pytest

from tilelayout.algebra.offsets import flat_vector, logical_vector, offsets_layout
from tilelayout.core.errors import AlgebraError

NVMMA_128B = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [1, 8], [2, 16], [4, 32]]


def _coordinate(bases, offset):
    out = [0] * len(bases[0])
    for k, b in enumerate(bases):
        if offset >> k & 1:
            out = [x ^ y for x, y in zip(out, b, strict=True)]
    return tuple(out)


@pytest.mark.parametrize(("bases", "shape"), [
    (NVMMA_128B, (8, 64)),
    ([[1, 0], [2, 0], [0, 1]], (4, 2)),
    ([[0, 1], [1, 1]], (2, 2)),
    ([[0, 1], [0, 2], [1, 0], [2, 1], [4, 2]], (8, 4)),
])
def test_every_offset_holds_the_element_its_bases_name(bases, shape):
    L = offsets_layout(bases, shape)
    for offset in range(1 << len(bases)):
        assert L.base(_coordinate(bases, offset), shape)["m"] == offset


def test_the_128b_nvmma_layout_is_the_plain_swizzle():
    assert str(offsets_layout(NVMMA_128B, (8, 64))) == "ComposeLayout(Swizzle(3,3,3), S[(8,64):(64,1)])"


def test_a_zero_basis_is_padding():
    L = offsets_layout([[0, 1], [0, 0], [1, 0]], (2, 2))
    assert sorted(L.base((i, j), (2, 2))["m"] for i in range(2) for j in range(2)) == [0, 1, 4, 5]


def test_vectors_convert_both_ways():
    assert flat_vector([1, 2], (2, 4), "basis") == 6 and logical_vector(6, (2, 4)) == [1, 2]
    with pytest.raises(AlgebraError):
        offsets_layout([[0, 1], [0, 1]], (1, 4))  # two offsets, one element
