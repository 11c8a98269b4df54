"""CuTe layouts: text, pycute objects (``Layout``, ``Swizzle``, ``ComposedLayout``),
nested modes, and thread-value layouts (:mod:`~tilelayout.interop.cute_tv`).

A CuTe ``Layout`` maps a logical coordinate to an integer offset. Its shape and stride
are nested tuples; a coordinate inside one (possibly nested) mode is split
*colexicographically* (leftmost sub-mode fastest). Ours splits row-major, outermost
first. So a top-level mode ``(4,8):(32,1)`` (row = a + 4 b) becomes our iters
``(8,4):(1,32)``: reversed inside the mode, top-level modes in order (the mapping of
:mod:`tilelayout.algebra.cute.modes`). The result gives the same value at every
logical coordinate of the CuTe shape's top-level modes (:func:`cute_logical_shape`).
Every leaf is one iter, extent-1 leaves with their strides included, so
``to_cute(from_cute(x), shape=<x's nested shape>)`` gives ``x`` back, nesting and all.

The parser is our own (no CUTLASS needed); ``pycute`` (in the ``nvidia-cutlass`` wheel,
extra ``cute``) is needed only by :func:`to_pycute`.

>>> str(from_cute("((4,8),(2,2)):((32,1),(16,8))"))
'S[(8,4,2,2):(1,32,8,16)]'
>>> to_cute(from_cute("(4,8):(8,1)"))
'(4,8):(8,1)'
>>> to_cute(from_cute("((4,1),2):((8,5),1)"), shape=((4, 1), 2))
'((4,1),2):((8,5),1)'
"""

from __future__ import annotations

from typing import Any

from ..algebra.cute import CuteLayout, composition
from ..algebra.cute.modes import format_int_tuple, leaves, of_tile, plain_tuple, unwrap
from ..algebra.cute.swizzled import CuteComposed, as_composed
from ..core.axes import check_axis
from ..core.compose import ComposeLayout, Layout, tile_of
from ..core.errors import AlgebraError, shown
from ..core.iter import Iter
from ..core.shape import shape_arg
from ..core.swizzle import Swizzle, signed_swizzle, swizzle_shift
from ..core.tile import TileLayout
from ..core.xor_swizzle import XorSwizzle
from . import InteropError, require
from .cute_text import IntTuple, as_shape_stride, parse_cute, read_cute
from .cute_tv import from_cute_tv, thread_axes, to_cute_tv
from .inputs import layout_arg
from .isolation import isolated


def _pycute_swizzle(src: Any) -> Swizzle | XorSwizzle | None:
    """Our swizzle for a pycute ``Swizzle`` (duck-typed: ``bits``, ``base``, ``shift``)."""
    if all(hasattr(src, a) for a in ("bits", "base", "shift")) and not hasattr(src, "shape"):
        return signed_swizzle(src.base, src.bits, src.shift)  # CuTe Swizzle<B,M,S>
    return None


def _swizzle_axis(axis: str) -> None:
    """Refuse a swizzled CuTe layout read onto an axis other than ``m``."""
    if axis != "m":
        raise InteropError(f"a CuTe swizzle permutes the memory offset; it needs axis 'm', "
                           f"not {axis!r}")


def cute_layout(src: Any) -> CuteLayout:
    """A :class:`~tilelayout.algebra.cute.CuteLayout` (CuTe's nested shape and stride, for
    CuTe's algebra) from CuTe text, a ``(shape, stride)`` pair or a pycute ``Layout``.

    >>> cute_layout("((4,1),2):((8,5),1)")
    CuteLayout(shape=((4, 1), 2), stride=((8, 5), 1))
    """
    swizzle, shape, stride = as_shape_stride(src)
    if swizzle is not None:
        raise InteropError(f"{src} is swizzled; CuTe's layout algebra takes the layout without "
                           f"its swizzle")
    return CuteLayout(shape, stride)


def cute_logical_shape(src: Any) -> tuple[int, ...]:
    """The logical shape a CuTe layout is evaluated on: the sizes of its top-level modes.

    >>> cute_logical_shape("((4,8),(2,2,2)):((32,1),(16,8,128))")
    (32, 8)
    """
    if hasattr(src, "layoutA"):
        src = src.layoutA
    _, shape, stride = as_shape_stride(src)
    return CuteLayout(shape, stride).dims


