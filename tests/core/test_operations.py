"""LayoutMethod: each layout method is the free function of its layer, bound."""

import inspect

import tilelayout as tl
from tilelayout.core.compose import ComposeLayout
from tilelayout.core.operations import LayoutMethod, LayoutOperations, bind_methods
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


def test_a_method_is_bound_at_import_and_a_lookup_changes_nothing():
    # after `import tilelayout` the classes hold the functions themselves ...
    for owner in (LayoutOperations, TileLayout):
        left = {k: v for k, v in vars(owner).items()
                if isinstance(v, LayoutMethod) and not v.lazy}
        assert left == {}, f"unbound layout methods on {owner.__name__}: {sorted(left)}"
    assert vars(TileLayout)["tile"] is tl.tile and vars(LayoutOperations)["span"] is tl.span
    # ... and a lookup through a LayoutMethod (a lazy one, or one not yet bound) is pure
    method = LayoutMethod("tilelayout.algebra.span", "span")

    class Owner:
        span = method

    assert Owner.span is method.function() is tl.span
    L = tl.parse("S[8:1]")
    assert Owner.span.__get__(L)() == 8 and vars(Owner)["span"] is method  # still the method
    assert "tilelayout.algebra.span.span" in repr(method)
    # binding puts the function on the class, and binding again changes nothing
    bind_methods(Owner)
    assert vars(Owner)["span"] is tl.span
    bind_methods(Owner)
    assert vars(Owner)["span"] is tl.span


def test_lazy_methods_stay_lazy_and_do_not_change_the_class():
    table = vars(LayoutOperations)["table"]
    assert isinstance(table, LayoutMethod) and table.lazy
    L = tl.parse("S[(2,2):(2,1)]")
    assert L.table() == tl.render.table.layout_table(L)
    assert vars(LayoutOperations)["table"] is table


def test_both_layout_kinds_share_the_methods():
    C = ComposeLayout(tl.Swizzle(3, 3, 3), tl.parse("S[(8,64):(64,1)]"))
    assert C.base((1, 0)) == forward.base(C, (1, 0)) == {"m": 72}
    assert str(C) == "ComposeLayout(Swizzle(3,3,3), S[(8,64):(64,1)])"


def test_repr_carries_user_axes():
    L = tl.parse("S[(2,4):(1@data,1)]", axes=["data"])
    assert repr(L) == "parse('S[(2,4):(1@data,1)]', axes=['data'])"
    assert eval(repr(L), vars(tl)) == L
    assert repr(tl.parse("S[8:1]")) == "parse('S[8:1]')"
