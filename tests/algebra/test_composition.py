"""compose(outer, inner): the layout of x -> outer(inner(x)), checked element by element."""

import pytest

import tilelayout as tl
from tilelayout.algebra.composition import compose
from tilelayout.core.errors import AlgebraError


@pytest.mark.parametrize(("outer", "inner", "shape"), [
    ("S[(4,8):(1,4)]", "S[(8,4):(4,1)]", (8, 4)),
    ("S[(8,4):(4@laneid,1@laneid)]", "S[(4,8):(1,4)]", (4, 8)),
    ("S[(2,8,4,2):(2,4@laneid,1@laneid,1)]", "S[(16,8):(8,1)]", (16, 8)),
    ("S[(4,4):(4,1)] + R[2:1@pid]", "S[(2,8):(1,2)]", (2, 8)),
    ("ComposeLayout(Swizzle(1,1,2), S[(4,8):(8,1)])", "S[(8,4):(1,8)]", (8, 4)),
    ("S[32:1]", "S[(4,2):(2,1)] + 8", (4, 2)),
])
def test_composition_is_outer_after_inner_on_every_element(outer, inner, shape):
    O, I = tl.parse(outer), tl.parse(inner)
    C = compose(O, I)
    for x in range(I.size()):
        flat = I.base(x, shape)["m"]
        assert set(C.apply(x, shape)) == set(O.apply(flat)), x


def test_inner_replicas_become_replicas():
    O, I = tl.parse("S[8:1@laneid]"), tl.parse("S[4:1] + R[2:4]")
    C = compose(O, I)
    assert C.replica_count == 2
    assert {c["laneid"] for c in C.apply(1)} == {1, 5}


@pytest.mark.parametrize(("outer", "inner"), [
    ("S[(4,3):(1,4)]", "S[4:2]"),               # stride 2 does not split evenly over extent 3
    ("S[8:1]", "S[4:4]"),                       # values beyond outer's size
    ("S[8:1]", "S[4:-1]"),                      # a negative stride
    ("S[8:1]", "ComposeLayout(Swizzle(1,1,1), S[8:1])"),  # a swizzled inner
])
def test_refusals_are_algebra_errors(outer, inner):
    with pytest.raises(AlgebraError):
        compose(tl.parse(outer), tl.parse(inner))
