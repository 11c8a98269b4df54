"""A CuTe layout as CuTe writes it (nested ``shape:stride``), and the mapping to ours.

:class:`CuteLayout` holds CuTe's nested shape and stride tuples, so CuTe's mode
structure (nesting, extent-1 modes and their strides) is kept exactly; its
:attr:`~CuteLayout.layout` is our :class:`~tilelayout.TileLayout` for it on axis ``m``.

**The mapping.** CuTe splits an index *colexicographically* (leftmost mode fastest); we
split row-major (last iter fastest). A CuTe layout with top-level modes ``M0, ..., Mk``
is our layout over the shape ``dims = (|M0|, ..., |Mk|)`` (same order), whose iters are
each mode's leaves *reversed*: ``((4,8),2):((32,1),16)`` is ``S[(8,4,2):(1,32,16)]``
over ``(32, 2)``. Coordinates agree (``L(c0, c1) = A(c0, c1)``); so does the index
inside each top-level mode. CuTe's 1-D index ``i`` is the coordinate ``c`` with
``i = c0 + |M0| * (c1 + |M1| * (c2 + ...))`` (column-major over ``dims``); ours is
row-major over ``dims``. For a rank-1 CuTe layout (one top-level mode, nested or not)
the two 1-D indices are the same number.

A bare :class:`~tilelayout.TileLayout` given to the CuTe functions is read with one
top-level mode per shard iter (its default shape): ``S[(4,8):(8,1)]`` is CuTe's
``(4,8):(8,1)``. ``as_cute(L, shape)`` (flat dims or a nested CuTe shape) reads it
otherwise.

>>> A = CuteLayout(((4, 8), 2), ((32, 1), 16))
>>> str(A), A.dims, str(A.layout)
('((4,8),2):((32,1),16)', (32, 2), 'S[(8,4,2):(1,32,16)]')
>>> as_cute(A.layout, ((4, 8), 2)) == A
True
"""

from __future__ import annotations

import math
import operator
from collections import namedtuple
from functools import lru_cache
from typing import Any

from ...core.budget import bounded_int
from ...core.compose import ComposeLayout
from ...core.errors import AlgebraError, shown
from ...core.iter import Iter
from ...core.tile import TileLayout
from ..group import group_iters

IntTuple = int | tuple["IntTuple", ...]
#: how deep a CuTe shape or stride may nest, and how many integers it may hold (CuTe's
#: layouts nest a few levels over tens of modes; deeper input is refused by its depth,
#: before anything recurses over it)
MAX_DEPTH = 32
MAX_LEAVES = 4096


def leaves(t: IntTuple) -> list[int]:
    """The integers of a nested tuple, left to right (CuTe's ``flatten``).

    >>> leaves(((4, 8), (2, (1, 3))))
    [4, 8, 2, 1, 3]
    """
    if type(t) is not tuple:
        return [t]  # type: ignore[list-item]
    out: list[int] = []
    for x in t:
        if type(x) is tuple:
            out.extend(leaves(x))
        else:
            out.append(x)
    return out


def rebuild(like: IntTuple, values: Any) -> IntTuple:
    """``like``'s nesting filled from the iterator ``values`` (CuTe's ``unflatten``).

    >>> rebuild(((0, 0), 0), iter([4, 8, 2]))
    ((4, 8), 2)
    """
    if isinstance(like, int):
        return next(values)
    return tuple(rebuild(x, values) for x in like)


def unwrap(shapes: list[int], strides: list[int]) -> tuple[IntTuple, IntTuple]:
    """One mode from flat leaves: an integer for one leaf, a tuple otherwise.

    >>> unwrap([4], [2]), unwrap([2, 3], [1, 8])
    ((4, 2), ((2, 3), (1, 8)))
    """
    if len(shapes) == 1:
        return shapes[0], strides[0]
    return tuple(shapes), tuple(strides)


def size_of(shape: IntTuple) -> int:
    """Product of a nested shape's leaves.

    >>> size_of(((4, 8), 2))
    64
    """
    return shape if isinstance(shape, int) else math.prod(leaves(shape))


