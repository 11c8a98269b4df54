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

from ..algebra.bits import squeeze
from ..core.tile import TileLayout
from ..core.triton_limits import MAX_LOG2, WARP_SIZES
from .linear import (
    Linear,
    cga_layout,
    combine_cta_cga,
    identity,
    identity_nd,
    product,
    zeros_along,
)
from .registry import Param, PresetLayout, fail, register

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
        if any(x < 1 or x & (x - 1) for x in v) or _bits(v) > MAX_LOG2:
            raise fail(name, f"{what}={tuple(v)}: Triton's layouts take powers of two, at most "
                       f"2**{MAX_LOG2} in all (its linear layouts are int32)")
    if any(s < 1 or s & (s - 1) for s in shape) or _bits(shape) > MAX_LOG2:
        raise fail(name, f"shape {tuple(shape)}: Triton lowers layouts on power-of-two shapes of "
                   f"at most 2**{MAX_LOG2} elements")


def _bits(values: Sequence[int]) -> int:
    return sum(max(v, 1).bit_length() - 1 for v in values)


def check_warp(name: str, threads_per_warp: Sequence[int]) -> None:
    """Refuse ``threads_per_warp`` that make a warp larger than any GPU's (:data:`WARP_SIZES`:
    a kernel's layouts must make exactly its ``ttg.threads-per-warp``, which Triton's module
    verifier checks; smaller warps stay, as Triton's own conversion tests write them;
    docs/interop/triton.md)."""
    lanes = math.prod(threads_per_warp)
    if lanes > max(WARP_SIZES):
        raise fail(name, f"threads_per_warp={tuple(threads_per_warp)} make a warp of {lanes:,} "
                   f"lanes; a warp has at most {max(WARP_SIZES)} (NVIDIA: 32, AMD: 64 or 32)")


def _built(linear: Linear, shape: Sequence[int]) -> PresetLayout:
    layout: TileLayout = linear.layout(shape)
    return PresetLayout(layout, tuple(shape))


BLOCKED = "triton.blocked"
#: which operand of a dot a layout holds (Triton's opIdx)
OPERAND_INDEX = Param("operand_index", "choice", 0, (0, 1), doc="0 = A (M x K), 1 = B (K x N)")
CGA_PARAMS = (
    Param("ctas_per_cga", "shape", (1, 1), doc="CTAs of the cluster per dimension (CTAsPerCGA)"),
    Param("cta_split_num", "shape", (1, 1),
          doc="how many ways each dimension is split over those CTAs (CTASplitNum; the rest "
          "broadcast)"),
    Param("cta_order", "order", (1, 0), doc="CTA order, minor first (CTAOrder)"),
)


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
            shape=(32, 64), ctas_per_cga=(1, 1), cta_split_num=(1, 1), cta_order=(1, 0)) -> PresetLayout:
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
    check_warp(BLOCKED, threads_per_warp)
    if len(order) != rank:
        raise fail(BLOCKED, f"order {tuple(order)} has {len(order)} entries; shape has rank {rank}")
    cta = blocked_linear(size_per_thread, threads_per_warp, warps_per_cta, order)
    cga = _cga(BLOCKED, rank, ctas_per_cga, cta_split_num, cta_order)
    return _built(combine_cta_cga(cta, cga, shape), shape)


# --------------------------------------------------------------------------- NVIDIA MMA

MMA = "triton.nvmma_distributed"
PARENTS = ("mma_v2", "mma_v3", "blocked")


