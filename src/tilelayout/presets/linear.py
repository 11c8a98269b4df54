"""Triton's linear-layout arithmetic, written here to build Triton's layouts as Triton does.

A :class:`Linear` maps named input dimensions (``register``, ``lane``, ``warp``,
``block``, ``offset``) to output dimensions (logical tensor dimensions, by index) with
one basis vector per input bit, combined by XOR. The operations follow the semantics of
Triton's ``LinearLayout`` (include/triton/Tools/LinearLayout.h and lib/Tools/LayoutUtils.cpp
in triton-lang/triton), which fix register order and broadcast:

* ``identity(size, in, out)`` / ``zeros(size, in, out)``: ``LinearLayout::identity1D`` /
  ``zeros1D``;
* ``a * b``: the direct product (``operator*``): in-dims and out-dims in first-seen order,
  ``b``'s bases after ``a``'s, shifted past ``a``'s extent on shared out-dims;
* :meth:`Linear.grow` (``ensureLayoutNotSmallerThan``): repeat along the first input
  dimension until every out-dim reaches the shape (repetitions);
* :meth:`Linear.shrink` (``ensureLayoutNotLargerThan``): the largest bases beyond the shape
  become zero (broadcast), register ones are dropped;
* :func:`combine_cta_cga` (``combineCtaCgaWithShape``): a CTA's layout fitted to the shape
  that remains per CTA, times the cluster's CTA layout.

:meth:`Linear.layout` turns the result into a :class:`~tilelayout.TileLayout` (register ->
``m``, lane -> ``laneid``, warp -> ``warpid``, block -> ``cbx``; offset -> ``m`` with zero
bases as padding) through :mod:`tilelayout.algebra.bits`.

>>> L = identity(2, "register", 1) * identity(32, "lane", 1) * identity(4, "warp", 0)
>>> str(L.grow((4, 64)).layout((4, 64)))
'S[(4,32,2):(1@warpid,1@laneid,1)]'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from ..algebra.bits import bases_layout, log2_exact
from ..core.tile import TileLayout

#: Triton input dimension -> our axis
AXES = MappingProxyType({"register": "m", "lane": "laneid", "warp": "warpid", "block": "cbx", "offset": "m"})


@dataclass(frozen=True)
class Linear:
    """Bases per input dimension over output dimensions ``outs`` (dimension index, size).

    ``bases[k]`` is ``(in_dim, vectors)``; each vector has one entry per entry of ``outs``.
    """

    bases: tuple[tuple[str, tuple[tuple[int, ...], ...]], ...]
    outs: tuple[tuple[int, int], ...]

    def size(self, out: int) -> int:
        """Extent of output dimension ``out`` (1 when absent)."""
        return dict(self.outs).get(out, 1)

    def __mul__(self, other: Linear) -> Linear:
        outs = list(self.outs) + [(o, s) for o, s in other.outs if o not in dict(self.outs)]
        index = {o: k for k, (o, _) in enumerate(outs)}
        mine = dict(self.outs)
        shift = {o: log2_exact(mine.get(o, 1), "size") for o, _ in other.outs}
        bases: dict[str, list[tuple[int, ...]]] = {}
        for name, vecs in self.bases:
            bases[name] = [tuple(v) + (0,) * (len(outs) - len(v)) for v in vecs]
        for name, vecs in other.bases:
            bases.setdefault(name, [])
            for v in vecs:
                out = [0] * len(outs)
                for (o, _), x in zip(other.outs, v, strict=True):
                    out[index[o]] = x << shift[o]
                bases.setdefault(name, []).append(tuple(out))
        sizes = [(o, mine.get(o, 1) * dict(other.outs).get(o, 1)) for o, _ in outs]
        return Linear(tuple((n, tuple(v)) for n, v in bases.items()), tuple(sizes))

    def transpose_outs(self, order: Sequence[int]) -> Linear:
        """The same map with output dimensions listed in ``order`` (``transposeOuts``)."""
        index = {o: k for k, (o, _) in enumerate(self.outs)}
        perm = [index[o] for o in order]
        return Linear(tuple((n, tuple(tuple(v[p] for p in perm) for v in vecs)) for n, vecs in self.bases),
                      tuple(self.outs[p] for p in perm))

    def grow(self, shape: Sequence[int]) -> Linear:
        """``ensureLayoutNotSmallerThan``: repeat along the first input dimension until every
        output dimension covers ``shape[d]``, output dimensions in this layout's order."""
        first = self.bases[0][0] if self.bases else "register"
        out = self
        for o, size in self.outs:
            if shape[o] > size:
                out = out * identity(shape[o] // size, first, o)
        return out

    def shrink(self, shape: Sequence[int], broadcast_registers: bool = False) -> Linear:
        """``ensureLayoutNotLargerThan``: per output dimension, the largest bases beyond
        ``shape[d]`` become zero (broadcast); register bases are dropped instead unless
        ``broadcast_registers``."""
        bases = {n: [list(v) for v in vecs] for n, vecs in self.bases}
        dropped: set[int] = set()
        for k, (o, size) in enumerate(self.outs):
            actual = size
            if actual <= shape[o]:
                continue
            ranked = sorted(((v[k], n, i) for n, vecs in bases.items() for i, v in enumerate(vecs)
                             if v[k]), key=lambda t: -t[0])
            for _, n, i in ranked:
                if actual <= shape[o]:
                    break
                if n == "register" and not broadcast_registers:
                    dropped.add(i)
                else:
                    bases[n][i][k] = 0
                actual //= 2
        if dropped:
            bases["register"] = [v for i, v in enumerate(bases["register"]) if i not in dropped]
        outs = tuple((o, min(s, shape[o])) for o, s in self.outs)
        return Linear(tuple((n, tuple(tuple(v) for v in vecs)) for n, vecs in bases.items()), outs)

    def standard(self, rank: int) -> dict[str, list[list[int]]]:
        """Bases per input dimension with vectors over ``dim0 .. dim{rank-1}`` (absent: 0)."""
        index = {o: k for k, (o, _) in enumerate(self.outs)}
        return {n: [[v[index[d]] if d in index else 0 for d in range(rank)] for v in vecs]
                for n, vecs in self.bases}

    def layout(self, shape: Sequence[int]) -> TileLayout:
        """Our :class:`~tilelayout.TileLayout` of this map over ``shape`` (dimension order)."""
        bases = self.standard(len(shape))
        memory = "offset" in bases
        named = {AXES[n]: v for n, v in bases.items() if v}
        return bases_layout(named, shape, padding=("m",) if memory else ())


def identity(size: int, in_dim: str, out: int) -> Linear:
    """``LinearLayout::identity1D``: bit ``k`` of ``in_dim`` moves bit ``k`` of ``out``.

    >>> identity(4, "lane", 1).bases
    (('lane', ((1,), (2,))),)
    """
    n = log2_exact(size, f"size of {in_dim}")
    return Linear(((in_dim, tuple((1 << k,) for k in range(n))),), ((out, size),))


def zeros(size: int, in_dim: str, out: int) -> Linear:
    """``LinearLayout::zeros1D``: ``size`` values of ``in_dim`` that all stay at 0 (broadcast).

    >>> zeros(4, "warp", 0).bases
    (('warp', ((0,), (0,))),)
    """
    n = log2_exact(size, f"size of {in_dim}")
    return Linear(((in_dim, tuple((0,) for _ in range(n))),), ((out, 1),))


def from_standard(bases: Mapping[str, Sequence[Sequence[int]]], order: Sequence[int]) -> Linear:
    """The inverse of :meth:`Linear.standard`: bases per input dimension written over
    dimensions ``0 .. rank-1``, output dimensions listed in ``order``; each one's size is
    twice its largest basis entry (1 where no basis moves it).

    >>> from_standard({"register": [[0, 1]], "lane": [[1, 0], [0, 2]]}, (1, 0)).outs
    ((1, 4), (0, 2))
    """
    size = [1] * len(order)
    for vectors in bases.values():
        for v in vectors:
            size = [max(s, 2 * x) for s, x in zip(size, v, strict=True)]
    return Linear(tuple((n, tuple(tuple(v[o] for o in order) for v in vs)) for n, vs in bases.items()),
                  tuple((o, size[o]) for o in order))


def identity_nd(in_dim: str, sizes: Sequence[int], order: Sequence[int]) -> Linear:
    """``identityStandardND``: ``in_dim`` fills ``sizes`` dimension by dimension, ``order[0]``
    (the most minor) first.

    >>> identity_nd("lane", (4, 8), (1, 0)).outs
    ((1, 8), (0, 4))
    """
    out = Linear((), ())
    for d in order:
        out = out * identity(sizes[d], in_dim, d)
    return out


def product(*parts: Linear) -> Linear:
    """``parts[0] * parts[1] * ...``."""
    out = Linear((), ())
    for p in parts:
        out = out * p
    return out


def cga_layout(ctas_per_cga: Sequence[int], cta_split_num: Sequence[int],
               cta_order: Sequence[int]) -> Linear:
    """``makeCgaLayout``: CTA ``block`` bits split dimension ``d`` ``cta_split_num[d]`` ways
    and broadcast over the remaining ``ctas_per_cga[d] / cta_split_num[d]`` CTAs.

    >>> cga_layout((2, 1), (2, 1), (1, 0)).standard(2)
    {'block': [[1, 0]]}
    """
    out = Linear((), ())
    for d in cta_order:
        out = out * identity(cta_split_num[d], "block", d) * zeros(
            ctas_per_cga[d] // cta_split_num[d], "block", d)
    return out.transpose_outs([d for d in range(len(cta_order)) if d in dict(out.outs)])


def combine_cta_cga(cta: Linear, cga: Linear, shape: Sequence[int],
                    broadcast_registers: bool = False) -> Linear:
    """``combineCtaCgaWithShape``: ``cga`` shrunk to ``shape``; ``cta`` grown then shrunk to
    the shape each CTA holds; their product, output dimensions in standard order. Triton's
    MMA layouts keep registers past the shape as broadcast ones (``broadcast_registers``);
    the others drop them."""
    rank = len(shape)
    cga = cga.shrink(shape)
    per_cta = [max(1, shape[d] // cga.size(d)) for d in range(rank)]
    full = cta * Linear((), tuple((d, 1) for d in range(rank)))  # every dimension present
    cta_fit = full.grow(per_cta).shrink(per_cta, broadcast_registers)
    return (cta_fit * cga).transpose_outs(range(rank))


def zeros_along(in_dim: str, sizes: Sequence[int], order: Sequence[int], k_dim: int) -> Linear:
    """``broadcastedDotOperandLayout``: ``in_dim`` fills ``sizes`` in ``order`` like
    :func:`identity_nd`, except that dimension ``k_dim`` is broadcast (zeros): a dot operand
    is shared by the warps / lanes that differ only along K."""
    out = Linear((), ())
    for d in order:
        out = out * (zeros(sizes[d], in_dim, d) if d == k_dim else identity(sizes[d], in_dim, d))
    return out

