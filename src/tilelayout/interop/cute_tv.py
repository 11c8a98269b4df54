"""CuTe thread-value layouts, both ways: ``(thread, value) -> column-major index`` of a
logical tile (CUTLASS's ``ALayout`` / ``BLayout`` / ``CLayout``) and our logical ->
(thread, value) layouts.

>>> str(from_cute_tv("((4,8),(2,2)):((32,1),(16,8))", (16, 8)))   # SM80 16x8 C
'S[(2,8,4,2):(2,4@laneid,1@laneid,1)]'
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ..algebra.canonical import fuse_adjacent
from ..algebra.cute.modes import format_int_tuple, leaves
from ..core.axes import SCOPE_LEVEL, is_thread_axis
from ..core.axes import axis_of as lookup_axis
from ..core.compose import ComposeLayout, Layout, tile_of
from ..core.errors import shown
from ..core.iter import Iter
from ..core.shape import as_shape, format_shape
from ..core.tile import TileLayout
from . import InteropError
from .cute_text import IntTuple, as_shape_stride
from .factor import split_by_shape
from .inputs import int_sequence, layout_and_shape, layout_arg


# -- thread-value layouts -----------------------------------------------------------------
def from_cute_tv(
    src: str | tuple | Any,
    shape: Sequence[int],
    thread_axis: str = "laneid",
    value_axis: str = "m",
    permute: Sequence[int] | None = None,
) -> TileLayout:
    """Our logical -> (thread, value) layout for a CuTe thread-value layout.

    CuTe's TV layout maps ``(thread, value)`` to the *column-major* index of an element
    in the logical tile of ``shape`` (e.g. ``m + n*M`` for an MxN tile). We invert it:
    element ``(m, n)`` -> ``{thread_axis: thread, value_axis: value}``. Modes of stride 0
    (several threads or values holding the same element) become replica iters. A TV
    layout that does not cover the tile exactly once (apart from those) is refused.

    ``permute`` reorders the logical dimensions of the result: CuTe writes the mma B
    operand as N x K, PTX as K x N, so ``permute=(1, 0)`` gives the K x N fragment.
    Both axes appear in every coordinate, also when a mode has size 1 (value 0).

    >>> L = from_cute_tv("((4,8),(2,2)):((32,1),(16,8))", (16, 8))   # SM80 16x8 C
    >>> str(L)
    'S[(2,8,4,2):(2,4@laneid,1@laneid,1)]'
    """
    swizzle, sh, st = as_shape_stride(src)
    if swizzle is not None:
        raise InteropError("a thread-value layout has no swizzle")
    if not isinstance(sh, tuple) or len(sh) != 2:
        raise InteropError(f"a CuTe TV layout has two top-level modes (thread, value); got shape "
                           f"{format_int_tuple(sh)}")
    text = f"{format_int_tuple(sh)}:{format_int_tuple(st)}"
    dims = as_shape(shape)
    if not isinstance(thread_axis, str) or not isinstance(value_axis, str):
        raise InteropError(f"thread_axis and value_axis are axis names, got {shown(thread_axis)} "
                           f"and {shown(value_axis)}")
    if permute is not None:
        permute = int_sequence(permute, "permute")
    size = math.prod(dims)
    # leaves: (extent, index stride, our axis, our stride on that axis)
    parts: list[tuple[int, int, str, int]] = []
    for mode_sh, mode_st, ax in ((sh[0], st[0], thread_axis), (sh[1], st[1], value_axis)):  # type: ignore[index]
        dom = 1
        for e, s in zip(leaves(mode_sh), leaves(mode_st), strict=True):
            if e > 1:
                parts.append((e, s, ax, dom))
            dom *= e
    replica = [Iter(e, d, a) for e, s, a, d in parts if s == 0]
    covering = sorted((lf for lf in parts if lf[1] != 0), key=lambda lf: lf[1])
    expect = 1
    for e, s, a, _ in covering:
        if s != expect:
            raise InteropError(
                f"TV layout {text} does not cover the {dims} tile exactly once: "
                f"a mode of extent {e} on {a} has index stride {s} where {expect} was expected "
                f"(strides must tile 0..{size - 1} without gaps or overlaps)"
            )
        expect *= e
    if expect != size:
        raise InteropError(
            f"TV layout {text} covers {expect} elements but shape {dims} has {size}"
        )
    # colex split of the tile index: dimension 0 takes the smallest strides.
    pending = list(reversed(covering))  # pop() gives the smallest stride
    per_dim: list[list[Iter]] = []
    for d in dims:
        need, group = d, []
        while need > 1:
            e, s, a, dom = pending.pop()
            if need % e == 0:
                group.append(Iter(e, dom, a))
                need //= e
            elif e % need == 0:
                group.append(Iter(need, dom, a))
                pending.append((e // need, s * need, a, dom * need))
                need = 1
            else:
                raise InteropError(
                    f"TV layout mode of extent {e} straddles dimension boundary of shape {dims}"
                )
        per_dim.append(list(reversed(group)))  # outermost (largest stride) first
    if permute is not None:
        if sorted(permute) != list(range(len(dims))):
            raise InteropError(f"permute must be a permutation of 0..{len(dims) - 1}, got {permute}")
        per_dim = [per_dim[p] for p in permute]
    shard = [it for g in per_dim for it in g]
    # a mode of size 1 (one thread, or one value per thread) still names its axis, at 0,
    # so every coordinate carries both the thread and the value
    present = {it.axis for it in shard} | {it.axis for it in replica}
    shard += [Iter(1, 1, a) for a in dict.fromkeys((thread_axis, value_axis)) if a not in present]
    return TileLayout(shard, replica)


# -- thread-value layouts: ours -> CuTe ----------------------------------------------------


def thread_axes(layout: Layout) -> tuple[str, ...]:
    """The thread axes ``layout`` uses, outermost first (by the axes' scopes): the
    ``thread_axis`` argument :func:`to_cute_tv` needs for it.

    >>> import tilelayout as tl
    >>> thread_axes(tl.parse("S[(4,8,2):(1@wid_in_wg,1@laneid,1)]"))
    ('wid_in_wg', 'laneid')
    >>> thread_axes(tl.parse("S[(8,64):(64,1)]"))
    ()
    """
    tile = tile_of(layout_arg(layout))
    found = [a for a in tile.axes if is_thread_axis(a)]
    level = {a: SCOPE_LEVEL.get((lookup_axis(a).scope or ("thread", ""))[0], 0) for a in found}
    return tuple(sorted(found, key=lambda a: -level[a]))


def _digits(iters: list[tuple[int, int, int]], axis: str, where: str) -> list[tuple[int, int]]:
    """Mixed-radix digits ``(extent, cute stride)`` of one axis, fastest first, from its
    iters ``(extent, stride on the axis, cute index weight)``; refused unless they cover
    ``0 .. prod(extents) - 1`` exactly once."""
    out: list[tuple[int, int]] = []
    expect = 1
    for e, s, w in sorted(iters, key=lambda x: x[1]):
        if s != expect:
            why = (f"stride {s} (not positive)" if s <= 0 else
                   f"stride {s} where {expect} was expected ("
                   + ("a gap: some values hold no element" if s > expect else
                      "an overlap: some values hold two elements") + ")")
            raise InteropError(
                f"{where}: the iters on {axis!r} do not count 0..N-1 exactly once as a mixed "
                f"radix: an iter of extent {e} has {why}; a CuTe TV layout is a bijection onto a "
                f"full (thread, value) grid"
            )
        out.append((e, w))
        expect *= e
    return out


def _mode(digits: list[tuple[int, int]]) -> tuple[IntTuple, IntTuple]:
    if not digits:
        return 1, 0
    if len(digits) == 1:
        return digits[0]
    return tuple(e for e, _ in digits), tuple(w for _, w in digits)


def to_cute_tv(
    layout: Layout,
    shape: Sequence[int] | None = None,
    thread_axis: str | Sequence[str] = "laneid",
    value_axis: str = "m",
    permute: Sequence[int] | None = None,
) -> str:
    """CuTe's thread-value layout text for ``layout``: the inverse of :func:`from_cute_tv`.

    ``layout`` must map the logical tile of ``shape`` one to one onto a full grid of
    (thread, value) slots. The result maps ``(thread, value)`` to the *column-major*
    index of the element in the tile (``m + n*M`` for an M x N tile), as CuTe's
    ``ALayout`` / ``BLayout`` / ``CLayout`` / copy ``DstLayout`` do. Each of our iters is
    one digit of the thread or the value coordinate; the digits of a mode are sorted by
    their stride (fastest first, CuTe's colexicographic order) and each gets CuTe stride
    = (its weight inside its logical dimension) x (that dimension's column-major weight).

    ``thread_axis`` is one axis or several, outermost first: ``("wid_in_wg", "laneid")``
    counts thread = 32 * wid_in_wg + laneid (the inner axes' radix is their hardware
    extent, e.g. 32 lanes, so a multi-warp tile must use every lane), CuTe's thread index
    in a warpgroup. ``permute`` is :func:`from_cute_tv`'s: CuTe's dimension
    ``permute[i]`` is our dimension ``i`` (``(1, 0)`` for mma B, which CuTe writes N x K).

    Refused (:class:`InteropError`, with the reason): swizzles, replicas (a TV layout
    with a stride-0 mode is the other direction's business), offsets, axes other than the
    thread and value axes, no thread axis at all, and iters that do not tile a full grid.

    >>> import tilelayout as tl
    >>> to_cute_tv(tl.parse("S[(2,8,4,2):(2,4@laneid,1@laneid,1)]"), (16, 8))   # mma C
    '((4,8),(2,2)):((32,1),(16,8))'
    >>> to_cute_tv(tl.parse("S[32:1@laneid]"))          # one value per thread
    '(32,1):(1,0)'
    >>> to_cute_tv(tl.parse("S[(4,8):(8@laneid,1@laneid)]"))  # row-major lanes, column-major index
    '((8,4),1):((4,1),0)'
    """
    layout, shape = layout_and_shape(layout, shape)
    if isinstance(layout, ComposeLayout):
        raise InteropError(
            f"{layout} swizzles a memory address; a CuTe thread-value layout maps threads and "
            f"register values (use to_cute for the swizzled memory layout)"
        )
    threads = (thread_axis,) if isinstance(thread_axis, str) else thread_axis
    if not isinstance(threads, Sequence) or not all(isinstance(a, str) for a in threads) or \
            not isinstance(value_axis, str):
        raise InteropError(f"thread_axis must be an axis name or names and value_axis a name, "
                           f"got {shown(thread_axis)} and {shown(value_axis)}")
    threads = tuple(threads)
    if permute is not None:
        permute = int_sequence(permute, "permute")
    if not threads or value_axis in threads or len(set(threads)) != len(threads):
        raise InteropError(
            f"thread axes {list(threads)} and value axis {value_axis!r} must be distinct names"
        )
    if layout.replica:
        raise InteropError(
            f"{layout} has replicas (several threads or values hold one element); to_cute_tv "
            f"takes a one-to-one layout"
        )
    offset = {a: v for a, v in layout.offset.items() if v}
    if offset:
        raise InteropError(
            f"{layout} has offset {offset}; a CuTe TV layout numbers threads and values from 0"
        )
    allowed = (*threads, value_axis)
    foreign = [a for a in layout.axes if a not in allowed]
    if foreign:
        raise InteropError(
            f"{layout} uses axes {foreign}; a CuTe TV layout has only the thread "
            f"({', '.join(threads)}) and value ({value_axis}) coordinates (several thread "
            f"axes: pass thread_axis outermost first, e.g. ('warpid', 'laneid'))"
        )
    if not any(a in layout.axes for a in threads):
        raise InteropError(
            f"{layout} uses no thread axis ({', '.join(threads)}): nothing is distributed over "
            f"threads (for a memory layout use to_cute)"
        )
    dims = layout.check_shape(shape)
    rank = len(dims)
    perm = tuple(range(rank)) if permute is None else tuple(int(p) for p in permute)
    if sorted(perm) != list(range(rank)):
        raise InteropError(f"permute must be a permutation of 0..{rank - 1}, got {list(perm)}")
    cute_dims = [0] * rank
    for i, p in enumerate(perm):
        cute_dims[p] = dims[i]
    per_axis: dict[str, list[tuple[int, int, int]]] = {a: [] for a in allowed}
    for d, group in enumerate(split_by_shape(layout.shard, dims)):
        col_weight = math.prod(cute_dims[: perm[d]])
        inner = 1
        for it in reversed(fuse_adjacent(group)):
            per_axis[it.axis].append((it.extent, it.stride, inner * col_weight))
            inner *= it.extent
    where = f"{layout} over {format_shape(dims)}"
    thread_digits: list[tuple[int, int]] = []
    for k, a in enumerate(reversed(threads)):  # innermost thread axis first
        digits = _digits(per_axis[a], a, where)
        covered = math.prod(e for e, _ in digits)
        if k < len(threads) - 1:  # an inner axis: the outer ones count in its radix
            full = lookup_axis(a).extent or covered
            if covered != full:
                outer = threads[len(threads) - 2 - k]
                raise InteropError(
                    f"{where}: {a!r} covers {covered} of its {full} values, so the thread index "
                    f"{outer} * {full} + {a} would skip threads; a CuTe TV layout needs a "
                    f"full grid of threads"
                )
        thread_digits.extend(digits)
    value_digits = _digits(per_axis[value_axis], value_axis, where)
    tsh, tst = _mode(thread_digits)
    vsh, vst = _mode(value_digits)
    f = format_int_tuple
    return f"({f(tsh)},{f(vsh)}):({f(tst)},{f(vst)})"


__all__ = ["from_cute_tv", "thread_axes", "to_cute_tv"]
