"""Triton shared linear layouts <-> our shared-memory layouts (a tile on ``m``, swizzled).

A Triton shared layout maps the shared-memory element *offset* to the logical
coordinate linearly over GF(2): ``offset_bases[k]`` is the logical coordinate stored at
offset ``2**k`` and the coordinate at any offset is the XOR of the bases of its set
bits. Every Gluon shared layout (``NVMMASharedLayout``, ``SwizzledSharedLayout``,
``SharedLinearLayout``) lowers to this form.

Ours runs the other way: logical -> linear ``m`` (a tile) -> address (a swizzle). The
two meet on power-of-two tiles that store each element once at offsets ``[0, 2**N)``:

* export (:func:`to_triton_shared_bases`): the tile's bits (each logical bit on one
  ``m`` bit, as :func:`~tilelayout.interop.triton.to_triton_bases` requires) composed
  with the inverse of the swizzle's F2 matrix. Refused, with the reason: replicas (an
  element stored twice), an offset, other axes, non-power-of-two extents or strides, a
  swizzle that moves tile addresses outside ``[0, 2**N)``.
* import (:func:`from_triton_shared_bases`): a bit-permutation tile (picked so that
  each offset bit adds one new logical bit when possible, which makes the swizzle
  unitriangular: the 128B NVMMA layout comes back as ``Swizzle(3,3,3)``'s XorSwizzle
  over a row-major tile) composed with the :class:`~tilelayout.XorSwizzle` that remains;
  no swizzle when none remains. Zero bases (an element at two offsets), bases outside
  the shape and dependent bases are refused; ``block_bases`` (CTAs of a cluster) are
  refused; the ``alignment`` is an allocation property and is not part of the layout.

``triton`` itself is imported only by :func:`to_triton_shared` / :func:`from_triton_shared`.

>>> import tilelayout as tl
>>> L = tl.ComposeLayout(tl.Swizzle(3, 3, 3), tl.parse("S[(8,64):(64,1)]"))
>>> to_triton_shared_bases(L)
[[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [1, 8], [2, 16], [4, 32]]
>>> from_triton_shared_bases(_, (8, 64))       # a plain Swizzle when one is equal
parse('ComposeLayout(Swizzle(3,3,3), S[(8,64):(64,1)])')
"""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType
from typing import Any

from ..algebra.offsets import offsets_layout
from ..core.compose import ComposeLayout, Layout, tile_of
from ..core.errors import AlgebraError, shown
from ..core.shape import shape_arg
from . import InteropError, require
from .inputs import layout_and_shape
from .triton import to_triton_bases

_OFFSET = MappingProxyType({"offset": "m"})


def to_triton_shared_bases(layout: Layout, shape: Sequence[int] | None = None) -> list[list[int]]:
    """``offset_bases`` of the Triton shared linear layout equal to ``layout`` on ``shape``.

    >>> import tilelayout as tl
    >>> to_triton_shared_bases(tl.parse("S[(4,2):(1,4)]"))   # column-major: offset 1 = row 1
    [[1, 0], [2, 0], [0, 1]]
    """
    layout, dims = layout_and_shape(layout, shape)
    tile = tile_of(layout)
    if tuple(tile.axes) != ("m",):
        raise InteropError(
            f"{layout}: a Triton shared layout places elements at shared-memory offsets only; "
            f"this layout uses {', '.join(a for a in tile.axes if a != 'm') or 'no m axis'}"
        )
    if tile.replica:
        raise InteropError(
            f"{layout} stores each element {tile.replica_count} times (replicas on m); a Triton "
            f"shared layout maps each element to one offset (a zero offset basis there is padding, not a "
            f"broadcast)"
        )
    plain = to_triton_bases(tile, dims, _OFFSET).get("offset", [])  # m bit k -> logical
    n = len(plain)
    if n == 0:
        raise InteropError(f"{layout} has a single element; a Triton shared layout needs an offset bit")
    if not isinstance(layout, ComposeLayout):
        return plain
    sw = layout.swizzle
    gaps = sum(1 << k for k in range(n) if not any(plain[k]))
    for k in range(n):  # both swizzle kinds are F2-linear: bit k goes to apply(2**k)
        v = sw.apply(1 << k)
        if v >> n:
            raise InteropError(
                f"{sw} sends bit {k} of the tile's addresses to {v}, outside the tile's "
                f"[0, {1 << n}); a Triton shared layout is a permutation of the tile's offsets"
            )
        if (v != 1 << k) if gaps >> k & 1 else (v & gaps):
            raise InteropError(
                f"{sw} moves padding: bit {k} of the tile's addresses goes to {v}, but the "
                f"tile leaves address bits {gaps:#b} unused (padding, a zero basis in Triton) "
                f"and a swizzle over them would put elements there"
            )
    # offset 2**k holds the element whose linear m is unapply(2**k)
    out = []
    for k in range(n):
        m = sw.unapply(1 << k)
        vec = [0] * len(dims)
        for j in range(n):
            if m >> j & 1:
                vec = [a ^ b for a, b in zip(vec, plain[j], strict=True)]
        out.append(vec)
    return out


