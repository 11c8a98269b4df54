"""TVM TIRx layout objects (``tvm_tirx``, PyPI ``apache-tvm-tirx``) <-> our layouts.

TIRx is where the shard / replica / offset model comes from, so the conversion is one
to one: ``T.TileLayout.from_iters(shard, replica, offset)`` with ``T.Iter(extent,
stride, axis)``, and ``T.ComposeLayout(per_element, swizzle_len, atom_len, tile)`` for
a swizzle. Refused: a swizzled layout whose tile uses axes other than ``m`` (TIRx
applies a ``ComposeLayout`` only to a tile on ``m``), symbolic (non-constant) extents or
strides, an :class:`~tilelayout.XorSwizzle` that is neither TIRx form, and TIRx axes
that the axis table in force does not know (declare them with :func:`tilelayout.axes`
first). A TIRx swizzle with ``swizzle_inner=False`` XORs the lower bit group into the
higher one (bit ``k`` in ``[M, M+B)`` also flips bit ``k+S``): no ``Swizzle(M, B, S)``
says that, so it comes back as the equal :class:`~tilelayout.XorSwizzle`, and goes out
again as ``swizzle_inner=False``.

``tvm_tirx`` is imported only inside the functions.

>>> import tilelayout as tl
>>> to_tvm(tl.parse("S[(8,4):(4@laneid,1@laneid)] + 1@warpid"))  # doctest: +SKIP
T.TileLayout.from_iters(shard=[T.Iter(8, 4, "laneid"), T.Iter(4, 1, "laneid")], ...)
"""

from __future__ import annotations

from typing import Any

from ..core.axes import is_axis
from ..core.compose import ComposeLayout, Layout, tile_of
from ..core.errors import SwizzleError, shown
from ..core.iter import Iter
from ..core.swizzle import signed_swizzle, swizzle_shift
from ..core.tile import TileLayout
from . import InteropError, require
from .inputs import layout_arg


def _layout_module():
    return require("tvm_tirx.tirx.layout", "tvm", "a TVM TIRx layout")


def to_tvm(layout: Layout) -> Any:
    """The ``tvm_tirx`` ``TileLayout`` / ``ComposeLayout`` for ``layout`` (needs the ``tvm`` extra).

    >>> import tilelayout as tl
    >>> to_tvm(tl.parse("S[8:2]")).apply(3)["m"]  # doctest: +SKIP
    6
    """
    layout = layout_arg(layout)
    tile = tile_of(layout)
    if isinstance(layout, ComposeLayout):
        other = [a for a in tile.axes if a != "m"]
        if other:
            raise InteropError(
                f"{layout}: a TIRx ComposeLayout swizzles a tile that maps only to 'm' (TIRx "
                f"refuses to apply it otherwise), but this tile also uses {other}; convert the "
                f"memory part alone, or drop the swizzle"
            )
    big = [v for it in (*tile.shard, *tile.replica) for v in (it.extent, it.stride)
           if not -(1 << 63) <= v < 1 << 63] + [v for v in tile.offset.values()
                                                if not -(1 << 63) <= v < 1 << 63]
    if big:
        raise InteropError(f"{layout}: TIRx holds extents, strides and offsets in int64; "
                           f"{shown(big[0])} does not fit")
    T = _layout_module()
    tvm_tile = T.TileLayout.from_iters(
        [T.Iter(it.extent, it.stride, it.axis) for it in tile.shard],
        [T.Iter(it.extent, it.stride, it.axis) for it in tile.replica],
        dict(tile.offset),
    )
    if isinstance(layout, ComposeLayout):
        params = swizzle_shift(layout.swizzle)
        if params is None:
            raise InteropError(
                f"{layout.swizzle} is not a TIRx swizzle: TIRx's ComposeLayout XORs one bit "
                f"group into another (per_element, swizzle_len, atom_len, swizzle_inner)"
            )
        m, b, shift = params
        return T.ComposeLayout(m, b, abs(shift), tvm_tile, swizzle_inner=shift >= 0)
    return tvm_tile


def _int(value: Any, what: str) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise InteropError(f"{what} is the symbolic expression {value}; only constants convert") from None


def _axis_name(axis: Any) -> str:
    name = str(getattr(axis, "name", axis))
    if not is_axis(name):
        raise InteropError(
            f"TIRx axis {name!r} is not an axis of the table in force; declare it first, e.g. "
            f"with tilelayout.axes({name!r}): ..."
        )
    return name


def _iters(items: Any, what: str) -> list[Iter]:
    return [
        Iter(_int(it.extent, f"{what} extent"), _int(it.stride, f"{what} stride"), _axis_name(it.axis))
        for it in items
    ]


def from_tvm(obj: Any) -> Layout:
    """Our layout for a ``tvm_tirx`` ``TileLayout`` or ``ComposeLayout``.

    >>> from_tvm(to_tvm(L)) == L  # doctest: +SKIP
    True
    """
    type_name = type(obj).__name__
    if type_name == "ComposeLayout" or hasattr(obj, "tile_layout"):
        tile = from_tvm(obj.tile_layout)
        assert isinstance(tile, TileLayout)
        params = (_int(obj.per_element, "per_element"), _int(obj.swizzle_len, "swizzle_len"),
                  _int(obj.atom_len, "atom_len"))
        m, b, s = params
        try:
            sw = signed_swizzle(m, b, s if bool(obj.swizzle_inner) else -s)
        except SwizzleError as exc:
            raise InteropError(f"TIRx ComposeLayout: {exc}") from None
        return ComposeLayout(sw, tile)
    if not (hasattr(obj, "shard") and hasattr(obj, "replica") and hasattr(obj, "offset")):
        raise InteropError(f"expected a tvm_tirx TileLayout or ComposeLayout, got {type_name}")
    offset = {_axis_name(a): _int(v, "offset") for a, v in obj.offset.items()}
    return TileLayout(_iters(obj.shard, "shard iter"), _iters(obj.replica, "replica iter"), offset)


__all__ = ["from_tvm", "to_tvm"]
