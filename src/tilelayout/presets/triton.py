"""Triton's and Gluon's distributed layouts as presets, built the way Triton lowers them.

Each preset takes Triton's parameters (snake_case of Triton's names, as Gluon spells
them) and the tile ``shape``, and builds the layout Triton gives for that shape with
Triton's own linear-layout arithmetic (:mod:`.linear`): a tile larger than the layout's
CTA tile repeats it in registers (outermost register bits), a smaller one broadcasts the
lanes and warps that fall outside (replicas) and drops the registers that do.

Axes: ``m`` = register index (Triton's ``register``), ``laneid``, ``warpid``, ``cbx``
(CTA of the cluster, Triton's ``block``). Sources: the ``toLinearLayout`` methods in
lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp and the attribute definitions in
include/triton/Dialect/TritonGPU/IR/TritonGPUAttrDefs.td (triton-lang/triton); every
preset is checked against Triton's own lowering (tests/presets/test_triton.py).
docs/interop/triton.md has the table of Triton names, presets and parameters.

>>> from tilelayout import presets
>>> str(presets.get("triton.blocked", size_per_thread=(1, 4), threads_per_warp=(8, 4),
...                 warps_per_cta=(1, 1), order=(1, 0), shape=(8, 16)).layout)
'S[(8,4,4):(4@laneid,1@laneid,1)]'
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..core.tile import TileLayout
from .linear import Linear, cga_layout, combine_cta_cga, identity_nd, product
from .registry import Built, Param, fail, register

SOURCE = ("Triton lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp (toLinearLayout) and "
          "include/triton/Dialect/TritonGPU/IR/TritonGPUAttrDefs.td; Gluon "
          "triton/experimental/gluon/language/_layouts.py")


def _cga(name: str, rank: int, ctas_per_cga: Sequence[int], cta_split_num: Sequence[int],
         cta_order: Sequence[int]) -> Linear:
    """The cluster's CTA layout (Triton's CTALayout: CTAsPerCGA, CTASplitNum, CTAOrder)."""
    ones = (1,) * rank
    ctas = tuple(ctas_per_cga) if math.prod(ctas_per_cga) > 1 else ones
    split = tuple(cta_split_num) if math.prod(cta_split_num) > 1 else ones
    order = tuple(cta_order) if len(cta_order) == rank else tuple(reversed(range(rank)))
    for what, v in (("ctas_per_cga", ctas), ("cta_split_num", split)):
        if len(v) != rank:
            raise fail(name, f"{what} has {len(v)} entries; the tile has rank {rank}")
    for d in range(rank):
        if ctas[d] % split[d] or ctas[d] & (ctas[d] - 1) or split[d] & (split[d] - 1):
            raise fail(name, f"cta_split_num[{d}]={split[d]} must be a power of two dividing "
                       f"ctas_per_cga[{d}]={ctas[d]}")
    if sorted(order) != list(range(rank)):
        raise fail(name, f"cta_order {order} is not a permutation of 0..{rank - 1}")
    return cga_layout(ctas, split, order)


def _check_rank(name: str, shape: Sequence[int], **params: Sequence[int]) -> None:
    for what, v in params.items():
        if len(v) != len(shape):
            raise fail(name, f"{what} has {len(v)} entries; shape {tuple(shape)} has rank "
                       f"{len(shape)}")
        if any(x < 1 or x & (x - 1) for x in v):
            raise fail(name, f"{what}={tuple(v)}: Triton's layouts take powers of two")
    if any(s & (s - 1) for s in shape):
        raise fail(name, f"shape {tuple(shape)}: Triton lowers layouts on power-of-two shapes")


def _built(linear: Linear, shape: Sequence[int]) -> Built:
    layout: TileLayout = linear.layout(shape)
    return Built(layout, tuple(shape))


BLOCKED = "triton.blocked"
CGA_PARAMS = [
    Param("ctas_per_cga", "shape", (1, 1), doc="CTAs of the cluster per dimension (CTAsPerCGA)"),
    Param("cta_split_num", "shape", (1, 1),
          doc="how many ways each dimension is split over those CTAs (CTASplitNum; the rest "
          "broadcast)"),
    Param("cta_order", "order", (1, 0), doc="CTA order, minor first (CTAOrder)"),
]


def blocked_linear(size_per_thread: Sequence[int], threads_per_warp: Sequence[int],
                   warps_per_cta: Sequence[int], order: Sequence[int]) -> Linear:
    """One CTA of Triton's BlockedEncodingAttr: registers, then lanes, then warps, each
    filling the dimensions in ``order`` (minor first)."""
    return product(identity_nd("register", size_per_thread, order),
                   identity_nd("lane", threads_per_warp, order),
                   identity_nd("warp", warps_per_cta, order))


@register(
    BLOCKED,
    summary="Triton/Gluon BlockedLayout: size_per_thread x threads_per_warp x warps_per_cta "
    "in order, repeated or broadcast to the tile shape",
    source=SOURCE + " (BlockedEncodingAttr::toLinearLayout)",
    params=[
        Param("size_per_thread", "shape", (1, 4), doc="contiguous elements per thread per dim "
              "(sizePerThread)"),
        Param("threads_per_warp", "shape", (4, 8), doc="lanes per dim, product = warp size "
              "(threadsPerWarp)"),
        Param("warps_per_cta", "shape", (2, 2), doc="warps per dim (warpsPerCTA)"),
        Param("order", "order", (1, 0), doc="dimension order, fastest first (order)"),
        Param("shape", "shape", (32, 64), doc="the tensor (tile) shape"),
        *CGA_PARAMS,
    ],
)
def blocked(size_per_thread=(1, 4), threads_per_warp=(4, 8), warps_per_cta=(2, 2), order=(1, 0),
            shape=(32, 64), ctas_per_cga=(1, 1), cta_split_num=(1, 1), cta_order=(1, 0)) -> Built:
    """Triton's ``#ttg.blocked`` / Gluon's ``BlockedLayout`` over a tile ``shape``.

    Each thread holds ``size_per_thread`` contiguous elements; ``threads_per_warp`` lanes
    and ``warps_per_cta`` warps tile the CTA tile ``spt * tpw * wpc`` per dimension, all
    filling dimensions in ``order`` (fastest first). A larger ``shape`` repeats the CTA
    tile in registers (the repetition bits come after the thread's own, fastest dimension
    first); a smaller one broadcasts the lanes / warps past its end and drops registers
    past it. With a cluster (``ctas_per_cga``), each dimension is split over
    ``cta_split_num`` CTAs (``cbx``) and broadcast over the rest.

    Source: Triton BlockedEncodingAttr (TritonGPUAttrDefs.td) and
    BlockedEncodingAttr::toLinearLayout / combineCtaCgaWithShape
    (LinearLayoutConversions.cpp), Gluon ``BlockedLayout``. Checked against Triton's
    lowering over a parameter grid (tests/presets/test_triton.py).
    """
    rank = len(shape)
    _check_rank(BLOCKED, shape, size_per_thread=size_per_thread,
                threads_per_warp=threads_per_warp, warps_per_cta=warps_per_cta)
    if len(order) != rank:
        raise fail(BLOCKED, f"order {tuple(order)} has {len(order)} entries; shape has rank {rank}")
    cta = blocked_linear(size_per_thread, threads_per_warp, warps_per_cta, order)
    cga = _cga(BLOCKED, rank, ctas_per_cga, cta_split_num, cta_order)
    return _built(combine_cta_cga(cta, cga, shape), shape)