class CuteLayout(namedtuple("CuteLayout", ["shape", "stride"])):
    """A CuTe layout: nested ``shape`` and ``stride`` tuples (congruent), CuTe's order.

    An immutable named tuple. Integers may be any int-like (numpy's too); shape and
    stride that are not congruent nested tuples of integers (extents >= 1) are refused
    with :class:`~tilelayout.AlgebraError`.

    >>> L = CuteLayout((4, 8), (8, 1))
    >>> str(L), L.size, L.cosize, L.rank
    ('(4,8):(8,1)', 32, 32, 2)
    >>> L.layout
    parse('S[(4,8):(8,1)]')
    """

    __slots__ = ()
    shape: IntTuple
    stride: IntTuple

    def __new__(cls, shape: Any, stride: Any) -> CuteLayout:
        shape, stride = plain_tuple(shape, "CuteLayout shape"), plain_tuple(stride, "CuteLayout stride")
        check_congruent(shape, stride, "CuteLayout")
        return tuple.__new__(cls, (shape, stride))

    def __str__(self) -> str:
        return f"{format_int_tuple(self.shape)}:{format_int_tuple(self.stride)}"

    def __call__(self, *coord: int) -> int:
        """CuTe's evaluation: ``L(i)`` at a 1-D index (column-major over the leaves, the
        last leaf unbounded) or ``L(c0, c1, ...)`` at one integer per top-level mode.

        >>> L = CuteLayout(((4, 8), 2), ((32, 1), 16))
        >>> L(5), L(5, 1), L(37)
        (33, 49, 49)
        """
        if len(coord) == 1:
            return _at(leaves(self.shape), leaves(self.stride), coord[0])
        modes = self.modes()
        if len(coord) != len(modes):
            raise AlgebraError(f"{self} takes one index or {len(modes)} mode coordinates, "
                               f"got {len(coord)}")
        return sum(_at(leaves(m.shape), leaves(m.stride), c) for m, c in zip(modes, coord, strict=True))

    @property
    def rank(self) -> int:
        """Number of top-level modes (1 for an integer shape)."""
        return 1 if isinstance(self.shape, int) else len(self.shape)

    def modes(self) -> list[CuteLayout]:
        """The top-level modes, each a CuteLayout (CuTe's ``layout<i>``).

        >>> [str(m) for m in CuteLayout(((2, 2), 4), ((1, 8), 2)).modes()]
        ['(2,2):(1,8)', '4:2']
        """
        if isinstance(self.shape, int):
            return [self]
        return [trusted(s, d) for s, d in zip(self.shape, self.stride, strict=True)]  # type: ignore[arg-type]

    @property
    def dims(self) -> tuple[int, ...]:
        """Our logical shape for it: the sizes of the top-level modes.

        >>> CuteLayout(((4, 8), (2, 2)), ((32, 1), (16, 8))).dims
        (32, 4)
        """
        if isinstance(self.shape, int):
            return (self.shape,)
        return tuple(size_of(s) for s in self.shape)

    @property
    def size(self) -> int:
        """Number of coordinates (CuTe's ``size``)."""
        return size_of(self.shape)

    @property
    def cosize(self) -> int:
        """One past the largest value (CuTe's ``cosize``: ``L(size - 1) + 1``).

        >>> CuteLayout((2, 3), (3, 1)).cosize
        6
        """
        total = 1
        for e, d in zip(leaves(self.shape), leaves(self.stride), strict=True):
            total += (e - 1) * d
        return total

    @property
    def layout(self) -> TileLayout:
        """Our layout (axis ``m``): each top-level mode's leaves reversed, modes in order.
        Evaluate it over :attr:`dims`."""
        return _tile(self.shape, self.stride)

    def index_layout(self, axis: str = "m") -> TileLayout:
        """Our 1-D layout whose row-major flat index *is* CuTe's 1-D index: every leaf
        reversed (not only inside each mode). Evaluate it over ``(size,)``; our native
        ``tl.compose`` / ``tl.complement`` read it as CuTe does.

        >>> L = CuteLayout((4, 3), (3, 1))
        >>> str(L.index_layout())
        'S[(3,4):(1,3)]'
        >>> L.index_layout().base(5)["m"]      # CuTe: L(5) = L(1, 1) = 3 + 1
        4
        """
        return TileLayout.of_shard(tuple(Iter.shared(e, d, axis) for e, d in zip(
            reversed(leaves(self.shape)), reversed(leaves(self.stride)), strict=True)))

    def to_layout(self, axis: str = "m") -> TileLayout:
        """Our layout on ``axis`` (see :attr:`layout`).

        >>> str(CuteLayout((4, 8), (1, 4)).to_layout("laneid"))
        'S[(4,8):(1@laneid,4@laneid)]'
        """
        return _tile(self.shape, self.stride, axis)


def _at(shapes: list[int], strides: list[int], i: int) -> int:
    """The value at colexicographic index ``i`` over leaves ``shapes:strides`` (the last
    leaf takes what is left, as CuTe's ``crd2idx`` does)."""
    out = 0
    for e, d in zip(shapes[:-1], strides[:-1], strict=True):
        i, digit = divmod(i, e)
        out += digit * d
    return out + i * strides[-1]


