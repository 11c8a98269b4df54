"""Gluon layout objects in and out (imports Triton: loaded through ``require`` by
:func:`tilelayout.interop.triton.from_triton` / :func:`~tilelayout.interop.triton.to_gluon`).

In: every Gluon layout is lowered by Triton itself (``GluonOpBuilder.to_linear_layout``,
on the CPU) to its linear form (``DistributedLinearLayout``, ``SharedLinearLayout`` or
the tensor-memory row/col layout), which converts exactly to ours
(:mod:`tilelayout.interop.triton`, :mod:`tilelayout.interop.triton_shared`).

Out: :func:`to_gluon` returns the simplest Gluon object equal to a layout: it infers
the parameters of each named layout from the layout's bases (``BlockedLayout``,
``NVMMADistributedLayout``, ``DotOperandLayout`` of an MMA, ``AMDMFMALayout``,
``SliceLayout`` of a blocked layout, ``NVMMASharedLayout``,
``SwizzledSharedLayout``, ``TensorMemoryLayout``), has Triton lower the candidate and keeps
it only if Triton's bases equal ours; otherwise the linear form (``DistributedLinearLayout`` /
``SharedLinearLayout``; tensor memory has no linear Gluon layout and is refused).

``PaddedSharedLayout`` (padding after every interval) is affine but not linear over bits:
Triton has no linear layout for it, ours says it exactly (:func:`padded_layout`).

Triton aborts the process (an LLVM assertion, not an exception) on some malformed
layouts; :func:`lower` checks the conditions known to abort first and refuses with a
:class:`~tilelayout.interop.InteropError` instead.

>>> from triton.experimental.gluon import language as ttgl
>>> str(from_gluon(ttgl.BlockedLayout([1, 2], [8, 4], [1, 1], [1, 0]), (8, 8)))
'S[(8,4,2):(4@laneid,1@laneid,1)]'
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Mapping, Sequence
from typing import Any

from triton._C.libtriton import gluon_ir, ir
from triton.experimental.gluon import language as ttgl
from triton.experimental.gluon.language import amd as ttgl_amd
from triton.experimental.gluon.language._layouts import DistributedLayout, SharedLayout
from triton.experimental.gluon.language.nvidia import blackwell as ttgl_bw
from triton.tools import LinearLayout

from ..algebra.canonical import fuse_adjacent
from ..core.compose import Layout, tile_of
from ..core.iter import Iter
from ..core.shape import format_shape
from ..core.tile import TileLayout
from . import InteropError
from .triton import TMEM_IN_DIMS, from_triton_bases, to_triton_bases
from .triton_shared import from_triton_shared_bases, to_triton_shared_bases

#: (version, K) pairs Triton accepts for a 16x16 WMMA (others abort its verifier)
WMMA_K = {1: (16,), 2: (16, 32), 3: (4, 32, 64, 128)}

#: Gluon layout class -> the module a user imports it from (the code ``convert`` writes)
MODULES = {
    "TensorMemoryLayout": "triton.experimental.gluon.language.nvidia.blackwell",
    "TensorMemoryScalesLayout": "triton.experimental.gluon.language.nvidia.blackwell",
    "AMDMFMALayout": "triton.experimental.gluon.language.amd",
    "AMDWMMALayout": "triton.experimental.gluon.language.amd",
}
_GLUON = "triton.experimental.gluon.language"
_BUILDER: list[Any] = []  # one MLIR context and builder, made on first use


def _builder() -> Any:
    if not _BUILDER:
        ctx = ir.context()
        ir.load_dialects(ctx)
        _BUILDER.append((ctx, gluon_ir.GluonOpBuilder(ctx)))
    return _BUILDER[0][1]


def _pow2(n: Any) -> bool:
    return isinstance(n, int) and n >= 1 and not n & (n - 1)


def _refuse_abort(obj: Any, shape: Sequence[int]) -> None:
    """Refuse inputs on which Triton's lowering aborts the process (checked before it runs)."""
    name = type(obj).__name__
    if not all(_pow2(s) for s in shape):
        raise InteropError(f"{name} on shape {format_shape(shape)}: Triton lowers layouts only on "
                           f"power-of-two shapes")
    rank = getattr(obj, "rank", None) if not isinstance(obj, ttgl_bw.TensorMemoryLayout) else 2
    if isinstance(rank, int) and rank != len(shape):
        raise InteropError(f"{name} has rank {rank}; shape {format_shape(shape)} has rank "
                           f"{len(shape)}")
    parent = getattr(obj, "parent", None)
    if isinstance(obj, ttgl.SliceLayout) and isinstance(parent, DistributedLayout):
        if not 0 <= obj.dim <= len(shape):
            raise InteropError(f"SliceLayout dim={obj.dim} is not a dimension of its parent")
        _refuse_abort(parent, [*shape[:obj.dim], 1, *shape[obj.dim:]])
    elif isinstance(parent, DistributedLayout):
        _refuse_abort(parent, shape)
    if isinstance(obj, ttgl.BlockedLayout):
        for field in ("size_per_thread", "threads_per_warp", "warps_per_cta"):
            values = list(getattr(obj, field))
            if len(values) != len(shape) or not all(_pow2(v) for v in values):
                raise InteropError(f"BlockedLayout {field}={values}: expected {len(shape)} "
                                   f"powers of two for shape {format_shape(shape)}")
        if sorted(obj.order) != list(range(len(shape))):
            raise InteropError(f"BlockedLayout order={list(obj.order)} is not a permutation of "
                               f"the {len(shape)} dimensions")
    if isinstance(obj, ttgl.NVMMADistributedLayout) and not all(_pow2(v) for v in obj.instr_shape):
        raise InteropError(f"NVMMADistributedLayout instr_shape {list(obj.instr_shape)}: Triton "
                           f"lowers only power-of-two instruction shapes")
    if isinstance(obj, ttgl.DotOperandLayout) and not (_pow2(obj.k_width) or obj.k_width == 0):
        raise InteropError(f"DotOperandLayout k_width={obj.k_width}: expected a power of two "
                           f"(or 0 for a blocked, FMA, parent)")
    if isinstance(obj, ttgl.NVMMASharedLayout) and obj.swizzle_byte_width and len(shape) >= 2:
        cols = shape[0] if obj.transposed else shape[-1]
        rows = math.prod(shape) // cols
        need = 8 * obj.swizzle_byte_width // obj.element_bitwidth // (2 if obj.fp4_padded else 1)
        if cols < need or rows < 8:
            raise InteropError(
                f"NVMMASharedLayout({obj.swizzle_byte_width}B, {obj.element_bitwidth} bits) needs "
                f"at least 8 rows of {need} contiguous elements; shape {format_shape(shape)} has "
                f"{rows} x {cols}")
    if isinstance(obj, ttgl_bw.TensorMemoryLayout) and (len(shape) != 2 or shape[0] < obj.block[0]):
        raise InteropError(f"TensorMemoryLayout block M = {obj.block[0]} needs a rank-2 shape with "
                           f"at least {obj.block[0]} rows; got {format_shape(shape)}")
    if isinstance(obj, ttgl_amd.AMDWMMALayout):
        k = list(obj.instr_shape)[2:] or [16]
        if list(obj.instr_shape)[:2] != [16, 16] or k[0] not in WMMA_K.get(obj.version, ()):
            raise InteropError(f"AMDWMMALayout v{obj.version} instr_shape {list(obj.instr_shape)}: "
                               f"Triton accepts 16 x 16 x K with K in {WMMA_K.get(obj.version)} "
                               f"(other shapes abort its verifier)")