def from_cute(src: Any, axis: str = "m") -> Layout:
    """Our layout for a CuTe layout: same value (on ``axis``) at every logical coordinate.

    ``src`` is CuTe text (``"(4,8):(8,1)"``, nested modes, ``Swizzle<B,M,S> o ...``,
    ``Sw<B,M,S> o 64 o ...`` with a composed layout's offset), a
    ``(shape, stride)`` pair of nested tuples, a
    :class:`~tilelayout.algebra.cute.CuteLayout`, or a pycute object: ``Layout``,
    ``Swizzle`` (a :class:`~tilelayout.ComposeLayout` over its domain ``S[2**(B+M+|S|):1]``)
    or ``ComposedLayout`` (a ``Swizzle`` after ``offset + layout``; with a ``Layout`` as
    its outer function and offset 0, CuTe's :func:`~tilelayout.algebra.cute.composition`).
    Evaluate the result on :func:`cute_logical_shape`.

    >>> L = from_cute("((4,8),(2,2,2)):((32,1),(16,8,128))")
    >>> L.base((5, 7), shape=cute_logical_shape("((4,8),(2,2,2))"))["m"]
    185
    """
    check_axis(axis)
    if hasattr(src, "layoutB") and hasattr(src, "layoutA"):  # a pycute ComposedLayout
        return _from_composed(src, axis)
    if isinstance(src, CuteComposed) or (hasattr(src, "outer") and hasattr(src, "inner")):
        try:
            composed = as_composed(src)
        except AlgebraError as exc:
            raise InteropError(str(exc)) from None
        if composed is not None:
            _swizzle_axis(axis)
            return composed.layout
    swizzle = _pycute_swizzle(src)
    if swizzle is not None:
        return ComposeLayout(swizzle, TileLayout([Iter(src.size(), 1, "m")]))
    if isinstance(src, str):
        swizzle, offset, shape, stride = read_cute(src)
    else:
        (swizzle, shape, stride), offset = as_shape_stride(src), 0
    tile = CuteLayout(shape, stride).to_layout(axis)
    if swizzle is None:
        return tile
    _swizzle_axis(axis)
    if offset:
        tile = TileLayout(tile.shard, offset={"m": offset})
    return ComposeLayout(swizzle, tile)


def _from_composed(src: Any, axis: str) -> Layout:
    outer, offset, inner = src.layoutB, int(src.offset), src.layoutA
    swizzle = _pycute_swizzle(outer)
    if swizzle is not None:
        _swizzle_axis(axis)
        tile = tile_of(from_cute(inner))
        return ComposeLayout(swizzle, TileLayout(tile.shard, offset={"m": offset} if offset else None))
    if offset:
        raise InteropError(f"{src}: a Layout after a nonzero offset ({offset}) is not one "
                           f"strided layout of the inner coordinate")
    try:
        inner_layout, outer_layout = cute_layout(inner), cute_layout(outer)
        reach = inner_layout.cosize
        if reach > outer_layout.size:  # CuTe's composition and the composed function differ
            raise InteropError(
                f"{src}: the inner layout reaches offset {reach - 1}, past the outer layout's "
                f"{outer_layout.size} elements; pycute's ComposedLayout extends the outer "
                f"layout's last mode there, CuTe's composition does not: write the outer "
                f"layout over the inner one's whole range")
        result = composition(outer_layout, inner_layout)
        return _regrouped(result, inner_layout.dims).to_layout(axis)
    except AlgebraError as exc:
        raise InteropError(f"{src}: {exc}") from None


def _regrouped(r: CuteLayout, dims: tuple[int, ...]) -> CuteLayout:
    """``r`` with its leaves grouped into top-level modes of sizes ``dims`` (CuTe's
    composition returns a function of the inner layout's 1-D index: for a rank-1 inner
    layout ``4:1`` it may be ``(2,2):(1,4)``, one mode of 4, not two of 2).

    >>> str(_regrouped(CuteLayout((2, 2), (1, 4)), (4,)))
    '((2,2)):((1,4))'
    """
    if r.dims == tuple(dims):
        return r
    shapes, strides = leaves(r.shape), leaves(r.stride)
    modes_s, modes_d, k = [], [], 0
    for n in dims:
        group_s, group_d, size = [], [], 1
        while k < len(shapes) and (size < n or shapes[k] == 1):
            group_s.append(shapes[k])
            group_d.append(strides[k])
            size *= shapes[k]
            k += 1
        if size != n:
            raise AlgebraError(f"the composition {r} does not split into modes of sizes {dims}")
        sh, st = unwrap(group_s, group_d)
        modes_s.append(sh)
        modes_d.append(st)
    if k != len(shapes):
        raise AlgebraError(f"the composition {r} does not split into modes of sizes {dims}")
    return CuteLayout(tuple(modes_s), tuple(modes_d))


