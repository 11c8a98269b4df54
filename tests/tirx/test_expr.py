"""The expression nodes: TIRx's node names and attributes, so code that walks TIRx's
expressions (as TVM's own tests do, by ``type(node).__name__``) walks ours."""

from __future__ import annotations

import operator

import pytest

from tilelayout import LayoutError
from tilelayout.tirx import ComposeLayout, S, TileLayout, Var
from tilelayout.tirx.expr import Add, Call, FloorDiv, IntImm, Let, Mul, is_symbolic


def walk_like_tirx(expr, values):
    """An evaluator that knows only TIRx's node names (as TVM's layout tests write one)."""
    kind = type(expr).__name__
    if kind == "IntImm":
        return expr.value
    if kind == "Var":
        return values[expr]
    if kind == "Let":
        return walk_like_tirx(expr.body, {**values, expr.var: walk_like_tirx(expr.value, values)})
    if kind in ("Add", "Sub", "Mul", "FloorDiv", "FloorMod"):
        a, b = walk_like_tirx(expr.a, values), walk_like_tirx(expr.b, values)
        return {"Add": operator.add, "Sub": operator.sub, "Mul": operator.mul,
                "FloorDiv": operator.floordiv, "FloorMod": operator.mod}[kind](a, b)
    if kind == "Call":
        a, b = (walk_like_tirx(x, values) for x in expr.args)
        return {"tirx.bitwise_xor": a ^ b, "tirx.bitwise_and": a & b, "tirx.shift_left": a << b,
                "tirx.shift_right": a >> b}[str(expr.op.name)]
    raise AssertionError(kind)


def test_the_nodes_have_tirx_names_and_attributes():
    x, y = Var("x"), Var("y")
    e = x * 64 + (y ^ ((x & 7) << 3))
    assert isinstance(e, Add) and isinstance(e.a, Mul) and e.a.b.value == 64
    assert isinstance(e.b, Call) and e.b.op.name == "tirx.bitwise_xor"
    assert isinstance(x // 8, FloorDiv) and isinstance((x // 8).b, IntImm)
    assert is_symbolic(e) and not is_symbolic(3)


@pytest.mark.parametrize("tile,inner", [("S[(8,8):(64,1)] + 72", True),
                                        ("S[(8,8):(64,1)] + 4", True),
                                        ("S[(8,8):(64,1)] + 8", False)])
def test_a_tirx_style_walker_evaluates_apply_results(tile, inner):
    x, y = Var("x"), Var("y")
    C = ComposeLayout(3, 3, 3, TileLayout(tile), inner)
    m = C.apply(x, y)["m"]
    assert isinstance(m, Let) is (tile.endswith("+ 4") or not inner)  # TIRx's fallback
    for i in range(8):
        for j in range(8):
            assert walk_like_tirx(m, {x: i, y: j}) == C.apply(i, j)["m"]


def test_equality_is_structural_and_variables_by_identity():
    x, x2 = Var("x"), Var("x")
    assert x + 1 == 1 + x and (x << 3) == x * 8 and x % 8 == (x & 7)
    assert x != x2 and hash(x * 2 + 1) == hash(1 + 2 * x)
    assert (x ^ 3) == (3 ^ x) and (x ^ 3) != (x ^ 4)
    assert TileLayout(S[(8, 8):(8, 1)]).apply(x)["m"] is x
    with pytest.raises(LayoutError, match="identifier"):
        Var("not a name")
