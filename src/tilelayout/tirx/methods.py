"""The methods TIRx's ``TileLayout`` and ``ComposeLayout`` share (TIRx's ``Layout`` base).

Each is TIRx's method on our layouts, returning the TIRx classes again: evaluation
(``apply``, ``apply_to_shape``), the algebra (``canonicalize``, ``tile``, ``tile_to``,
``direct_sum``, ``group``, ``slice``, ``storage``, ``pack``, ``unpack``, ``broadcast``),
the recognizers (``is_tile_inner``, ``is_tile_outer``, ``is_direct_sum_right``,
``is_direct_sum_left``) and the queries (``span``, ``is_trivial``, ``is_swizzle``,
``is_trainium``, ``verify_well_formed``, ``check_well_formed``).

>>> from tilelayout.tirx import S, TileLayout
>>> L = TileLayout(S[(8, 8):(8, 1)])
>>> T2 = L.tile(L, [8, 8], [8, 8])
>>> L.apply(200), T2, L.is_tile_inner(T2, [64, 64], [8, 8])
({'m': 200}, parse('S[(8,8,8,8):(512,8,64,1)]'), parse('S[(8,8):(8,1)]'))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..algebra import packing, span
from ..core import compose as _compose
from ..core import tile as _tile
from ..core.axes import axis
from ..core.errors import LayoutError, ShapeError, shown
from ..core.iter import Iter as _Iter
from ..eval.forward import base
from ..syntax.builder import AxisRef
from . import apply as _apply
from . import recognize, slicing, threads
from .errors import TirxTypeError, check_int, check_ints
from .spec import Axis, scope_pair


def _axis(name: object) -> Axis:
    return Axis(name.name if isinstance(name, AxisRef) else name)  # type: ignore[arg-type]


class TirxMethods:
    """The methods both TIRx classes share (TIRx's ``Layout`` base); ``_like`` (our layout
    as the TIRx class) is the classes' own (:mod:`tilelayout.tirx.layouts`)."""

    __slots__ = ()

    def _like(self, layout: _compose.Layout) -> Any:
        raise NotImplementedError

    def _maybe(self, layout: _compose.Layout | None) -> Any:
        return None if layout is None else self._like(layout)

    def apply(self, *coord: Any, shape: Sequence[int] | None = None,
              strict: bool = False) -> dict[str, Any]:
        """TIRx's ``apply``: the coordinate ``{axis: value}`` of one element, without the
        replicas (:mod:`tilelayout.tirx.apply`).

        ``apply(flat)`` takes a flat index; ``apply(c0, c1, ...)`` one index per shard
        iter; ``apply(*coord, shape=s)`` a coordinate in the logical shape ``s``. Indices
        are ints or symbolic (``T.Var``, TVM's ``Var``); an index past the tile keeps
        counting as in TIRx, unless ``strict=True`` (refused, as ``tl``'s ``apply``).

        >>> from tilelayout.tirx import S, TileLayout, Var
        >>> L = TileLayout(S[4, 8])
        >>> L.apply(1, 2), L.apply(40), L.apply(Var("i"), Var("j"))
        ({'m': 10}, {'m': 40}, {'m': i * 8 + j})
        """
        if strict is not False and strict is not True:
            raise TirxTypeError(f"strict is True or False, got {shown(strict)}")
        if not strict:
            return _apply.tirx_apply(self, coord, shape)
        values, dims = _apply.check_coord(self, coord, shape)
        if any(not isinstance(v, int) for v in values):
            raise LayoutError("strict=True checks integer indices against the shape; symbolic "
                              "indices have no range to check")
        if dims is not None:  # the native evaluator refuses an index outside the shape
            base(self, tuple(values), dims)
        else:
            base(self, values[0] if len(values) == 1 else tuple(values))
        return _apply.tirx_apply(self, values, dims)

    def apply_to_shape(self, coord: Sequence[Any], input_shape: Sequence[int]) -> list[Any]:
        """The index each shard iter takes for ``coord`` in ``input_shape`` (TIRx's
        ``apply_to_shape``): split per dimension when the layout groups by the shape,
        else flattened and split over the shard.

        >>> from tilelayout.tirx import Iter, TileLayout
        >>> TileLayout.from_iters([Iter(16, 16), Iter(4, 4), Iter(4, 1)]).apply_to_shape(
        ...     [5, 7], [16, 16])
        [5, 1, 3]
        """
        values, dims = _apply.check_coord(self, tuple(coord), input_shape)
        assert dims is not None
        tile = _compose.tile_of(self)
        found = _apply.try_group(tile, dims)
        if found is None:
            return _apply.split_coord(_apply.flatten_coord(values, dims),
                                      [it.extent for it in tile.shard])
        grouped, seps = found
        return _apply._grouped_coord(grouped, seps, values)

    def span(self, axis_name: str | None = None) -> int:
        """TIRx's ``span``: of one axis, or (``None``) over all memory axes
        (:func:`tilelayout.span`).

        >>> from tilelayout.tirx import S, TLane, TileLayout
        >>> TileLayout(S[(2, 4):(3 @ TLane, 1)]).span(), TileLayout(S[4, 8]).span("m")
        (7, 32)
        """
        return span.span(self, axis_name)

    def check_well_formed(self) -> None:
        """TIRx's well-formedness check: the shard's thread axes form one scope chain
        (``canonicalize``, ``tile``, ``tile_to`` and ``is_trivial`` check their
        canonical result, as TIRx does).

        >>> from tilelayout.tirx import S, TileLayout, laneid, tid_in_wg
        >>> TileLayout(S[(4, 4):(1 @ laneid, 4 @ tid_in_wg)]).check_well_formed()
        Traceback (most recent call last):
        ...
        tilelayout.core.errors.LayoutError: axes counting threads inside both warp and ...
        """
        scope_pair(_compose.tile_of(self))

    def verify_well_formed(self) -> bool:
        """apache/tvm main's ``verify_well_formed``: True, or the refusal of
        :meth:`check_well_formed`.

        >>> from tilelayout.tirx import S, TileLayout, laneid
        >>> TileLayout(S[(8, 4):(4 @ laneid, 1 @ laneid)]).verify_well_formed()
        True
        """
        self.check_well_formed()
        return True

    def canonicalize(self) -> Any:
        """TIRx's canonical form (:func:`tilelayout.canonicalize`; under a CUDA target
        thread axes fused as TIRx does, :mod:`tilelayout.tirx.threads`). A ComposeLayout
        keeps its swizzle over the canonical tile.

        >>> from tilelayout.tirx import S, TileLayout
        >>> TileLayout(S[4, 8]).canonicalize()
        parse('S[32:1]')
        """
        if isinstance(self, _compose.ComposeLayout):
            return self._like(_compose.ComposeLayout(self.swizzle,
                                                     threads.canonical(self.tile_layout)))
        return self._like(threads.canonical(self))  # type: ignore[arg-type]

    def tile(self, outer: _tile.TileLayout, outer_shape: Sequence[int],
             inner_shape: Sequence[int]) -> Any:
        """This layout (the inner tile) repeated by ``outer`` (TIRx's ``tile``;
        :func:`tilelayout.tile`). A ComposeLayout tiles its tile and keeps its one
        swizzle; a bare swizzle tiles the identity of ``inner_shape``, as in TIRx.

        >>> from tilelayout.tirx import ComposeLayout, S, TileLayout
        >>> TileLayout(S[2]).tile(TileLayout(S[3]), [3], [2])
        parse('S[6:1]')
        >>> ComposeLayout(3, 3, 3, TileLayout(S[(512,)])).tile(TileLayout(S[(8, 1):(1, 1)]),
        ...                                                  (8, 1), (8, 64)).canonicalize()
        parse('ComposeLayout(Swizzle(3,3,3), S[4096:1])')
        """
        return self._like(recognize.tile_layout(self, outer, outer_shape, inner_shape))

    def tile_to(self, to_shape: Sequence[int], current_shape: Sequence[int], *,
                floor: bool = False) -> Any:
        """Repeat this layout (of ``current_shape``) to fill ``to_shape`` (TIRx's
        ``tile_to``: ``tile`` by the row-major layout of the repeat counts). Repeat counts
        that are not whole are refused; ``floor=True`` floors them, as TIRx does (the
        result is then smaller than ``to_shape``).

        >>> from tilelayout.tirx import S, TileLayout
        >>> TileLayout(S[2, 2]).tile_to([4, 4], [2, 2])
        parse('S[(2,2,2,2):(8,2,4,1)]')
        >>> TileLayout(S[2, 2]).tile_to([5, 4], [2, 2], floor=True).size()
        16
        """
        if not isinstance(floor, bool):
            raise TirxTypeError(f"floor is True or False, got {shown(floor)}")
        to = check_ints(to_shape, "to_shape", low=1)
        cur = check_ints(current_shape, "current_shape", low=1, length=len(to))
        if not floor and any(t % c for t, c in zip(to, cur, strict=True)):
            raise ShapeError(f"to_shape {to} is not a whole number of current_shape {cur} "
                             f"(TIRx floors the repeat count: floor=True)")
        counts = tuple(t // c for t, c in zip(to, cur, strict=True))
        if 0 in counts:
            raise ShapeError(f"to_shape {to} is smaller than current_shape {cur}: a repeat "
                             f"count of 0")
        strides = [1] * len(counts)
        for k in range(len(counts) - 2, -1, -1):
            strides[k] = strides[k + 1] * counts[k + 1]
        outer = _tile.TileLayout(list(zip(counts, strides, strict=True)))
        return self.tile(outer, counts, cur)

    def direct_sum(self, left: _tile.TileLayout, left_shape: Sequence[int],
                   right_shape: Sequence[int]) -> Any:
        """TIRx's ``direct_sum``: ``left`` (A, grouped by ``left_shape``) plus this layout
        (B, by ``right_shape``) over the interleaved domain, unscaled.

        >>> from tilelayout.tirx import S, TileLayout
        >>> TileLayout(S[(2, 2):(4, 1)]).direct_sum(TileLayout(S[(2, 2):(8, 2)]), [2, 2], [2, 2])
        parse('S[16:1]')
        """
        return self._like(recognize.direct_sum(self, left, left_shape, right_shape))

    def is_tile_inner(self, tile_layout: object, tiled_shape: Sequence[int],
                      inner_shape: Sequence[int]) -> Any:
        """The outer layout that tiles this one into ``tile_layout``, or None (TIRx's
        ``is_tile_inner``).

        >>> from tilelayout.tirx import S, TileLayout
        >>> TileLayout(S[8:1]).is_tile_inner(TileLayout(S[64:1]), [64], [8])
        parse('S[8:1]')
        """
        return self._maybe(recognize.is_tile_inner(self, tile_layout, tiled_shape, inner_shape))

    def is_tile_outer(self, tile_layout: object, tiled_shape: Sequence[int],
                      outer_shape: Sequence[int]) -> Any:
        """The inner layout this one tiles into ``tile_layout``, or None (TIRx's
        ``is_tile_outer``).

        >>> from tilelayout.tirx import S, TileLayout
        >>> TileLayout(S[8:1]).is_tile_outer(TileLayout(S[64:1]), [64], [8])
        parse('S[8:1]')
        """
        return self._maybe(recognize.is_tile_outer(self, tile_layout, tiled_shape, outer_shape))

    def is_direct_sum_right(self, sum_layout: object, interleaved_shape: Sequence[int],
                            right_shape: Sequence[int]) -> Any:
        """The left addend A when this layout is the right addend B of ``sum_layout``
        (TIRx's ``is_direct_sum_right``), or None.

        >>> from tilelayout.tirx import S, TileLayout
        >>> TileLayout(S[(2, 2):(4, 1)]).is_direct_sum_right(TileLayout(S[16:1]),
        ...                                                  [2, 2, 2, 2], [2, 2])
        parse('S[(2,2):(8,2)]')
        """
        return self._maybe(recognize.is_direct_sum_right(self, sum_layout, interleaved_shape,
                                                    right_shape))

    def is_direct_sum_left(self, sum_layout: object, interleaved_shape: Sequence[int],
                           left_shape: Sequence[int]) -> Any:
        """The right addend B when this layout is the left addend A of ``sum_layout``
        (TIRx's ``is_direct_sum_left``), or None.

        >>> from tilelayout.tirx import S, TileLayout
        >>> TileLayout(S[(2, 2):(8, 2)]).is_direct_sum_left(TileLayout(S[16:1]),
        ...                                                 [2, 2, 2, 2], [2, 2])
        parse('S[(2,2):(4,1)]')
        """
        return self._maybe(recognize.is_direct_sum_left(self, sum_layout, interleaved_shape,
                                                   left_shape))

    def slice(self, shape: Sequence[int], region: Sequence[Any]) -> Any:  # noqa: A003
        """TIRx's ``slice``: the layout of ``region`` (``(begin, end)`` pairs or TVM
        ``Range`` objects, one per dimension of ``shape``), or None when no strided
        layout describes it (:mod:`tilelayout.tirx.slicing`).

        >>> from tilelayout.tirx import S, TileLayout
        >>> TileLayout(S[(8, 8):(8, 1)]).slice([64], [(5, 8)])
        parse('S[3:1] + 5')
        """
        return self._maybe(slicing.slice_layout(self, shape, region))

    def group(self, shape: Sequence[int]) -> tuple[Any, tuple[int, ...]]:
        """TIRx's ``group``: the layout split to ``shape`` and the separators.

        >>> from tilelayout.tirx import S, TileLayout
        >>> TileLayout(S[4, 8]).group([2, 2, 8])
        (parse('S[(2,2,8):(16,8,1)]'), (0, 1, 2, 3))
        """
        grouped, seps = recognize._grouped(_compose.tile_of(self),
                                           check_ints(shape, "shape", low=1))
        if isinstance(self, _compose.ComposeLayout):
            return self._like(_compose.ComposeLayout(self.swizzle, grouped)), seps
        return self._like(grouped), seps

    def storage(self) -> Any:
        """apache/tvm main's ``storage``: the layout without its thread axes (shard and
        replica iters and offsets on threads dropped): what one thread stores.

        >>> from tilelayout.tirx import S, TileLayout, laneid
        >>> TileLayout(S[(8, 4, 2):(4 @ laneid, 1 @ laneid, 1)]).storage()
        parse('S[2:1]')
        """
        tile = _compose.tile_of(self)

        def kept(it: _Iter) -> bool:
            return axis(it.axis).kind != "thread"

        out = _tile.TileLayout([i for i in tile.shard if kept(i)],
                               [i for i in tile.replica if kept(i)],
                               {a: v for a, v in tile.offset.items()
                                if axis(a).kind != "thread"})
        if isinstance(self, _compose.ComposeLayout):
            return self._like(_compose.ComposeLayout(self.swizzle, out))
        return self._like(out)

    def pack(self, num: int, axis: str = "m") -> Any:
        """``num`` consecutive elements on ``axis`` become one (TIRx's ``pack``).

        >>> from tilelayout.tirx import S, TileLayout
        >>> TileLayout(S[4, 8]).pack(2)
        parse('S[(4,4):(4,1)]')
        """
        return self._like(packing.pack(self, check_int(num, "num", low=1), _axis(axis)))

    def unpack(self, num: int, axis: str = "m") -> Any:
        """Each element becomes ``num`` consecutive ones on ``axis`` (TIRx's ``unpack``).

        >>> from tilelayout.tirx import S, TileLayout
        >>> TileLayout(S[4, 4]).unpack(2)
        parse('S[(4,4,2):(8,2,1)]')
        """
        return self._like(packing.unpack(self, check_int(num, "num", low=1), _axis(axis)))

    def broadcast(self, num: int, position: int = -1, axis: str = "m"
                  ) -> Any:
        """apache/tvm main's ``broadcast``: a stride-0 shard iter of extent ``num`` inserted
        at ``position`` (list-insert semantics; -1 appends), so ``num`` logical elements
        read the same one.

        >>> from tilelayout.tirx import S, TileLayout
        >>> TileLayout(S[4, 8]).broadcast(2, 0)
        parse('S[(2,4,8):(0,8,1)]')
        """
        n = check_int(num, "num", low=1)
        pos = check_int(position, "position")
        tile = _compose.tile_of(self)
        shard = list(tile.shard)
        at = pos if pos >= 0 else len(shard) + 1 + pos
        shard.insert(at, _Iter(n, 0, _axis(axis)))
        out = tile.replace(shard=shard)
        if isinstance(self, _compose.ComposeLayout):
            return self._like(_compose.ComposeLayout(self.swizzle, out))
        return self._like(out)

    def is_trivial(self) -> bool:
        """TIRx's ``is_trivial``: canonically one stride-1 shard iter on a memory axis, no
        replica or offset (a ComposeLayout: never).

        >>> from tilelayout.tirx import S, TileLayout
        >>> TileLayout(S[4, 8]).is_trivial(), TileLayout(S[4, 8] + 1).is_trivial()
        (True, False)
        """
        if isinstance(self, _compose.ComposeLayout):
            return False
        return recognize.raw_trivial(threads.canonical(self))  # type: ignore[arg-type]

    def is_swizzle(self) -> bool:
        """apache/tvm main's ``is_swizzle``: a ComposeLayout over a trivial tile.

        >>> from tilelayout.tirx import ComposeLayout, S, TileLayout
        >>> ComposeLayout(3, 3, 3, TileLayout(S[512])).is_swizzle(), TileLayout(S[8]).is_swizzle()
        (True, False)
        """
        return isinstance(self, _compose.ComposeLayout) and self.tile_layout.is_trivial()

    def is_trainium(self) -> bool:
        """apache/tvm main's ``is_trainium``: a TileLayout whose memory iters are all on
        ``P``, ``F`` or ``Bank``.

        >>> from tilelayout.tirx import F, P, S, TileLayout
        >>> TileLayout(S[(8, 8):(1 @ P, 1 @ F)]).is_trainium(), TileLayout(S[8]).is_trainium()
        (True, False)
        """
        if isinstance(self, _compose.ComposeLayout):
            return False
        return all(axis(it.axis).kind != "memory" or it.axis in ("P", "F", "Bank")
                   for it in self.shard)


__all__ = ["TirxMethods"]