def lower(obj: Any, shape: Sequence[int]) -> Any:
    """Triton's own lowering of a Gluon layout object for ``shape`` (its linear form).

    >>> lower(ttgl.BlockedLayout([1, 2], [8, 4], [1, 1], [1, 0]), [8, 8]).reg_bases
    [[0, 1]]
    """
    dims = [int(s) for s in shape]
    _refuse_abort(obj, dims)
    builder = _builder()
    try:
        return builder.to_linear_layout(obj._to_ir(builder), dims)
    except (RuntimeError, ValueError, AssertionError, TypeError) as exc:
        raise InteropError(f"Triton cannot lower {type(obj).__name__} for shape "
                           f"{format_shape(dims)}: {exc}") from None


def _from_linear(ll: Any, shape: Sequence[int] | None, in_dims: Mapping[str, str] | None) -> Layout:
    out_dims = list(ll.out_dims)
    names = [n for n, _ in out_dims]
    if names != [f"dim{d}" for d in range(len(names))]:
        raise InteropError(f"expected out dims dim0, dim1, ...; got {names}")
    dims = tuple(int(s) for _, s in out_dims)
    bases = {name: [list(v) for v in vecs] for name, vecs in ll.bases}
    if "offset" in bases and in_dims is None:
        extra = sorted(k for k, v in bases.items() if k != "offset" and v)
        if extra:
            raise InteropError(f"expected a linear layout over 'offset' only, got in dims {sorted(bases)}")
        return from_triton_shared_bases(bases["offset"], tuple(shape or dims))
    return from_triton_bases({k: v for k, v in bases.items() if v}, tuple(shape or dims), in_dims)


