"""CuTe layouts: ``shape:stride`` text (nested), swizzles and thread-value layouts.

A CuTe ``Layout`` maps a logical coordinate to an integer offset. Its shape and stride
are nested tuples; a coordinate inside one (possibly nested) mode is split
*colexicographically* (leftmost sub-mode fastest). Ours splits row-major, outermost
first. So a top-level mode ``(4,8):(32,1)`` (row = a + 4 b) becomes our iters
``(8,4):(1,32)``: reversed inside the mode, top-level modes in order. The result gives
the same value at every logical coordinate of the CuTe shape's top-level modes
(:func:`cute_logical_shape`).

The parser is our own (no CUTLASS needed); ``pycute`` (in the ``nvidia-cutlass`` wheel)
is used only by :func:`to_pycute` and by the cross-checking tests.

>>> str(from_cute("((4,8),(2,2)):((32,1),(16,8))"))
'S[(8,4,2,2):(1,32,8,16)]'
>>> to_cute(from_cute("(4,8):(8,1)"))
'(4,8):(8,1)'
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any

from ..algebra.canonical import fuse_adjacent
from ..core.axes import SCOPE_LEVEL, is_thread_axis
from ..core.axes import axis_of as lookup_axis
from ..core.compose import ComposeLayout, Layout, tile_of
from ..core.errors import LayoutParseError
from ..core.iter import Iter
from ..core.shape import format_shape
from ..core.swizzle import Swizzle, signed_swizzle, swizzle_shift
from ..core.tile import TileLayout
from ..core.xor_swizzle import XorSwizzle
from . import InteropError, require
from .factor import split_by_shape

IntTuple = int | tuple["IntTuple", ...]

_TOKEN = re.compile(r"\s*(?:(Swizzle\s*<)|(-?_?\d+)|(.))")


# -- text ------------------------------------------------------------------------------
class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text
        self.toks: list[tuple[str, str, int]] = []
        for m in _TOKEN.finditer(text):
            if m.group(1):
                self.toks.append(("swz", m.group(1), m.start(1)))
            elif m.group(2):
                self.toks.append(("int", m.group(2).replace("_", ""), m.start(2)))
            elif m.group(3):
                self.toks.append(("sym", m.group(3), m.start(3)))
        self.k = 0

    def peek(self) -> str:
        return self.toks[self.k][1] if self.k < len(self.toks) else ""

    def fail(self, expected: str) -> LayoutParseError:
        col = self.toks[self.k][2] + 1 if self.k < len(self.toks) else len(self.text) + 1
        got = repr(self.peek()) if self.peek() else "the end"
        return LayoutParseError(f"CuTe layout: expected {expected}, got {got}", self.text, col)

    def take(self, sym: str) -> None:
        if self.peek() != sym:
            raise self.fail(repr(sym))
        self.k += 1

    def integer(self) -> int:
        if self.k < len(self.toks) and self.toks[self.k][0] == "int":
            self.k += 1
            return int(self.toks[self.k - 1][1])
        raise self.fail("an integer")

    def tree(self) -> IntTuple:
        if self.peek() != "(":
            return self.integer()
        self.take("(")
        items = [self.tree()]
        while self.peek() == ",":
            self.take(",")
            items.append(self.tree())
        self.take(")")
        return tuple(items)


def parse_cute(text: str) -> tuple[Swizzle | XorSwizzle | None, IntTuple, IntTuple]:
    """``(swizzle or None, shape, stride)`` from CuTe's printed form.

    Accepts ``shape:stride`` with nested tuples, CuTe's static-integer spelling ``_4``,
    a shape alone (CuTe's default column-major compact strides) and a leading
    ``Swizzle<B,M,S> o`` (a negative ``S`` XORs the lower bit group into the higher one:
    an :class:`~tilelayout.XorSwizzle`).

    >>> parse_cute("Swizzle<3,3,3> o (8,64):(64,1)")
    (Swizzle(3, 3, 3), (8, 64), (64, 1))
    >>> parse_cute("(4,(2,2))")
    (None, (4, (2, 2)), (1, (4, 8)))
    """
    r = _Reader(text)
    swizzle = None
    if r.peek().startswith("Swizzle"):
        r.k += 1
        b = r.integer()
        r.take(",")
        m = r.integer()
        r.take(",")
        s = r.integer()
        r.take(">")
        if r.peek() not in ("o", "∘", "*"):
            raise r.fail("'o' (composition) after the swizzle")
        r.k += 1
        swizzle = signed_swizzle(m, b, s)  # CuTe Swizzle<B,M,S> is our Swizzle(M,B,S)
    shape = r.tree()
    if r.peek() == ":":
        r.take(":")
        stride = r.tree()
    else:
        stride = _compact_left(shape)
    if r.k != len(r.toks):
        raise r.fail("the end of the layout")
    _check_congruent(shape, stride, text)
    return swizzle, shape, stride


def _compact_left(shape: IntTuple, start: int = 1) -> IntTuple:
    """CuTe's default (LayoutLeft) strides: column-major compact."""
    out = []
    for leaf in _leaves(shape):
        out.append(start)
        start *= leaf
    it = iter(out)
    return _rebuild(shape, it)


def _rebuild(like: IntTuple, values) -> IntTuple:
    if isinstance(like, tuple):
        return tuple(_rebuild(x, values) for x in like)
    return next(values)


def _leaves(t: IntTuple) -> list[int]:
    if isinstance(t, tuple):
        return [x for sub in t for x in _leaves(sub)]
    return [t]


def _check_congruent(shape: IntTuple, stride: IntTuple, text: str) -> None:
    if isinstance(shape, tuple) != isinstance(stride, tuple) or (
        isinstance(shape, tuple) and len(shape) != len(stride)  # type: ignore[arg-type]
    ):
        raise InteropError(f"CuTe layout {text!r}: shape {shape} and stride {stride} are not congruent")
    if isinstance(shape, tuple):
        for a, b in zip(shape, stride, strict=True):  # type: ignore[arg-type]
            _check_congruent(a, b, text)
    elif shape < 1:
        raise InteropError(f"CuTe layout {text!r}: extents must be >= 1, got {shape}")


def _as_cute(src: Any) -> tuple[Swizzle | XorSwizzle | None, IntTuple, IntTuple]:
    if isinstance(src, str):
        return parse_cute(src)
    if isinstance(src, tuple) and len(src) == 2:
        shape, stride = src
        _check_congruent(shape, stride, repr(src))
        return None, shape, stride
    if hasattr(src, "shape") and hasattr(src, "stride"):  # a pycute.Layout
        return _as_cute((src.shape, src.stride))
    raise InteropError(f"expected CuTe text, a (shape, stride) pair or a pycute Layout, got {src!r}")


def cute_logical_shape(src: str | tuple | Any) -> tuple[int, ...]:
    """The logical shape a CuTe layout is evaluated on: the sizes of its top-level modes.

    >>> cute_logical_shape("((4,8),(2,2,2)):((32,1),(16,8,128))")
    (32, 8)
    """
    _, shape, _ = _as_cute(src)
    modes = shape if isinstance(shape, tuple) else (shape,)
    return tuple(math.prod(_leaves(m)) for m in modes)


def from_cute(src: str | tuple | Any, axis: str = "m") -> Layout:
    """Our layout for a CuTe layout: same value (on ``axis``) at every logical coordinate.

    ``src`` is CuTe text (``"(4,8):(8,1)"``, nested modes, ``Swizzle<B,M,S> o ...``), a
    ``(shape, stride)`` pair of nested tuples, or a ``pycute.Layout``. Evaluate the result
    on :func:`cute_logical_shape` (for flat modes that is its default shape).

    >>> L = from_cute("((4,8),(2,2,2)):((32,1),(16,8,128))")
    >>> L.base((5, 7), shape=cute_logical_shape("((4,8),(2,2,2))"))["m"]
    185
    """
    swizzle, shape, stride = _as_cute(src)
    modes = (shape, stride) if not isinstance(shape, tuple) else None
    pairs = [modes] if modes else list(zip(shape, stride, strict=True))  # type: ignore[arg-type]
    iters: list[Iter] = []
    for sh, st in pairs:
        leaves = list(zip(_leaves(sh), _leaves(st), strict=True))
        iters.extend(Iter(e, s, axis) for e, s in reversed(leaves))
    tile = TileLayout(iters)
    if swizzle is None:
        return tile
    if axis != "m":
        raise InteropError(f"a CuTe swizzle permutes the memory offset; it needs axis 'm', not {axis!r}")
    return ComposeLayout(swizzle, tile)


def cute_shape_stride(layout: Layout, shape: Sequence[int] | None = None) -> tuple[IntTuple, IntTuple]:
    """CuTe ``(shape, stride)`` nested tuples for a single-axis layout over ``shape``.

    Each logical dimension becomes one top-level mode (nested when several of our iters
    make it up). Refused with :class:`InteropError`: replicas (a CuTe layout is a
    function), a nonzero offset (CuTe keeps offsets in the pointer), several axes.

    >>> cute_shape_stride(from_cute("((4,8),(2,2)):((32,1),(16,8))"), (32, 4))
    (((4, 8), (2, 2)), ((32, 1), (16, 8)))
    """
    tile = tile_of(layout)
    if tile.replica:
        raise InteropError(
            f"{layout} has replicas; a CuTe layout is a function (one offset per coordinate)"
        )
    if any(v for v in tile.offset.values()):
        raise InteropError(
            f"{layout} has an offset; a CuTe layout starts at 0 (put the offset in the pointer)"
        )
    axes = {it.axis for it in tile.shard}
    if len(axes) > 1:
        raise InteropError(
            f"{layout} uses axes {sorted(axes)}; a CuTe Layout has one integer codomain "
            f"(use to_cute on a single-axis layout, e.g. a memory layout on 'm')"
        )
    dims = tile.check_shape(shape)
    modes_shape: list[IntTuple] = []
    modes_stride: list[IntTuple] = []
    for group in split_by_shape(tile.shard, dims):
        inner_first = list(reversed(group))
        if not inner_first:
            modes_shape.append(1)
            modes_stride.append(0)
        elif len(inner_first) == 1:
            modes_shape.append(inner_first[0].extent)
            modes_stride.append(inner_first[0].stride)
        else:
            modes_shape.append(tuple(it.extent for it in inner_first))
            modes_stride.append(tuple(it.stride for it in inner_first))
    if len(dims) == 1:
        return modes_shape[0], modes_stride[0]
    return tuple(modes_shape), tuple(modes_stride)


def _fmt(t: IntTuple) -> str:
    return f"({','.join(_fmt(x) for x in t)})" if isinstance(t, tuple) else str(t)


def to_cute(layout: Layout, shape: Sequence[int] | None = None) -> str:
    """CuTe's printed form of a single-axis layout over ``shape`` (default: its shard extents).

    A swizzled layout prints as ``Swizzle<B,M,S> o shape:stride`` (our ``Swizzle(M,B,S)``
    is CuTe's ``Swizzle<B,M,S>``, both in element units).

    >>> import tilelayout as tl
    >>> to_cute(tl.parse("S[(8,4,2):(1,32,16)]"), shape=(32, 2))
    '((4,8),2):((32,1),16)'
    """
    sh, st = cute_shape_stride(layout, shape)
    text = f"{_fmt(sh)}:{_fmt(st)}"
    if isinstance(layout, ComposeLayout):
        params = swizzle_shift(layout.swizzle)
        if params is None:
            raise InteropError(
                f"{layout.swizzle} is not a CuTe Swizzle<B,M,S>: CuTe XORs one bit group "
                f"into another (S > 0 the higher into the lower, S < 0 the lower into the higher)"
            )
        m, b, s = params
        text = f"Swizzle<{b},{m},{s}> o {text}"
    return text


def to_pycute(layout: Layout, shape: Sequence[int] | None = None) -> Any:
    """A ``pycute.Layout`` for a single-axis (unswizzled) layout. Needs the ``cute`` extra.

    >>> import tilelayout as tl
    >>> to_pycute(tl.parse("S[(4,8):(8,1)]"))(1, 2)  # doctest: +SKIP
    10
    """
    if isinstance(layout, ComposeLayout):
        raise InteropError("to_pycute takes an unswizzled layout; use to_cute for the text form")
    pycute = require("pycute", "cute")
    sh, st = cute_shape_stride(layout, shape)
    return pycute.Layout(sh, st)


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
    swizzle, sh, st = _as_cute(src)
    if swizzle is not None:
        raise InteropError("a thread-value layout has no swizzle")
    if not isinstance(sh, tuple) or len(sh) != 2:
        raise InteropError(f"a CuTe TV layout has two top-level modes (thread, value); got shape {_fmt(sh)}")
    dims = tuple(int(s) for s in shape)
    size = math.prod(dims)
    # leaves: (extent, index stride, our axis, our stride on that axis)
    leaves: list[tuple[int, int, str, int]] = []
    for mode_sh, mode_st, ax in ((sh[0], st[0], thread_axis), (sh[1], st[1], value_axis)):  # type: ignore[index]
        dom = 1
        for e, s in zip(_leaves(mode_sh), _leaves(mode_st), strict=True):
            if e > 1:
                leaves.append((e, s, ax, dom))
            dom *= e
    replica = [Iter(e, d, a) for e, s, a, d in leaves if s == 0]
    covering = sorted((lf for lf in leaves if lf[1] != 0), key=lambda lf: lf[1])
    expect = 1
    for e, s, a, _ in covering:
        if s != expect:
            raise InteropError(
                f"TV layout {_fmt(sh)}:{_fmt(st)} does not cover the {dims} tile exactly once: "
                f"a mode of extent {e} on {a} has index stride {s} where {expect} was expected "
                f"(strides must tile 0..{size - 1} without gaps or overlaps)"
            )
        expect *= e
    if expect != size:
        raise InteropError(
            f"TV layout {_fmt(sh)}:{_fmt(st)} covers {expect} elements but shape {dims} has {size}"
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
    tile = tile_of(layout)
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
    if isinstance(layout, ComposeLayout):
        raise InteropError(
            f"{layout} swizzles a memory address; a CuTe thread-value layout maps threads and "
            f"register values (use to_cute for the swizzled memory layout)"
        )
    threads = (thread_axis,) if isinstance(thread_axis, str) else tuple(thread_axis)
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
    return f"({_fmt(tsh)},{_fmt(vsh)}):({_fmt(tst)},{_fmt(vst)})"


__all__ = [
    "cute_logical_shape",
    "cute_shape_stride",
    "from_cute",
    "from_cute_tv",
    "parse_cute",
    "thread_axes",
    "to_cute",
    "to_cute_tv",
    "to_pycute",
]
