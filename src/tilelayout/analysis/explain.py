"""Explain one element: the four steps of the forward mapping, as data and as text.

>>> import tilelayout as tl
>>> L = tl.parse("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid")
>>> e = explain(L, (7, 15), (8, 16))
>>> e.flat, e.components
(127, (7, 1, 3, 1))
>>> [dict(c) for c in e.coords]
[{'laneid': 31, 'warpid': 6, 'm': 1}, {'laneid': 31, 'warpid': 10, 'm': 1}]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.compose import ComposeLayout, tile_of
from ..core.coord import Coord
from ..core.dtypes import dtype_bytes
from ..core.shape import Index, Shape, format_shape, unflatten
from ..core.tile import TileLayout
from ..core.xor_swizzle import XorSwizzle
from ..eval.forward import admit_index, apply, base, components, replica_combinations
from ..syntax.printer import format_term
from .banks import bank_of


@dataclass(frozen=True)
class AxisSum:
    """Step 3 for one axis: ``value = sum(c_k * s_k) + offset``."""

    axis: str
    terms: tuple[tuple[int, int], ...]  # (c_k, s_k) for the shard iters on this axis
    offset: int
    value: int


@dataclass(frozen=True)
class ReplicaStep:
    """Step 4 for one replica combination: ``r`` adds ``added`` to the base coordinate."""

    combination: tuple[int, ...]
    added: Coord
    coord: Coord  # the final coordinate (swizzled on m for a ComposeLayout)


@dataclass(frozen=True)
class SwizzleStep:
    """For swizzled memory: linear ``m`` -> swizzled address -> byte -> bank word, bank, line.

    Under an XorSwizzle, ``terms`` lists ``(bit, image)`` for each set low bit of ``m``
    and ``high`` the bits passed through: ``address = XOR of the images | high``.
    """

    m: int
    address: int
    byte: int | None = None
    bankword: int | None = None
    bank: int | None = None
    line: int | None = None
    terms: tuple[tuple[int, int], ...] | None = None
    high: int = 0


@dataclass(frozen=True)
class Explanation:
    """The four steps for one element (see the reference document's tables)."""

    layout: str
    shape: Shape
    index: Shape
    flat: int
    components: tuple[int, ...]
    extents: tuple[int, ...]
    sums: tuple[AxisSum, ...]
    base: Coord
    replicas: tuple[ReplicaStep, ...]
    coords: tuple[Coord, ...]
    swizzle: tuple[SwizzleStep, ...] = field(default=())
    dtype: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data."""
        return {
            "layout": self.layout,
            "shape": list(self.shape),
            "index": list(self.index),
            "flat": self.flat,
            "extents": list(self.extents),
            "components": list(self.components),
            "sums": [
                {"axis": s.axis, "terms": [list(t) for t in s.terms], "offset": s.offset,
                 "value": s.value}
                for s in self.sums
            ],
            "base": dict(self.base),
            "replicas": [
                {"combination": list(r.combination), "added": dict(r.added), "coord": dict(r.coord)}
                for r in self.replicas
            ],
            "coords": [dict(c) for c in self.coords],
            "swizzle": [
                {**s.__dict__, "terms": None if s.terms is None else [list(t) for t in s.terms]}
                for s in self.swizzle
            ],
            "dtype": self.dtype,
        }

    def __str__(self) -> str:
        lines = [f"layout  {self.layout}", f"element {format_shape(self.index)} of shape "
                 f"{format_shape(self.shape)}"]
        terms = " + ".join(
            f"{x}*{math.prod(self.shape[d + 1:])}" for d, x in enumerate(self.index)
        ) or "0"
        lines.append(f"1. flatten   flat = {terms} = {self.flat}")
        lines.append(
            f"2. split     by {format_shape(self.extents)}: c = {format_shape(self.components)}"
        )
        lines.append("3. accumulate + offset")
        for s in self.sums:
            parts = [f"{c}*{st}" for c, st in s.terms]
            if s.offset:
                parts.append(f"{s.offset} (offset)")
            lines.append(f"     {s.axis:<9} = {' + '.join(parts) or '0'} = {s.value}")
        if len(self.replicas) <= 1 and not any(any(r.added.values()) for r in self.replicas):
            lines.append("4. replica   none: L(x) is the single base coordinate")
        else:
            lines.append(f"4. replica   {len(self.replicas)} combinations")
            for r in self.replicas:
                added = ", ".join(f"{v:+}@{a}" for a, v in r.added.items() if v) or "+0"
                lines.append(f"     r={format_shape(r.combination)}  {added:<16} -> {_coord(r.coord)}")
        for sw in self.swizzle:
            xor = ""
            if sw.terms is not None:
                parts = [f"{v} (bit {k})" for k, v in sw.terms] + [f"{sw.high} (high)"] * bool(sw.high)
                xor = f" = {' ^ '.join(parts) or '0'}"
            text = f"   swizzle   m={sw.m}{xor} -> address {sw.address}"
            if sw.byte is not None:
                text += f" -> byte {sw.byte} -> word {sw.bankword}: bank {sw.bank}, line {sw.line}"
            lines.append(text)
        lines.append("L(x) = {" + ", ".join(_coord(c) for c in self.coords) + "}")
        return "\n".join(lines)


def _coord(c: Coord) -> str:
    return "(" + ", ".join(f"{format_term(v, a) if a != 'm' else f'{v}@m'}" for a, v in c.items()) + ")"


def explain(
    layout: TileLayout | ComposeLayout,
    index: Index,
    shape: Sequence[int] | None = None,
    dtype: str | None = None,
) -> Explanation:
    """The four steps for element ``index``; with ``dtype``, the bank chain for ``m`` too.

    >>> import tilelayout as tl
    >>> e = explain(tl.parse("S[4:1] + R[2:-1@pid]"), 3)
    >>> e.components, [dict(c) for c in e.coords]
    ((3,), [{'m': 3, 'pid': 0}, {'m': 3, 'pid': -1}])
    >>> print(str(e).splitlines()[-2])
         r=(1,)  -1@pid           -> (3@m, -1@pid)
    """
    s, flat = admit_index(layout, index, shape)
    tile = tile_of(layout)
    comps = components(tile, flat)
    unswizzled = base(tile, flat)
    sums = []
    for axis in tile.axes:
        terms = tuple((c, it.stride) for it, c in zip(tile.shard, comps, strict=True) if it.axis == axis)
        sums.append(AxisSum(axis, terms, tile.offset.get(axis, 0), unswizzled[axis]))
    reps = []
    for combo in replica_combinations(tile):
        added = dict.fromkeys(tile.axes, 0)
        for it, r in zip(tile.replica, combo, strict=True):
            added[it.axis] += r * it.stride
        values = {a: unswizzled[a] + added[a] for a in tile.axes}
        if isinstance(layout, ComposeLayout):
            values["m"] = layout.swizzle.apply(values["m"])
        reps.append(ReplicaStep(combo, Coord(added), Coord(values)))
    swizzle_steps = []
    if "m" in tile.axes and (isinstance(layout, ComposeLayout) or dtype is not None):
        xor = layout.swizzle if isinstance(layout, ComposeLayout) else None
        for combo_step in reps:
            m = combo_step.coord["m"]
            linear = unswizzled["m"] + combo_step.added["m"]
            extra: dict[str, Any] = {}
            if isinstance(xor, XorSwizzle):
                extra = {"terms": xor.terms(linear), "high": linear >> xor.bits << xor.bits}
            if dtype is not None:
                word, bank, line = bank_of(m, dtype)
                swizzle_steps.append(
                    SwizzleStep(linear, m, m * dtype_bytes(dtype), word, bank, line, **extra)
                )
            else:
                swizzle_steps.append(SwizzleStep(linear, m, **extra))
        swizzle_steps = list(dict.fromkeys(swizzle_steps))
    return Explanation(
        layout=str(layout),
        shape=s,
        index=unflatten(flat, s),
        flat=flat,
        components=comps,
        extents=tile.default_shape,
        sums=tuple(sums),
        base=base(layout, flat),
        replicas=tuple(reps),
        coords=apply(layout, flat),
        swizzle=tuple(swizzle_steps),
        dtype=dtype,
    )
