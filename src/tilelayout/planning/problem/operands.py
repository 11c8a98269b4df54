"""What the planning entry points accept as a layout, and the tile they plan for.

``tl.plan_conversion``, ``tl.choose_smem_layout`` and ``tl.smem_access`` (and the CLI and
the explorer through them) take each layout as

* a :class:`~tilelayout.TileLayout` / :class:`~tilelayout.ComposeLayout`,
* layout text (``"S[(32,8):(1@laneid,1)]"``),
* a preset string ``"preset:NAME[:KEY=VALUE...]"`` or a preset object: the preset's
  shape and element type become defaults.

The shape is the one given, else the first preset's. The element type is the one given
(``dtype=``); else the presets' when they agree. Operands that hold *different* element
types (a float32 accumulator stored to a bfloat16 tile) are refused until ``dtype=``
says which one the plan moves; every result states the dtype it planned for.

Presets live in a layer above planning: a preset string is resolved by importing
``tilelayout.presets`` by name at run time (docs/architecture.md lists this upward import by name).

>>> ops = resolve([("preset:mma.m16n8k16.C", "src"), ("S[(16,8):(1,1@laneid)]", "dst")])
>>> ops.shape, ops.dtype, ops.dtype_from
((16, 8), 'float32', 'src (preset mma.m16n8k16.C)')
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...core.compose import ComposeLayout, Layout
from ...core.dtypes import dtype_bits
from ...core.errors import LayoutError
from ...core.shape import shape_arg
from ...core.tile import TileLayout
from ...syntax.parser import parse
from .targeting import Need, TargetChoice, needs, resolve_target

#: what one operand may be, for error messages
ACCEPTED = "a layout, layout text or 'preset:NAME[:KEY=VALUE...]'"


@dataclass(frozen=True)
class Operand:
    """One resolved operand: its ``layout`` and, for a preset, its ``preset`` name,
    ``shape`` and element type ``dtype`` (None where the operand says nothing)."""

    layout: Layout
    what: str
    preset: str | None = None
    shape: tuple[int, ...] | None = None
    dtype: str | None = None
    #: what the operand needs of the GPU target (:func:`.targeting.needs`)
    needs: tuple[Need, ...] = ()


@dataclass(frozen=True)
class Operands:
    """Resolved operands of one tile: ``layouts`` in the order given, the ``shape`` (None:
    the first layout's own), the ``dtype`` planned for and where it came from."""

    operands: tuple[Operand, ...]
    shape: tuple[int, ...] | None
    dtype: str
    dtype_from: str
    target: TargetChoice

    @property
    def layouts(self) -> tuple[Layout, ...]:
        return tuple(o.layout for o in self.operands)


def operand(value: Any, what: str) -> Operand:
    """``value`` as an :class:`Operand` (see the module doc); anything else is a one-line
    ``LayoutError`` naming ``what``.

    >>> operand("preset:wgmma.m64nNk16.D:n=128", "src").shape
    (64, 128)
    """
    if isinstance(value, TileLayout | ComposeLayout):
        return Operand(value, what)
    if isinstance(value, str):
        presets = importlib.import_module("tilelayout.presets")
        if presets.is_preset_text(value):
            return _from_preset(presets.from_text(value, what), what)
        try:
            return Operand(parse(value), what)
        except LayoutError as exc:
            raise type(exc)(f"{what}: {exc}") from None
    layout = getattr(value, "layout", None)
    if isinstance(layout, TileLayout | ComposeLayout) and hasattr(value, "shape"):
        return _from_preset(value, what)
    raise LayoutError(f"{what} must be {ACCEPTED}, got {type(value).__name__}")


def _from_preset(p: Any, what: str) -> Operand:
    name = getattr(p, "name", None)
    return Operand(p.layout, what, name, tuple(p.shape), getattr(p, "dtype", None) or None,
                   needs(name, dict(getattr(p, "params", {}) or {})))


def resolve(values: Sequence[tuple[Any, str]], shape: Sequence[int] | None = None,
            dtype: str | None = None, default_dtype: str | None = "float32",
            target: Any = None) -> Operands:
    """Resolve ``(value, what)`` operands of one tile with its ``shape``, ``dtype`` and
    GPU ``target`` (see the module doc and :mod:`.targeting`). With no dtype given and no
    preset giving one, ``default_dtype`` is used (None: the dtype is required).

    >>> try:
    ...     resolve([("preset:wgmma.m64nNk16.D", "src"),
    ...              ("preset:smem.tile:dtype=bfloat16:shape=64,64", "dst")])
    ... except LayoutError as exc:
    ...     print(str(exc)[:71])
    the operands hold different element types (src: float32, dst: bfloat16)
    """
    ops = tuple(operand(v, what) for v, what in values)
    if shape is None:
        shape = next((o.shape for o in ops if o.shape is not None), None)
    shape = shape_arg(shape)
    held = [(o.what, o.dtype, f"{o.what} (preset {o.preset})") for o in ops]
    planned, source = element_type(dtype, held, default_dtype)
    chosen = resolve_target(target, [n for o in ops for n in o.needs])
    return Operands(ops, shape, planned, source, chosen)


def element_type(given: str | None, held: Sequence[tuple[str, str | None, str]],
                 default: str | None = "float32") -> tuple[str, str]:
    """The dtype to plan for and where it came from: ``given``, else the one the operands
    hold (``(what, dtype or None, source text)`` each) when they agree, else ``default``
    (None: required). Different held dtypes are a one-line error.

    >>> element_type(None, [("src", "float32", "src"), ("dst", None, "dst")])
    ('float32', 'src')
    """
    if given is not None:
        dtype_bits(given)
        return given, "given"
    known = [(what, d, source) for what, d, source in held if d]
    if len({d.lower() for _, d, _ in known}) > 1:
        listed = ", ".join(f"{what}: {d}" for what, d, _ in known)
        raise LayoutError(f"the operands hold different element types ({listed}); say "
                          f"which one to plan for with dtype=")
    if known:
        return known[0][1], known[0][2]
    if default is None:
        raise LayoutError("give dtype= (the element type decides banks and vector widths; "
                          "no preset gives one)")
    return default, "default"
