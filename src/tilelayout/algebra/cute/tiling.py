"""CuTe's divides and products (CUTLASS ``include/cute/layout.hpp``), built from
:func:`composition` and :func:`complement` exactly as CuTe defines them:

* ``logical_divide(A, T) = composition(A, make_layout(T, complement(T, size(A))))``:
  mode 0 walks one tile, mode 1 the tiles;
* ``zipped_divide`` gathers the tile modes and the rest modes: ``((T0, T1, ...), (R0, R1,
  ..., rest of A))``; ``tiled_divide`` unpacks the rest: ``((T0, T1, ...), R0, R1, ...)``;
* ``logical_product(A, B) = make_layout(A, composition(complement(A, size(A) *
  cosize(B)), B))``: ``A`` repeated as ``B`` lays out the repeats;
  ``zipped_product`` / ``tiled_product`` gather like the divides;
* ``blocked_product(A, B)`` pads both to the same rank with ``1:0`` modes, takes
  ``logical_product`` and zips mode by mode: ``((A0, B'0), (A1, B'1), ...)``, each block
  contiguous; ``raked_product`` zips ``((B'0, A0), ...)``, the blocks interleaved.

A tuple tiler works mode by mode (``None`` keeps a mode, ``n`` is ``n:1``). The divides
keep a swizzled layout's swizzle outside (a
:class:`~tilelayout.algebra.cute.swizzled.CuteComposed`); the products take the layout
without its swizzle. Results are
:class:`~tilelayout.algebra.cute.modes.CuteLayout` (CuTe's nesting); ``.layout`` is ours
over ``.dims``. Refusals are :func:`composition`'s and :func:`complement`'s.

>>> from tilelayout.algebra.cute.modes import CuteLayout
>>> str(blocked_product(CuteLayout((2, 5), (5, 1)), CuteLayout((3, 4), (1, 3))))
'((2,3),(5,4)):((5,10),(1,30))'
>>> str(zipped_divide(CuteLayout((8, 8), (8, 1)), (2, 4)))
'((2,4),(4,2)):((8,1),(16,4))'
"""

from __future__ import annotations

import math
from typing import Any

from ...core.errors import AlgebraError, shown
from .complement import complement_leaves
from .composition import by_mode, coalesce_leaves, compose_flat
from .modes import CuteLayout, as_cute, leaves, make_layout, trusted, unwrap
from .swizzled import swizzle_outside


def _tiler(t: Any) -> Any:
    if t is None or (isinstance(t, tuple) and not isinstance(t, CuteLayout)):
        return t
    return as_cute(t, what="tiler")


@swizzle_outside
def logical_divide(layout: Any, tiler: Any) -> CuteLayout:
    """CuTe's ``logical_divide``: ``(tile, rest)`` in each divided mode.

    >>> from tilelayout.algebra.cute.modes import CuteLayout
    >>> str(logical_divide(CuteLayout(16, 1), CuteLayout(4, 2)))
    '(4,(2,2)):(2,(1,8))'
    """
    a = as_cute(layout)
    t = _tiler(tiler)
    if t is None:
        return a
    if not isinstance(t, CuteLayout):
        return by_mode(logical_divide, a, t, "logical_divide")
    a_s, a_d = leaves(a.shape), leaves(a.stride)
    c_s, c_d = complement_leaves(leaves(t.shape), leaves(t.stride), math.prod(a_s))
    return compose_flat(*coalesce_leaves(a_s, a_d), make_layout(t, trusted(*unwrap(c_s, c_d))))


def _unzip(op: Any, a: CuteLayout, tiler: Any) -> tuple[CuteLayout, list[CuteLayout]]:
    """``(tile part, rest modes)`` of ``op(a, tiler)`` gathered over the tiler's modes
    (CuTe's ``tile_unzip``)."""
    t = _tiler(tiler)
    if t is None:
        return trusted(1, 0), a.modes()
    if isinstance(t, CuteLayout):
        r = op(a, t).modes()
        return r[0], r[1:]
    modes = a.modes()
    if len(t) > len(modes):
        raise AlgebraError(f"tiler {shown(t)} has {len(t)} modes, {a} only {len(modes)}")
    tiles, rests = [], []
    for m, sub in zip(modes, t, strict=False):
        tile, rest = _unzip(op, m, sub)
        tiles.append(tile)
        rests.append(make_layout(*rest) if len(rest) != 1 else rest[0])
    return make_layout(*tiles), rests + modes[len(t):]


def _gathered(op: Any, layout: Any, tiler: Any, unpack: bool) -> CuteLayout:
    a, t = as_cute(layout), _tiler(tiler)
    if isinstance(t, CuteLayout):  # one tiler layout: op's (tile, rest) is already zipped
        r = op(a, t)
        if not unpack:
            return r
        (tile_s, rest_s), (tile_d, rest_d) = r.shape, r.stride  # type: ignore[misc]
        if type(rest_s) is tuple:
            return trusted((tile_s, *rest_s), (tile_d, *rest_d))
        return trusted((tile_s, rest_s), (tile_d, rest_d))
    tile, rest = _unzip(op, a, t)
    if unpack:
        return make_layout(tile, *rest)
    return make_layout(tile, make_layout(*rest) if len(rest) != 1 else rest[0])


