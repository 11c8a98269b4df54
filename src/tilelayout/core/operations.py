"""Operations shared by every layout (TileLayout and ComposeLayout): methods that are free functions.

Each method *is* a free function of the layer that implements it (``eval``,
``algebra``, ``codegen``, ``syntax``, ``render``), bound to the layout as its first argument: one
signature and one docstring (the function's), so the two spellings cannot drift::

    L.span("m")            is  tilelayout.algebra.span.span(L, "m")
    L.slice(shape, region) is  tilelayout.algebra.slicing.slice_layout(L, shape, region)
    L.codegen(lang="c")    is  tilelayout.codegen.generate.codegen(L, lang="c")

The implementing module is imported on first use, by name (:class:`LayoutMethod`), so the model
itself imports nothing above ``core``. These methods are the only place where the package
reaches up the layer order (``docs/architecture.md``; ``tests/test_layers.py`` checks it).

>>> import tilelayout as tl
>>> L = tl.parse("S[(8,4):(4@laneid,1@laneid)]")
>>> L.elements_at({"laneid": 5}), L.span("laneid")
(((1, 1),), 32)
>>> import inspect
>>> str(inspect.signature(L.span)), L.span.__doc__ == tl.span.__doc__
("(axis: 'str | None' = 'm', *, covered: 'bool' = False) -> 'int'", True)
"""

from __future__ import annotations

import importlib
import types
import weakref
from collections.abc import Callable
from typing import Any

from .axes import BUILTIN, axis_of


class LayoutMethod:
    """A method that is the free function ``module.name`` bound to the layout.

    The model's documented way up the layers: the class body names the function, and
    :func:`bind_methods` (run once by the package, as ``import tilelayout`` finishes)
    puts the function itself on the class, so ``L.apply`` is an ordinary method (no lookup
    cost on hot scalar paths). Until then (while the package imports), and always for a
    ``lazy`` method (pictures and the notebook widget, whose modules ``import tilelayout``
    does not load), a lookup imports the module by name and binds the function to the
    layout, changing nothing. On the class (``TileLayout.span``) it is the function itself.
    """

    __slots__ = ("module", "name", "lazy")

    def __init__(self, module: str, name: str, *, lazy: bool = False) -> None:
        self.module = module
        self.name = name
        self.lazy = lazy

    def function(self) -> Callable[..., Any]:
        """The free function this method is."""
        return getattr(importlib.import_module(self.module), self.name)

    def __get__(self, instance: object, owner: type | None = None) -> Callable[..., Any]:
        function = self.function()
        return function if instance is None else types.MethodType(function, instance)

    def __repr__(self) -> str:
        return f"LayoutMethod({self.module}.{self.name})"


def bind_methods(*owners: type) -> None:
    """Put each :class:`LayoutMethod`'s function on its class (``owners``: by default
    :class:`LayoutOperations` and every subclass), ``lazy`` ones aside: what ``import
    tilelayout`` does once every layer has imported, so after import the classes hold plain
    functions and no later call changes them. Binding twice changes nothing.

    >>> import tilelayout as tl
    >>> from tilelayout.core.tile import TileLayout
    >>> vars(TileLayout)["tile"] is tl.tile, vars(LayoutOperations)["span"] is tl.span
    (True, True)
    """
    todo = list(owners) or [LayoutOperations]
    while todo:
        owner = todo.pop()
        for attr, value in list(vars(owner).items()):
            if isinstance(value, LayoutMethod) and not value.lazy:
                setattr(owner, attr, value.function())
        if not owners:
            todo.extend(owner.__subclasses__())


class LayoutKey(weakref.ref):
    """A layout object's identity as a cheap dictionary key: a weak reference to the
    layout that equals only itself and hashes as the layout (the hash computed once, by
    CPython, not by a Python-level ``__hash__`` per lookup). Each layout makes one at
    construction (``L._ref``); :data:`tilelayout.eval.compiled.PLANS` keys the compiled
    plans by it. It holds no cache and does not keep the layout alive.

    >>> import tilelayout as tl
    >>> L, M = tl.parse("S[8:1]"), tl.parse("S[8:1]")
    >>> L._ref() is L, L._ref == M._ref, hash(L._ref) == hash(L)
    (True, False, True)
    """

    __slots__ = ()
    __eq__ = object.__eq__  # identity: equal layouts keep their own keys
    __ne__ = object.__ne__
    __hash__ = weakref.ref.__hash__  # the referent's hash, computed once


class LayoutOperations:
    """Evaluation, inverse queries, algebra and display for any layout (each a
    :class:`LayoutMethod` to the free function named in the comment)."""

    __slots__ = ()

    # -- evaluation: tilelayout.eval ---------------------------------------------------
    apply = LayoutMethod("tilelayout.eval.forward", "apply")
    base = LayoutMethod("tilelayout.eval.forward", "base")
    map_all = LayoutMethod("tilelayout.eval.forward", "map_all")
    elements_at = LayoutMethod("tilelayout.eval.inverse", "elements_at")

    # -- algebra: tilelayout.algebra (docs/algebra.md) -----------------------------------
    span = LayoutMethod("tilelayout.algebra.span", "span")
    canonicalize = LayoutMethod("tilelayout.algebra.canonical", "canonicalize")
    group = LayoutMethod("tilelayout.algebra.group", "group")
    tile_to = LayoutMethod("tilelayout.algebra.tiling", "tile_to")
    slice = LayoutMethod("tilelayout.algebra.slicing", "slice_layout")
    permute_dims = LayoutMethod("tilelayout.algebra.slicing", "permute_dims")
    pack = LayoutMethod("tilelayout.algebra.packing", "pack")
    unpack = LayoutMethod("tilelayout.algebra.packing", "unpack")
    storage = LayoutMethod("tilelayout.algebra.packing", "storage")
    equivalent = LayoutMethod("tilelayout.algebra.equivalence", "equivalent")

    # -- code generation: tilelayout.codegen (docs/codegen.md) --------------------------
    codegen = LayoutMethod("tilelayout.codegen.generate", "codegen")

    # -- text and pictures: tilelayout.syntax, tilelayout.render -------------------------
    __str__ = LayoutMethod("tilelayout.syntax.printer", "format_layout")
    # lazy: their modules load on first use (the renderer, 15 ms; the explorer, 70 ms)
    table = LayoutMethod("tilelayout.render.table", "layout_table", lazy=True)
    _repr_svg_ = LayoutMethod("tilelayout.render.svg", "notebook_svg", lazy=True)
    # the explorer widget in a Jupyter kernel with anywidget installed, else None (the SVG)
    _repr_mimebundle_ = LayoutMethod("tilelayout.explorer.widget", "layout_mimebundle",
                                     lazy=True)

    def __repr__(self) -> str:
        # user axes travel with the text, so the repr rebuilds the layout in a fresh
        # interpreter (``from tilelayout import parse, Axis``)
        user = [axis_of(a) for a in self.axes if a not in BUILTIN]  # type: ignore[attr-defined]
        if not user:
            return f"parse({str(self)!r})"
        return f"parse({str(self)!r}, axes={[a.name if a.plain else a for a in user]!r})"