def from_gluon(obj: Any, shape: Sequence[int] | None = None,
               in_dims: Mapping[str, str] | None = None) -> Layout:
    """Our layout for a Gluon layout object or a ``triton.tools.LinearLayout``.

    Named layouts need ``shape`` (Triton lowers them for it); linear ones carry theirs.
    Zero bases are broadcast (replicas) on distributed layouts and padding on shared
    and tensor-memory ones.

    >>> str(from_gluon(ttgl.NVMMADistributedLayout([2, 0], [1, 1], [16, 8]), (16, 8)))
    'S[(2,8,4,2):(2,4@laneid,1@laneid,1)]'
    """
    if isinstance(obj, LinearLayout):
        return _from_linear(obj, shape, in_dims)
    if isinstance(obj, ttgl.DistributedLinearLayout):
        dims = tuple(obj.shape)
        if shape is not None and tuple(shape) != dims:
            raise InteropError(f"this DistributedLinearLayout is for shape {format_shape(dims)}, "
                               f"not {format_shape(tuple(shape))}")
        bases = {"register": obj.reg_bases, "lane": obj.lane_bases, "warp": obj.warp_bases,
                 "block": obj.block_bases}
        return from_triton_bases({k: v for k, v in bases.items() if v}, dims, in_dims)
    if isinstance(obj, ttgl.SharedLinearLayout):
        if obj.block_bases:
            raise InteropError(f"block_bases {obj.block_bases}: a layout split over the CTAs of a "
                               f"cluster; convert one CTA's part")
        return from_triton_shared_bases(obj.offset_bases, shape)
    if isinstance(obj, ttgl.PaddedSharedLayout):
        return padded_layout(obj, shape)
    if isinstance(obj, ttgl_bw._TensorMemoryLinearLayout):
        bases = {"row": obj.rows, "col": obj.cols}
        return from_triton_bases({k: v for k, v in bases.items() if v}, tuple(obj.shape),
                                 in_dims or TMEM_IN_DIMS)
    named = (DistributedLayout, SharedLayout, ttgl_bw.TensorMemoryLayout,
             ttgl_bw.TensorMemoryScalesLayout)
    if not isinstance(obj, named):
        raise InteropError(f"expected a Gluon layout object or triton.tools.LinearLayout, got "
                           f"{type(obj).__name__}")
    if shape is None:
        raise InteropError(f"{type(obj).__name__} is a named layout: give the tensor shape "
                           f"(from_triton(obj, shape)) so Triton can lower it")
    return from_gluon(lower(obj, shape), shape, in_dims)