def mma_tile(tile: Sequence[int], k_width: int, inner: int, outer: int,
             rep_order: Sequence[int]) -> Linear:
    """``nvidiaMmaTile``: ``k_width`` registers and 4 lanes along ``inner``, 8 lanes along
    ``outer``, then registers repeating the 8-row block along ``outer`` and the
    ``4*k_width`` block along ``inner``; output dimensions in ``rep_order``."""
    m, n = tile[outer], tile[inner]
    return product(identity_nd("register", (1,) * len(tile), rep_order),
                   identity(k_width, "register", inner), identity(4, "lane", inner),
                   identity(8, "lane", outer), identity(m // 8, "register", outer),
                   identity(n // (k_width * 4), "register", inner))


def default_instr_shape(version: int, shape: Sequence[int]) -> tuple[int, ...]:
    """v2: (16, 8), or (1, 16, 8) with a batch dimension; v3: (16, N, 16) with N the tile's
    columns, at most 256."""
    if version == 2:
        return (1, 16, 8) if len(shape) == 3 else (16, 8)
    n = min(256, shape[-1]) if shape[-1] % 8 == 0 else 8
    return (16, n, 16)


def _mma_parts(name: str, version: int, warps_per_cta: Sequence[int],
               instr_shape: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The warp's tile (batch entries 1, then M, N) and the warp order of an NVMMA parent,
    validated: rank 2, or rank 3 (a batch dimension first) for mma v2."""
    rank = len(warps_per_cta)
    if rank not in (2, 3) or (rank == 3 and version != 2):
        raise fail(name, f"warps_per_cta {tuple(warps_per_cta)}: the MMA layouts are rank 2, or "
                   f"rank 3 (batch first) for mma v2")
    if version == 2:
        batch, mn = tuple(instr_shape[:-2]), tuple(instr_shape[-2:])
        n = mn[1] if len(mn) == 2 else 0
        if len(instr_shape) != rank or any(b != 1 for b in batch) or mn[0] != 16 or n < 8 or n & (n - 1):
            raise fail(name, f"mma v2 (mma.sync) takes instr_shape (16, N) (rank 3: (1, 16, N)), "
                       f"N = 8 (the PTX shape) or a larger power of two; got {tuple(instr_shape)}")
        return (*batch, 16, n), tuple(reversed(range(rank)))
    n = instr_shape[1] if len(instr_shape) >= 2 else 0
    if len(instr_shape) != 3 or instr_shape[0] != 16 or n < 8 or n > 256 or n & (n - 1):
        raise fail(name, f"mma v3 (wgmma) takes instr_shape (16, N, K) with N a power of two "
                   f"from 8 to 256 (wgmma also has N = 24, 40, ...: Triton's linear layouts "
                   f"cannot say those); got {tuple(instr_shape)}")
    return (16, n), (0, 1)


def rep_order(rank: int, first: int, second: int) -> tuple[int, ...]:
    """Register repetition order: ``first``, ``second``, then the batch dimension."""
    return (first, second, *reversed(range(rank - 2)))


MMA_PARAMS = (
    Param("version", "choice", 2, (2, 3), doc="2 = mma.sync (sm_80+), 3 = wgmma (sm_90)"),
    Param("warps_per_cta", "shape", (4, 1), doc="warps per dim (warpsPerCTA)"),
    Param("instr_shape", "shape", None, doc="(16, 8) for v2; (16, N, K) for v3 (instrShape); "
          "default: (16, 8) / (16, min(256, columns), 16)"),
)


@register(
    MMA,
    summary="Triton/Gluon NVMMADistributedLayout: the mma.sync (v2) / wgmma (v3) accumulator "
    "tiled over warps and repeated to the tile shape",
    source=SOURCE + " (NvidiaMmaEncodingAttr::toLinearLayout, nvidiaMmaTile)",
    params=[*MMA_PARAMS, Param("shape", "shape", (64, 64), doc="the tensor (tile) shape"),
            *CGA_PARAMS],
)
def nvmma_distributed(version=2, warps_per_cta=(4, 1), instr_shape=None, shape=(64, 64),
                      ctas_per_cga=(1, 1), cta_split_num=(1, 1), cta_order=(1, 0)) -> PresetLayout:
    """Triton's ``#ttg.nvidia_mma`` / Gluon's ``NVMMADistributedLayout`` over a tile.

    One warp's accumulator tile (16 x 8 for mma.sync, 16 x N for wgmma) is the PTX
    fragment: 2 registers and 4 lanes along N, 8 lanes along M, a second register for rows
    8..15, more registers along N. Warps tile it (v2: N first; v3: M first, in warpgroups
    of 4), registers repeat it to the shape (N first); past a small shape registers are
    broadcast (kept, zero), lanes and warps too. mma v2 also takes a batch dimension
    first (rank 3: ``instr_shape`` (1, 16, N), warps (batch, M, N), repeated N, M, batch).
    With a cluster (``ctas_per_cga``), each dimension is split over ``cta_split_num`` CTAs
    (``cbx``) and broadcast over the rest, as for ``triton.blocked``.

    Source: NvidiaMmaEncodingAttr (TritonGPUAttrDefs.td), nvidiaMmaTile and
    NvidiaMmaEncodingAttr::toLinearLayout (LinearLayoutConversions.cpp); the fragment is
    PTX ISA 9.7.14.5.8 (mma.m16n8k16 C) / 9.7.15.5.1.1.1 (wgmma D). Checked against Triton.
    """
    instr_shape = instr_shape or default_instr_shape(version, shape)
    tile, warp_order = _mma_parts(MMA, version, warps_per_cta, instr_shape)
    _check_rank(MMA, shape, warps_per_cta=warps_per_cta)
    rank = len(shape)
    rep = rep_order(rank, rank - 1, rank - 2)
    cta = mma_tile(tile, 2, rank - 1, rank - 2, rep) * identity_nd(
        "warp", warps_per_cta, warp_order).transpose_outs(rep)
    cga = _cga(MMA, rank, ctas_per_cga, cta_split_num, cta_order)
    return _built(combine_cta_cga(cta, cga, shape, broadcast_registers=True), shape)


# --------------------------------------------------------------------------- dot operands

DOT = "triton.dot_operand"


def dot_linear(name: str, operand_index: int, k_width: int, parent: str, warps_per_cta, instr_shape,
               size_per_thread, threads_per_warp, order, shape) -> tuple[Linear, bool]:
    """One CTA of a DotOperandLayout and whether registers past the shape broadcast."""
    rank = len(shape)
    k_dim = rank - 1 if operand_index == 0 else rank - 2
    if parent == "blocked":  # fmaDotToLinearLayout: the thread holds the whole K
        k_width = 0 if k_width is None else k_width
        if k_width:
            raise fail(name, "a blocked (FMA) parent takes k_width=0 (Triton refuses kWidth there)")
        _check_rank(name, shape, size_per_thread=size_per_thread,
                    threads_per_warp=threads_per_warp, warps_per_cta=warps_per_cta)
        check_warp(name, threads_per_warp)
        if len(order) != len(shape):
            raise fail(name, f"order {tuple(order)} has {len(order)} entries; shape "
                       f"{tuple(shape)} has rank {len(shape)}")
        regs = list(size_per_thread)
        regs[k_dim] = shape[k_dim]
        rep = tuple(order)
        return product(identity_nd("register", regs, order).transpose_outs(rep),
                       zeros_along("lane", threads_per_warp, order, k_dim).transpose_outs(rep),
                       zeros_along("warp", warps_per_cta, order, k_dim).transpose_outs(rep)), False
    version = 2 if parent == "mma_v2" else 3
    k_width = 2 if k_width is None else k_width
    instr_shape = instr_shape or default_instr_shape(version, shape)
    _, warp_order = _mma_parts(name, version, warps_per_cta, instr_shape)
    if k_width < 1 or k_width & (k_width - 1):
        raise fail(name, f"k_width={k_width}: an MMA operand packs a power of two of elements "
                   f"per 32 bits along K")
    if version == 3 and operand_index == 1:
        raise fail(name, "wgmma (mma v3) reads B from shared memory: only operand_index=0 has "
                   "a register layout")
    _check_rank(name, shape, warps_per_cta=warps_per_cta)
    batch = (1,) * (rank - 2)
    if operand_index == 0:
        tile, inner, outer = (*batch, 16, k_width * 8), rank - 1, rank - 2
    else:
        tile, inner, outer = (*batch, k_width * 8, 8), rank - 2, rank - 1
    cta = mma_tile(tile, k_width, inner, outer, rep_order(rank, inner, outer))
    warps = zeros_along("warp", warps_per_cta, warp_order, k_dim)
    return cta * warps.transpose_outs([o for o, _ in cta.outs]), True


@register(
    DOT,
    summary="Triton/Gluon DotOperandLayout: operand A (0) or B (1) of an mma v2 / v3 or FMA "
    "(blocked) parent, k_width elements per 32 bits along K",
    source=SOURCE + " (DotOperandEncodingAttr::toLinearLayout: nvidiaDotToLinearLayout, "
    "fmaDotToLinearLayout)",
    params=[
        OPERAND_INDEX,
        Param("k_width", "int", None, doc="elements per 32 bits along K (kWidth): 32 / element "
              "bits, or twice that for packed 8-/4-bit forms; 0 for a blocked parent (default: "
              "2, or 0 for a blocked parent)"),
        Param("parent", "choice", "mma_v2", PARENTS, doc="the layout of the dot's result"),
        *MMA_PARAMS[1:],
        Param("size_per_thread", "shape", (1, 4), doc="blocked parent only"),
        Param("threads_per_warp", "shape", (4, 8), doc="blocked parent only"),
        Param("order", "order", (1, 0), doc="blocked parent only"),
        Param("shape", "shape", (64, 32), doc="the operand's (tile) shape"),
        *CGA_PARAMS,
    ],
)
def dot_operand(operand_index=0, k_width=None, parent="mma_v2", warps_per_cta=(4, 1),
                instr_shape=None, size_per_thread=(1, 4), threads_per_warp=(4, 8),
                order=(1, 0), shape=(64, 32), ctas_per_cga=(1, 1), cta_split_num=(1, 1),
                cta_order=(1, 0)) -> PresetLayout:
    """Triton's ``#ttg.dot_op`` / Gluon's ``DotOperandLayout`` over a tile.

    MMA parents: one warp holds a 16 x (8 k_width) tile of A (or (8 k_width) x 8 of B):
    ``k_width`` consecutive K elements in registers, 4 lanes along K, 8 lanes along M (N),
    a register for rows 8..15 of A, more registers along K. So k_width = 2 is the
    ``mma.m16n8k16`` 16-bit fragment, but k_width = 8 (a 16-bit operand read for an 8-bit
    MMA, or packed) is *not* ``mma.m16n8k16.A``: Triton keeps 8 K-consecutive elements in
    a thread (at (0, 2): register 2 of lane 0, where the PTX fragment has register 0 of
    lane 1). Warps along K hold copies (broadcast); registers repeat the tile K first.
    A blocked parent (FMA dot): each thread holds all of K, lanes and warps along K
    broadcast. With the parent split over a cluster's CTAs (``ctas_per_cga``), the CTAs
    that split it along K hold copies of the operand. Checked against Triton over every
    k_width.

    Source: DotOperandEncodingAttr (TritonGPUAttrDefs.td), nvidiaDotToLinearLayout and
    fmaDotToLinearLayout (LinearLayoutConversions.cpp); Gluon ``DotOperandLayout``.
    """
    if operand_index not in (0, 1) or len(shape) not in (2, 3):
        raise fail(DOT, f"operand_index 0 or 1 of a rank-2 dot (rank 3: batch first); got "
                   f"{operand_index}, shape {shape}")
    linear, broadcast = dot_linear(DOT, operand_index, k_width, parent, warps_per_cta, instr_shape,
                                   size_per_thread, threads_per_warp, order, shape)
    rank = len(shape)
    k_dim = rank - 1 if operand_index == 0 else rank - 2
    split = list(cta_split_num) if math.prod(cta_split_num) > 1 else [1] * rank
    if len(split) == rank:  # the CTAs that split the parent along K hold copies of the operand
        split[k_dim] = 1
    cga = _cga(DOT, rank, ctas_per_cga, split, cta_order)
    return _built(combine_cta_cga(linear, cga, shape, broadcast), shape)


# --------------------------------------------------------------------------- slices

SLICE = "triton.slice"


#: what SliceLayout slices: the distributed parents, and dot operands of them
SLICE_PARENTS = (*PARENTS, *(f"dot_{p}" for p in PARENTS))


def parent_layout(name: str, parent: str, shape: Sequence[int], warps_per_cta, instr_shape,
                  size_per_thread, threads_per_warp, order, operand_index=0,
                  k_width=None, cga=((1, 1), (1, 1), (1, 0))) -> TileLayout:
    """A blocked, NVMMA or dot-operand parent layout over ``shape`` (what SliceLayout
    slices); ``cga`` = (ctas_per_cga, cta_split_num, cta_order) of a blocked / NVMMA one."""
    if parent.startswith("dot_"):
        return dot_operand(operand_index, k_width, parent[len("dot_"):], warps_per_cta,
                           instr_shape, size_per_thread, threads_per_warp, order,
                           tuple(shape)).layout
    if parent == "blocked":
        return blocked(size_per_thread, threads_per_warp, warps_per_cta, order, tuple(shape),
                       *cga).layout
    return nvmma_distributed(2 if parent == "mma_v2" else 3, warps_per_cta, instr_shape,
                             tuple(shape), *cga).layout


@register(
    SLICE,
    summary="Triton/Gluon SliceLayout(dim, parent): the parent without dimension dim (lanes "
    "and warps along it broadcast, its registers dropped)",
    source=SOURCE + " (SliceEncodingAttr::toLinearLayout)",
    params=[
        Param("dim", "int", 0, doc="the parent's dimension that is removed"),
        Param("parent", "choice", "blocked", SLICE_PARENTS, doc="the parent layout: blocked, "
              "an MMA, or (dot_...) a dot operand of one"),
        Param("operand_index", "choice", 0, (0, 1), doc="dot-operand parent: A (0) or B (1)"),
        Param("k_width", "int", None, doc="dot-operand parent: kWidth (as triton.dot_operand)"),
        Param("size_per_thread", "shape", (1, 4), doc="blocked parent"),
        Param("threads_per_warp", "shape", (4, 8), doc="blocked parent"),
        Param("warps_per_cta", "shape", (4, 1), doc="parent's warps per dim"),
        Param("order", "order", (1, 0), doc="blocked parent"),
        Param("instr_shape", "shape", None, doc="MMA parent (default as triton.nvmma_distributed)"),
        Param("shape", "shape", (64,), doc="the sliced tensor's shape (rank one less)"),
        *CGA_PARAMS,
    ],
)
def slice_layout(dim=0, parent="blocked", operand_index=0, k_width=None, size_per_thread=(1, 4),
                 threads_per_warp=(4, 8), warps_per_cta=(4, 1), order=(1, 0), instr_shape=None,
                 shape=(64,), ctas_per_cga=(1, 1), cta_split_num=(1, 1), cta_order=(1, 0)) -> PresetLayout:
    """Triton's ``#ttg.slice<{dim, parent}>`` / Gluon's ``SliceLayout`` over a tile.

    The parent (blocked, an MMA, or a dot operand of one: ``parent="dot_mma_v2"`` with
    ``operand_index`` and ``k_width``; a blocked or MMA one may be split over a cluster's
    CTAs) is built for ``shape`` with extent 1 inserted at ``dim``; dimension ``dim``
    is then dropped with :func:`tilelayout.algebra.bits.squeeze`: the lanes and warps that
    moved along it become broadcasts (replicas), the registers that did are removed and
    the rest renumbered. Checked against Triton.

    Source: SliceEncodingAttr (TritonGPUAttrDefs.td) and SliceEncodingAttr::toLinearLayout
    (LinearLayoutConversions.cpp); Gluon ``SliceLayout``.
    """
    rank = len(shape) + 1
    if not 0 <= dim < rank:
        raise fail(SLICE, f"dim {dim} is not a dimension of the rank-{rank} parent")
    parent_shape = (*shape[:dim], 1, *shape[dim:])
    layout = parent_layout(SLICE, parent, parent_shape, warps_per_cta, instr_shape,
                           size_per_thread, threads_per_warp, order, operand_index, k_width,
                           (ctas_per_cga, cta_split_num, cta_order))
    return PresetLayout(squeeze(layout, parent_shape, dim), tuple(shape))
