"""TIRx's tiling algebra on our layouts: ``tile``, ``direct_sum`` and their recognizers.

``inner.tile(outer, outer_shape, inner_shape)`` and ``right.direct_sum(left, left_shape,
right_shape)`` are :func:`tilelayout.tile` / :func:`tilelayout.direct_sum` (TIRx's rules:
docs/interop/tvm.md) on operands canonicalized TIRx's way (thread axes fused under a
CUDA target). A ``ComposeLayout`` tiles its tile and keeps its swizzle, one swizzle over
the tiled tile, as TIRx does; a bare swizzle (a ComposeLayout over a trivial tile)
stands for the identity over the inner shape.

The recognizers invert them, as apache/tvm main does (``src/tirx/ir/layout``):
``inner.is_tile_inner(tiled, tiled_shape, inner_shape)`` is the outer layout that tiles
``inner`` into ``tiled`` (or None), ``outer.is_tile_outer(tiled, tiled_shape,
outer_shape)`` the inner (or None, checked by tiling it back), and
``is_direct_sum_right`` / ``is_direct_sum_left`` the other addend of a direct sum.

>>> from tilelayout import parse
>>> tiled = tile_layout(parse("S[(2,4):(1,2)]"), parse("S[(8,8):(8,1)]"), (8, 8), (2, 4))
>>> tiled, is_tile_inner(parse("S[(2,4):(1,2)]"), tiled, (16, 32), (2, 4))
(parse('S[(8,2,32):(64,1,2)]'), parse('S[(8,8):(8,1)]'))
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..algebra import group as _group
from ..algebra import span as _span
from ..algebra import tiling
from ..core.axes import SCOPE_LEVEL, axis
from ..core.compose import ComposeLayout, Layout
from ..core.errors import LayoutError, LayoutTypeError, shown
from ..core.iter import Iter
from ..core.tile import TileLayout
from .errors import TirxInternalError, check_ints
from .spec import scope_pair
from .threads import canonical, split_by_scope


def raw_trivial(tile: TileLayout) -> bool:
    """TIRx's ``IsTrivial`` on the layout as written: at most one shard iter, on a memory
    axis with stride 1, and no replica or offset (a bare swizzle's tile).

    >>> raw_trivial(TileLayout([(512, 1)])), raw_trivial(TileLayout([(8, 64), (64, 1)]))
    (True, False)
    """
    if len(tile.shard) > 1 or tile.replica or tile.offset:
        return False
    if not tile.shard:
        return True
    it = tile.shard[0]
    return it.stride == 1 and axis(it.axis).kind == "memory"


def identity(shape: Sequence[int]) -> TileLayout:
    """TIRx's ``IdentityTileLayout``: ``S[prod(shape):1]`` (no iter for an empty shape).

    >>> identity((8, 64))
    parse('S[512:1]')
    """
    return TileLayout([Iter(math.prod(shape), 1)] if shape else [])


def _shapes(a: object, b: object, what: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    sa, sb = check_ints(a, f"{what} first shape", low=1), check_ints(b, f"{what} second shape",
                                                                        low=1)
    if len(sa) != len(sb):
        raise TirxInternalError(f"{what}: the two shapes must have the same rank, got {sa} "
                                f"and {sb}")
    return sa, sb


def _tile_operand(layout: object, what: str) -> TileLayout:
    if isinstance(layout, ComposeLayout):
        raise LayoutTypeError(f"{what} must be a TileLayout (TIRx's signature), got the "
                              f"swizzled {layout}")
    if not isinstance(layout, TileLayout):
        raise LayoutTypeError(f"{what} must be a TileLayout, got {shown(layout)}")
    return layout


def _base(layout: ComposeLayout, shape: Sequence[int]) -> TileLayout:
    tile = layout.tile_layout
    return identity(shape) if raw_trivial(tile) else tile


def tile_layout(inner: Layout, outer: object, outer_shape: object,
                inner_shape: object) -> Layout:
    """TIRx's ``inner.tile(outer, outer_shape, inner_shape)``.

    >>> from tilelayout import parse
    >>> tile_layout(parse("ComposeLayout(Swizzle(3,3,3), S[512:1])"), parse("S[(8,4):(1,8)]"),
    ...             (8, 4), (8, 64))
    parse('ComposeLayout(Swizzle(3,3,3), S[(64,4,64):(64,4096,1)])')
    """
    os, ins = _shapes(outer_shape, inner_shape, "tile")
    out = _tile_operand(outer, "the outer layout")
    if isinstance(inner, ComposeLayout):
        return ComposeLayout(inner.swizzle, _tile(_base(inner, ins), out, os, ins))
    return _tile(_tile_operand(inner, "the inner layout"), out, os, ins)


def _tile(inner: TileLayout, outer: TileLayout, os: tuple[int, ...],
          ins: tuple[int, ...]) -> TileLayout:
    tiled = tiling.tile(canonical(inner), canonical(outer), os, ins)
    assert isinstance(tiled, TileLayout)
    return canonical(tiled)


def direct_sum(right: Layout, left: object, left_shape: object, right_shape: object) -> Layout:
    """TIRx's ``right.direct_sum(left, left_shape, right_shape)``: ``left`` (A) and this
    layout (B) summed over the interleaved domain, unscaled.

    >>> from tilelayout import parse
    >>> direct_sum(parse("S[(2,2):(4,1)]"), parse("S[(2,2):(8,2)]"), (2, 2), (2, 2))
    parse('S[16:1]')
    """
    ls, rs = _shapes(left_shape, right_shape, "direct_sum")
    left_tile = canonical(_tile_operand(left, "the left layout"))
    if isinstance(right, ComposeLayout):
        return ComposeLayout(right.swizzle, _direct_sum(_base(right, rs), left_tile, ls, rs))
    return _direct_sum(_tile_operand(right, "the right layout"), left_tile, ls, rs)


def _direct_sum(right: TileLayout, left: TileLayout, ls: tuple[int, ...],
                rs: tuple[int, ...]) -> TileLayout:
    summed = tiling.direct_sum(left, canonical(right), ls, rs)
    assert isinstance(summed, TileLayout)
    return canonical(summed)


# -- recognizers ---------------------------------------------------------------------------
def _higher(a: str, b: str) -> bool:
    return SCOPE_LEVEL[a] > SCOPE_LEVEL[b]


def _tile_shape(tiled_shape: Sequence[int], part: Sequence[int], inner: bool) -> list[int]:
    out = []
    for t, p in zip(tiled_shape, part, strict=True):
        if t % p:
            raise TirxInternalError(f"the tiled shape {tuple(tiled_shape)} is not a multiple "
                                    f"of {tuple(part)} (TIRx: Shape[i] must be divisible by "
                                    f"factor[i])")
        out += [t // p, p] if inner else [p, t // p]
    return out


def _grouped(tile: TileLayout, shape: Sequence[int]) -> tuple[TileLayout, tuple[int, ...]]:
    try:
        grouped, seps = _group.group(tile, tuple(shape))
    except LayoutError as exc:
        raise TirxInternalError(f"{tile} can not be grouped by shape {tuple(shape)}: "
                                f"{exc}") from None
    assert isinstance(grouped, TileLayout)
    return grouped, seps


def _same_iter(a: Iter, b: Iter, stride: bool = True) -> bool:
    """TIRx's iter comparison: equal extents, and (unless extent 1) axis and stride."""
    if a.extent != b.extent:
        return False
    return a.extent == 1 or (a.axis == b.axis and (not stride or a.stride == b.stride))


def _offset_minus(total: TileLayout, part: TileLayout, *, all_axes: bool) -> dict[str, int]:
    out = dict(total.offset)
    for a, v in part.offset.items():
        if a in out:
            out[a] -= v
        elif all_axes:
            out[a] = -v
    return out


def _other_replicas(total: TileLayout, part: TileLayout) -> list[Iter]:
    return [it for it in total.replica if it not in part.replica]


def is_tile_inner(layout: Layout, tiled: object, tiled_shape: object,
                  inner_shape: object) -> TileLayout | None:
    """The outer ``O`` with ``layout.tile(O, ...) == tiled`` (TIRx's ``is_tile_inner``),
    or None.

    >>> from tilelayout import parse
    >>> is_tile_inner(parse("S[8:1]"), parse("S[64:1]"), (64,), (8,))
    parse('S[8:1]')
    """
    ts, ins = _shapes(tiled_shape, inner_shape, "is_tile_inner")
    if isinstance(layout, ComposeLayout):
        if not isinstance(tiled, ComposeLayout) or tiled.swizzle != layout.swizzle:
            return None
        return _tile_inner(_base(layout, ins), _base(tiled, ts), ts, ins)
    if isinstance(tiled, ComposeLayout) or not isinstance(tiled, TileLayout):
        return None
    return _tile_inner(_tile_operand(layout, "the layout"), tiled, ts, ins)


def _scopes_fit(tiled: TileLayout, part: TileLayout, inner: bool) -> TileLayout | None:
    """The scope check of the recognizers: ``tiled`` (split to ``part``'s scope when that
    is narrower), or None when the scopes cannot match."""
    ts, ps = scope_pair(tiled), scope_pair(part)
    if ts is None or ps is None:
        return tiled
    if inner:
        if ts[0] != ps[0] or _higher(ps[1], ts[1]):
            return None
        return split_by_scope(tiled, ps[1]) if _higher(ts[1], ps[1]) else tiled
    if ts[1] != ps[1] or _higher(ts[0], ps[0]):
        return None
    return split_by_scope(tiled, ps[0]) if _higher(ps[0], ts[0]) else tiled


def _tile_inner(inner: TileLayout, tiled_in: TileLayout, ts: tuple[int, ...],
                ins: tuple[int, ...]) -> TileLayout | None:
    layout = canonical(inner)
    tiled = _scopes_fit(canonical(tiled_in), layout, inner=True)
    if tiled is None:
        return None
    spans = {it.axis: _span.span(layout, it.axis) for it in layout.shard}

    def rescale(it: Iter) -> Iter | None:
        span = spans.get(it.axis)
        if span is None or it.extent == 1:
            return it
        if span == 0 or it.stride % span:
            return None
        return Iter(it.extent, it.stride // span, it.axis)

    gt, tseps = _grouped(tiled, _tile_shape(ts, ins, inner=True))
    gl, lseps = _grouped(layout, ins)
    even = tseps[::2]
    shard: list[Iter] = []
    for i in range(len(ts)):
        n_inner, n_tiled = lseps[i + 1] - lseps[i], even[i + 1] - even[i]
        if n_inner > n_tiled:
            return None
        for j in range(n_inner):
            if not _same_iter(gl.shard[lseps[i] + j], gt.shard[even[i + 1] - n_inner + j]):
                return None
        for j in range(n_tiled - n_inner):
            found = rescale(gt.shard[even[i] + j])
            if found is None:
                return None
            shard.append(found)
    replica = []
    for it in _other_replicas(tiled, layout):
        found = rescale(it)
        if found is None:
            return None
        replica.append(found)
    return TileLayout(shard, replica, _offset_minus(tiled, layout, all_axes=False))


def is_tile_outer(layout: Layout, tiled: object, tiled_shape: object,
                  outer_shape: object) -> Layout | None:
    """The inner ``I`` with ``I.tile(layout, ...) == tiled`` (TIRx's ``is_tile_outer``),
    or None; a swizzled ``tiled`` gives a swizzled inner. A ComposeLayout is never an
    outer (None), as in TIRx.

    >>> from tilelayout import parse
    >>> is_tile_outer(parse("S[(8,8):(8,1)]"), parse("S[(8,2,32):(64,1,2)]"), (16, 32), (8, 8))
    parse('S[(2,4):(1,2)]')
    """
    ts, os = _shapes(tiled_shape, outer_shape, "is_tile_outer")
    if isinstance(layout, ComposeLayout):
        return None
    outer = _tile_operand(layout, "the layout")
    if isinstance(tiled, ComposeLayout):
        found = _tile_outer(outer, tiled.tile_layout, ts, os)
        return None if found is None else ComposeLayout(tiled.swizzle, found)
    if not isinstance(tiled, TileLayout):
        return None
    return _tile_outer(outer, tiled, ts, os)


def _tile_outer(outer: TileLayout, tiled_in: TileLayout, ts: tuple[int, ...],
                os: tuple[int, ...]) -> TileLayout | None:
    layout = canonical(outer)
    tiled = _scopes_fit(canonical(tiled_in), layout, inner=False)
    if tiled is None:
        return None
    gt, tseps = _grouped(tiled, _tile_shape(ts, os, inner=False))
    gl, lseps = _grouped(layout, os)
    even = tseps[::2]
    shard: list[Iter] = []
    for i in range(len(ts)):
        n_outer, n_tiled = lseps[i + 1] - lseps[i], even[i + 1] - even[i]
        if n_outer > n_tiled:
            return None
        for j in range(n_outer):
            if not _same_iter(gl.shard[lseps[i] + j], gt.shard[even[i] + j], stride=False):
                return None
        shard.extend(gt.shard[even[i] + n_outer + j] for j in range(n_tiled - n_outer))
    inner = TileLayout(shard, _other_replicas(tiled, layout),
                       _offset_minus(tiled, layout, all_axes=False))
    try:
        rebuilt = _tile(inner, layout, os, tuple(t // o for t, o in zip(ts, os, strict=True)))
    except LayoutError:
        return None
    return inner if rebuilt == canonical(tiled) else None


def is_direct_sum_right(layout: Layout, summed: object, interleaved_shape: object,
                        right_shape: object) -> TileLayout | None:
    """The left addend A with ``layout.direct_sum(A, ...) == summed`` (TIRx's
    ``is_direct_sum_right``), or None.

    >>> from tilelayout import parse
    >>> is_direct_sum_right(parse("S[(2,2):(4,1)]"), parse("S[16:1]"), (2, 2, 2, 2), (2, 2))
    parse('S[(2,2):(8,2)]')
    """
    return _addend(layout, summed, interleaved_shape, right_shape, right=True)


def is_direct_sum_left(layout: Layout, summed: object, interleaved_shape: object,
                       left_shape: object) -> TileLayout | None:
    """The right addend B with ``B.direct_sum(layout, ...) == summed`` (TIRx's
    ``is_direct_sum_left``), or None.

    >>> from tilelayout import parse
    >>> is_direct_sum_left(parse("S[(2,2):(8,2)]"), parse("S[16:1]"), (2, 2, 2, 2), (2, 2))
    parse('S[(2,2):(4,1)]')
    """
    return _addend(layout, summed, interleaved_shape, left_shape, right=False)


def _addend(layout: Layout, summed: object, interleaved: object, shape: object, *,
            right: bool) -> TileLayout | None:
    inter = check_ints(interleaved, "interleaved_shape", low=1)
    part_shape = check_ints(shape, "the addend's shape", low=1)
    if len(inter) != 2 * len(part_shape):
        raise TirxInternalError(f"the interleaved shape {inter} must have twice the rank of "
                                f"{part_shape}")
    if isinstance(layout, ComposeLayout):
        if not isinstance(summed, ComposeLayout) or summed.swizzle != layout.swizzle:
            return None
        return _recover(_base(layout, part_shape), _base(summed, inter), inter, part_shape,
                        right)
    if isinstance(summed, ComposeLayout) or not isinstance(summed, TileLayout):
        return None
    return _recover(_tile_operand(layout, "the layout"), summed, inter, part_shape, right)


def _recover(known: TileLayout, summed_in: TileLayout, inter: tuple[int, ...],
             shape: tuple[int, ...], right: bool) -> TileLayout | None:
    summed, part = canonical(summed_in), canonical(known)
    gs, sseps = _grouped(summed, inter)
    gp, pseps = _grouped(part, shape)
    other: list[Iter] = []
    for i in range(len(shape)):
        left_lo, mid, hi = sseps[2 * i], sseps[2 * i + 1], sseps[2 * i + 2]
        count = pseps[i + 1] - pseps[i]
        mine, theirs = ((mid, hi), (left_lo, mid)) if right else ((left_lo, mid), (mid, hi))
        if count > mine[1] - mine[0]:
            return None
        start = mine[1] - count if right else mine[0]
        for j in range(count):
            if not _same_iter(gs.shard[start + j], gp.shard[pseps[i] + j]):
                return None
        if mine[1] - mine[0] != count:
            return None  # TIRx: residual iters cannot be attributed
        other.extend(gs.shard[theirs[0]:theirs[1]])
    return TileLayout(other, _other_replicas(summed, part),
                      _offset_minus(summed, part, all_axes=True))


__all__ = ["direct_sum", "identity", "is_direct_sum_left", "is_direct_sum_right",
           "is_tile_inner", "is_tile_outer", "raw_trivial", "tile_layout"]
