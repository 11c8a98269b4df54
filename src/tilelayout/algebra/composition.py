"""Functional composition ``compose(outer, inner)``: the layout of ``x -> outer(inner(x))``.

``inner`` maps each logical index to an integer on one axis (its codomain is a single
memory axis); that integer is read as a *flat index* of ``outer`` (row-major over
outer's shard extents, the order ``outer.apply(flat)`` uses). The result has inner's
logical domain and outer's codomain.

How (CuTe's composition, on our iters, cost O(inner iters x outer iters), never
elements): outer's shard is coalesced first (adjacent iters that are one run fuse, as
CuTe coalesces its left operand: ``S[(6,4):(4,1)]`` is ``S[24:1]``, so
``compose(S[(6,4):(4,1)], S[6:1])`` is ``S[6:1]``); each inner iter ``e:d`` walks
outer's iters innermost first; a stride that
is a multiple of an outer extent skips that iter (``d /= E``), then the iter's values
land in outer iter ``j`` as ``e':d*S_j`` sub-iters (split across iters when ``e``
exceeds what is left of iter ``j``). The result is exact when no sum carries from one
outer iter into the next: for every outer iter, inner's offset digit plus the largest
value every inner iter puts there stays below its extent. Otherwise (a stride that
neither divides nor is divided by an outer extent, values beyond outer's size, a
carry, a negative stride, a swizzled inner) :class:`AlgebraError` says which iter and why.

Inner replicas compose like shard iters (into the result's replicas); outer's replicas
and swizzle pass through (``outer(v)`` is a set; the swizzle acts after outer's tile).

``unbounded=True`` is CuTe's unbounded last mode: inner values past outer's size
continue along outer's outermost (coalesced) iter, as if its extent had no end, instead
of being refused (``compose(S[4:2], S[8:1], unbounded=True)`` is ``S[8:2]``). For CuTe's
composition with CuTe's column-major index and nested modes, see
:func:`tilelayout.algebra.cute.composition`.

>>> import tilelayout as tl
>>> outer = tl.parse("S[(4,8):(1,4)]")        # a 4 x 8 column-major tile on m
>>> inner = tl.parse("S[(8,4):(4,1)]")        # read as 8 x 4: flat index 4*i + j
>>> compose(outer, inner)
parse('S[(4,2,4):(1,16,4)]')
>>> compose(outer, inner).apply((1, 0), (8, 4)) == outer.apply(4)
True
"""

from __future__ import annotations

from ..core.compose import ComposeLayout, Layout, tile_of
from ..core.errors import AlgebraError
from ..core.iter import Iter
from ..core.tile import TileLayout
from .canonical import canonicalize, fuse_adjacent


def value_axis(tile: TileLayout, what: str) -> str | None:
    """The one axis ``tile`` moves or offsets (None if it is constant 0, or its only axis),
    else AlgebraError."""
    if len(tile.axes) <= 1:  # one axis: its iters' strides and offset are the values
        return tile.axes[0] if tile.axes else None
    used = {it.axis for it in tile.shard + tile.replica if it.stride and it.extent > 1}
    used |= {a for a, v in tile.offset.items() if v}
    if len(used) > 1:
        raise AlgebraError(
            f"{what} {tile} maps to axes {', '.join(sorted(used))}; it must map to a single "
            f"(memory) axis"
        )
    return next(iter(used), None)


def _named(where: tuple[str, int, Iter]) -> str:
    kind, k, it = where
    return f"inner {kind}iter {k} ({it.extent}:{it.stride})"