def trusted(shape: IntTuple, stride: IntTuple) -> CuteLayout:
    """A CuteLayout from shape and stride the algebra built (already congruent integers):
    no validation. Everything else goes through ``CuteLayout(shape, stride)``.

    >>> trusted((2, 2), (1, 4)) == CuteLayout((2, 2), (1, 4))
    True
    """
    return tuple.__new__(CuteLayout, (shape, stride))


def format_int_tuple(t: IntTuple) -> str:
    """CuTe's printed form of a nested tuple (no spaces).

    >>> format_int_tuple(((4, 8), 2))
    '((4,8),2)'
    """
    return f"({','.join(format_int_tuple(x) for x in t)})" if isinstance(t, tuple) else str(t)




@lru_cache(maxsize=4096)
def _tile(shape: IntTuple, stride: IntTuple, axis: str = "m") -> TileLayout:
    if isinstance(shape, int):
        return TileLayout.of_shard((Iter.shared(shape, stride, axis),))  # type: ignore[arg-type]
    iters: list[Iter] = []
    for sh, st in zip(shape, stride, strict=True):  # type: ignore[arg-type]
        if type(sh) is not tuple:
            iters.append(Iter.shared(sh, st, axis))  # type: ignore[arg-type]
            continue
        es, ds = leaves(sh), leaves(st)
        for k in range(len(es) - 1, -1, -1):
            iters.append(Iter.shared(es[k], ds[k], axis))
    return TileLayout.of_shard(tuple(iters)) if iters else TileLayout([], offset={axis: 0})


def check_congruent(shape: Any, stride: Any, what: str) -> None:
    """Refuse (AlgebraError) a shape/stride pair that is not two congruent nested tuples of
    integers with extents >= 1.

    >>> check_congruent((4, (2, 2)), (1, (4, 8)), "ok")
    """
    pairs = [(shape, stride, 0)]
    while pairs:  # no recursion: the depth is checked as the pairs are unpacked
        a, b, depth = pairs.pop()
        if isinstance(a, int) and isinstance(b, int) and not isinstance(a, bool | float):
            if a < 1:
                raise AlgebraError(f"{what}: extents must be >= 1, got {shown(a)}")
            continue
        if depth >= MAX_DEPTH or not (isinstance(a, tuple) and isinstance(b, tuple) and
                                      len(a) == len(b)):
            raise AlgebraError(f"{what}: shape {shown(shape)} and stride {shown(stride)} are not "
                               f"congruent nested tuples of integers (at most {MAX_DEPTH} deep)")
        pairs.extend((x, y, depth + 1) for x, y in zip(a, b, strict=True))


def plain_tuple(t: Any, what: str = "layout", depth: int = 0, count: list[int] | None = None) -> Any:
    """Nested tuples of Python ints (lists become tuples, numpy integers ints); refused:
    bools, floats, text, integers of 256 bits or more, more than :data:`MAX_DEPTH` levels
    or :data:`MAX_LEAVES` integers."""
    count = [0] if count is None else count
    count[0] += 1
    if count[0] > MAX_LEAVES:
        raise AlgebraError(f"{what}: more than {MAX_LEAVES} integers")
    if type(t) is int:
        return bounded_int(t, what)
    if isinstance(t, list | tuple):
        if depth >= MAX_DEPTH:
            raise AlgebraError(f"{what}: nested more than {MAX_DEPTH} levels deep")
        return tuple(plain_tuple(x, what, depth + 1, count) for x in t)
    if isinstance(t, bool):
        raise AlgebraError(f"{what}: expected integers, got {t!r}")
    try:
        return bounded_int(operator.index(t), what)
    except TypeError:
        raise AlgebraError(f"{what}: expected integers or nested tuples of them, got "
                           f"{type(t).__name__}") from None