def cute_shape_stride(layout: Layout, shape: Any = None) -> tuple[IntTuple, IntTuple]:
    """CuTe ``(shape, stride)`` nested tuples for a single-axis layout over ``shape``.

    ``shape`` is our logical shape (each dimension one top-level mode, nested when several
    of our iters make it up) or a nested CuTe shape whose leaves are our iters, each
    mode's reversed (extent-1 iters and their strides kept). Refused with
    :class:`InteropError`: replicas (a CuTe layout is a function), a nonzero offset (CuTe
    keeps offsets in the pointer), several axes.

    >>> cute_shape_stride(from_cute("((4,8),(2,2)):((32,1),(16,8))"), (32, 4))
    (((4, 8), (2, 2)), ((32, 1), (16, 8)))
    """
    layout = layout_arg(layout)
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
    nested = isinstance(shape, tuple | list) and any(isinstance(s, tuple | list) for s in shape)
    shape = plain_tuple(shape, "the nested CuTe shape") if nested else \
        tile.check_shape(shape_arg(shape))
    try:
        cl = of_tile(TileLayout(tile.shard), shape)
    except AlgebraError as exc:
        raise InteropError(f"{layout} has no per-dimension form over {shape}: {exc}") from None
    if not nested and len(shape) == 1 and isinstance(cl.shape, tuple) and len(cl.shape) == 1:
        return cl.shape[0], cl.stride[0]  # type: ignore[index]
    return cl.shape, cl.stride


def _swizzle_text(swizzle: Swizzle | XorSwizzle) -> tuple[int, int, int]:
    params = swizzle_shift(swizzle)
    if params is None:
        raise InteropError(
            f"{swizzle} is not a CuTe Swizzle<B,M,S>: CuTe XORs one bit group "
            f"into another (S > 0 the higher into the lower, S < 0 the lower into the higher)"
        )
    m, b, s = params
    return b, m, s


def to_cute(layout: Layout | CuteLayout, shape: Any = None) -> str:
    """CuTe's printed form of a single-axis layout over ``shape`` (default: its shard
    extents; a nested CuTe shape keeps CuTe's nesting), or of a CuteLayout or a pycute
    ``Layout``.

    A swizzled layout prints as ``Swizzle<B,M,S> o shape:stride`` (our ``Swizzle(M,B,S)``
    is CuTe's ``Swizzle<B,M,S>``, both in element units).

    >>> import tilelayout as tl
    >>> to_cute(tl.parse("S[(8,4,2):(1,32,16)]"), shape=(32, 2))
    '((4,8),2):((32,1),16)'
    >>> to_cute(tl.parse("S[(8,4,1,2):(1,32,7,16)]"), shape=((4, 8), (2, 1)))
    '((4,8),(2,1)):((32,1),(16,7))'
    """
    if isinstance(layout, CuteLayout):
        return str(layout)
    if isinstance(layout, str):  # our layout text or a preset string
        layout = layout_arg(layout)
    if not isinstance(layout, TileLayout | ComposeLayout):  # a pycute or DSL layout, a pair
        return str(cute_layout(layout))
    sh, st = cute_shape_stride(layout, shape)
    text = f"{format_int_tuple(sh)}:{format_int_tuple(st)}"
    if isinstance(layout, ComposeLayout):
        b, m, s = _swizzle_text(layout.swizzle)
        text = f"Swizzle<{b},{m},{s}> o {text}"
    return text


