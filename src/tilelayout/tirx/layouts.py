"""TIRx's ``TileLayout`` and ``ComposeLayout`` classes, as subclasses of ours.

They are our layouts (every ``tl`` function takes them; they compare equal to the plain
ones) with TIRx's constructors and TIRx's methods where the two APIs differ:

* ``apply(*coord, shape=None)`` as TIRx evaluates it (:mod:`tilelayout.tirx.apply`):
  integer or symbolic coordinates, an index past the tile keeps counting (``strict=True``
  refuses it instead), the result ``{axis: value}`` without the replicas;
* iters' axes and offset keys are :class:`~tilelayout.tirx.Axis` objects, which compare
  and hash as their names (``it.axis.is_thread()``, ``{T.laneid: 1} == {"laneid": 1}``);
* layout-returning methods return these classes again, so a TIRx chain keeps TIRx's
  methods: ``canonicalize`` (thread axes fused under a CUDA target), ``tile`` (on a
  ComposeLayout too), ``tile_to``, ``direct_sum``, ``group``, ``group_many``, ``slice``,
  ``storage``, ``pack``, ``unpack``, ``broadcast``, ``permute_dims``,
  ``permute_by_groups``, ``trainium``, ``to_psum``;
* TIRx's queries: ``is_tile_inner`` / ``is_tile_outer`` / ``is_direct_sum_right`` /
  ``is_direct_sum_left`` (a layout or None), ``apply_to_shape``, ``is_contiguous``,
  ``is_trivial``, ``is_swizzle``, ``is_trainium``, ``get_scope``, ``verify_well_formed``,
  ``check_well_formed``.

Deliberate differences from TIRx are listed in docs/interop/tvm.md.

>>> from tilelayout.tirx import R, S, TileLayout, laneid, warpid
>>> L = TileLayout(S[(8, 2, 4, 2):(4 @ laneid, 1 @ warpid, 1 @ laneid, 1)]
...                + R[2:4 @ warpid] + 5 @ warpid)
>>> L.apply(1, 3, shape=[8, 16]), L.apply(200)
({'laneid': 5, 'warpid': 5, 'm': 1}, {'laneid': 48, 'warpid': 6, 'm': 0})
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..core import compose as _compose
from ..core import tile as _tile
from ..core.errors import LayoutError, LayoutTypeError, shown
from ..core.iter import Iter as _Iter
from ..core.swizzle import Swizzle, signed_swizzle, swizzle_shift
from ..core.xor_swizzle import XorSwizzle
from ..syntax.builder import AxisRef
from ..syntax.parser import parse
from . import grouping, threads, trainium
from .errors import TirxAssertionError, TirxTypeError, check_int, check_ints
from .methods import TirxMethods, _axis
from .spec import Axis, ScopeName, Spec, scope_pair


def Iter(extent: int, stride: int, axis: str | AxisRef = "m") -> _Iter:  # noqa: N802
    """TIRx's ``Iter(extent, stride, axis)``: our :class:`~tilelayout.Iter`, its axis an
    :class:`~tilelayout.tirx.Axis` (equal to the name).

    >>> from tilelayout.tirx import laneid
    >>> it = Iter(8, 4, laneid)
    >>> it, it.axis.is_thread()
    (Iter(extent=8, stride=4, axis='laneid'), True)
    """
    return _Iter(extent, stride, _axis(axis))


def _iters(iters: Iterable) -> list[_Iter]:
    out = []
    for it in iters:
        it = _Iter.of(it)
        out.append(it if type(it.axis) is Axis else _Iter(it.extent, it.stride, Axis(it.axis)))
    return out


def _offset(offset: Mapping | None) -> dict[Axis, int]:
    if offset is None:
        return {}
    if not isinstance(offset, Mapping):
        raise LayoutTypeError(f"offset is a mapping axis -> int, got {shown(offset)}")
    return {_axis(a): v for a, v in offset.items()}


def _tile_of(layout: _tile.TileLayout) -> TileLayout:
    out = TileLayout.__new__(TileLayout)
    _tile.TileLayout.__init__(out, _iters(layout.shard), _iters(layout.replica),
                              _offset(layout.offset))
    return out


def wrap(layout: _compose.Layout) -> TileLayout | ComposeLayout:
    """Our layout as the TIRx-API class (the same value, axes as Axis objects).

    >>> import tilelayout as tl
    >>> type(wrap(tl.parse("S[4:1]"))).__module__
    'tilelayout.tirx.layouts'
    """
    if isinstance(layout, TileLayout | ComposeLayout):
        return layout
    if isinstance(layout, _compose.ComposeLayout):
        out = ComposeLayout.__new__(ComposeLayout)
        _compose.ComposeLayout.__init__(out, layout.swizzle, _tile_of(layout.tile_layout))
        out._inner = None
        return out
    if isinstance(layout, _tile.TileLayout):
        return _tile_of(layout)
    raise LayoutTypeError(f"expected a layout, got {shown(layout)}")






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


class TileLayout(TirxMethods, _tile.TileLayout):
    """TIRx's ``TileLayout(spec)`` on our TileLayout: ``spec`` is ``S[...] + R[...] + offset``.

    >>> from tilelayout.tirx import S, TileLayout
    >>> import tilelayout as tl
    >>> TileLayout(S[4, 8]) == tl.parse("S[(4,8):(8,1)]")
    True
    """

    __slots__ = ()

    def _like(self, layout: _compose.Layout) -> TileLayout | ComposeLayout:
        return wrap(layout)

    #: PSUM elements per bank and banks per partition (TIRx's ``kPSUMMaxElemPerBank``,
    #: ``kPSUMBankNum``; docs/hardware.md)
    kPSUMMaxElemPerBank = trainium.PSUM_BANK_ELEMENTS  # noqa: N815
    kPSUMBankNum = trainium.PSUM_BANKS  # noqa: N815

    def __init__(self, spec: Spec | str | _tile.TileLayout) -> None:
        shard, replica, offset = _spec_parts(spec)
        super().__init__(_iters(shard), _iters(replica), _offset(offset))

    @staticmethod
    def from_iters(shard: Iterable = (), replica: Iterable = (),
                   offset: Mapping | None = None) -> TileLayout:
        """TIRx's ``TileLayout.from_iters(shard, replica, offset)``.

        >>> TileLayout.from_iters([Iter(8, 1, "laneid")], [], {"warpid": 2})
        parse('S[8:1@laneid] + 2@warpid')
        """
        for part, what in ((shard, "shard"), (replica, "replica")):
            if isinstance(part, str | bytes) or not isinstance(part, Iterable):
                raise TirxTypeError(f"{what} is a list of Iter, got {shown(part)}")
        out = TileLayout.__new__(TileLayout)
        _tile.TileLayout.__init__(out, _iters(shard), _iters(replica), _offset(offset))
        return out

    @classmethod
    def trainium(cls, annotation: str, shape: Sequence[int], is_psum: bool = False) -> TileLayout:
        """TIRx's ``TileLayout.trainium(annotation, shape, is_psum=False)``: each dimension
        on SBUF partitions ``P`` or the free axis ``F`` (:mod:`tilelayout.tirx.trainium`).

        >>> TileLayout.trainium("FPPF", (2, 4, 32, 512))
        parse('S[(2,4,32,512):(512@F,32@P,1@P,1@F)]')
        """
        return _tile_of(trainium.trainium(annotation, shape, is_psum))

    def to_psum(self) -> TileLayout:
        """TIRx's ``to_psum``: the free axis split into PSUM banks of 512 elements.

        >>> from tilelayout.tirx import F, P, S, TileLayout
        >>> TileLayout(S[(1024, 8):(1 @ F, 1 @ P)]).to_psum()
        parse('S[(2,512,8):(1@Bank,1@F,1@P)]')
        """
        return _tile_of(trainium.to_psum(self))

    def group_many(self, shapes: Sequence[Sequence[int]]
                   ) -> tuple[TileLayout, tuple[tuple[int, ...], ...]]:
        """apache/tvm main's ``group_many``: the shard refined by every shape, and each
        shape's separators (:mod:`tilelayout.tirx.grouping`).

        >>> from tilelayout.tirx import S, TileLayout
        >>> TileLayout(S[30:1]).group_many(([6, 5], [2, 15]))
        (parse('S[(2,3,5):(15,5,1)]'), ((0, 2, 3), (0, 1, 3)))
        """
        grouped, seps = grouping.group_many(self, shapes)
        return _tile_of(grouped), seps

    def __reduce__(self) -> tuple:
        return (TileLayout.from_iters, (self.shard, self.replica, dict(self.offset)))

    def is_contiguous(self, analyzer: object = None) -> bool:
        """TIRx's ``is_contiguous``: only ``m`` (shard and offset), no replica, and the
        shard canonically one stride-1 run (the offset, the origin, may be anything).
        ``analyzer`` (TVM's, for symbolic layouts) is accepted and not needed.

        >>> from tilelayout.tirx import S, TileLayout
        >>> TileLayout(S[(2, 4):(4, 1)] + 5).is_contiguous(), TileLayout(S[8:2]).is_contiguous()
        (True, False)
        """
        if self.replica or any(a != "m" for a in self.axes):
            return False
        c = threads.canonical(self)
        return len(c.shard) == 1 and c.shard[0].stride == 1

    def get_scope(self) -> tuple[ScopeName, ScopeName] | None:
        """TIRx's ``get_scope``: (lowest, highest) thread scope of the shard's thread axes,
        each a name with ``.name`` (TIRx's ``ExecScope``).

        >>> from tilelayout.tirx import S, TileLayout, laneid, warpid
        >>> s = TileLayout(S[(2, 32):(1 @ warpid, 1 @ laneid)]).get_scope()
        >>> s == ("thread", "cta"), s[1].name
        (True, 'cta')
        """
        found = scope_pair(self)
        return None if found is None else (ScopeName(found[0]), ScopeName(found[1]))

    def permute_dims(self, perm: Sequence[int], *, check: bool = True) -> TileLayout:
        """TIRx's ``permute_dims``: the shard iters reordered (new iter ``j`` is old
        ``perm[j]``). TIRx asserts only the length; a non-permutation is refused too
        (``check=False`` takes any in-range indices of the right length, as TIRx does).

        >>> from tilelayout.tirx import S, TileLayout
        >>> TileLayout(S[2, 3]).permute_dims([1, 0])
        parse('S[(3,2):(1,3)]')
        """
        p = check_ints(perm, "perm")
        if len(p) != len(self.shard):
            raise TirxAssertionError(f"perm must have the same length as the number of "
                                     f"dimensions in the layout: {len(self.shard)} shard "
                                     f"iters, perm {p}")
        if not isinstance(check, bool):
            raise TirxTypeError(f"check is True or False, got {shown(check)}")
        if check and sorted(p) != list(range(len(self.shard))):
            raise TirxAssertionError(f"perm {p} is not a permutation of the {len(self.shard)} "
                                     f"shard iters (check=False takes it, as TIRx does)")
        if any(not 0 <= i < len(self.shard) for i in p):
            raise TirxAssertionError(f"perm {p} has an index outside the {len(self.shard)} "
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
        s, p = check_ints(seps, "seps", low=0), check_ints(perm, "perm")
        if not s or s[0] != 0 or s[-1] != len(self.shard) or list(s) != sorted(s):
            raise TirxAssertionError(f"seps {s} are not group separators of the "
                                     f"{len(self.shard)} shard iters (0 first, ascending, "
                                     f"{len(self.shard)} last)")
        if sorted(p) != list(range(len(s) - 1)):
            raise TirxAssertionError(f"invalid perm {list(p)} for {len(s) - 1} groups")
        return self.permute_dims([k for g in p for k in range(s[g], s[g + 1])])


def _tirx_swizzle(per_element: object, swizzle_len: object, atom_len: object,
                  swizzle_inner: object) -> Swizzle | XorSwizzle:
    for v, what in ((per_element, "per_element"), (swizzle_len, "swizzle_len"),
                    (atom_len, "atom_len")):
        check_int(v, what)
    if not isinstance(swizzle_inner, bool):
        raise TirxTypeError(f"swizzle_inner is True or False, got {shown(swizzle_inner)}")
    m, b, s = per_element, swizzle_len, atom_len
    if m < 0 or b < 0 or s < b or m + b + s > 62:  # type: ignore[operator]
        raise LayoutError(f"A compose layout requires nonnegative per_element and swizzle_len, "
                          f"and atom_len >= swizzle_len (and at most 62 address bits); got "
                          f"per_element={m}, swizzle_len={b}, atom_len={s}")
    return signed_swizzle(m, b, s if swizzle_inner else -s)  # type: ignore[arg-type]


def SwizzleLayout(per_element: int, swizzle_len: int, atom_len: int,  # noqa: N802
                  swizzle_inner: bool = True) -> Swizzle | XorSwizzle:
    """TIRx's ``SwizzleLayout`` (the TIRx kernels' spelling, which ``ComposeLayout(swizzle,
    tile)`` takes): our swizzle value -- ``Swizzle(M, B, S)``, or for ``swizzle_inner=False``
    the equal ``XorSwizzle``.

    >>> SwizzleLayout(3, 3, 3), SwizzleLayout(3, 3, 3).apply(64 + 1)
    (Swizzle(3, 3, 3), 73)
    """
    return _tirx_swizzle(per_element, swizzle_len, atom_len, swizzle_inner)


class ComposeLayout(TirxMethods, _compose.ComposeLayout):
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

    __slots__ = ("_inner",)

    def _like(self, layout: _compose.Layout) -> TileLayout | ComposeLayout:
        """``layout`` wrapped; a ComposeLayout with this swizzle keeps the
        ``swizzle_inner`` flag as given."""
        out = wrap(layout)
        if isinstance(out, ComposeLayout) and out._inner is None:
            params = swizzle_shift(out.swizzle)
            if out.swizzle == self.swizzle or (params is not None and params[1] == 0):
                out._inner = self.swizzle_inner  # a swizzle of 0 bits does not say it
        return out

    def __init__(self, per_element: int | Swizzle | XorSwizzle, swizzle_len: Any = None,
                 atom_len: int | None = None, tile_layout: _tile.TileLayout | None = None,
                 swizzle_inner: bool | None = None) -> None:
        if isinstance(per_element, Swizzle | XorSwizzle):
            if atom_len is not None or tile_layout is not None or swizzle_inner is not None:
                raise TirxTypeError("ComposeLayout(SwizzleLayout(...), tile_layout) takes two "
                                    "arguments; the swizzle already says swizzle_inner")
            swizzle, tile_layout, inner = per_element, swizzle_len, None
        elif atom_len is None or tile_layout is None:
            raise TirxTypeError("ComposeLayout takes (per_element, swizzle_len, atom_len, "
                                "tile_layout, swizzle_inner=True) or (SwizzleLayout(...), "
                                f"tile_layout), got {shown(per_element)}, {shown(swizzle_len)}, "
                                f"{shown(atom_len)}, {shown(tile_layout)}")
        else:
            inner = True if swizzle_inner is None else swizzle_inner
            swizzle = _tirx_swizzle(per_element, swizzle_len, atom_len, inner)
        if not isinstance(tile_layout, _tile.TileLayout):
            raise TirxTypeError(f"tile_layout must be a TileLayout, got {shown(tile_layout)}")
        super().__init__(swizzle, _tile_of(tile_layout))
        self._inner = inner

    def _params(self) -> tuple[int, int, int]:
        params = swizzle_shift(self.swizzle)
        if params is None:
            raise LayoutError(f"{self.swizzle} is not a TIRx swizzle")
        return params

    per_element = property(lambda self: self._params()[0], doc="Low address bits kept.")
    swizzle_len = property(lambda self: self._params()[1], doc="Bits in each XOR group.")
    atom_len = property(lambda self: abs(self._params()[2]), doc="Distance of the groups.")

    @property
    def swizzle_inner(self) -> bool:
        """Whether the higher group is XORed into the lower one (as given, also when
        ``swizzle_len`` is 0 and both directions are the identity)."""
        if self._inner is not None:
            return self._inner
        return self._params()[2] >= 0

    def __reduce__(self) -> tuple:
        return (_rebuilt, (self.swizzle, self.tile_layout, self._inner))


def _rebuilt(swizzle: Swizzle | XorSwizzle, tile: _tile.TileLayout,
             inner: bool | None) -> ComposeLayout:
    out = wrap(_compose.ComposeLayout(swizzle, tile))
    assert isinstance(out, ComposeLayout)
    out._inner = inner
    return out


__all__ = ["ComposeLayout", "Iter", "SwizzleLayout", "TileLayout", "wrap"]
