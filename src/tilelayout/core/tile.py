"""``TileLayout``: shard iters D, replica iters R and an offset O.

For a logical index ``x`` the layout gives the set ``L(x) = {D(x) + r + O | r in R}``
of physical coordinates (see ``docs/model.md``).

>>> import tilelayout as tl
>>> L = tl.TileLayout([(8, 4, "laneid"), (4, 1, "laneid")], offset={"warpid": 1})
>>> str(L)
'S[(8,4):(4@laneid,1@laneid)] + 1@warpid'
>>> L.base((1, 2), shape=(8, 4))
{laneid: 6, warpid: 1}
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType

from .axes import check_name
from .budget import MAX_INT_BITS, product
from .errors import LayoutError
from .iter import Iter, as_int
from .operations import LayoutKey, LayoutMethod, LayoutOperations
from .shape import Shape, admit

IterSpec = Iter | tuple[int, int] | tuple[int, int, str]


def _offset_items(offset: Mapping[str, int] | int | None) -> tuple[tuple[str, int], ...]:
    if offset is None:
        return ()
    if not isinstance(offset, Mapping):
        return (("m", as_int(offset, "offset")),)
    merged: dict[str, int] = {}
    for a, v in offset.items():
        merged[check_name(a)] = merged.get(a, 0) + as_int(v, f"offset on {a}")
    return tuple(merged.items())


def _iters(spec: Iterable[IterSpec], what: str) -> tuple[Iter, ...]:
    if isinstance(spec, Iter):
        return (spec,)
    if isinstance(spec, str | bytes) or not isinstance(spec, Iterable):
        raise LayoutError(f"{what} must be a list of Iter or (extent, stride, axis) tuples, "
                          f"got {type(spec).__name__}")
    return tuple(Iter.of(it) for it in spec)


def _check_bounds(shard: tuple[Iter, ...], replica: tuple[Iter, ...],
                  offset: tuple[tuple[str, int], ...]) -> None:
    """The model's size bound: element count, replica count and every coordinate value
    below ``2**MAX_INT_BITS`` (so no operation meets Python's digit limit)."""
    cap = 1 << MAX_INT_BITS
    for what, its in (("element count", shard), ("replica count", replica)):
        if product((it.extent for it in its), cap) >= cap:
            raise LayoutError(f"the layout's {what} reaches 2**{MAX_INT_BITS} or more; "
                              f"layouts hold integers below 2**{MAX_INT_BITS}")
    bound: dict[str, int] = {}
    for it in shard + replica:
        bound[it.axis] = bound.get(it.axis, 0) + (it.extent - 1) * abs(it.stride)
    for a, v in offset:
        bound[a] = bound.get(a, 0) + abs(v)
    for a, b in bound.items():
        if b >= cap:
            raise LayoutError(f"values on axis '{a}' reach 2**{b.bit_length() - 1} or more; "
                              f"layouts hold integers below 2**{MAX_INT_BITS}")


class TileLayout(LayoutOperations):
    """An immutable shard / replica / offset layout with value equality.

    ``shard`` and ``replica`` take :class:`Iter` objects or ``(extent, stride, axis)``
    tuples; ``offset`` is a mapping axis -> int (or an int, meaning axis ``m``).

    >>> L = TileLayout([(8, 4, "laneid"), (4, 1)], replica=[(2, 1, "pid")], offset=3)
    >>> L
    parse('S[(8,4):(4@laneid,1)] + R[2:1@pid] + 3')
    >>> L.shard[0].axis, L.replica_count, dict(L.offset)
    ('laneid', 2, {'m': 3})
    """

    __slots__ = ("_shard", "_replica", "_offset", "_hash", "_axes", "_ref", "__weakref__")

    def __init__(
        self,
        shard: Iterable[IterSpec] = (),
        replica: Iterable[IterSpec] = (),
        offset: Mapping[str, int] | int | None = None,
    ) -> None:
        shard_, replica_ = _iters(shard, "shard"), _iters(replica, "replica")
        offset_ = _offset_items(offset)
        _check_bounds(shard_, replica_, offset_)
        self._set(shard_, replica_, offset_)

    def _set(self, shard: tuple[Iter, ...], replica: tuple[Iter, ...],
             offset: tuple[tuple[str, int], ...]) -> None:
        """Every field from checked parts: what each constructor (``__init__``,
        :meth:`of_shard`) sets, so none of them misses one."""
        self._shard, self._replica, self._offset = shard, replica, offset
        self._hash = hash((shard, replica, frozenset(offset)))
        self._ref = LayoutKey(self)  # its identity as a key (eval.compiled.PLANS)
        self._axes: tuple[str, ...] = tuple(dict.fromkeys(
            [*(it.axis for it in shard + replica), *(a for a, _ in offset)]))

    @classmethod
    def of_shard(cls, shard: tuple[Iter, ...]) -> TileLayout:
        """A shard-only layout from a tuple of :class:`Iter` objects (already valid, as
        the algebra builds them): no per-iter coercion; the model's size bound is still
        checked. The fast constructor for algebra results.

        >>> TileLayout.of_shard((Iter(4, 8), Iter(8, 1)))
        parse('S[(4,8):(8,1)]')
        """
        cap = 1 << MAX_INT_BITS
        count, reach = 1, 0
        for it in shard:
            if type(it) is not Iter:
                return cls(shard)
            count *= it.extent
            reach += (it.extent - 1) * abs(it.stride)
        if not shard or count >= cap or reach >= cap:
            return cls(shard)  # the full constructor names the bound that is exceeded
        self = cls.__new__(cls)
        self._set(shard, (), ())
        return self

    # -- structure -----------------------------------------------------------------
    @property
    def shard(self) -> tuple[Iter, ...]:
        """The shard iters D, outermost first."""
        return self._shard

    @property
    def replica(self) -> tuple[Iter, ...]:
        """The replica iters R. Their order fixes only the enumeration order of ``L(x)``
        (and so of the last axis of ``map_all``), but it is part of structural equality."""
        return self._replica

    @property
    def offset(self) -> Mapping[str, int]:
        """The offset O: axis name -> integer (axes absent here are 0)."""
        return MappingProxyType(dict(self._offset))

    @property
    def axes(self) -> tuple[str, ...]:
        """Every axis the layout touches, in first-appearance order (shard, replica, offset).

        Two equal layouts may list their offset-only axes in different orders (equality
        does not depend on the order of offset terms); coordinates follow this order.

        >>> import tilelayout as tl
        >>> tl.parse("S[(8,2):(4@laneid,1)] + R[2:1@pid] + 5@warpid").axes
        ('laneid', 'm', 'pid', 'warpid')
        """
        return self._axes

    def size(self, axis: str | None = None) -> int:
        """Number of logical elements (product of shard extents).

        With ``axis``, the product of the extents of the shard iters on that axis.

        >>> import tilelayout as tl
        >>> tl.parse("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)]").size("laneid")
        32
        """
        its = self._shard if axis is None else [i for i in self._shard if i.axis == axis]
        return math.prod(i.extent for i in its)

    @property
    def replica_count(self) -> int:
        """Number of replica combinations (1 when there is no replica)."""
        return math.prod(i.extent for i in self._replica)

    @property
    def default_shape(self) -> Shape:
        """The logical shape used when none is given: the shard extents."""
        return tuple(i.extent for i in self._shard)

    def admits(self, shape: int | Sequence[int]) -> bool:
        """Whether ``shape`` has exactly as many elements as the layout.

        >>> import tilelayout as tl
        >>> tl.parse("S[(8,16):(16,1)]").admits((16, 8)), tl.parse("S[8:1]").admits((3,))
        (True, False)
        """
        try:
            admit(shape, self.size(), self.default_shape)
        except LayoutError:
            return False
        return True

    def check_shape(self, shape: int | Sequence[int] | None) -> Shape:
        """``shape`` validated against the layout (``None`` gives the default shape).

        >>> import tilelayout as tl
        >>> tl.parse("S[(8,16):(16,1)]").check_shape(None), tl.parse("S[8:1]").check_shape(8)
        ((8, 16), (8,))
        """
        return admit(shape, self.size(), self.default_shape)

    # -- algebra specific to tile layouts (the rest: core/operations.py) ------------
    #: ``L.tile(outer, outer_shape, inner_shape)`` is :func:`tilelayout.tile` (``L`` the
    #: inner tile). A ComposeLayout's TileLayout is ``.tile_layout`` (TIRx's name); tile a
    #: swizzled layout with ``tl.tile(L, outer, ...)``, which takes either kind.
    tile = LayoutMethod("tilelayout.algebra.tiling", "tile")

    # -- value semantics -------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TileLayout):
            return NotImplemented
        return (
            self._shard == other._shard
            and self._replica == other._replica
            and dict(self._offset) == dict(other._offset)
        )

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple:
        return (TileLayout, (self._shard, self._replica, dict(self._offset)))

    def replace(
        self,
        shard: Iterable[IterSpec] | None = None,
        replica: Iterable[IterSpec] | None = None,
        offset: Mapping[str, int] | None = None,
    ) -> TileLayout:
        """A copy with some of shard / replica / offset replaced.

        >>> import tilelayout as tl
        >>> tl.parse("S[4:1] + 2@warpid").replace(offset={"warpid": 5})
        parse('S[4:1] + 5@warpid')
        """
        return TileLayout(
            self._shard if shard is None else shard,
            self._replica if replica is None else replica,
            dict(self._offset) if offset is None else offset,
        )