def to_pycute(layout: Layout | CuteLayout | Swizzle | XorSwizzle, shape: Any = None) -> Any:
    """The pycute object for ``layout``: a ``Layout`` (over ``shape``, as :func:`to_cute`),
    a ``ComposedLayout(Swizzle, offset, Layout)`` for a swizzled layout, or a ``Swizzle``
    for one of our swizzles. Needs the ``cute`` extra.

    >>> import tilelayout as tl
    >>> to_pycute(tl.parse("S[(4,8):(8,1)]"))(1, 2)
    10
    >>> to_pycute(tl.Swizzle(3, 3, 3))
    Swizzle(3,3,3)
    """
    pycute = require("pycute", "cute", "a pycute layout")
    if not isinstance(layout, Swizzle | XorSwizzle | CuteLayout):
        layout = layout_arg(layout)
    if isinstance(layout, Swizzle | XorSwizzle):
        return pycute.Swizzle(*_swizzle_text(layout))
    if isinstance(layout, CuteLayout):
        return pycute.Layout(layout.shape, layout.stride)
    if isinstance(layout, ComposeLayout):
        tile = layout.tile_layout
        offset = dict(tile.offset).get("m", 0)
        inner = TileLayout(tile.shard, tile.replica)
        sh, st = cute_shape_stride(inner, shape)
        return pycute.ComposedLayout(pycute.Swizzle(*_swizzle_text(layout.swizzle)), offset,
                                     pycute.Layout(sh, st))
    sh, st = cute_shape_stride(layout, shape)
    return pycute.Layout(sh, st)


def to_cute_dsl(layout: Layout | CuteLayout | str, shape: Any = None, *,
                isolate: bool = False) -> Any:
    """A ``cutlass.cute`` layout (the CUTLASS Python DSL, extra ``cute-dsl``) for
    ``layout`` over ``shape`` (as :func:`to_cute`); a swizzled layout gives the DSL's
    composed layout (``make_composed_layout(make_swizzle(B, M, S), offset, layout)``).

    The DSL builds layouts only while a ``@cute.jit`` function is traced (no GPU is
    needed; nothing is launched), so call it from one; :func:`from_cute` reads a DSL
    layout there too (its static ``shape`` and ``stride``). Outside a traced function
    the DSL refuses (its ``CALL_OUTSIDE_JIT`` error, raised here as an InteropError).
    Integers beyond int64 are refused first (the DSL cannot hold them). ``isolate=True``
    builds the same layout in a child process first
    (:mod:`tilelayout.interop.cute_dsl_trial`), so this process builds only what the DSL
    survived. In a ``.py`` file (the DSL reads the traced function's source)::

        @cute.jit
        def show():
            print(to_cute_dsl(tl.parse("S[(8,4,2):(1,32,16)]"), (32, 2)))  # ((4,8),2):((32,1),16)
    """
    dsl = require("cutlass.cute", "cute-dsl", "a CuTe DSL layout")
    swizzle, offset = None, 0
    if not isinstance(layout, CuteLayout):
        layout = layout_arg(layout)
    if isinstance(layout, ComposeLayout):
        tile = layout.tile_layout
        swizzle, offset = _swizzle_text(layout.swizzle), dict(tile.offset).get("m", 0)
        layout = TileLayout(tile.shard, tile.replica)
    cl = layout if isinstance(layout, CuteLayout) else CuteLayout(*cute_shape_stride(layout, shape))
    big = [v for v in (*leaves(cl.shape), *leaves(cl.stride), offset) if not -(1 << 63) <= v < 1 << 63]
    if big:
        raise InteropError(f"{cl}: the CuTe DSL holds integers in int64; {shown(big[0])} does not fit")
    if isolate:
        isolated("tilelayout.interop.cute_dsl_trial:dsl_text", cl.shape, cl.stride, swizzle, offset,
                 what=f"to_cute_dsl({cl})")
    try:
        inner = dsl.make_layout(cl.shape, stride=cl.stride)
        if swizzle is None:
            return inner
        return dsl.make_composed_layout(dsl.make_swizzle(*swizzle), offset, inner)
    except Exception as exc:  # noqa: BLE001 (the DSL's own refusals: outside @cute.jit, ...)
        first = str(exc).strip().splitlines()[0][:200] if str(exc).strip() else type(exc).__name__
        raise InteropError(f"the CuTe DSL refused {cl}: {first}") from None


__all__ = [
    "cute_layout",
    "cute_logical_shape",
    "cute_shape_stride",
    "from_cute",
    "from_cute_tv",
    "parse_cute",
    "read_cute",
    "thread_axes",
    "to_cute",
    "to_cute_dsl",
    "to_cute_tv",
    "to_pycute",
]
