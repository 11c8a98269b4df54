"""Each language's spelling: constants, booleans, headers, loops."""

import pytest

from tilelayout.codegen.languages import BY_NAME, CUDA, LANGUAGES, PYTHON, TRITON, C
from tilelayout.eval.expressions import binary, var


def test_every_language_has_spelling_rules():
    assert set(BY_NAME) == set(LANGUAGES)
    assert {BY_NAME[n].family for n in LANGUAGES} == {"python", "c", "triton"}


def test_constants_are_64_bit_in_c():
    assert C.constant(1 << 40) == "1099511627776LL" and PYTHON.constant(1 << 40) == "1099511627776"
    assert C.constant(7) == "7" and C.constant(1 << 31).endswith("LL")


@pytest.mark.parametrize(("lang", "both", "either", "negate"), [
    (PYTHON, " and ", " or ", "not "), (C, " && ", " || ", "!"),
])
def test_booleans(lang, both, either, negate):
    assert both in lang.both(["a", "b"]) and either in lang.either("a", "b")
    assert lang.negate("a").startswith(negate.strip()[0])


def test_headers():
    assert PYTHON.header("f", ["i0", "i1"], True) == ["def f(i0, i1):"]
    assert TRITON.header("f", ["i0"], True) == ["@triton.jit", "def f(i0):"]
    head = "\n".join(CUDA.header("f", ["i0"], False))
    assert "__device__" in head and "long long i0" in head


def test_expressions_render_with_the_language_operators():
    e = binary("+", binary(">>", var("i0"), var("i1")), var("i1"))
    assert PYTHON.expr(e) == C.expr(e) == "(i0 >> i1) + i1"