@swizzle_outside
def zipped_divide(layout: Any, tiler: Any) -> CuteLayout:
    """CuTe's ``zipped_divide``: ``((tile modes), (rest modes))``.

    >>> from tilelayout.algebra.cute.modes import CuteLayout
    >>> str(zipped_divide(CuteLayout((4, 6), (1, 4)), (2, 3)))
    '((2,3),(2,2)):((1,4),(2,12))'
    """
    return _gathered(logical_divide, layout, tiler, unpack=False)


@swizzle_outside
def tiled_divide(layout: Any, tiler: Any) -> CuteLayout:
    """CuTe's ``tiled_divide``: ``((tile modes), rest0, rest1, ...)``.

    >>> from tilelayout.algebra.cute.modes import CuteLayout
    >>> str(tiled_divide(CuteLayout((4, 6), (1, 4)), (2, 3)))
    '((2,3),2,2):((1,4),2,12)'
    """
    return _gathered(logical_divide, layout, tiler, unpack=True)


def logical_product(layout: Any, tiler: Any) -> CuteLayout:
    """CuTe's ``logical_product``: ``(A, A's complement laid out by B)``.

    >>> from tilelayout.algebra.cute.modes import CuteLayout
    >>> str(logical_product(CuteLayout((2, 2), (4, 1)), CuteLayout(6, 1)))
    '((2,2),(2,3)):((4,1),(2,8))'
    """
    a = as_cute(layout)
    t = _tiler(tiler)
    if t is None:
        return a
    if not isinstance(t, CuteLayout):
        return by_mode(logical_product, a, t, "logical_product")
    a_s = leaves(a.shape)
    c_s, c_d = complement_leaves(a_s, leaves(a.stride), math.prod(a_s) * t.cosize)
    r = compose_flat(c_s, c_d, t)
    return trusted((a.shape, r.shape), (a.stride, r.stride))


def zipped_product(layout: Any, tiler: Any) -> CuteLayout:
    """CuTe's ``zipped_product``: ``((block modes), (product modes))``.

    >>> from tilelayout.algebra.cute.modes import CuteLayout
    >>> str(zipped_product(CuteLayout((2, 2), (1, 2)), (3, 2)))
    '((2,2),(3,2)):((1,2),(2,1))'
    """
    return _gathered(logical_product, layout, tiler, unpack=False)


def tiled_product(layout: Any, tiler: Any) -> CuteLayout:
    """CuTe's ``tiled_product``: ``((block modes), product0, product1, ...)``.

    >>> from tilelayout.algebra.cute.modes import CuteLayout
    >>> str(tiled_product(CuteLayout((2, 2), (1, 2)), (3, 2)))
    '((2,2),3,2):((1,2),2,1)'
    """
    return _gathered(logical_product, layout, tiler, unpack=True)


def _padded(x: CuteLayout, rank: int) -> CuteLayout:
    modes = x.modes() + [trusted(1, 0)] * (rank - x.rank)
    return make_layout(*modes)


def _zipped_modes(block: Any, tiler: Any, raked: bool) -> CuteLayout:
    a, b = as_cute(block), as_cute(tiler, what="tiler")
    rank = max(a.rank, b.rank)
    if rank == 1:
        a0, b0 = a, b
    else:
        a0, b0 = _padded(a, rank), _padded(b, rank)
    r = logical_product(a0, b0).modes()
    lhs = r[0].modes() if rank > 1 else [r[0]]
    rhs = r[1].modes() if rank > 1 else [r[1]]
    pairs = [make_layout(y, x) if raked else make_layout(x, y) for x, y in zip(lhs, rhs, strict=True)]
    return pairs[0] if rank == 1 else make_layout(*pairs)


def blocked_product(block: Any, tiler: Any) -> CuteLayout:
    """CuTe's ``blocked_product``: ``block`` repeated as ``tiler`` lays out the blocks,
    mode by mode ``(block_i, tiler_i)`` (each block contiguous in the result's coordinates).

    >>> from tilelayout.algebra.cute.modes import CuteLayout
    >>> str(blocked_product(CuteLayout(4, 1), CuteLayout(3, 1)))
    '(4,3):(1,4)'
    """
    return _zipped_modes(block, tiler, raked=False)


def raked_product(block: Any, tiler: Any) -> CuteLayout:
    """CuTe's ``raked_product``: as :func:`blocked_product` with each mode
    ``(tiler_i, block_i)``, so the blocks' elements interleave.

    >>> from tilelayout.algebra.cute.modes import CuteLayout
    >>> str(raked_product(CuteLayout((2, 5), (5, 1)), CuteLayout((3, 4), (1, 3))))
    '((3,2),(4,5)):((10,5),(30,1))'
    """
    return _zipped_modes(block, tiler, raked=True)


__all__ = [
    "blocked_product",
    "logical_divide",
    "logical_product",
    "raked_product",
    "tiled_divide",
    "tiled_product",
    "zipped_divide",
    "zipped_product",
]
