"""LayoutMethod: each layout method is the free function of its layer, bound."""

import inspect

import tilelayout as tl
from tilelayout.core.compose import ComposeLayout
from tilelayout.core.operations import LayoutMethod, LayoutOperations
from tilelayout.core.tile import TileLayout
from tilelayout.eval import forward


def test_every_method_is_its_free_function():
    L = tl.parse("S[(8,4):(4@laneid,1@laneid)]")
    for name in ("apply", "base", "map_all", "span", "slice", "codegen", "table"):
        method = getattr(L, name)
        assert method.__self__ is L and method.__func__ is getattr(TileLayout, name)
        assert getattr(TileLayout, name) is getattr(LayoutOperations, name)
    assert L.span("laneid") == tl.span(L, "laneid") == 32
    assert L.span.__doc__ == tl.span.__doc__
    assert inspect.signature(TileLayout.span) == inspect.signature(tl.span)


def test_a_method_becomes_a_plain_function_after_first_use():
    method = LayoutMethod("tilelayout.algebra.span", "span")

    class Owner:
        span = method

    assert isinstance(vars(Owner)["span"], LayoutMethod)
    function = Owner.span
    assert vars(Owner)["span"] is function is method.function() is tl.span
    assert "tilelayout.algebra.span.span" in repr(method)


def test_both_layout_kinds_share_the_methods():
    C = ComposeLayout(tl.Swizzle(3, 3, 3), tl.parse("S[(8,64):(64,1)]"))
    assert C.base((1, 0)) == forward.base(C, (1, 0)) == {"m": 72}
    assert str(C) == "ComposeLayout(Swizzle(3,3,3), S[(8,64):(64,1)])"


def test_repr_carries_user_axes():
    L = tl.parse("S[(2,4):(1@data,1)]", axes=["data"])
    assert repr(L) == "parse('S[(2,4):(1@data,1)]', axes=['data'])"
    assert eval(repr(L), vars(tl)) == L
    assert repr(tl.parse("S[8:1]")) == "parse('S[8:1]')"
