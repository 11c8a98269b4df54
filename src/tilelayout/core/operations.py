"""Operations shared by every layout (TileLayout and ComposeLayout): the model's doors.

Each method *is* a free function of the layer that implements it (``eval``,
``algebra``, ``codegen``, ``syntax``, ``render``), bound to the layout as its first argument: one
signature and one docstring (the function's), so the two spellings cannot drift::

    L.span("m")            is  tilelayout.algebra.span.span(L, "m")
    L.slice(shape, region) is  tilelayout.algebra.slicing.slice_layout(L, shape, region)
    L.codegen(lang="c")    is  tilelayout.codegen.generate.codegen(L, lang="c")

The implementing module is imported on first use, by name (:class:`Door`), so the model
itself imports nothing above ``core``. These doors are the only place where the package
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
from collections.abc import Callable
from typing import Any

from .axes import BUILTIN, axis_of


class Door:
    """A method that is the free function ``module.name`` bound to the layout.

    The module is imported the first time the method is looked up (the model's
    documented evaluation door); the door then puts the function itself on the class, so
    from then on ``L.apply`` is an ordinary method (no lookup cost on hot scalar paths).
    On the class (``TileLayout.span``) it is the function itself.
    """

    __slots__ = ("module", "name", "owner", "attr")

    def __init__(self, module: str, name: str) -> None:
        self.module = module
        self.name = name
        self.owner: type | None = None
        self.attr = name

    def __set_name__(self, owner: type, attr: str) -> None:
        self.owner, self.attr = owner, attr

    def function(self) -> Callable[..., Any]:
        """The free function behind the door."""
        return getattr(importlib.import_module(self.module), self.name)

    def __get__(self, instance: object, owner: type | None = None) -> Callable[..., Any]:
        function = self.function()
        if self.owner is not None:
            setattr(self.owner, self.attr, function)  # opened once: a plain method now
        return function if instance is None else types.MethodType(function, instance)

    def __repr__(self) -> str:
        return f"Door({self.module}.{self.name})"


class LayoutOperations:
    """Evaluation, inverse queries, algebra and display for any layout (each a
    :class:`Door` to the free function named in the comment)."""

    __slots__ = ()

    # -- evaluation: tilelayout.eval ---------------------------------------------------
    apply = Door("tilelayout.eval.forward", "apply")
    base = Door("tilelayout.eval.forward", "base")
    map_all = Door("tilelayout.eval.forward", "map_all")
    elements_at = Door("tilelayout.eval.inverse", "elements_at")

    # -- algebra: tilelayout.algebra (docs/algebra.md) -----------------------------------
    span = Door("tilelayout.algebra.span", "span")
    canonicalize = Door("tilelayout.algebra.canonical", "canonicalize")
    group = Door("tilelayout.algebra.group", "group")
    tile_to = Door("tilelayout.algebra.tiling", "tile_to")
    slice = Door("tilelayout.algebra.slicing", "slice_layout")
    permute_dims = Door("tilelayout.algebra.slicing", "permute_dims")
    pack = Door("tilelayout.algebra.packing", "pack")
    unpack = Door("tilelayout.algebra.packing", "unpack")
    storage = Door("tilelayout.algebra.packing", "storage")
    equivalent = Door("tilelayout.algebra.equivalence", "equivalent")

    # -- code generation: tilelayout.codegen (docs/codegen.md) --------------------------
    codegen = Door("tilelayout.codegen.generate", "codegen")

    # -- text and pictures: tilelayout.syntax, tilelayout.render -------------------------
    __str__ = Door("tilelayout.syntax.printer", "format_layout")
    table = Door("tilelayout.render.table", "layout_table")
    _repr_svg_ = Door("tilelayout.render.svg", "notebook_svg")
    # the explorer widget in a Jupyter kernel with anywidget installed, else None (the SVG)
    _repr_mimebundle_ = Door("tilelayout.explorer.widget", "layout_mimebundle")

    def __repr__(self) -> str:
        # user axes travel with the text, so the repr rebuilds the layout in a fresh
        # interpreter (``from tilelayout import parse, Axis``)
        user = [axis_of(a) for a in self.axes if a not in BUILTIN]  # type: ignore[attr-defined]
        if not user:
            return f"parse({str(self)!r})"
        return f"parse({str(self)!r}, axes={[a.name if a.plain else a for a in user]!r})"
