"""The CuTe DSL trial (a traced function that builds a layout, run in a child process by
``to_cute_dsl(..., isolate=True)``): the DSL prints what we convert, and a layout the DSL
refuses is one LayoutError here while this process never builds it."""

from __future__ import annotations

import pytest

import tilelayout as tl
from tilelayout.interop.cute import to_cute_dsl
from tilelayout.interop.isolation import ChildPool

pytest.importorskip("cutlass.cute", reason="the CuTe DSL is the optional 'cute-dsl' extra")


@pytest.fixture(scope="module")
def pool():
    p = ChildPool(workers=1, timeout=300)
    yield p
    p.close()


def test_the_dsl_prints_the_layout_we_convert(pool):
    text = pool.call("tilelayout.interop.cute_dsl_trial:dsl_text", ((4, 8), 2), ((32, 1), 16))
    assert text == "((4,8),2):((32,1),16)"
    swizzled = pool.call("tilelayout.interop.cute_dsl_trial:dsl_text", (8, 64), (64, 1), (3, 3, 3), 0)
    assert "S<3,3,3>" in swizzled


def test_outside_a_traced_function_and_beyond_int64_are_one_line_refusals():
    with pytest.raises(tl.LayoutError, match="the CuTe DSL refused") as info:
        to_cute_dsl(tl.parse("S[(8,4,2):(1,32,16)]"), (32, 2))
    assert "\\n" not in str(info.value)
    with pytest.raises(tl.LayoutError, match="int64"):
        to_cute_dsl(tl.algebra.cute.CuteLayout(4, 1 << 70))
    for bad in [None, 3, "S[4"]:
        with pytest.raises(tl.LayoutError):
            to_cute_dsl(bad)


def test_isolate_tries_the_dsl_in_a_child_first():
    # the child builds it inside its traced function; here, outside one, the DSL refuses
    with pytest.raises(tl.LayoutError, match="the CuTe DSL refused"):
        to_cute_dsl("S[(8,4,2):(1,32,16)]", (32, 2), isolate=True)
