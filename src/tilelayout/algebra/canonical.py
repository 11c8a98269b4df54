"""Canonical form: the same mapping, written one deterministic way.

``canonicalize(L)`` follows apache-tvm-tirx (the reference implementation) and rewrites
without changing any coordinate set (absent axes count as 0, as everywhere in the model):

1. shard: drop extent-1 iters; fuse adjacent iters ``k, k+1`` on the same axis when
   ``e[k+1] * s[k+1] == s[k]`` into ``(e[k] * e[k+1], s[k+1])``. A layout of size 1
   keeps one iter ``1:1`` on the axis of its first iter.
2. replica (a set of offsets, so order is free): the iters are kept as written and only
   put in order, by (axis, stride descending, extent). TIRx orders them by a structural
   hash, an implementation detail no user can reproduce; the iters themselves are the
   same (the one documented difference, see ``docs/interop/tvm.md``).
3. offset: drop zero entries (the others keep their order).

``normalize_replicas=True`` also brings the replica set to a normal form, so layouts
that differ only in how they write their replica set canonicalize to the same value:
extent-1 and stride-0 iters dropped, a negative stride ``(e, -s)`` turned into ``(e, s)``
with ``-(e-1)*s`` moved into the offset (the same set of offsets), then sorted and fused
as in 1 until nothing changes; offset axes follow the first appearance in shard, then
replica. Equivalence's fast path and operand recognition use it.

With ``fuse_threads=True`` thread axes are also fused into the wider one when the
narrower stays inside its hardware range (so the rewrite is a bijection on values):
``laneid + 32*warpid -> tx``, ``laneid + 32*wid_in_wg -> tid_in_wg``,
``tid_in_wg + 128*wgid -> tx``, ``wid_in_wg + 4*wgid -> warpid``. That renames
axes, so the result is a *corresponding* layout, not an equal mapping.

Cost: O(iters log iters).

>>> import tilelayout as tl
>>> L = tl.parse("S[(2,1,2,2,2):(8,3@laneid,4,2,1)] + R[(2,2):(-1@pid,2@pid)] + 0@warpid")
>>> str(canonicalize(L))
'S[16:1] + R[(2,2):(2@pid,-1@pid)]'
>>> str(canonicalize(L, normalize_replicas=True))
'S[16:1] + R[4:1@pid] + -1@pid'
>>> str(canonicalize(tl.parse("S[(2,32):(1@warpid,1@laneid)]"), fuse_threads=True))
'S[64:1@tx]'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..core.compose import ComposeLayout, Layout, value_range
from ..core.iter import Iter
from ..core.tile import TileLayout

#: (narrow axis, wide axis, factor, fused axis): fused = narrow + factor * wide
THREAD_FUSIONS: tuple[tuple[str, str, int, str], ...] = (
    ("laneid", "warpid", 32, "tx"),
    ("laneid", "wid_in_wg", 32, "tid_in_wg"),
    ("tid_in_wg", "wgid", 128, "tx"),
    ("wid_in_wg", "wgid", 4, "warpid"),
)


def fuse_adjacent(iters: Iterable[Iter]) -> list[Iter]:
    """Drop extent-1 iters and fuse neighbours on one axis with ``e[k+1]*s[k+1] == s[k]``
    into one iter (the mapping is unchanged: splitting a flat index by the pair is
    splitting it by their product). The one iter-fusing rule, used by canonicalize,
    pack, slice and every interop converter.

    >>> fuse_adjacent([Iter(2, 4), Iter(1, 9), Iter(4, 1)])
    [Iter(extent=8, stride=1, axis='m')]
    """
    out: list[Iter] = []
    for it in iters:
        if it.extent == 1:
            continue
        if out and out[-1].axis == it.axis and it.extent * it.stride == out[-1].stride:
            prev = out.pop()
            it = Iter(prev.extent * it.extent, it.stride, it.axis)
        out.append(it)
    return out


def _replica_order(it: Iter) -> tuple[str, int, int]:
    return (it.axis, -it.stride, it.extent)


def _normal_replica(replica: Iterable[Iter], offset: dict[str, int]) -> list[Iter]:
    reps = []
    for it in replica:
        if it.extent == 1 or it.stride == 0:
            continue
        if it.stride < 0:
            offset[it.axis] = offset.get(it.axis, 0) + (it.extent - 1) * it.stride
            it = Iter(it.extent, -it.stride, it.axis)
        reps.append(it)
    while True:
        reps.sort(key=_replica_order)
        fused = fuse_adjacent(reps)
        if fused == reps:
            return reps
        reps = fused


def canonical_shard(shard: Sequence[Iter]) -> list[Iter]:
    """:func:`fuse_adjacent`, except that a shard of size 1 keeps one iter ``1:1`` on the
    axis of its first iter (as TIRx does).

    >>> canonical_shard([Iter(1, 7, "laneid"), Iter(1, 3)])
    [Iter(extent=1, stride=1, axis='laneid')]
    """
    fused = fuse_adjacent(shard)
    if not fused and shard:
        return [Iter(1, 1, shard[0].axis)]
    return fused


def _canonical_tile(tile: TileLayout, normalize_replicas: bool) -> TileLayout:
    offset = dict(tile.offset)
    shard = canonical_shard(tile.shard)
    if not normalize_replicas:
        return TileLayout(shard, sorted(tile.replica, key=_replica_order),
                          {a: v for a, v in offset.items() if v})
    replica = _normal_replica(tile.replica, offset)
    order = list(dict.fromkeys([i.axis for i in shard] + [i.axis for i in replica]))
    order += [a for a in offset if a not in order]
    return TileLayout(shard, replica, {a: offset[a] for a in order if offset.get(a, 0)})


def _fuse_threads(tile: TileLayout) -> TileLayout:
    changed = True
    while changed:
        changed = False
        for narrow, wide, factor, fused in THREAD_FUSIONS:
            axes = set(tile.axes)
            if narrow not in axes or wide not in axes or fused in axes:
                continue
            lo, hi = value_range(tile, narrow)
            if lo < 0 or hi >= factor:
                continue  # not a bijection: keep the axes apart (the legality report says why)

            def move(it: Iter, narrow=narrow, wide=wide, factor=factor, fused=fused) -> Iter:
                if it.axis == narrow:
                    return Iter(it.extent, it.stride, fused)
                if it.axis == wide:
                    return Iter(it.extent, it.stride * factor, fused)
                return it

            offset = {a: v for a, v in tile.offset.items() if a not in (narrow, wide)}
            offset[fused] = tile.offset.get(narrow, 0) + factor * tile.offset.get(wide, 0)
            tile = TileLayout([move(i) for i in tile.shard], [move(i) for i in tile.replica], offset)
            changed = True
    return tile


def canonicalize(layout: Layout, *, fuse_threads: bool = False,
                 normalize_replicas: bool = False) -> Layout:
    """The canonical form of ``layout`` (see the module docstring for the rules): TIRx's
    by default; ``normalize_replicas=True`` also normalizes the replica set.

    A ComposeLayout keeps its swizzle; an identity swizzle (``B == 0``), a layout whose
    ``m`` is constant 0, or one whose ``m`` stays inside ``[0, 2**fixed_bits)`` (``M+S``
    for a Swizzle: the swizzle reads only zero bits there) canonicalizes to its tile (the
    swizzle changes nothing).

    >>> import tilelayout as tl
    >>> canonicalize(tl.parse("S[(4,2):(2,1)] + R[1:5@pid] + 0"))
    parse('S[8:1] + R[1:5@pid]')
    >>> canonicalize(tl.parse("S[(4,2):(2,1)] + R[1:5@pid] + 0"), normalize_replicas=True)
    parse('S[8:1]')
    """
    if isinstance(layout, ComposeLayout):
        tile = canonicalize(layout.tile_layout, fuse_threads=fuse_threads,
                            normalize_replicas=normalize_replicas)
        assert isinstance(tile, TileLayout)
        sw = layout.swizzle
        lo, hi = value_range(tile, "m")
        if sw.is_identity or "m" not in tile.axes or (0 <= lo and hi >> sw.fixed_bits == 0):
            return tile  # every address in [0, 2**fixed_bits) maps to itself
        return ComposeLayout(layout.swizzle, tile)
    tile = _canonical_tile(layout, normalize_replicas)
    if fuse_threads:
        tile = _canonical_tile(_fuse_threads(tile), normalize_replicas)
    return tile