def of_tile(tile: TileLayout, shape: Any = None) -> CuteLayout:
    """The CuTe layout of our single-axis ``tile`` over ``shape`` (see the module's mapping).

    ``shape`` is ``None`` (one top-level mode per shard iter), flat dims, or a nested CuTe
    shape: when its leaves match the shard iters one to one (each mode's leaves reversed),
    every iter keeps its stride (extent-1 ones too); otherwise the iters are grouped by
    the top-level sizes.

    >>> import tilelayout as tl
    >>> str(of_tile(tl.parse("S[(8,4,2):(1,32,16)]"), (32, 2)))
    '((4,8),2):((32,1),16)'
    >>> str(of_tile(tl.parse("S[(2,1,4):(1,7,2)]"), (2, (4, 1))))
    '(2,(4,1)):(1,(2,7))'
    """
    if tile.replica or any(tile.offset.values()):
        raise AlgebraError(f"{tile} has replicas or an offset; a CuTe layout is a function "
                           f"from coordinates to one integer starting at 0")
    shard = tile.shard
    if len(tile.axes) > 1:
        raise AlgebraError(f"{tile} maps to axes {sorted(tile.axes)}; a CuTe layout has one "
                           f"integer codomain")
    if shape is None:
        if not shard:
            return trusted(1, 0)
        if len(shard) == 1:
            return trusted(shard[0].extent, shard[0].stride)
        return trusted(tuple(it.extent for it in shard), tuple(it.stride for it in shard))
    if not _is_int_tuple(shape):
        shape = plain_tuple(shape, "shape")
    matched = _leaf_by_leaf(shard, shape)
    if matched is not None:
        return matched
    top = [shape] if isinstance(shape, int) else list(shape)
    sized = [size_of(t) for t in top]
    if math.prod(sized) != tile.size():
        raise AlgebraError(f"shape {format_int_tuple(shape)} has {math.prod(sized)} elements, "
                           f"{tile} has {tile.size()}")
    modes = []
    for g in group_iters(shard, sized):
        g = [it for it in g if it.extent > 1]
        if not g:  # a size-1 dimension: CuTe's 1:0
            modes.append((1, 0))
            continue
        modes.append(unwrap([it.extent for it in reversed(g)], [it.stride for it in reversed(g)]))
    if isinstance(shape, int):
        return trusted(*modes[0])
    return trusted(tuple(m[0] for m in modes), tuple(m[1] for m in modes))


def _is_int_tuple(t: Any) -> bool:
    if type(t) is int:
        return True
    return type(t) is tuple and all(_is_int_tuple(x) for x in t)


def _leaf_by_leaf(shard: tuple[Iter, ...], shape: IntTuple) -> CuteLayout | None:
    """``shape`` filled with the shard's strides when its leaves are the shard iters, each
    top-level mode's reversed; else None."""
    top = (shape,) if isinstance(shape, int) else shape
    strides: list[IntTuple] = []
    k = 0
    for t in top:
        if isinstance(t, int):
            if k >= len(shard) or shard[k].extent != t:
                return None
            strides.append(shard[k].stride)
            k += 1
            continue
        ls = leaves(t)
        mine = shard[k:k + len(ls)][::-1]
        k += len(ls)
        if len(mine) != len(ls) or any(it.extent != e for it, e in zip(mine, ls, strict=True)):
            return None
        strides.append(rebuild(t, iter([it.stride for it in mine])))
    if k != len(shard):
        return None
    return trusted(shape, strides[0] if isinstance(shape, int) else tuple(strides))


def as_cute(x: Any, shape: Any = None, what: str = "layout") -> CuteLayout:
    """A :class:`CuteLayout` from one, from our layout (over ``shape``), from an object
    with ``shape`` and ``stride`` (a pycute ``Layout``), or from an integer ``n`` (CuTe's
    ``n:1``).

    >>> as_cute(8), as_cute(CuteLayout((2, 2), (1, 4)))
    (CuteLayout(shape=8, stride=1), CuteLayout(shape=(2, 2), stride=(1, 4)))
    """
    if type(x) is CuteLayout:
        return x
    if isinstance(x, TileLayout):
        return of_tile(x, shape)
    if isinstance(x, bool):
        raise AlgebraError(f"{what}: expected a layout or an integer, got {x!r}")
    if isinstance(x, int):
        if x < 1:
            raise AlgebraError(f"{what}: a tile size must be >= 1, got {shown(x)}")
        return trusted(bounded_int(x, what), 1)
    if isinstance(x, ComposeLayout):
        raise AlgebraError(f"{what} {x} is swizzled; here CuTe's algebra takes the layout "
                           f"without its swizzle (composition and the divides keep a swizzle "
                           f"outside; complement, inverses and products do not)")
    if hasattr(x, "shape") and hasattr(x, "stride") and not hasattr(x, "layoutB"):
        return CuteLayout(x.shape, x.stride)
    raise AlgebraError(f"{what}: expected a CuteLayout, our TileLayout, a pycute Layout or "
                       f"an integer, got {type(x).__name__}")


def make_layout(*layouts: CuteLayout) -> CuteLayout:
    """The layout whose top-level modes are ``layouts`` (CuTe's ``make_layout(A, B)``).

    >>> str(make_layout(CuteLayout(4, 1), CuteLayout((2, 2), (4, 8))))
    '(4,(2,2)):(1,(4,8))'
    """
    modes = [as_cute(x, what=f"make_layout argument {k}") for k, x in enumerate(layouts)]
    return CuteLayout(tuple(x.shape for x in modes), tuple(x.stride for x in modes))


__all__ = [
    "CuteLayout", "IntTuple", "as_cute", "format_int_tuple", "leaves", "make_layout", "of_tile",
    "plain_tuple", "rebuild", "size_of", "trusted",
]
