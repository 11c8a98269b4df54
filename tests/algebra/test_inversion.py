"""inverse(L, shape): physical coordinate -> logical flat index, checked on every element."""

import pytest

import tilelayout as tl
from tilelayout.algebra.inversion import inverse, inverse_shape
from tilelayout.core.errors import AlgebraError


@pytest.mark.parametrize(("text", "shape"), [
    ("S[(8,4):(1,8)]", None),
    ("S[(2,8,4,2):(2,4@laneid,1@laneid,1)]", (16, 8)),
    ("S[(8,2,4,2):(4@laneid,2,1@laneid,1)]", None),
    ("S[(4,4):(1@warpid,1)]", (2, 8)),
])
def test_the_inverse_sends_each_coordinate_back_to_its_element(text, shape):
    L = tl.parse(text)
    inv = inverse(L, shape)
    box = inverse_shape(L)
    assert box == tuple(max(c[a] for i in range(L.size()) for c in L.apply(i)) + 1
                        for a in L.axes)
    for flat in range(L.size()):
        coord = L.base(flat)
        assert inv.base(tuple(coord[a] for a in L.axes), box)["m"] == flat


def test_replicas_map_back_to_their_element():
    L = tl.parse("S[4:1] + R[2:1@pid]")
    inv = inverse(L)
    for flat in range(4):
        for c in L.apply(flat):
            assert inv.base((c["m"], c["pid"]), inverse_shape(L))["m"] == flat


@pytest.mark.parametrize("text", [
    "S[(4,2):(1,0)]",          # two elements at one coordinate
    "S[4:2]",                  # coordinates holding no element
    "S[4:1] + 1",              # an offset
    "S[4:-1]",                 # a negative stride
    "ComposeLayout(Swizzle(1,1,1), S[8:1])",
])
def test_refusals_are_algebra_errors(text):
    with pytest.raises(AlgebraError):
        inverse(tl.parse(text))
