"""The expression builders: every simplification exact for every integer binding.

Random expression trees over two variables and small constants, built once through the
builders (which fold, collect terms and fuse digits) and once evaluated directly with
Python's integer operators: the built expression, evaluated, equals the direct value at
random bindings, negative ones included (floor semantics, as TIRx's floordiv/floormod).
"""

from __future__ import annotations

import operator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tilelayout import LayoutError
from tilelayout.tirx import symbolic as S

X, Y = S.Var("x"), S.Var("y")
_OPS = {"+": (S.add, operator.add), "-": (S.sub, operator.sub), "*": (S.mul, operator.mul),
        "//": (S.floordiv, operator.floordiv), "%": (S.floormod, operator.mod),
        "^": (lambda a, b: S.bitwise(S.XOR, a, b), operator.xor),
        "&": (lambda a, b: S.bitwise(S.AND, a, b), operator.and_),
        "<<": (lambda a, b: S.shift(S.SHL, a, b), operator.lshift),
        ">>": (lambda a, b: S.shift(S.SHR, a, b), operator.rshift)}


@st.composite
def trees(draw, depth: int = 4):
    """(built expression, function of (x, y) computing the same value directly)."""
    if depth == 0 or draw(st.integers(0, 3)) == 0:
        leaf = draw(st.sampled_from(["x", "y", "c"]))
        if leaf == "c":
            c = draw(st.integers(-9, 70))
            return c, lambda x, y, c=c: c
        return (X, lambda x, y: x) if leaf == "x" else (Y, lambda x, y: y)
    op = draw(st.sampled_from(sorted(_OPS)))
    a, fa = draw(trees(depth - 1))
    if op in ("//", "%"):
        c = draw(st.sampled_from([1, 2, 3, 4, 8, 16, 64, -4]))
        b, fb = c, (lambda x, y, c=c: c)
    elif op in ("<<", ">>"):
        c = draw(st.integers(0, 6))
        b, fb = c, (lambda x, y, c=c: c)
    else:
        b, fb = draw(trees(depth - 1))
    build, direct = _OPS[op]
    return build(a, b), (lambda x, y: direct(fa(x, y), fb(x, y)))


@given(tree=trees(), x=st.integers(-300, 300), y=st.integers(-300, 300))
@settings(max_examples=400, deadline=None)
def test_built_expressions_evaluate_to_the_direct_value(tree, x, y):
    built, direct = tree
    got = built if isinstance(built, int) else built.evaluate({X: x, Y: y})
    assert got == direct(x, y), built


def test_builders_simplify_as_codegen_does():
    assert S.add(S.mul(S.floordiv(X, 8), 8), S.floormod(X, 8)) is X  # fused digits
    assert str(S.add(S.mul(S.floordiv(X, 4), 256), S.mul(S.floormod(X, 4), 64))) == "x * 64"
    assert str(S.floordiv(S.floordiv(X, 8), 4)) == "x // 32"
    assert str(S.floormod(S.floormod(X, 64), 8)) == "x % 8"
    assert str(S.floordiv(S.add(S.mul(X, 64), Y), 8)) == "x * 8 + y // 8"
    assert S.floordiv(S.floormod(X, 8), 8) == 0 and S.sub(X, X) == 0
    assert str(S.mul(S.add(X, 1), 64)) == "x * 64 + 64"


@pytest.mark.parametrize("build,message", [
    (lambda: S.node(1.5), "integer or a symbolic"), (lambda: S.node(True), "integer"),
    (lambda: S.node("x"), "integer or a symbolic"), (lambda: S.floordiv(X, 0), "by zero"),
    (lambda: S.shift(S.SHL, X, -1), "negative count"), (lambda: S.node(1 << 300), "bits"),
    (lambda: S.cast("float32", X), "integers"), (lambda: bool(X + 1), "no truth value"),
])
def test_refusals_are_layout_errors(build, message):
    with pytest.raises(LayoutError, match=message):
        build()


def test_casts_wrap_like_c():
    assert S.cast("uint8", 300) == 44 and S.cast("int8", 200) == -56
    assert S.cast("uint32", X).evaluate({X: -1}) == (1 << 32) - 1
