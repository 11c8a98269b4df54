"""Group shard iters by a logical shape: ``group(L, shape) -> (layout, seps)``.

Splits iters (never changing the mapping) so that the shard iters
``shard[seps[i]:seps[i+1]]`` multiply exactly to ``shape[i]``: group ``i`` is then the
part of the layout that logical dimension ``i`` drives. An iter ``(e, s)`` that a
group boundary cuts at ``e = a * b`` becomes ``(a, s*b), (b, s)`` (the outer ``a``
goes to the outer dimension). Impossible when a boundary falls inside an iter at a
non-divisor, e.g. ``S[6:1]`` by ``(4, ...)``; that is an :class:`AlgebraError`.

As in apache-tvm-tirx (the reference implementation), extent-1 iters are dropped and
every size-1 dimension gets exactly one extent-1 iter of its own, so ``seps`` is
strictly increasing and no group is empty: ``S[(14,4):(4,1)]`` by ``(14, 1, 4)`` gives
``S[(14,1,4):(4,4,1)]`` with seps ``(0, 1, 2, 3)``. That iter repeats the stride and
axis of the iter before it (for a leading size-1 dimension: the layout's first iter if
it has extent 1, else one step of the next iter, ``e * s``); being extent 1, it never
changes the mapping.

Cost: O(iters + len(shape)).

>>> import tilelayout as tl
>>> g, seps = group(tl.parse("S[(8,4,2):(4@laneid,1@laneid,1)]"), (4, 16))
>>> str(g), seps
('S[(4,2,4,2):(8@laneid,4@laneid,1@laneid,1)]', (0, 1, 4))
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Sequence

from ..core.compose import ComposeLayout, Layout, tile_of
from ..core.errors import AlgebraError, ShapeError
from ..core.iter import Iter
from ..core.shape import as_shape, format_shape
from ..core.tile import TileLayout


def _unit_iter(done: Sequence[Iter], queue: deque[Iter], shard: Sequence[Iter]) -> Iter:
    """The extent-1 iter of a size-1 dimension (TIRx's choice; being extent 1, it never
    changes the mapping): the previous output iter's stride and axis; for a leading
    size-1 dimension the layout's own first iter if that has extent 1, else one step
    past the next iter (``e * s``)."""
    if done:
        return Iter(1, done[-1].stride, done[-1].axis)
    if shard and shard[0].extent == 1:
        return shard[0]
    if queue:
        return Iter(1, queue[0].extent * queue[0].stride, queue[0].axis)
    return Iter(1, 1, "m")


def group_iters(shard: Sequence[Iter], shape: Sequence[int]) -> list[list[Iter]]:
    """The shard iters split into one list per entry of ``shape`` (outermost first).

    Extent-1 iters are dropped; a size-1 dimension gets one extent-1 iter of its own
    (see :func:`group`), so no list is empty.

    >>> [[(i.extent, i.stride) for i in g] for g in group_iters([Iter(6, 1)], (2, 1, 3))]
    [[(2, 3)], [(1, 3)], [(3, 1)]]
    """
    queue = deque(it for it in shard if it.extent > 1)
    groups: list[list[Iter]] = []
    done: list[Iter] = []
    for d, n in enumerate(shape):
        if n == 1:
            groups.append([_unit_iter(done, queue, shard)])
            done.append(groups[-1][0])
            continue
        g: list[Iter] = []
        rest = n
        while rest > 1:
            if not queue:
                raise ShapeError(f"shape {format_shape(shape)} has more elements than the "
                                 f"layout's {math.prod(i.extent for i in shard)}")
            it = queue[0]
            if rest % it.extent == 0:
                g.append(queue.popleft())
                rest //= it.extent
            elif it.extent % rest == 0:
                inner = it.extent // rest
                g.append(Iter(rest, it.stride * inner, it.axis))
                queue[0] = Iter(inner, it.stride, it.axis)
                rest = 1
            else:
                got = math.prod(i.extent for i in g)
                raise AlgebraError(
                    f"cannot group by {format_shape(shape)}: dimension {d} (size {n}) needs "
                    f"{rest} more after {got}, but the next iter has extent {it.extent}, "
                    f"and neither divides the other; choose a shape whose boundaries fall "
                    f"on divisors of the iter extents"
                )
        groups.append(g)
        done.extend(g)
    return groups


def group(layout: Layout, shape: int | Sequence[int]) -> tuple[Layout, tuple[int, ...]]:
    """Split iters so that consecutive runs multiply to each entry of ``shape``.

    Returns the split layout (same mapping) and ``seps`` with ``seps[0] == 0`` and
    ``seps[-1] == len(shard)``: dimension ``i`` drives ``shard[seps[i]:seps[i+1]]``.

    >>> import tilelayout as tl
    >>> group(tl.parse("S[6:1]"), (3, 2))
    (parse('S[(3,2):(2,1)]'), (0, 1, 2))
    >>> group(tl.parse("S[(8,5,1):(5,1,1)]"), (40,))
    (parse('S[(8,5):(5,1)]'), (0, 2))
    """
    tile = tile_of(layout)
    s = as_shape(shape)
    if not s:
        raise ShapeError("group needs a shape with at least one entry")
    tile.check_shape(s)
    groups = group_iters(tile.shard, s)
    seps = [0]
    for g in groups:
        seps.append(seps[-1] + len(g))
    out = tile.replace(shard=[i for g in groups for i in g])
    if isinstance(layout, ComposeLayout):
        return ComposeLayout(layout.swizzle, out), tuple(seps)
    assert isinstance(out, TileLayout)
    return out, tuple(seps)