def from_triton_shared_bases(
    offset_bases: Sequence[Sequence[int]], shape: Sequence[int] | None = None
) -> Layout:
    """Our layout (logical -> swizzled ``m``) for Triton ``offset_bases`` over ``shape``
    (default: per dim the smallest power of two above every basis entry, as Triton's
    ``SharedLinearLayout.shape``): :func:`tilelayout.algebra.offsets.offsets_layout`, whose
    refusals become :class:`~tilelayout.interop.InteropError`. Zero bases are padding.

    >>> from_triton_shared_bases([[0, 1], [1, 1]], (2, 2))
    parse('ComposeLayout(Swizzle(0,1,1), S[(2,2):(2,1)])')
    >>> from_triton_shared_bases([], (2, 2))
    Traceback (most recent call last):
    tilelayout.interop.InteropError: a Triton shared layout needs at least one offset basis
    """
    try:
        return offsets_layout(offset_bases, shape)
    except AlgebraError as exc:
        raise InteropError(str(exc)) from None


def _gluon():
    return require("triton.experimental.gluon.language._layouts", "triton", "a Gluon shared layout")


def to_triton_shared(layout: Layout, shape: Sequence[int] | None = None, alignment: int = 16) -> Any:
    """A Gluon ``SharedLinearLayout`` equal to ``layout`` (needs the ``triton`` extra).

    >>> to_triton_shared(tl.parse("S[(4,2):(1,4)]")).offset_bases  # doctest: +SKIP
    [[1, 0], [2, 0], [0, 1]]
    """
    if not isinstance(alignment, int) or isinstance(alignment, bool) or alignment < 1 or \
            alignment & (alignment - 1) or alignment > 1 << 20:
        raise InteropError(f"alignment must be a power of two of bytes, got {shown(alignment)}")
    return _gluon().SharedLinearLayout(
        offset_bases=to_triton_shared_bases(layout, shape), alignment=alignment
    )


def from_triton_shared(shared: Any, shape: Sequence[int] | None = None) -> Layout:
    """Our layout for a Gluon shared layout: a ``SharedLinearLayout`` as it is, any other
    (``NVMMASharedLayout``, ``SwizzledSharedLayout``, ...) lowered by Triton itself for
    ``shape``; or a ``triton.tools.LinearLayout`` with in dim ``offset``.

    >>> from_triton_shared(ttgl.NVMMASharedLayout(128, 16), (8, 64))  # doctest: +SKIP
    parse('ComposeLayout(Swizzle(3,3,3), S[(8,64):(64,1)])')
    """
    if hasattr(shared, "bases") and hasattr(shared, "out_dims"):  # triton.tools.LinearLayout
        bases = dict(shared.bases)
        extra = sorted(k for k, v in bases.items() if k != "offset" and v)
        if "offset" not in bases or extra:
            raise InteropError(f"expected a linear layout over 'offset' only, got in dims "
                               f"{sorted(bases)}")
        dims = [int(s) for _, s in shared.out_dims]
        return from_triton_shared_bases(bases["offset"], shape or dims)
    ttgl = _gluon()
    if not isinstance(shared, ttgl.SharedLinearLayout):
        if not isinstance(shared, ttgl.SharedLayout):
            raise InteropError(f"expected a Gluon shared layout, got {type(shared).__name__}")
        shape = shape_arg(shape)
        if shape is None:
            raise InteropError(f"{type(shared).__name__} needs the tensor shape to be lowered")
        shared = _lower(shared, list(shape))
    if shared.block_bases:
        raise InteropError(
            f"block_bases {shared.block_bases}: a layout split over the CTAs of a cluster; "
            f"convert one CTA's part"
        )
    return from_triton_shared_bases(shared.offset_bases, shape)


def _lower(shared: Any, shape: list[int]) -> Any:
    """Triton's own lowering of a Gluon shared layout to a SharedLinearLayout (on the CPU):
    :func:`tilelayout.interop.gluon.lower` (one cached MLIR context; inputs that would
    abort Triton refused first)."""
    gluon = require("tilelayout.interop.gluon", "triton", "lowering a Gluon shared layout")
    return gluon.lower(shared, shape)


__all__ = [
    "from_triton_shared",
    "from_triton_shared_bases",
    "to_triton_shared",
    "to_triton_shared_bases",
]
