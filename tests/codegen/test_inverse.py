"""The inverse map as code: exists exactly when no two elements share a coordinate."""

import itertools

import pytest

import tilelayout as tl
from tilelayout.codegen.generate import codegen
from tilelayout.codegen.inverse import NotInvertibleError, check_invertible, shared_coordinate
from tilelayout.core.errors import BudgetError

INVERTIBLE = ["S[(4,8):(1,4)]", "S[(4,3):(-1,8)] + 7", "S[(6,5):(7,1)]",
              "S[(2,4):(1@pid,1)] + R[2:1@warpid]", "S[(3,4):(5,1)]"]


@pytest.mark.parametrize("text", INVERTIBLE)
def test_python_inverse_against_every_coordinate_in_a_box(text):
    L = tl.parse(text)
    scope: dict = {}
    exec(codegen(L, inverse=True), scope)
    inv = scope["layout_fn"]
    owner = {}
    for flat in range(L.size()):
        for c in L.apply(flat):
            owner[tuple(c[a] for a in L.axes)] = flat
    ranges = [range(min(k[i] for k in owner) - 2, max(k[i] for k in owner) + 3)
              for i in range(len(L.axes))]
    for point in itertools.product(*ranges):
        assert inv(*point) == owner.get(point, -1), point


def test_shared_coordinates_are_found_and_refused():
    L = tl.parse("S[(2,2):(0,1)]")
    assert shared_coordinate(L, (2, 2)) == (0, 2)
    with pytest.raises(NotInvertibleError):
        check_invertible(L, (2, 2))
    with pytest.raises(NotInvertibleError):
        codegen(L, inverse=True)
    assert shared_coordinate(tl.parse("S[(2,2):(2,1)]"), (2, 2)) is None


def test_the_scan_is_budgeted():
    L = tl.parse("S[(1024,1024):(1024,1)]")
    with pytest.raises(BudgetError):
        codegen(L, inverse=True, limits=tl.Limits(elements=1000))