def padded_layout(obj: Any, shape: Sequence[int] | None = None) -> Layout:
    """Our layout for a Gluon ``PaddedSharedLayout``: its offset bases read as a tile, then
    ``padding`` elements inserted after every ``interval`` (summed over the pairs), which
    makes offset bit ``k`` an address stride ``2**k + sum((2**k // interval) * padding)``:
    affine, so a plain TileLayout says it exactly, where Triton's linear layouts cannot
    (its ``toLinearLayout`` refuses padded layouts). Semantics from the class's docstring
    (triton/experimental/gluon/language/_layouts.py).

    >>> str(padded_layout(ttgl.PaddedSharedLayout.with_identity_for([[2, 1], [4, 2]], [8], [0])))
    'S[(2,2,2):(8,3,1)]'
    """
    dims = tuple(obj.shape) if shape is None else tuple(int(s) for s in shape)
    if list(dims) != list(obj.shape):
        raise InteropError(f"this PaddedSharedLayout is for shape {format_shape(tuple(obj.shape))}, "
                           f"not {format_shape(dims)}")
    if obj.cga_layout:
        raise InteropError("a PaddedSharedLayout split over the CTAs of a cluster (cga_layout): "
                           "convert one CTA's part")
    tile = from_triton_shared_bases(obj.offset_bases, dims)
    if not isinstance(tile, TileLayout):
        raise InteropError(f"offset bases {obj.offset_bases} remap elements with an XOR "
                           f"pattern; with padding on top the layout is neither a tile nor a "
                           f"swizzle of one")

    def stride(bit: int) -> int:
        return (1 << bit) + sum(((1 << bit) // i) * p for i, p in obj.interval_padding_pairs)

    shard = []
    for it in tile.shard:  # a bit-permutation tile: one iter per offset bit, outer first
        low = it.stride.bit_length() - 1
        shard.extend(Iter(2, stride(b), it.axis)
                     for b in reversed(range(low, low + it.extent.bit_length() - 1)))
    return TileLayout(fuse_adjacent(shard) or [Iter(1, 1)])


# --------------------------------------------------------------------------- to_gluon


def _dim_of(vec: Sequence[int]) -> int | None:
    nonzero = [d for d, v in enumerate(vec) if v]
    return nonzero[0] if len(nonzero) == 1 else None


def _counts(vectors: Sequence[Sequence[int]], rank: int,
            zero_dim: int | None = None) -> list[int] | None:
    """Per dimension 2**(number of vectors on it); zero vectors count for ``zero_dim`` when
    given (a sliced dimension), else for the dimension of the vector before them (Triton
    zeroes the top bits of a dimension it broadcasts)."""
    out, last = [1] * rank, None
    pending = 0
    for vec in vectors:
        d = _dim_of(vec)
        if d is None and any(vec):
            return None
        if d is None and zero_dim is not None:
            out[zero_dim] *= 2
            continue
        if d is None:
            if last is None:
                pending += 1
            else:
                out[last] *= 2
            continue
        if last is None:
            out[d] <<= pending
        last = d
        out[d] *= 2
    if last is None and pending:
        out[rank - 1] <<= pending
    return out


def _blocked_candidates(bases: Mapping[str, list[list[int]]], rank: int,
                        zero_dim: int | None = None) -> list[Any]:
    regs, lanes, warps = (bases.get(k, []) for k in ("register", "lane", "warp"))
    tpw, wpc = _counts(lanes, rank, zero_dim), _counts(warps, rank, zero_dim)
    if tpw is None or wpc is None:
        return []
    seen: list[int] = []
    for vec in (*lanes, *warps, *regs):
        d = _dim_of(vec)
        if d is not None and d not in seen:
            seen.append(d)
    order = seen + [d for d in reversed(range(rank)) if d not in seen]
    spt = [1] * rank
    it = iter(regs)
    pending = next(it, None)
    for d in order:  # identityStandardND: each dimension's register bits in order
        while pending is not None and _dim_of(pending) == d and pending[d] == spt[d]:
            spt[d] *= 2
            pending = next(it, None)
    return [ttgl.BlockedLayout(spt, tpw, wpc, order, bases.get("block", []))]


def _mma_candidates(bases: Mapping[str, list[list[int]]], shape: Sequence[int],
                    warpgroups: bool) -> list[Any]:
    """NVMMADistributedLayout v2 (mma.sync) and v3 (wgmma: warps in warpgroups of 4 along
    M; tried first when the layout is written over warpgroup axes)."""
    if len(shape) != 2:
        return []
    n_warps = 1 << len(bases.get("warp", []))
    splits = [[n_warps >> k, 1 << k] for k in range(len(bases.get("warp", [])) + 1)]
    v2 = [ttgl.NVMMADistributedLayout([2, 0], w, [16, 8]) for w in splits]
    v3 = []
    if n_warps % 4 == 0:
        ns = [n for n in (256, 128, 64, 32, 16, 8) if n <= max(shape[1], 8)]
        v3 = [ttgl.NVMMADistributedLayout([3, 0], w, [16, n, 16])
              for n in ns for w in splits if w[0] % 4 == 0]
    return v3 + v2 if warpgroups else v2 + v3


def _dot_candidates(bases: Mapping[str, list[list[int]]], shape: Sequence[int]) -> list[Any]:
    """DotOperandLayout over mma v2 (A and B) and v3 (A) parents: k_width from the first
    register bases along K, warp splits as for the parent."""
    if len(shape) != 2:
        return []
    n_bits = len(bases.get("warp", []))
    splits = [[(1 << n_bits) >> k, 1 << k] for k in range(n_bits + 1)]
    out = []
    for op in (0, 1):
        k_dim = 1 - op
        regs = bases.get("register", [])
        k_width = 1
        for vec in regs:
            if _dim_of(vec) == k_dim and vec[k_dim] == k_width:
                k_width *= 2
            else:
                break
        for w in splits:
            out.append(ttgl.DotOperandLayout(op, ttgl.NVMMADistributedLayout([2, 0], w, [16, 8]),
                                             k_width))
            if op == 0 and w[0] % 4 == 0:
                n = min(256, max(8, shape[1]))
                parent = ttgl.NVMMADistributedLayout([3, 0], w, [16, n, 16])
                out.append(ttgl.DotOperandLayout(0, parent, k_width))
    return out


def _slice_candidates(bases: Mapping[str, list[list[int]]], rank: int) -> list[Any]:
    """SliceLayout(d, BlockedLayout): the parent's bases are ours with a zero coordinate
    inserted at ``d``; its lanes and warps along ``d`` are our zero (broadcast) ones."""
    if bases.get("block"):
        return []
    out = []
    for d in range(rank + 1):
        parent = {k: [[*v[:d], 0, *v[d:]] for v in vs] for k, vs in bases.items()}
        for b in _blocked_candidates(parent, rank + 1, d):
            rest = [x for x in b.order if x != d]  # where d sits in the order is not seen
            for k in range(rank + 1):
                order = [*rest[:k], d, *rest[k:]]
                out.append(ttgl.SliceLayout(d, ttgl.BlockedLayout(
                    b.size_per_thread, b.threads_per_warp, b.warps_per_cta, order)))
    return out


def _amd_candidates(bases: Mapping[str, list[list[int]]], shape: Sequence[int]) -> list[Any]:
    """AMDMFMALayout (64-lane wavefronts: six lane bits) over the warp splits."""
    if len(shape) != 2 or len(bases.get("lane", [])) != 6:
        return []
    n_bits = len(bases.get("warp", []))
    splits = [[(1 << n_bits) >> k, 1 << k] for k in range(n_bits + 1)]
    return [ttgl_amd.AMDMFMALayout(3, instr, trans, w, bits)
            for instr in ([32, 32, 8], [16, 16, 16]) for trans in (False, True)
            for bits in (32, 64) for w in splits]


def _distributed(layout: TileLayout, shape: tuple[int, ...]) -> Any:
    bases = to_triton_bases(layout, shape)
    linear = ttgl.DistributedLinearLayout(
        reg_bases=bases.get("register", []), lane_bases=bases.get("lane", []),
        warp_bases=bases.get("warp", []), block_bases=bases.get("block", []), shape=list(shape))
    warpgroups = bool({"wid_in_wg", "wgid", "tid_in_wg"} & set(layout.axes))
    for cand in [*_blocked_candidates(bases, len(shape)),
                 *_mma_candidates(bases, shape, warpgroups), *_dot_candidates(bases, shape),
                 *_amd_candidates(bases, shape), *_slice_candidates(bases, len(shape))]:
        if _same_distributed(cand, shape, linear):
            return cand
    return linear


def _same_distributed(cand: Any, shape: Sequence[int], linear: Any) -> bool:
    try:
        got = lower(cand, shape)
    except InteropError:
        return False
    return all(getattr(got, k) == getattr(linear, k)
               for k in ("reg_bases", "lane_bases", "warp_bases", "block_bases"))


def _swizzled_candidate(offsets: list[list[int]], rank: int) -> Any | None:
    order = []
    for vec in offsets:
        d = _dim_of(vec)
        if d is not None and d not in order:
            order.append(d)
    order += [d for d in reversed(range(rank)) if d not in order]
    if rank < 2:
        return ttgl.SwizzledSharedLayout(1, 1, 1, order)
    col, row = order[0], order[1]
    rows = [vec[col] for vec in offsets if vec[row] and not any(v for d, v in enumerate(vec)
                                                                 if d not in (row, col))]
    first = next((i for i, x in enumerate(rows) if x), None)
    if first is None:
        return ttgl.SwizzledSharedLayout(1, 1, 1, order)
    vec = rows[first]
    phases = 1 << sum(1 for x in rows[first:] if x)
    return ttgl.SwizzledSharedLayout(vec, 1 << first, phases, order)


def _trim(vectors: Sequence[Sequence[int]]) -> list[list[int]]:
    """Memory bases without trailing zero ones: padding past the last element is the
    allocation's size, which our layouts do not carry."""
    out = [list(v) for v in vectors]
    while out and not any(out[-1]):
        out.pop()
    return out


def _shared(layout: Layout, shape: tuple[int, ...]) -> Any:
    offsets = to_triton_shared_bases(layout, shape)
    cands: list[Any] = []
    if len(shape) >= 2:
        for bits, width, trans in itertools.product((16, 8, 32, 64), (128, 64, 32, 0), (False, True)):
            cands.append(ttgl.NVMMASharedLayout(width, bits, len(shape), trans))
        cands += [ttgl.NVMMASharedLayout(128, 8, len(shape), t, True) for t in (False, True)]
    swizzled = _swizzled_candidate(offsets, len(shape))
    cands += [swizzled] if swizzled is not None else []
    for cand in cands:
        try:
            got = lower(cand, shape)
        except InteropError:
            continue
        if _trim(got.offset_bases) == offsets and not got.block_bases:
            return cand
    return ttgl.SharedLinearLayout(offset_bases=offsets)


def _tmem(layout: TileLayout, shape: tuple[int, ...]) -> Any:
    bases = to_triton_bases(layout, shape, TMEM_IN_DIMS)
    rows, cols = bases.get("row", []), bases.get("col", [])
    if len(shape) == 2:
        for m, stride in itertools.product((128, 64), (1, 2, 4)):
            for n in (1 << k for k in reversed(range(max(shape[1], 1).bit_length()))):
                cand = ttgl_bw.TensorMemoryLayout((m, n), stride)
                try:
                    got = lower(cand, shape)
                except InteropError:
                    continue
                if got.rows == rows and _trim(got.cols) == cols:
                    return cand
        scales = ttgl_bw.TensorMemoryScalesLayout()
        got = lower(scales, shape)
        if got.rows == rows and _trim(got.cols) == cols:
            return scales
    raise InteropError(
        f"{layout}: no TensorMemoryLayout (block M 64/128, any N, col_stride 1/2/4) nor "
        f"TensorMemoryScalesLayout equals this "
        f"tensor-memory layout on {format_shape(shape)}, and Gluon has no linear tensor-memory layout")


def to_gluon(layout: Layout, shape: Sequence[int] | None = None) -> Any:
    """The simplest Gluon layout object equal to ``layout`` over ``shape`` (default: its
    shard extents): a named layout where one is equal (Triton lowers every candidate and
    its bases must equal ours), else the linear one.

    Shared memory: a ``ComposeLayout`` or a layout on ``m`` alone; tensor memory: a layout
    on ``TLane`` / ``TCol``; distributed: anything else (thread axes as in
    :func:`tilelayout.interop.triton.to_triton_bases`).

    >>> import tilelayout as tl
    >>> to_gluon(tl.ComposeLayout(tl.Swizzle(3, 3, 3), tl.parse("S[(8,64):(64,1)]")))
    NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, ...)
    """
    dims = tuple(layout.check_shape(shape))
    axes = tuple(tile_of(layout).axes)
    if not isinstance(layout, TileLayout) or axes == ("m",):
        return _shared(layout, dims)
    if set(axes) <= set(TMEM_IN_DIMS.values()):
        return _tmem(layout, dims)
    return _distributed(layout, dims)


def _alias(module: str) -> str:
    return "ttgl" if module == _GLUON else module.rsplit(".", 1)[-1]


def _code(value: Any, modules: dict[str, None]) -> str:
    """``value`` as Python source, Gluon classes qualified by their module's alias (nested
    parents included); the modules used are collected in ``modules``."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        module = MODULES.get(type(value).__name__, _GLUON)
        modules[module] = None
        fields = ", ".join(f"{f.name}={_code(getattr(value, f.name), modules)}"
                           for f in dataclasses.fields(value))
        return f"{_alias(module)}.{type(value).__name__}({fields})"
    return repr(value)


def gluon_code(obj: Any, name: str = "layout") -> str:
    """Python that builds ``obj`` in Gluon (imports included).

    >>> print(gluon_code(ttgl.SwizzledSharedLayout(1, 1, 1, [1, 0])))
    from triton.experimental.gluon import language as ttgl
    layout = ttgl.SwizzledSharedLayout(vec=1, per_phase=1, max_phase=1, order=[1, 0], cga_layout=[])
    >>> print(gluon_code(ttgl.SliceLayout(0, ttgl.BlockedLayout([1], [32], [4], [0]))))
    from triton.experimental.gluon import language as ttgl
    layout = ttgl.SliceLayout(dim=0, parent=ttgl.BlockedLayout(size_per_thread=[1], ...))
    """
    modules: dict[str, None] = {}
    body = _code(obj, modules)
    heads = []
    for module in modules:
        package, leaf = module.rsplit(".", 1)
        heads.append(f"from {package} import {leaf}" + (" as ttgl" if module == _GLUON else ""))
    return "\n".join([*heads, f"{name} = {body}"])


__all__ = ["MODULES", "from_gluon", "gluon_code", "lower", "to_gluon"]
