"""CuTe's ``ComposedLayout`` with a swizzle outside: ``x -> swizzle(offset + inner(x))``,
and the algebra on it (CUTLASS ``include/cute/swizzle_layout.hpp``).

A swizzle is a function of the memory offset, so operations that compose on the right
leave it in place: ``composition(Sw o o o L, B) = Sw o o o composition(L, B)``, and the
divides (``logical_divide``, ``zipped_divide``, ``tiled_divide``), which are compositions
on the right, do the same with ``L``'s divide. CuTe's ``Swizzle<B,M,S>`` is our
``Swizzle(M, B, S)`` (a negative ``S``: the equal ``XorSwizzle``, see
:func:`tilelayout.core.swizzle.signed_swizzle`).

>>> from tilelayout.core.swizzle import Swizzle
>>> from tilelayout.algebra.cute.modes import CuteLayout
>>> A = CuteComposed(Swizzle(3, 3, 3), 0, CuteLayout((8, 64), (64, 1)))
>>> str(A)
'Swizzle<3,3,3> o (8,64):(64,1)'
>>> A.layout
parse('ComposeLayout(Swizzle(3,3,3), S[(8,64):(64,1)])')
"""

from __future__ import annotations

import functools
from collections import namedtuple
from collections.abc import Callable
from typing import Any

from ...core.compose import ComposeLayout
from ...core.errors import AlgebraError, shown
from ...core.swizzle import Swizzle, signed_swizzle, swizzle_shift
from ...core.tile import TileLayout
from ...core.xor_swizzle import XorSwizzle
from .modes import CuteLayout, as_cute


class CuteComposed(namedtuple("CuteComposed", ["swizzle", "offset", "inner"])):
    """CuTe's ``ComposedLayout(Swizzle, offset, Layout)``: ``swizzle(offset + inner(x))``.

    ``swizzle`` is our :class:`~tilelayout.Swizzle` (or an ``XorSwizzle`` that is a CuTe
    swizzle with a negative shift), ``offset`` an integer >= 0, ``inner`` a CuteLayout.

    >>> A = CuteComposed(Swizzle(3, 3, 3), 0, CuteLayout((8, 64), (64, 1)))
    >>> A(1, 0), A.dims
    (72, (8, 64))
    """

    __slots__ = ()
    swizzle: Swizzle | XorSwizzle
    offset: int
    inner: CuteLayout

    def __new__(cls, swizzle: Any, offset: Any, inner: Any) -> CuteComposed:
        if not isinstance(swizzle, Swizzle | XorSwizzle) or swizzle_shift(swizzle) is None:
            raise AlgebraError(f"CuteComposed: expected a CuTe swizzle (a Swizzle, or an "
                               f"XorSwizzle CuTe can write), got {shown(swizzle)}")
        if isinstance(offset, bool) or not isinstance(offset, int) or offset < 0:
            raise AlgebraError(f"CuteComposed: the offset must be an integer >= 0, got {shown(offset)}")
        return tuple.__new__(cls, (swizzle, offset, as_cute(inner, what="CuteComposed inner")))

    def __str__(self) -> str:
        m, b, s = swizzle_shift(self.swizzle)  # type: ignore[misc]
        mid = f" o {self.offset}" if self.offset else ""
        return f"Swizzle<{b},{m},{s}>{mid} o {self.inner}"

    def __call__(self, *coord: int) -> int:
        """CuTe's evaluation: ``swizzle(offset + inner(coord))``."""
        return self.swizzle.apply(self.offset + self.inner(*coord))

    @property
    def dims(self) -> tuple[int, ...]:
        """Our logical shape: the inner layout's top-level mode sizes."""
        return self.inner.dims

    @property
    def size(self) -> int:
        """Number of coordinates."""
        return self.inner.size

    @property
    def layout(self) -> ComposeLayout:
        """Our layout: ``ComposeLayout(swizzle, inner.layout + offset)`` over :attr:`dims`."""
        tile = self.inner.layout
        if self.offset:
            tile = TileLayout(tile.shard, offset={"m": self.offset})
        return ComposeLayout(self.swizzle, tile)


def as_composed(x: Any, shape: Any = None) -> CuteComposed | None:
    """``x`` as a CuteComposed when it is swizzled (our ComposeLayout over ``shape``, a
    pycute ``ComposedLayout`` with a ``Swizzle`` outside, a CUTLASS DSL composed layout
    traced under ``@cute.jit``, a CuteComposed), else None.

    >>> import tilelayout as tl
    >>> str(as_composed(tl.ComposeLayout(tl.Swizzle(3, 3, 3), tl.parse("S[(8,64):(64,1)]"))))
    'Swizzle<3,3,3> o (8,64):(64,1)'
    >>> as_composed(tl.parse("S[8:1]")) is None
    True
    """
    if isinstance(x, CuteComposed):
        return x
    if isinstance(x, ComposeLayout):
        tile = x.tile_layout
        offset = dict(tile.offset).get("m", 0)
        inner = as_cute(TileLayout(tile.shard, tile.replica), shape)
        return CuteComposed(x.swizzle, offset, inner)
    outer = getattr(x, "layoutB", None)   # pycute: layoutB(offset + layoutA(x))
    if outer is not None and all(hasattr(outer, a) for a in ("bits", "base", "shift")):
        return CuteComposed(signed_swizzle(outer.base, outer.bits, outer.shift), int(x.offset),
                            x.layoutA)
    if outer is not None:
        raise AlgebraError(f"{x}: a ComposedLayout with a {type(outer).__name__} outside; CuTe's "
                           f"algebra here takes a Swizzle outside")
    sw = getattr(x, "inner", None)        # the CUTLASS DSL: inner(offset + outer(x))
    if sw is not None and all(hasattr(sw, a) for a in ("num_bits", "num_base", "num_shift")):
        return CuteComposed(signed_swizzle(sw.num_base, sw.num_bits, sw.num_shift), int(x.offset),
                            CuteLayout(x.outer.shape, x.outer.stride))
    return None


def swizzle_outside(op: Callable[..., Any]) -> Callable[..., Any]:
    """``op`` (an operation whose first argument is a layout) that, given a swizzled
    layout, runs on its inner layout and keeps the swizzle and offset outside: CuTe's rule
    for the operations that compose on the right (composition and the divides).

    >>> from tilelayout.algebra.cute.composition import composition
    >>> A = CuteComposed(Swizzle(3, 3, 3), 0, CuteLayout((8, 64), (64, 1)))
    >>> str(composition(A, (CuteLayout(8, 1), CuteLayout(8, 1))))     # composition has it
    'Swizzle<3,3,3> o (8,8):(64,1)'
    """

    @functools.wraps(op)
    def on_inner(a: Any, *args: Any) -> Any:
        c = None if type(a) is CuteLayout else as_composed(a)
        if c is None:
            return op(a, *args)
        return CuteComposed(c.swizzle, c.offset, op(c.inner, *args))

    return on_inner


__all__ = ["CuteComposed", "as_composed", "swizzle_outside"]
