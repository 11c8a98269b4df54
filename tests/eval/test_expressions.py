"""Index expressions: simplified forward maps that compute exactly what the layout does."""

import itertools

import pytest

import tilelayout as tl
from tilelayout.eval.expressions import (
    binary,
    const,
    count_ops,
    floordiv,
    forward_program,
    linear,
    modulo,
    naive_ops,
    render,
    scale,
    var,
    xor_expr,
    xor_images,
)

LAYOUTS = [
    ("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + 5@warpid", (8, 16)),
    ("S[(4,8):(1,4)]", (4, 8)),
    ("S[(3,5):(-5,1)] + 20", (15,)),
    ("S[(2,3,4):(12,1,3)]", (6, 4)),
    ("ComposeLayout(Swizzle(3,3,3), S[(8,64):(64,1)])", (8, 64)),
    ("S[(6,4):(1@pid,6)] + R[2:1@warpid]", (6, 4)),
]


def _run(prog, values):
    """The program's locals, then each axis's value, as Python statements run in order."""
    scope = dict(zip(prog.args, values, strict=True))
    for name, e in [*prog.locals_.items(), *zip(prog.names, prog.outputs, strict=True)]:
        exec(f"{name} = {render(e)}", {}, scope)
    return [scope[n] for n in prog.names]


@pytest.mark.parametrize(("text", "shape"), LAYOUTS)
def test_the_program_computes_base_on_every_element(text, shape):
    L = tl.parse(text)
    prog = forward_program(L, shape, replicas=False)
    assert prog.axes == L.axes
    for index in itertools.product(*(range(n) for n in shape)):
        assert _run(prog, index) == [L.base(index, shape)[a] for a in L.axes]


@pytest.mark.parametrize(("text", "shape"), LAYOUTS)
def test_simplified_never_costs_more_than_the_textbook_expansion(text, shape):
    L = tl.parse(text)
    prog = forward_program(L, shape)
    assert all(s <= n for s, n in zip(prog.ops_per_axis(), naive_ops(L, shape), strict=True))


def test_builders_fold_powers_of_two_and_constants():
    x = var("x")
    assert render(floordiv(x, 8)) == "x >> 3" and render(modulo(x, 8)) == "x & 7"
    assert render(scale(x, 4)) == "x << 2" and render(scale(x, 1)) == "x"
    assert render(floordiv(x, 1)) == "x" and render(modulo(x, 1)) == "0"
    assert render(linear([(x, 1), (var("y"), -2)], 3)) in ("x - (y << 1) + 3", "x + 3 - (y << 1)")
    assert render(binary("+", const(2), const(3))) == "5"
    assert count_ops([binary("+", x, var("y"))]) == 1


def test_xor_images_describe_the_swizzle():
    L = tl.parse("ComposeLayout(Swizzle(1,2,3), S[64:1])")
    images = xor_images(L)
    sw = L.swizzle
    for a in range(64):
        value = 0
        for k, img in enumerate(images):
            if a >> k & 1:
                value ^= img
        value |= a & ~((1 << len(images)) - 1)
        assert value == sw(a)
        assert eval(render(xor_expr(var("m"), images)), {"m": a}) == sw(a)
    assert xor_images(tl.parse("S[8:1]")) is None


def test_a_right_operand_of_the_same_operator_keeps_its_parentheses_where_it_would_regroup():
    """``x * ((x % 2) * x)`` is not ``x * x % 2 * x`` (found by the TIRx spelling fuzz);
    ``x * (x * x)`` may still drop them."""
    x = var("x")
    cases = [binary("*", x, binary("*", binary("%", x, const(2)), x)),
             binary("+", x, binary("+", binary("-", x, const(2)), x)),
             binary("*", x, binary("*", x, x))]
    assert [render(e) for e in cases] == ["x * (x % 2 * x)", "x + (x - 2 + x)", "x * x * x"]
    for e, v in zip(cases, (3 * (3 % 2 * 3), 3 + (3 - 2 + 3), 27), strict=True):
        assert eval(render(e), {}, {"x": 3}) == v  # noqa: S307
