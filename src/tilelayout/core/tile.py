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
from typing import TYPE_CHECKING

from .axes import check_axis
from .coord import Coord
from .errors import LayoutError
from .iter import Iter, as_int
from .shape import Index, Shape, admit

if TYPE_CHECKING:
    import numpy as np

    from .compose import Layout

IterSpec = Iter | tuple[int, int] | tuple[int, int, str]


def _offset_items(offset: Mapping[str, int] | int | None) -> tuple[tuple[str, int], ...]:
    if offset is None:
        return ()
    if not isinstance(offset, Mapping):
        return (("m", as_int(offset, "offset")),)
    merged: dict[str, int] = {}
    for a, v in offset.items():
        merged[check_axis(a)] = merged.get(a, 0) + as_int(v, f"offset on {a}")
    return tuple(merged.items())


class TileLayout:
    """An immutable shard / replica / offset layout with value equality.

    ``shard`` and ``replica`` take :class:`Iter` objects or ``(extent, stride, axis)``
    tuples; ``offset`` is a mapping axis -> int (or an int, meaning axis ``m``).
    """

    __slots__ = ("_shard", "_replica", "_offset", "_hash")

    def __init__(
        self,
        shard: Iterable[IterSpec] = (),
        replica: Iterable[IterSpec] = (),
        offset: Mapping[str, int] | int | None = None,
    ) -> None:
        if isinstance(shard, Iter):
            shard = (shard,)
        if isinstance(replica, Iter):
            replica = (replica,)
        self._shard: tuple[Iter, ...] = tuple(Iter.of(it) for it in shard)
        self._replica: tuple[Iter, ...] = tuple(Iter.of(it) for it in replica)
        self._offset = _offset_items(offset)
        self._hash = hash((self._shard, self._replica, frozenset(self._offset)))

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
        """Every axis the layout touches, in first-appearance order (shard, replica, offset)."""
        seen: dict[str, None] = {}
        for it in self._shard + self._replica:
            seen.setdefault(it.axis, None)
        for a, _ in self._offset:
            seen.setdefault(a, None)
        return tuple(seen)

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
        """Whether ``shape`` has exactly as many elements as the layout."""
        try:
            admit(shape, self.size(), self.default_shape)
        except LayoutError:
            return False
        return True

    def check_shape(self, shape: int | Sequence[int] | None) -> Shape:
        """``shape`` validated against the layout (``None`` gives the default shape)."""
        return admit(shape, self.size(), self.default_shape)

    # -- evaluation (implemented in tilelayout.eval) ------------------------------------
    def apply(self, index: Index, shape: Sequence[int] | None = None) -> tuple[Coord, ...]:
        """The set ``L(x)`` of physical coordinates of logical element ``index``.

        Coordinates come in replica enumeration order, duplicates removed.

        >>> import tilelayout as tl
        >>> L = tl.parse("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid")
        >>> L.apply((0, 8), shape=(8, 16))
        ({laneid: 0, warpid: 6, m: 0}, {laneid: 0, warpid: 10, m: 0})
        """
        from ..eval.forward import apply

        return apply(self, index, shape)

    def base(self, index: Index, shape: Sequence[int] | None = None) -> Coord:
        """The replica-free coordinate ``D(x) + O``.

        >>> import tilelayout as tl
        >>> tl.parse("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + 5@warpid").base(127)
        {laneid: 31, warpid: 6, m: 1}
        """
        from ..eval.forward import base

        return base(self, index, shape)

    def map_all(self, shape: Sequence[int] | None = None) -> dict[str, np.ndarray]:
        """Every element at once: axis -> int64 array of shape ``(*shape, R)``.

        >>> import tilelayout as tl
        >>> tl.parse("S[4:2] + R[2:1@pid]").map_all()["pid"].shape
        (4, 2)
        """
        from ..eval.forward import map_all

        return map_all(self, shape)

    # -- inverse queries (implemented in tilelayout.eval.inverse) ---------------------
    def elements_at(
        self,
        query: Mapping[str, int],
        shape: Sequence[int] | None = None,
        *,
        limit: int | None = 1 << 22,
    ) -> tuple[tuple[int, ...], ...]:
        """Logical indices (sorted tuples) whose coordinate set contains a coordinate
        with the queried axis values (other axes free). See ``docs/algebra.md``.

        >>> import tilelayout as tl
        >>> tl.parse("S[(8,4):(4@laneid,1@laneid)]").elements_at({"laneid": 5})
        ((1, 1),)
        """
        from ..eval.inverse import elements_at

        return elements_at(self, query, shape, limit=limit)

    # -- algebra (implemented in tilelayout.algebra; see docs/algebra.md) --------------
    def span(self, axis: str = "m") -> int:
        """Covered extent ``max - min + 1`` of ``axis`` over every value (1 if absent).

        >>> import tilelayout as tl
        >>> tl.parse("S[4:-1] + 10").span("m")
        4
        """
        from ..algebra.span import span

        return span(self, axis)

    def canonicalize(self, *, fuse_threads: bool = False) -> Layout:
        """The same mapping in canonical form (fused iters, sorted replicas, no zeros).

        >>> import tilelayout as tl
        >>> tl.parse("S[(4,2):(2,1)] + 0@warpid").canonicalize()
        parse('S[8:1]')
        """
        from ..algebra.canonical import canonicalize

        return canonicalize(self, fuse_threads=fuse_threads)

    def group(self, shape: int | Sequence[int]) -> tuple[Layout, tuple[int, ...]]:
        """Split iters so that ``shard[seps[i]:seps[i+1]]`` multiply to ``shape[i]``.

        >>> import tilelayout as tl
        >>> tl.parse("S[6:1]").group((2, 3))
        (parse('S[(2,3):(3,1)]'), (0, 1, 2))
        """
        from ..algebra.group import group

        return group(self, shape)

    def tile(self, outer: TileLayout, outer_shape: Sequence[int],
             inner_shape: Sequence[int]) -> Layout:
        """``self`` (the inner tile) repeated by ``outer``, whose strides count whole tiles.

        >>> import tilelayout as tl
        >>> tl.parse("S[4:1]").tile(tl.parse("S[2:1]"), (2,), (4,))
        parse('S[(2,4):(4,1)]')
        """
        from ..algebra.tiling import tile

        return tile(self, outer, outer_shape, inner_shape)

    def tile_to(self, to_shape: Sequence[int], current_shape: Sequence[int]) -> Layout:
        """Tile row-major on ``m`` up to ``to_shape`` (each entry must divide exactly).

        >>> import tilelayout as tl
        >>> tl.parse("S[4:1]").tile_to((12,), (4,))
        parse('S[(3,4):(4,1)]')
        """
        from ..algebra.tiling import tile_to

        return tile_to(self, to_shape, current_shape)

    def slice(self, shape: Sequence[int], region: Sequence) -> Layout:
        """The layout of a rectangular ``region`` (``(start, stop)`` or slices per dim).

        >>> import tilelayout as tl
        >>> tl.parse("S[(8,64):(64,1)]").slice((8, 64), ((1, 2), (8, 16)))
        parse('S[8:1] + 72')
        """
        from ..algebra.slicing import slice_layout

        return slice_layout(self, shape, region)

    def permute_dims(self, perm: Sequence[int], shape: Sequence[int] | None = None) -> Layout:
        """The layout of the tensor with dims reordered (new dim j = old dim ``perm[j]``).

        >>> import tilelayout as tl
        >>> tl.parse("S[(8,64):(64,1)]").permute_dims((1, 0))
        parse('S[(64,8):(1,64)]')
        """
        from ..algebra.slicing import permute_dims

        return permute_dims(self, perm, shape)

    def pack(self, n: int, axis: str = "m") -> Layout:
        """``n`` consecutive elements at consecutive ``axis`` positions become one.

        >>> import tilelayout as tl
        >>> tl.parse("S[(32,16):(1@TLane,1@TCol)]").pack(4, "TCol")
        parse('S[(32,4):(1@TLane,1@TCol)]')
        """
        from ..algebra.packing import pack

        return pack(self, n, axis)

    def unpack(self, n: int, axis: str = "m") -> Layout:
        """Each element becomes ``n`` narrower elements at consecutive ``axis`` positions.

        >>> import tilelayout as tl
        >>> tl.parse("S[4:1]").unpack(2)
        parse('S[(4,2):(2,1)]')
        """
        from ..algebra.packing import unpack

        return unpack(self, n, axis)

    def storage(self) -> Layout:
        """Where each element is stored: thread axes dropped (their iters get stride 0).

        >>> import tilelayout as tl
        >>> tl.parse("S[(32,2):(1@laneid,1)]").storage()
        parse('S[(32,2):(0,1)]')
        """
        from ..algebra.packing import storage

        return storage(self)

    def equivalent(self, other: Layout, shape: Sequence[int] | None = None) -> bool:
        """Same coordinate set for every element (absent axes count as 0).

        >>> import tilelayout as tl
        >>> tl.parse("S[(4,4):(4,1)]").equivalent(tl.parse("S[16:1]"))
        True
        """
        from ..algebra.equivalence import equivalent

        return equivalent(self, other, shape)

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

    def __str__(self) -> str:
        from ..syntax.printer import format_layout

        return format_layout(self)

    def __repr__(self) -> str:
        return f"parse({str(self)!r})"

    def table(self, shape: Sequence[int] | None = None) -> str:
        """A text grid of owners, one cell per logical element (like CuTe's print_layout)."""
        from ..render.table import layout_table

        return layout_table(self, shape)

    def _repr_svg_(self) -> str | None:  # notebooks; the renderer may not exist yet
        try:
            from ..render.svg import layout_svg
        except ImportError:
            return None
        return layout_svg(self)

    def replace(
        self,
        shard: Iterable[IterSpec] | None = None,
        replica: Iterable[IterSpec] | None = None,
        offset: Mapping[str, int] | None = None,
    ) -> TileLayout:
        """A copy with some of shard / replica / offset replaced."""
        return TileLayout(
            self._shard if shard is None else shard,
            self._replica if replica is None else replica,
            dict(self._offset) if offset is None else offset,
        )

