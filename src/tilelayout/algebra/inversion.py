"""``inverse(L, shape)``: the layout of physical coordinate -> logical flat index.

The inverse's logical dims are ``L``'s axes in ``L.axes`` order, dim ``a`` of size
``E_a`` (the values ``L`` covers on ``a``: ``[0, E_a)``); its one output, on ``m``, is
the row-major flat index of the element at that coordinate (``L.apply(flat)``).

It exists as a layout exactly when every axis is covered compactly: the iters on each
axis, sorted by stride, are ``1, e_1, e_1 e_2, ...`` (every coordinate of the box holds
exactly one element). Each such iter becomes one iter of the inverse whose stride is
the iter's weight in the flat index. Replica iters (copies of an element) become
stride-0 iters: every copy maps back to its element. Otherwise :class:`AlgebraError`
names the iter: two elements at one coordinate (a stride-0 shard iter, overlapping
iters), coordinates that hold no element (a gap: see ``complement``), an offset or a
negative stride, a swizzle (the inverse would swizzle its *input*). Cost: O(k log k)
for the layout's k iters, never elements.

>>> import tilelayout as tl
>>> C = tl.parse("S[(2,8,4,2):(2,4@laneid,1@laneid,1)]")   # mma m16n8k16 accumulator
>>> C.axes, inverse_shape(C)
(('m', 'laneid'), (4, 32))
>>> inv = inverse(C, (16, 8))                               # (m, laneid) -> flat index
>>> inv
parse('S[(2,2,8,4):(64,1,8,2)]')
>>> C.base((9, 3), (16, 8)), inv.base((3, 5), (4, 32))["m"] == 9 * 8 + 3
({m: 3, laneid: 5}, True)
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.compose import ComposeLayout, Layout
from ..core.errors import AlgebraError
from ..core.iter import Iter
from ..core.tile import TileLayout


def _weights(shard: Sequence[Iter]) -> list[int]:
    out, w = [], 1
    for it in reversed(shard):
        out.append(w)
        w *= it.extent
    return out[::-1]


def inverse(layout: Layout, shape: Sequence[int] | None = None) -> TileLayout:
    """Physical coordinate (dims = ``layout.axes``) -> logical flat index, as a layout.

    >>> import tilelayout as tl
    >>> inverse(tl.parse("S[(8,4):(1,8)]"))       # column-major 8 x 4: m -> flat index
    parse('S[(4,8):(1,4)]')
    """
    if isinstance(layout, ComposeLayout):
        raise AlgebraError(
            f"{layout} is swizzled: its inverse would swizzle the coordinate before a strided "
            f"map, which a layout (swizzles act on outputs) cannot express; invert the tile "
            f"and apply swizzle.unapply to the address first"
        )
    layout.check_shape(shape)
    nonzero = {a: v for a, v in layout.offset.items() if v}
    if nonzero:
        raise AlgebraError(
            f"{layout} has offset {nonzero}: an inverse's dims start at 0; invert the layout "
            f"without the offset and subtract it from the coordinate first"
        )
    entries: dict[str, list[tuple[int, int, int, str]]] = {a: [] for a in layout.axes}
    for k, (it, w) in enumerate(zip(layout.shard, _weights(layout.shard), strict=True)):
        if it.extent > 1:
            if it.stride == 0:
                raise AlgebraError(
                    f"shard iter {k} ({it.extent}:0@{it.axis}) puts {it.extent} elements at "
                    f"one coordinate; the inverse would not be a function"
                )
            entries[it.axis].append((it.stride, it.extent, w, f"shard iter {k}"))
    for k, it in enumerate(layout.replica):
        if it.extent > 1 and it.stride:
            entries[it.axis].append((it.stride, it.extent, 0, f"replica iter {k}"))
    shard: list[Iter] = []
    for axis, runs in entries.items():
        runs.sort(key=lambda r: r[:2])
        cover = 1
        for s, e, _, what in runs:
            if s != cover:
                why = (f"negative stride {s}" if s < 0 else
                       f"it overlaps the smaller iters, which cover [0, {cover})" if s < cover
                       else f"{axis} values {cover}..{s - 1} (and others) hold no element; "
                            f"complement(L, '{axis}', ...) names the missing iters")
                raise AlgebraError(
                    f"{what} ({e}:{s}@{axis}) breaks the inverse: {why}"
                )
            cover = s * e
        shard.extend(Iter(e, w, "m") for s, e, w, _ in reversed(runs))
    return TileLayout(shard, offset=None if shard else {"m": 0})


def inverse_shape(layout: Layout) -> tuple[int, ...]:
    """The shape :func:`inverse` takes: per axis of ``layout.axes``, the size it covers.

    >>> import tilelayout as tl
    >>> inverse_shape(tl.parse("S[(8,2,4,2):(4@laneid,2,1@laneid,1)]"))
    (32, 4)
    """
    out = []
    for axis in layout.axes:
        size = 1
        for it in layout.shard + layout.replica:
            if it.axis == axis and it.stride:
                size *= it.extent
        out.append(size)
    return tuple(out)