class _Digits:
    """Outer's iters innermost first, with how much of each iter's range is used."""

    def __init__(self, outer: TileLayout, unbounded: bool = False) -> None:
        self.outer = outer
        self.iters = list(reversed(fuse_adjacent(outer.shard)))
        self.load = [0] * len(self.iters)
        self.size = outer.size()
        self.zero_axis = outer.axes[0] if outer.axes else "m"
        self.unbounded = unbounded

    def split(self, e: int, d: int, where: tuple[str, int, Iter]) -> list[Iter]:
        """Outer's sub-iters that inner iter ``e:d`` becomes (outermost first); ``where``
        (kind, index, iter) names it in a refusal."""
        if e == 1:
            return []
        if d == 0:
            return [Iter.shared(e, 0, self.zero_axis)]
        if d < 0:
            raise AlgebraError(f"{_named(where)} has stride {d}: a negative flat index step has no "
                               f"place in outer's flat index")
        out, j, top = [], 0, (e - 1) * d
        while True:
            if self.unbounded and j >= len(self.iters) - 1:  # the last iter has no end
                it = self.iters[-1] if self.iters else Iter(1, 0, self.zero_axis)
                out.append(Iter.shared(e, d * it.stride, it.axis))
                break
            if j == len(self.iters):
                raise AlgebraError(f"{_named(where)} reaches flat index {top}, beyond outer's "
                                   f"{self.size} elements (unbounded=True continues along "
                                   f"outer's outermost iter, as CuTe does)")
            it = self.iters[j]
            if (e - 1) * d < it.extent:  # every value fits inside this iter: no carry
                out.append(Iter.shared(e, d * it.stride, it.axis))
                self.load[j] += (e - 1) * d
                break
            if d >= it.extent:
                if d % it.extent:
                    raise AlgebraError(
                        f"{_named(where)}: stride {d} is not a multiple of outer's iter "
                        f"{it.extent}:{it.stride}@{it.axis} (extent {it.extent}), so its values "
                        f"straddle that iter's wrap-around"
                    )
                d //= it.extent
                j += 1
                continue
            room = it.extent // d
            if it.extent % d or e % room:
                raise AlgebraError(
                    f"{_named(where)}: its {e} values at stride {d} do not split evenly over outer's iter "
                    f"{it.extent}:{it.stride}@{it.axis}; the sum would carry into the next iter"
                )
            out.append(Iter.shared(room, d * it.stride, it.axis))
            self.load[j] += (room - 1) * d
            e //= room
            d = 1
            j += 1
        return out[::-1]

    def place_offset(self, o: int) -> dict[str, int]:
        """Outer's coordinate of flat index ``o`` (checking nothing carries), as an offset."""
        if not 0 <= o < self.size and not (self.unbounded and o >= 0):
            raise AlgebraError(f"inner's offset {o} is outside outer's flat indices [0, {self.size})")
        out = dict(self.outer.offset) if self.outer.axes else {}
        for j, it in enumerate(self.iters):
            if self.unbounded and j == len(self.iters) - 1:
                out[it.axis] = out.get(it.axis, 0) + o * it.stride
                break
            o, digit = divmod(o, it.extent)
            if digit + self.load[j] >= it.extent:
                raise AlgebraError(
                    f"inner's values reach {digit + self.load[j]} in outer's iter "
                    f"{it.extent}:{it.stride}@{it.axis} (extent {it.extent}): the flat index "
                    f"carries into the next iter, which no single stride expresses"
                )
            out[it.axis] = out.get(it.axis, 0) + digit * it.stride
        return out


def compose(outer: Layout, inner: Layout, unbounded: bool = False) -> Layout:
    """The layout of ``x -> outer(inner(x))``; ``inner``'s values are outer's flat indices
    (row-major). ``unbounded=True``: values past outer's size continue along its
    outermost iter (CuTe's unbounded last mode) instead of being refused.

    >>> import tilelayout as tl
    >>> warp = tl.parse("S[(8,4):(4@laneid,1@laneid)]")   # 32 elements on 32 lanes
    >>> compose(warp, tl.parse("S[(4,8):(1,4)]"))          # the same elements, transposed
    parse('S[(4,8):(1@laneid,4@laneid)]')
    >>> compose(tl.parse("S[(6,4):(4,1)]"), tl.parse("S[6:1]"))   # outer coalesced first
    parse('S[6:1]')
    >>> compose(tl.parse("S[4:2]"), tl.parse("S[8:1]"), unbounded=True)
    parse('S[8:2]')
    """
    if isinstance(inner, ComposeLayout):
        inner = canonicalize(inner)  # an identity swizzle drops out
        if isinstance(inner, ComposeLayout):
            raise AlgebraError(
                f"inner {inner} is swizzled: outer(swizzle(m)) is not affine in m; compose "
                f"with the tile and apply the swizzle's XOR pattern separately"
            )
    axis = value_axis(inner, "inner")
    outer_tile = tile_of(outer)
    digits = _Digits(outer_tile, unbounded)
    shard: list[Iter] = []
    for k, it in enumerate(inner.shard):
        stride = it.stride if it.axis == axis else 0
        shard.extend(digits.split(it.extent, stride, ("", k, it)))
    replica: list[Iter] = []
    for k, it in enumerate(inner.replica):
        stride = it.stride if it.axis == axis else 0
        replica.extend(digits.split(it.extent, stride, ("replica ", k, it)))
    start = inner.offset.get(axis, 0) if axis and len(inner.offset) else 0
    offset = {a: v for a, v in digits.place_offset(start).items() if v}
    if offset or replica or outer_tile.replica or not shard:
        tile = TileLayout(shard, replica + list(outer_tile.replica), offset)
    else:
        tile = TileLayout.of_shard(tuple(shard))
    if isinstance(outer, ComposeLayout):
        if "m" not in tile.axes:
            tile = TileLayout(tile.shard, tile.replica, {**dict(tile.offset), "m": 0})
        return ComposeLayout(outer.swizzle, tile)
    return tile
