"""Tiling and direct sums: build a big layout from an outer layout and an inner tile.

For shapes ``outer_shape = (o_0..)`` and ``inner_shape = (i_0..)`` of equal rank, the
result has shape ``(o_0*i_0, o_1*i_1, ..)`` and logical index ``I`` splits into the
outer index ``I // inner_shape`` and the inner index ``I % inner_shape`` (per dim):

* ``direct_sum(outer, inner, ..)(I) = {o + i | o in outer(I // in), i in inner(I % in)}``
  (coordinates add axis by axis; replicas of both stay replicas).
* ``inner.tile(outer, ..)`` follows apache-tvm-tirx (the reference implementation):
  the outer's **shard** strides on each axis are multiplied by the inner's
  :func:`tile_span` on that axis, so they count whole inner tiles; the outer's
  **offset and replicas are added as they are** (absolute coordinates). The span is
  TIRx's ``1 + O + sum((e-1)*s)`` over the inner's iters on the axis (one past the
  largest value when strides and offset are >= 0; with negative strides or offset it
  can be smaller than the tile, and TIRx's tiles then overlap). ``step="disjoint"``
  raises it to the covered extent ``max - min + 1`` where it would be smaller, so
  consecutive tiles never overlap. An axis no shard iter of the inner moves has span
  1. Like TIRx, the result is returned in canonical form.
* ``tile_to(inner, to_shape, current_shape)`` tiles with a row-major compact outer on
  ``m`` of shape ``to_shape / current_shape`` and refuses shapes that do not divide.

Built from :func:`~tilelayout.algebra.group.group`: each dimension's outer iters go
right before that dimension's inner iters. Cost: O(iters).

Recognition: ``outer_of(L, inner, ..)`` / ``inner_of(L, outer, ..)`` recover the other
operand when ``L`` is such a direct sum (``tiled=True``: such a tile), checked by
rebuilding ``L`` and comparing canonical forms (structural, so it can miss a
decomposition whose replicas only add up as sets).

>>> import tilelayout as tl
>>> str(direct_sum(tl.parse("S[(2,2):(8,2)]"), tl.parse("S[(2,2):(4,1)]"), (2, 2), (2, 2)).canonicalize())
'S[16:1]'
>>> str(tile(tl.parse("S[(2,2):(4,1)]"), tl.parse("S[(2,2):(2,1)]"), (2, 2), (2, 2)))
'S[(2,2,2,2):(12,4,6,1)]'
>>> str(tile(tl.parse("S[(2,2):(1,2)] + 4"), tl.parse("S[2:1] + R[2:8@warpid] + 1"), (2, 1), (2, 2)))
'S[(2,2,2):(8,1,2)] + R[2:8@warpid] + 5'
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Literal

from ..core.compose import ComposeLayout, Layout, rewrap, tile_of
from ..core.errors import AlgebraError, LayoutTypeError, ShapeError
from ..core.iter import Iter
from ..core.shape import as_shape, format_shape
from ..core.tile import TileLayout
from .canonical import canonical_shard, canonicalize
from .group import group_iters
from .span import span

#: How far the outer's shard steps move an axis per inner tile: TIRx's span ("span"), or
#: at least the covered extent so that tiles never overlap ("disjoint").
TileStep = Literal["span", "disjoint"]
STEPS: tuple[str, ...] = ("span", "disjoint")


def _check_step(step: str) -> None:
    if step not in STEPS:
        raise AlgebraError(f"tile step {step!r} is not one of {', '.join(map(repr, STEPS))} "
                           f"('span': TIRx's span; 'disjoint': tiles never overlap)")


def _shapes(outer: Layout, inner: Layout, outer_shape, inner_shape) -> tuple[tuple, tuple]:
    os, ins = as_shape(outer_shape), as_shape(inner_shape)
    if len(os) != len(ins):
        raise ShapeError(
            f"outer shape {format_shape(os)} and inner shape {format_shape(ins)} must have "
            f"the same rank"
        )
    outer.check_shape(os)
    inner.check_shape(ins)
    return os, ins


def scale(layout: TileLayout, factors: Mapping[str, int]) -> TileLayout:
    """Multiply every stride and offset on axis ``a`` by ``factors[a]`` (others unchanged).

    >>> import tilelayout as tl
    >>> scale(tl.parse("S[4:1] + R[2:1@pid] + 1"), {"m": 8})
    parse('S[4:8] + R[2:1@pid] + 8')
    """

    def f(it: Iter) -> Iter:
        return Iter(it.extent, it.stride * factors.get(it.axis, 1), it.axis)

    return TileLayout(
        [f(i) for i in layout.shard],
        [f(i) for i in layout.replica],
        {a: v * factors.get(a, 1) for a, v in layout.offset.items()},
    )


def _interleave(outer: TileLayout, inner: TileLayout, os, ins) -> TileLayout:
    og, ig = group_iters(outer.shard, os), group_iters(inner.shard, ins)
    shard = [it for o, i in zip(og, ig, strict=True) for it in (*o, *i)]
    offset = dict(outer.offset)
    for a, v in inner.offset.items():
        offset[a] = offset.get(a, 0) + v
    return TileLayout(shard, outer.replica + inner.replica, offset)


def _check_atom_aligned(outer: TileLayout, inner: ComposeLayout, what: str) -> None:
    atom = inner.swizzle.atom_size
    # an extent-1 iter never moves (a size-1 outer canonicalizes to one 1:1 iter)
    bad = [it for it in outer.shard + outer.replica
           if it.axis == "m" and it.extent > 1 and it.stride % atom]
    if bad or outer.offset.get("m", 0) % atom:
        raise AlgebraError(
            f"{what}: the outer moves 'm' by amounts that are not multiples of the swizzle "
            f"atom ({atom} elements for {inner.swizzle}), so the swizzled inner tile would "
            f"not repeat unchanged; align the outer strides and offset on 'm' to {atom}"
        )


def direct_sum(outer: Layout, inner: Layout, outer_shape, inner_shape) -> Layout:
    """``(I) -> outer(I // inner_shape) + inner(I % inner_shape)``, no stride scaling.

    With a swizzled inner (ComposeLayout) the outer's ``m`` steps must be multiples of
    the swizzle atom; the result is then the same swizzle over the summed tile (each
    inner copy is swizzled exactly like the inner).

    >>> import tilelayout as tl
    >>> direct_sum(tl.parse("S[2:1@warpid]"), tl.parse("S[32:1@laneid]"), (2,), (32,))
    parse('S[(2,32):(1@warpid,1@laneid)]')
    """
    os, ins = _shapes(outer, inner, outer_shape, inner_shape)
    if isinstance(outer, ComposeLayout):
        raise AlgebraError("the outer of a direct sum or tile must be a TileLayout (unswizzled)")
    if isinstance(inner, ComposeLayout):
        _check_atom_aligned(outer, inner, "direct_sum")
        return ComposeLayout(inner.swizzle, _interleave(outer, inner.tile_layout, os, ins))
    return _interleave(outer, inner, os, ins)


def tile_span(inner: Layout, axis: str, *, step: TileStep = "span") -> int:
    """How far the outer's shard steps move ``axis`` per inner tile (TIRx's rule).

    1 when no shard iter of the inner (extent > 1; for a size-1 inner, its first iter) is
    on ``axis``: the inner does not extend along it, its offset and replicas there are
    positions, not size. Otherwise TIRx's :func:`~tilelayout.algebra.span.span`
    ``1 + O + sum((e-1)*s)`` over the inner's shard and replica iters on ``axis`` (one
    past the largest value when strides and offset are >= 0). With negative strides or
    a negative offset it can be smaller than the tile (even <= 0), and the tiles overlap;
    ``step="disjoint"`` raises it to the covered extent ``max - min + 1`` there.

    >>> import tilelayout as tl
    >>> tile_span(tl.parse("S[(2,2):(1,2)] + 4"), "m"), tile_span(tl.parse("S[4:-1]"), "m")
    (8, -2)
    >>> tile_span(tl.parse("S[4:-1]"), "m", step="disjoint")
    4
    >>> tile_span(tl.parse("S[4:1@laneid] + 3"), "m")
    1
    """
    _check_step(step)
    tile = tile_of(inner)
    moving = [it for it in tile.shard if it.extent > 1] or list(tile.shard[:1])
    if not any(it.axis == axis for it in moving):
        return 1
    reference = span(tile, axis)
    if step == "disjoint":
        return max(reference, span(tile, axis, covered=True))
    return reference


def _spans(inner: Layout, step: TileStep) -> dict[str, int]:
    return {a: tile_span(inner, a, step=step) for a in inner.axes}


def scale_shard(layout: TileLayout, factors: Mapping[str, int]) -> TileLayout:
    """Multiply the shard strides on axis ``a`` by ``factors[a]``; replicas and offset stay.

    >>> import tilelayout as tl
    >>> scale_shard(tl.parse("S[4:1] + R[2:1@pid] + 1"), {"m": 8})
    parse('S[4:8] + R[2:1@pid] + 1')
    """
    return layout.replace(shard=[Iter(i.extent, i.stride * factors.get(i.axis, 1), i.axis)
                                 for i in layout.shard])


def tile(inner: Layout, outer: Layout, outer_shape, inner_shape, *,
         step: TileStep = "span") -> Layout:
    """``inner`` repeated by ``outer``: the outer's shard strides count whole inner tiles
    (scaled by :func:`tile_span`), its offset and replicas are absolute; the result is in
    canonical form (as in TIRx). ``step="disjoint"``: step by at least the inner's covered
    extent, so tiles of an inner with negative strides or offset never overlap.

    To count an outer offset or replica in tiles too, scale it first, e.g. with
    :func:`scale` and the inner's :func:`tile_span`.

    >>> import tilelayout as tl
    >>> L = tl.parse("S[(8,4):(4@laneid,1@laneid)]")
    >>> str(tile(L, tl.parse("S[(2,2):(2@warpid,1@warpid)]"), (2, 2), (8, 4)))
    'S[(2,8,2,4):(2@warpid,4@laneid,1@warpid,1@laneid)]'
    >>> str(tile(tl.parse("S[4:-1] + 3"), tl.parse("S[3:1]"), (3,), (4,)))  # TIRx: overlap
    'S[(3,4):(1,-1)] + 3'
    >>> str(tile(tl.parse("S[4:-1] + 3"), tl.parse("S[3:1]"), (3,), (4,), step="disjoint"))
    'S[(3,4):(4,-1)] + 3'
    """
    _check_step(step)
    if isinstance(outer, ComposeLayout):
        raise AlgebraError("the outer of a tile must be a TileLayout (unswizzled)")
    if not isinstance(outer, TileLayout) or not isinstance(inner, TileLayout | ComposeLayout):
        raise LayoutTypeError(f"tile takes two layouts (the outer a TileLayout), got "
                              f"{type(inner).__name__} and {type(outer).__name__}")
    _shapes(outer, inner, outer_shape, inner_shape)
    # like TIRx, fuse each operand's shard first (same mapping; more shapes then group)
    scaled = scale_shard(outer, _spans(inner, step))
    scaled = scaled.replace(shard=canonical_shard(scaled.shard))
    fused = rewrap(inner, lambda t: t.replace(shard=canonical_shard(t.shard)))
    return canonicalize(direct_sum(scaled, fused, outer_shape, inner_shape))


def tile_to(inner: Layout, to_shape, current_shape, *, step: TileStep = "span") -> Layout:
    """Tile ``inner`` (of ``current_shape``) with a row-major compact outer on ``m`` so
    that it covers ``to_shape``; every entry must divide exactly. ``step`` as in
    :func:`tile`.

    >>> import tilelayout as tl
    >>> str(tile_to(tl.parse("S[(2,2):(2,1)]"), (4, 6), (2, 2)))
    'S[(2,2,3,2):(12,2,4,1)]'
    """
    to, cur = as_shape(to_shape), as_shape(current_shape)
    if len(to) != len(cur):
        raise ShapeError(f"tile_to: {format_shape(to)} and {format_shape(cur)} differ in rank")
    bad = [d for d in range(len(to)) if to[d] % cur[d]]
    if bad:
        d = bad[0]
        raise AlgebraError(
            f"tile_to: dimension {d} of {format_shape(to)} ({to[d]}) is not a multiple of "
            f"{cur[d]} (the current shape {format_shape(cur)}); pad the shape instead of "
            f"relying on a floor"
        )
    reps = tuple(t // c for t, c in zip(to, cur, strict=True))
    strides = [math.prod(reps[d + 1:]) for d in range(len(reps))]
    outer = TileLayout([(r, s, "m") for r, s in zip(reps, strides, strict=True)])
    return tile(inner, outer, reps, cur, step=step)


# -- recognition -------------------------------------------------------------------------
def _interleaved_groups(layout: TileLayout, os, ins) -> tuple[list[Iter], list[Iter]]:
    shape = [x for pair in zip(os, ins, strict=True) for x in pair]
    groups = group_iters(layout.shard, shape)
    return ([i for g in groups[0::2] for i in g], [i for g in groups[1::2] for i in g])


def _normalized_replica(iters: Sequence[Iter]) -> list[Iter]:
    """Replica iters with extent-1 / stride-0 dropped and negative strides flipped (the
    offset shift is irrelevant here: offsets are compared in canonical form), unfused."""
    return [Iter(i.extent, abs(i.stride), i.axis) for i in iters if i.extent > 1 and i.stride]


def _peel(total: Sequence[Iter], part: Sequence[Iter]) -> list[Iter] | None:
    rest = list(total)
    for it in part:
        if it in rest:
            rest.remove(it)
            continue
        for k, r in enumerate(rest):  # a fused replica: peel ``it`` off any of its digits
            if r.axis != it.axis or it.stride % r.stride:
                continue
            low = it.stride // r.stride  # r = (high, it.stride*it.extent), it, (low, r.stride)
            if r.extent % (low * it.extent):
                continue
            high = r.extent // (low * it.extent)
            rest[k:k + 1] = [i for i in (Iter(high, it.stride * it.extent, r.axis),
                                         Iter(low, r.stride, r.axis)) if i.extent > 1]
            break
        else:
            return None
    return rest


def _replica_difference(total: Sequence[Iter], part: Sequence[Iter]) -> list[Iter] | None:
    """Replica iters that, together with ``part``, make up ``total`` (None if not found).

    ``part`` is tried in canonical form (its fused iters peeled off fused iters of
    ``total``) and, failing that, unfused: canonicalizing ``part`` alone can fuse two of
    its iters that sit apart in ``total`` (``R[(3,2):(2,6)]`` is ``R[6:2]``, but in
    ``R[(2,3,3):(6,3,2)]`` the ``3:3`` sits between them).
    """
    rest = list(_canon(TileLayout((), total)).replica)
    canon = list(_canon(TileLayout((), part)).replica)
    for form in (canon, _normalized_replica(part)):
        found = _peel(rest, form)
        if found is not None:
            return found
    return None


def _canon(layout: TileLayout) -> TileLayout:
    """The canonical form with the replica set normalized (recognition compares sets)."""
    out = canonicalize(layout, normalize_replicas=True)
    assert isinstance(out, TileLayout)
    return out


def _same_canonical(a: Layout, b: Layout) -> bool:
    """Equal canonical forms (for size 1, whichever axis the lone ``1:1`` iter names)."""
    ca, cb = _canon(tile_of(a)), _canon(tile_of(b))
    if ca.size() == cb.size() == 1:
        return ca.replace(shard=()) == cb.replace(shard=())
    return ca == cb


def _offset_difference(a: Mapping[str, int], b: Mapping[str, int]) -> dict[str, int]:
    out = dict(a)
    for k, v in b.items():
        out[k] = out.get(k, 0) - v
    return out


def _unswizzled(layout: Layout, what: str) -> TileLayout:
    if isinstance(layout, ComposeLayout):
        raise AlgebraError(f"{what}: recognition works on TileLayouts; pass the .tile_layout")
    return layout


def _recognized(layout: Layout, known: Layout, outer_shape, inner_shape, step: str, what: str
                ) -> tuple[TileLayout, TileLayout, tuple[int, ...], tuple[int, ...],
                           list[Iter], list[Iter]]:
    """What :func:`outer_of` and :func:`inner_of` (``what``) start from: both layouts
    checked unswizzled, both shapes, and ``layout``'s shard iters over the interleaved
    shape split into the outer's and the inner's (extent-1 iters dropped)."""
    _check_step(step)
    L, k = _unswizzled(layout, what), _unswizzled(known, what)
    os, ins = as_shape(outer_shape), as_shape(inner_shape)
    L.check_shape(tuple(o * i for o, i in zip(os, ins, strict=True)))
    oshard, ishard = ([i for i in g if i.extent > 1] for g in _interleaved_groups(L, os, ins))
    return L, k, os, ins, oshard, ishard


def outer_of(layout: Layout, inner: Layout, outer_shape, inner_shape, *,
             tiled: bool = False, step: TileStep = "span") -> TileLayout:
    """The outer ``O`` with ``direct_sum(O, inner) == layout`` (``tiled``:
    ``inner.tile(O, step=step)``), equal up to canonical form with replica sets
    normalized; :class:`AlgebraError` when there is none.

    >>> import tilelayout as tl
    >>> outer_of(tl.parse("S[16:1]"), tl.parse("S[(2,2):(4,1)]"), (2, 2), (2, 2))
    parse('S[(2,2):(8,2)]')
    """
    L, inn, os, ins, oshard, _ = _recognized(layout, inner, outer_shape, inner_shape, step,
                                             "outer_of")
    lc, ic = _canon(L), _canon(inn)  # replicas and offsets compared in canonical form
    reps = _replica_difference(lc.replica, inn.replica)
    if reps is None:
        raise AlgebraError(f"{layout} does not contain the replicas of {inner}")
    cand = TileLayout(oshard, reps, _offset_difference(lc.offset, ic.offset))
    if tiled:
        cand = _unscale(cand, _spans(inn, step))
        rebuilt = tile(inn, cand, os, ins, step=step)
    else:
        rebuilt = direct_sum(cand, inn, os, ins)
    if not _same_canonical(rebuilt, L):
        kind = "tile" if tiled else "direct sum"
        raise AlgebraError(f"{layout} is not a {kind} with inner {inner} over these shapes")
    return cand


def _unscale(layout: TileLayout, spans: Mapping[str, int]) -> TileLayout:
    for it in layout.shard:
        factor = spans.get(it.axis, 1)
        if factor == 0:
            raise AlgebraError(
                f"the inner's tile span on '{it.axis}' is 0 (TIRx's span with negative strides), "
                f"so the outer's strides there cannot be recovered; tile with step='disjoint'"
            )
        if it.stride % factor:
            raise AlgebraError(
                f"stride {it.stride} on '{it.axis}' is not a multiple of the inner's tile span "
                f"{factor}, so this is not a tile of that inner"
            )
    return layout.replace(shard=[Iter(i.extent, i.stride // spans.get(i.axis, 1), i.axis)
                                 for i in layout.shard])


def inner_of(layout: Layout, outer: Layout, outer_shape, inner_shape, *,
             tiled: bool = False, step: TileStep = "span") -> TileLayout:
    """The inner ``I`` with ``direct_sum(outer, I) == layout`` (``tiled``:
    ``I.tile(outer, step=step)``), equal up to canonical form with replica sets
    normalized; :class:`AlgebraError` when there is none.

    >>> import tilelayout as tl
    >>> inner_of(tl.parse("S[16:1]"), tl.parse("S[(2,2):(8,2)]"), (2, 2), (2, 2))
    parse('S[(2,2):(4,1)]')
    """
    L, out, os, ins, _, ishard = _recognized(layout, outer, outer_shape, inner_shape, step,
                                             "inner_of")
    lc = _canon(L)
    # The inner's replicas and offset are what L has beyond the outer's (absolute in a
    # tile too; the tile span scales only the outer's shard, and the rebuild below
    # computes it from the candidate). TIRx's span counts an inner's replicas as written
    # (a flipped replica moves the offset and changes the span), so a tile's are first
    # taken as the tile wrote them (it keeps both operands' replica iters), then with
    # replica sets normalized (L written some other way).
    splits: list[tuple[list[Iter], dict[str, int]]] = []
    reps = _peel(L.replica, out.replica)  # L as built: both operands' replica iters
    if reps is not None:
        splits.append((reps, _offset_difference(L.offset, out.offset)))
    if tiled:
        written = canonicalize(L)
        assert isinstance(written, TileLayout)
        reps = _peel(written.replica, out.replica)
        if reps is not None:
            splits.append((reps, _offset_difference(written.offset, out.offset)))
    reps = _replica_difference(lc.replica, out.replica)
    if reps is not None:
        splits.append((reps, _offset_difference(lc.offset, _canon(out).offset)))
    # a size-1 inner has no shard iter left in L, but in a tile the axis of its lone
    # ``1:1`` iter decides where its replicas and offset count as size (tile_span)
    shards = [ishard] if ishard or not tiled else [[]] + [[Iter(1, 1, a)] for a in lc.axes]
    for reps, offset in splits:
        for shard in shards:
            cand = TileLayout(shard, reps, offset)
            rebuilt = (tile(cand, out, os, ins, step=step) if tiled
                       else direct_sum(out, cand, os, ins))
            if _same_canonical(rebuilt, lc):
                return cand
    kind = "tile" if tiled else "direct sum"
    raise AlgebraError(f"{layout} is not a {kind} with outer {outer} over these shapes (or its "
                       f"replicas only add up as sets, which recognition does not search)")
