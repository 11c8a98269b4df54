"""TIRx's ``TileLayout`` and ``ComposeLayout`` classes, as subclasses of ours.

They are our layouts (every ``tl`` function takes them; they compare equal to the plain
ones) with TIRx's constructors and TIRx's methods where the two APIs differ:

* ``apply(*coord, shape=None)`` returns the base coordinate ``{axis: int}`` (our
  ``base``, without the replica-only axes), in the three forms TIRx takes: a flat index,
  one index per shard iter, or a coordinate with ``shape``;
* layout-returning methods (``canonicalize``, ``tile``, ``tile_to``, ``group``, ``pack``,
  ``unpack``, ``permute_dims``, ``permute_by_groups``) return these classes again, so a
  TIRx chain keeps TIRx's ``apply``;
* ``is_contiguous``, ``is_trivial``, ``get_scope`` and ``check_well_formed``.

Deliberate differences from TIRx (docs/interop/tvm.md): an index outside the layout is
refused (TIRx wraps it), scopes are names (``"warp"``, not ``ThreadScope("cuda.warp")``),
iters keep the axis as a name (``it.axis == "laneid"``), and on a ``ComposeLayout``
``.tile`` is the tile layout (ours) -- tile it with ``tile_to`` or ``tl.tile``.

>>> from tilelayout.tirx import R, S, TileLayout, laneid, warpid
>>> L = TileLayout(S[(8, 2, 4, 2):(4 @ laneid, 1 @ warpid, 1 @ laneid, 1)]
...                + R[2:4 @ warpid] + 5 @ warpid)
>>> L.apply(1, 3, shape=[8, 16])
{'laneid': 5, 'warpid': 5, 'm': 1}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from ..algebra import canonical, group, packing, span, tiling
from ..core import compose as _compose
from ..core import tile as _tile
from ..core.axes import axis
from ..core.errors import LayoutError, LayoutTypeError, ShapeError, shown
from ..core.iter import Iter as _Iter
from ..core.swizzle import Swizzle, signed_swizzle, swizzle_shift
from ..core.xor_swizzle import XorSwizzle
from ..eval.forward import base
from ..syntax.builder import AxisRef
from ..syntax.parser import parse
from .spec import Spec, scope_pair


def Iter(extent: int, stride: int, axis: str | AxisRef = "m") -> _Iter:  # noqa: N802
    """TIRx's ``Iter(extent, stride, axis)``: our :class:`~tilelayout.Iter` (axis by name).

    >>> from tilelayout.tirx import laneid
    >>> Iter(8, 4, laneid)
    Iter(extent=8, stride=4, axis='laneid')
    """
    return _Iter(extent, stride, axis.name if isinstance(axis, AxisRef) else axis)


def _names(offset: Mapping | None) -> dict[str, int]:
    return {(a.name if isinstance(a, AxisRef) else a): v for a, v in (offset or {}).items()}


def wrap(layout: _compose.Layout) -> TileLayout | ComposeLayout:
    """Our layout as the TIRx-API class (the same value).

    >>> import tilelayout as tl
    >>> type(wrap(tl.parse("S[4:1]"))).__module__
    'tilelayout.tirx.layouts'
    """
    if isinstance(layout, TileLayout | ComposeLayout):
        return layout
    if isinstance(layout, _compose.ComposeLayout):
        out = ComposeLayout.__new__(ComposeLayout)
        _compose.ComposeLayout.__init__(out, layout.swizzle, wrap(layout.tile))
        return out
    if isinstance(layout, _tile.TileLayout):
        return TileLayout.from_iters(layout.shard, layout.replica, layout.offset)
    raise LayoutTypeError(f"expected a layout, got {type(layout).__name__}")


def _checked(layout: _compose.Layout) -> TileLayout | ComposeLayout:
    """``layout`` as a TIRx-API layout, refused as TIRx refuses an ill-formed one."""
    scope_pair(_compose.tile_of(layout))
    return wrap(layout)


class _TirxMethods:
    """The methods both TIRx classes share (TIRx's ``Layout`` base)."""

    __slots__ = ()

    def apply(self, *coord: int, shape: Sequence[int] | None = None) -> dict[str, int]:
        """TIRx's ``apply``: the base coordinate ``{axis: int}`` of one element.

        ``apply(flat)`` takes a flat index; ``apply(c0, c1, ...)`` one index per shard
        iter; ``apply(*coord, shape=s)`` a coordinate in the logical shape ``s``.

        >>> from tilelayout.tirx import S, TileLayout
        >>> TileLayout(S[4, 8]).apply(1, 2), TileLayout(S[4, 8]).apply(10)
        ({'m': 10}, {'m': 10})
        """
        if len(coord) == 1 and isinstance(coord[0], tuple | list) and shape is None:
            coord = tuple(coord[0])
        if shape is not None:
            shape = tuple(shape)
            if len(coord) != len(shape):
                raise ShapeError(f"a coordinate of {len(coord)} indices for a shape of "
                                 f"{len(shape)} dims {shape} (TIRx: the sizes must be equal)")
            point = base(self, tuple(coord), shape)
        elif len(coord) == 1:
            point = base(self, coord[0])
        else:
            n = len(self.shard)
            if len(coord) != n:
                raise ShapeError(f"{len(coord)} indices for a layout of {n} shard iters "
                                 f"(TIRx: one index per shard iter, or a flat index)")
            point = base(self, tuple(coord))
        tile = _compose.tile_of(self)
        named = {it.axis for it in tile.shard} | set(tile.offset)
        return {a: v for a, v in point.items() if a in named}

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

    def canonicalize(self) -> TileLayout | ComposeLayout:
        """TIRx's canonical form (:func:`tilelayout.canonicalize`), as a TIRx-API layout.

        >>> from tilelayout.tirx import S, TileLayout
        >>> TileLayout(S[4, 8]).canonicalize()
        parse('S[32:1]')
        """
        return _checked(canonical.canonicalize(self))

    def tile_to(self, to_shape: Sequence[int], current_shape: Sequence[int]) -> TileLayout | ComposeLayout:
        """Repeat this layout (of ``current_shape``) to fill ``to_shape`` (TIRx's
        ``tile_to``; :func:`tilelayout.tile_to`). A swizzled layout keeps its one swizzle
        over the tiled tile, as in TIRx (``tl.tile_to`` refuses repeats that do not
        start on a swizzle period, where the copies would differ).

        >>> from tilelayout.tirx import S, TileLayout
        >>> TileLayout(S[2, 2]).tile_to([4, 4], [2, 2])
        parse('S[(2,2,2,2):(8,2,4,1)]')
        """
        _checked(canonical.canonicalize(self))
        if isinstance(self, _compose.ComposeLayout):  # TIRx: one swizzle over the whole tile
            tiled = tiling.tile_to(self.tile, to_shape, current_shape)
            return _checked(canonical.canonicalize(_compose.ComposeLayout(self.swizzle, tiled)))
        return _checked(tiling.tile_to(self, to_shape, current_shape))

    def group(self, shape: Sequence[int]) -> tuple[TileLayout | ComposeLayout, tuple[int, ...]]:
        """TIRx's ``group``: the layout split to ``shape`` and the separators.

        >>> from tilelayout.tirx import S, TileLayout
        >>> TileLayout(S[4, 8]).group([2, 2, 8])
        (parse('S[(2,2,8):(16,8,1)]'), (0, 1, 2, 3))
        """
        grouped, seps = group.group(self, shape)
        return wrap(grouped), seps

    def pack(self, num: int, axis: str = "m") -> TileLayout | ComposeLayout:
        """``num`` consecutive elements on ``axis`` become one (TIRx's ``pack``).

        >>> from tilelayout.tirx import S, TileLayout
        >>> TileLayout(S[4, 8]).pack(2)
        parse('S[(4,4):(4,1)]')
        """
        return wrap(packing.pack(self, num, axis))

    def unpack(self, num: int, axis: str = "m") -> TileLayout | ComposeLayout:
        """Each element becomes ``num`` consecutive ones on ``axis`` (TIRx's ``unpack``).

        >>> from tilelayout.tirx import S, TileLayout
        >>> TileLayout(S[4, 4]).unpack(2)
        parse('S[(4,4,2):(8,2,1)]')
        """
        return wrap(packing.unpack(self, num, axis))

    def is_trivial(self) -> bool:
        """TIRx's ``is_trivial``: canonically one stride-1 shard iter on a memory axis, no
        replica or offset.

        >>> from tilelayout.tirx import S, TileLayout
        >>> TileLayout(S[4, 8]).is_trivial(), TileLayout(S[4, 8] + 1).is_trivial()
        (True, False)
        """
        c = _checked(canonical.canonicalize(self))
        if isinstance(c, _compose.ComposeLayout):
            return False
        assert isinstance(c, _tile.TileLayout)
        return (len(c.shard) == 1 and c.shard[0].stride == 1 and not c.replica
                and not c.offset and axis(c.shard[0].axis).kind == "memory")



def _spec_parts(spec: object) -> tuple[tuple, tuple, dict]:
    if isinstance(spec, Spec):
        return spec.shard or (), spec.replica or (), spec.offset_map()
    if isinstance(spec, str):
        spec = parse(spec)
    if isinstance(spec, _compose.ComposeLayout):
        raise LayoutTypeError("a swizzled layout is a ComposeLayout, not a TileLayout")
    if isinstance(spec, _tile.TileLayout):
        return spec.shard, spec.replica, dict(spec.offset)
    raise LayoutTypeError(f"TileLayout takes S[...] + R[...] + offset (or layout text), "
                          f"got {shown(spec)}")


class TileLayout(_TirxMethods, _tile.TileLayout):
    """TIRx's ``TileLayout(spec)`` on our TileLayout: ``spec`` is ``S[...] + R[...] + offset``.

    >>> from tilelayout.tirx import S, TileLayout
    >>> import tilelayout as tl
    >>> TileLayout(S[4, 8]) == tl.parse("S[(4,8):(8,1)]")
    True
    """

    __slots__ = ()

    def __init__(self, spec: Spec | str | _tile.TileLayout) -> None:
        super().__init__(*_spec_parts(spec))

    @staticmethod
    def from_iters(shard: Iterable = (), replica: Iterable = (),
                   offset: Mapping | None = None) -> TileLayout:
        """TIRx's ``TileLayout.from_iters(shard, replica, offset)``.

        >>> TileLayout.from_iters([Iter(8, 1, "laneid")], [], {"warpid": 2})
        parse('S[8:1@laneid] + 2@warpid')
        """
        out = TileLayout.__new__(TileLayout)
        _tile.TileLayout.__init__(out, shard, replica, _names(offset))
        return out

    def __reduce__(self) -> tuple:
        return (TileLayout.from_iters, (self.shard, self.replica, dict(self.offset)))

    def tile(self, outer: _tile.TileLayout, outer_shape: Sequence[int],
             inner_shape: Sequence[int]) -> TileLayout | ComposeLayout:
        """This layout (the inner tile) repeated by ``outer`` (TIRx's ``tile``;
        :func:`tilelayout.tile`).

        >>> from tilelayout.tirx import S, TileLayout
        >>> TileLayout(S[2]).tile(TileLayout(S[3]), [3], [2])
        parse('S[6:1]')
        """
        _checked(canonical.canonicalize(self))  # TIRx checks both canonical operands
        if isinstance(outer, _tile.TileLayout):
            _checked(canonical.canonicalize(outer))
        return _checked(tiling.tile(self, outer, outer_shape, inner_shape))

    def is_contiguous(self) -> bool:
        """TIRx's ``is_contiguous``: only ``m`` (shard and offset), no replica, and the
        shard canonically one stride-1 run (the offset, the origin, may be anything).

        >>> from tilelayout.tirx import S, TileLayout
        >>> TileLayout(S[(2, 4):(4, 1)] + 5).is_contiguous(), TileLayout(S[8:2]).is_contiguous()
        (True, False)
        """
        if self.replica or any(a != "m" for a in self.axes):
            return False
        c = canonical.canonicalize(self)
        return len(c.shard) == 1 and c.shard[0].stride == 1

    def get_scope(self) -> tuple[str, str] | None:
        """TIRx's ``get_scope``: (lowest, highest) thread scope of the shard's thread axes.

        >>> from tilelayout.tirx import S, TileLayout, laneid, warpid
        >>> TileLayout(S[(2, 32):(1 @ warpid, 1 @ laneid)]).get_scope()
        ('thread', 'cta')
        """
        return scope_pair(self)

    def permute_dims(self, perm: Sequence[int]) -> TileLayout:
        """TIRx's ``permute_dims``: the shard iters reordered (new iter ``j`` is old
        ``perm[j]``). TIRx checks only the length; we refuse a non-permutation too.

        >>> from tilelayout.tirx import S, TileLayout
        >>> TileLayout(S[2, 3]).permute_dims([1, 0])
        parse('S[(3,2):(1,3)]')
        """
        p = tuple(perm)
        if sorted(p) != list(range(len(self.shard))):
            raise ShapeError(f"perm {p} is not a permutation of the {len(self.shard)} "
                             f"shard iters")
        return TileLayout.from_iters([self.shard[i] for i in p], self.replica, self.offset)

    def permute_by_groups(self, seps: Sequence[int], perm: Sequence[int]) -> TileLayout:
        """TIRx's ``permute_by_groups``: groups of shard iters (``seps`` as ``group``
        returns them) put in the order ``perm``.

        >>> from tilelayout.tirx import S, TileLayout
        >>> L, seps = TileLayout(S[2, 3, 4]).group([6, 4])
        >>> L.permute_by_groups(seps, [1, 0])
        parse('S[(4,2,3):(1,12,4)]')
        """
        s, p = tuple(seps), tuple(perm)
        if sorted(p) != list(range(len(s) - 1)):
            raise ShapeError(f"invalid perm {p} for {len(s) - 1} groups")
        return self.permute_dims([k for g in p for k in range(s[g], s[g + 1])])


def SwizzleLayout(per_element: int, swizzle_len: int, atom_len: int,  # noqa: N802
                  swizzle_inner: bool = True) -> Swizzle | XorSwizzle:
    """TIRx's ``SwizzleLayout`` (the TIRx kernels' spelling, which ``ComposeLayout(swizzle,
    tile)`` takes): our swizzle value -- ``Swizzle(M, B, S)``, or for ``swizzle_inner=False``
    the equal ``XorSwizzle``.

    >>> SwizzleLayout(3, 3, 3), SwizzleLayout(3, 3, 3).apply(64 + 1)
    (Swizzle(3, 3, 3), 73)
    """
    if min(per_element, swizzle_len, atom_len) < 0:
        raise LayoutError(f"per_element, swizzle_len and atom_len must be >= 0, got "
                          f"{per_element}, {swizzle_len}, {atom_len}")
    return signed_swizzle(per_element, swizzle_len, atom_len if swizzle_inner else -atom_len)


class ComposeLayout(_TirxMethods, _compose.ComposeLayout):
    """TIRx's ``ComposeLayout(per_element, swizzle_len, atom_len, tile_layout,
    swizzle_inner=True)``: the tile's ``m`` XOR-swizzled (bits
    ``[per_element+atom_len, +swizzle_len)`` into ``[per_element, +swizzle_len)``;
    ``swizzle_inner=False`` the other way round). The TIRx kernels' two-argument form
    ``ComposeLayout(SwizzleLayout(...), tile_layout)`` is taken too.

    >>> from tilelayout.tirx import ComposeLayout, S, SwizzleLayout, TileLayout
    >>> ComposeLayout(0, 2, 3, TileLayout(S[8, 8])).apply(1, 2)
    {'m': 11}
    >>> ComposeLayout(SwizzleLayout(0, 2, 3), TileLayout(S[8, 8])) == ComposeLayout(
    ...     per_element=0, swizzle_len=2, atom_len=3, tile_layout=TileLayout(S[8, 8]))
    True
    """

    __slots__ = ()

    def __init__(self, per_element: int | Swizzle | XorSwizzle, swizzle_len: int | _tile.TileLayout,
                 atom_len: int | None = None, tile_layout: _tile.TileLayout | None = None,
                 swizzle_inner: bool = True) -> None:
        if isinstance(per_element, Swizzle | XorSwizzle) and atom_len is None \
                and tile_layout is None:
            swizzle, tile_layout = per_element, swizzle_len
        elif isinstance(per_element, int) and isinstance(swizzle_len, int) \
                and isinstance(atom_len, int):
            swizzle = SwizzleLayout(per_element, swizzle_len, atom_len, swizzle_inner)
        else:
            raise LayoutTypeError("ComposeLayout takes (per_element, swizzle_len, atom_len, "
                                  "tile_layout, swizzle_inner=True) or (SwizzleLayout(...), "
                                  f"tile_layout), got {shown(per_element)}, ...")
        if not isinstance(tile_layout, _tile.TileLayout):
            raise LayoutTypeError(f"tile_layout must be a TileLayout, got {shown(tile_layout)}")
        super().__init__(swizzle, wrap(tile_layout))

    def _params(self) -> tuple[int, int, int]:
        params = swizzle_shift(self.swizzle)
        if params is None:
            raise LayoutError(f"{self.swizzle} is not a TIRx swizzle")
        return params

    per_element = property(lambda self: self._params()[0], doc="Low address bits kept.")
    swizzle_len = property(lambda self: self._params()[1], doc="Bits in each XOR group.")
    atom_len = property(lambda self: abs(self._params()[2]), doc="Distance of the groups.")
    swizzle_inner = property(lambda self: self._params()[2] >= 0,
                             doc="Whether the higher group is XORed into the lower one.")
    tile_layout = property(lambda self: self.tile, doc="The swizzled tile layout.")

    def __reduce__(self) -> tuple:
        return (wrap, (_compose.ComposeLayout(self.swizzle, self.tile),))


__all__ = ["ComposeLayout", "Iter", "SwizzleLayout", "TileLayout", "wrap"]
