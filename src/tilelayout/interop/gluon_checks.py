"""What Triton's lowering accepts, checked before Triton runs (imports Triton; loaded with
:mod:`tilelayout.interop.gluon`).

Triton's C++ is built with assertions on: a Gluon layout its lowering
(``GluonOpBuilder.to_linear_layout``, Triton's ``toLinearLayout``) does not accept can end
the process (an ``assert``, ``report_fatal_error``, a division by zero) instead of raising.
:func:`check_lowering` refuses such inputs with one :class:`~tilelayout.interop.InteropError`
saying what was expected and what was given. The conditions are Triton's own, read from
its sources (``lib/Dialect/TritonGPU/IR/Dialect.cpp`` — the attribute verifiers;
``lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp`` — the asserts of each
``toLinearLayout``; ``lib/Tools/LinearLayout.cpp`` — powers of two, surjectivity, bases
inside the out dims; ``TMAUtilities`` — the TMA block of an NVMMA shared layout) and listed
with their source in docs/interop/triton.md ("What Triton's lowering accepts"). A few are
stricter than Triton (the same bits are reached, but written in another order, e.g. a CTA
split whose bases repeat): refused because we cannot prove Triton survives them.

>>> check_lowering(ttgl.BlockedLayout([1, 2], [8, 4], [1, 1], [1, 0]), [8, 8])
>>> check_lowering(ttgl.NVMMADistributedLayout([2, 0], [3, 1], [16, 8]), [32, 32])
... # doctest: +ELLIPSIS
Traceback (most recent call last):
...
tilelayout.interop.InteropError: NVMMADistributedLayout warps_per_cta=[3, 1]: expected 2 powers ...
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from types import MappingProxyType
from typing import Any

from triton.experimental.gluon import language as ttgl
from triton.experimental.gluon.language import amd as ttgl_amd
from triton.experimental.gluon.language._layouts import DistributedLayout
from triton.experimental.gluon.language.nvidia import blackwell as ttgl_bw

from ..core.errors import shown
from ..core.shape import format_shape
from ..core.triton_limits import MAX_LOG2
from ..core.wmma_shapes import WMMA_K, WMMA_MN
from . import InteropError

#: a TMA box holds at most 256 elements along each dimension (TMAUtilities getTMABlockShape)
TMA_DIM_MAX = 256
#: the (M, N) of the MFMA instructions AMDMfmaEncodingAttr::verify accepts
MFMA_MN = ((32, 32), (16, 16), (64, 4), (4, 64))
#: the MMA versions NvidiaMmaEncodingAttr::toLinearLayout lowers (Ampere, Hopper)
MMA_MAJORS = (2, 3)
#: TensorMemoryEncodingAttr: the block M of a tensor-memory layout (64 or 128 lanes)
TMEM_BLOCK_M = (64, 128)


def _refuse(obj: Any, field: str, expected: str, given: Any) -> InteropError:
    return InteropError(f"{type(obj).__name__} {field}={shown(given)}: expected {expected}")


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _pow2(v: Any, top: int = MAX_LOG2) -> bool:
    return _is_int(v) and 1 <= v <= 1 << top and not v & (v - 1)


def _int_list(obj: Any, field: str, values: Any, n: int | None = None) -> list[int]:
    if not isinstance(values, list | tuple) or not all(_is_int(v) for v in values):
        raise _refuse(obj, field, "a list of ints", values)
    if n is not None and len(values) != n:
        raise InteropError(f"{type(obj).__name__} {field} {shown(list(values))}: expected {n} "
                           f"values (one per dimension), got {len(values)}")
    return list(values)


def _pow2_list(obj: Any, field: str, values: Any, n: int) -> list[int]:
    out = _int_list(obj, field, values, n)
    if not all(_pow2(v) for v in out) or sum(v.bit_length() - 1 for v in out) > MAX_LOG2:
        raise InteropError(f"{type(obj).__name__} {field}={shown(out)}: expected {n} powers of two "
                           f"(Triton's lowering asserts it) with a product of at most "
                           f"2**{MAX_LOG2}, got {_first_bad(out)}")
    return out


def _first_bad(values: Sequence[int]) -> str:
    bad = [v for v in values if not _pow2(v)]
    return shown(bad[0]) if bad else f"a product of 2**{sum(v.bit_length() - 1 for v in values)}"


def _order(obj: Any, values: Any, rank: int, field: str = "order") -> list[int]:
    out = _int_list(obj, field, values)
    if sorted(out) != list(range(rank)):
        raise InteropError(f"{type(obj).__name__} {field}={shown(out)}: expected a permutation "
                           f"of the {rank} dimensions 0..{rank - 1}")
    return out


def _vector(obj: Any, field: str, vec: Any, rank: int) -> int | None:
    """The dimension a basis vector moves (None: a zero vector); refused unless it is
    ``rank`` non-negative ints with at most one nonzero, a power of two."""
    values = _int_list(obj, field, vec, rank)
    moved = [d for d, v in enumerate(values) if v]
    if len(moved) > 1 or any(v < 0 for v in values) or (moved and not _pow2(values[moved[0]])):
        raise InteropError(f"{type(obj).__name__} {field} basis {shown(values)}: expected one power "
                           f"of two in one dimension (or zeros)")
    return moved[0] if moved else None


def _bits_per_dim(obj: Any, field: str, vectors: Any, rank: int) -> list[int]:
    """Per dimension, how many bits ``vectors`` cover: they must be exactly 1, 2, 4, ...
    in that dimension (LinearLayout's surjectivity: every out coordinate reached), each once."""
    if not isinstance(vectors, list | tuple):
        raise _refuse(obj, field, "a list of basis vectors", vectors)
    seen: list[list[int]] = [[] for _ in range(rank)]
    for vec in vectors:
        d = _vector(obj, field, vec, rank)
        if d is not None:
            seen[d].append(vec[d])
    for d, values in enumerate(seen):
        if sorted(values) != [1 << k for k in range(len(values))]:
            raise InteropError(f"{type(obj).__name__} {field} {shown(list(vectors))}: along "
                               f"dimension {d} the bases must be 1, 2, 4, ... each once (Triton "
                               f"requires the layout to be surjective), got {sorted(values)}")
    return [len(v) for v in seen]


def _cga(obj: Any, shape: Sequence[int], field: str = "cga_layout") -> list[int]:
    """The shape of one CTA's part: ``shape`` divided by the CTA split of the cluster bases."""
    bases = getattr(obj, field, []) or []
    split = _bits_per_dim(obj, field, bases, len(shape))
    per_cta = []
    for d, (n, bits) in enumerate(zip(shape, split, strict=True)):
        if n < 1 << bits:
            raise InteropError(f"{type(obj).__name__} {field} {shown(list(bases))} splits "
                               f"dimension {d} over {1 << bits} CTAs, more than its {n} "
                               f"elements (shape {format_shape(tuple(shape))})")
        per_cta.append(n >> bits)
    return per_cta


# --------------------------------------------------------------------------- distributed


def _blocked(obj: Any, shape: list[int]) -> None:
    rank = len(shape)
    for field in ("size_per_thread", "threads_per_warp", "warps_per_cta"):
        _pow2_list(obj, field, getattr(obj, field), rank)
    _order(obj, obj.order, rank)
    _cga(obj, shape)


def _slice(obj: Any, shape: list[int]) -> None:
    rank = len(shape)
    if not _is_int(obj.dim) or not 0 <= obj.dim <= rank:
        raise _refuse(obj, "dim", f"a dimension of the rank-{rank + 1} parent (0..{rank})", obj.dim)
    if not isinstance(obj.parent, DistributedLayout):
        raise _refuse(obj, "parent", "a distributed Gluon layout", obj.parent)
    check_lowering(obj.parent, [*shape[:obj.dim], 1, *shape[obj.dim:]])


def _mma(obj: Any, shape: list[int]) -> None:
    rank = len(shape)
    version = _int_list(obj, "version", obj.version, 2)
    if version[0] not in MMA_MAJORS:
        raise _refuse(obj, "version", "[2, minor] (Ampere) or [3, minor] (Hopper): Triton lowers "
                                      "no other", version)
    if not 2 <= rank <= (3 if version[0] == 2 else 2):
        raise InteropError(f"NVMMADistributedLayout v{version[0]} on shape "
                           f"{format_shape(tuple(shape))}: expected rank 2"
                           f"{' or 3 (batched)' if version[0] == 2 else ''}, got rank {rank}")
    _pow2_list(obj, "warps_per_cta", obj.warps_per_cta, rank)
    instr = _int_list(obj, "instr_shape", obj.instr_shape, rank if version[0] == 2 else None)
    if version[0] == 3 and len(instr) not in (2, 3):
        raise _refuse(obj, "instr_shape", "[M, N, K] of a wgmma", instr)
    m, n = (instr[-2], instr[-1]) if version[0] == 2 else (instr[0], instr[1])
    if not (_pow2(m) and _pow2(n) and m >= 8 and n >= 8 and all(_pow2(v) for v in instr)):
        raise _refuse(obj, "instr_shape", "powers of two with M and N at least 8 (nvidiaMmaTile "
                                          "asserts M % 8 == 0 and N % 8 == 0)", instr)
    _cga(obj, shape)


def _mfma(obj: Any, shape: list[int]) -> None:
    rank = len(shape)
    if rank not in (2, 3):
        raise InteropError(f"AMDMFMALayout on shape {format_shape(tuple(shape))}: expected rank 2 "
                           f"or 3 (batched), got rank {rank}")
    instr = _int_list(obj, "instr_shape", obj.instr_shape, 3)
    if tuple(instr[:2]) not in MFMA_MN or not _pow2(instr[2]):
        raise _refuse(obj, "instr_shape", f"(M, N) in {MFMA_MN} and K a power of two", instr)
    if tuple(instr[:2]) == (64, 4) and not obj.transposed:
        raise InteropError("AMDMFMALayout 64x4 must be transposed (Triton's lowering asserts it)")
    _pow2_list(obj, "warps_per_cta", obj.warps_per_cta, rank)
    _pow2_list(obj, "tiles_per_warp", obj.tiles_per_warp, rank)
    _cga(obj, shape)


def _wmma(obj: Any, shape: list[int]) -> None:
    rank = len(shape)
    if rank not in (2, 3) or obj.rank != rank:
        raise InteropError(f"AMDWMMALayout of rank {shown(obj.rank)} on shape "
                           f"{format_shape(tuple(shape))}: expected rank 2 or 3 (batched), the "
                           f"same for both")
    instr = _int_list(obj, "instr_shape", obj.instr_shape, 3)
    if tuple(instr[:2]) != WMMA_MN or instr[2] not in WMMA_K.get(obj.version, ()):
        raise _refuse(obj, "instr_shape", f"16 x 16 x K (what Triton accepts) with K in "
                                          f"{WMMA_K.get(obj.version)} for version "
                                          f"{shown(obj.version)} (its verifier)", instr)
    # in 16 x 16 tiles: each basis one power of two, 1, 2, 4, ... once per dimension (a
    # repeated or a gapped basis fails LinearEncodingAttr's verifier, which asserts)
    _bits_per_dim(obj, "warp_bases + reg_bases", [*obj.warp_bases, *obj.reg_bases], rank)
    _cga(obj, shape)


def _dot(obj: Any, shape: list[int]) -> None:
    parent, k_width = obj.parent, obj.k_width
    if obj.operand_index not in (0, 1) or isinstance(obj.operand_index, bool):
        raise _refuse(obj, "operand_index", "0 (A) or 1 (B)", obj.operand_index)
    named = (ttgl.NVMMADistributedLayout, ttgl.BlockedLayout, ttgl_amd.AMDMFMALayout,
             ttgl_amd.AMDWMMALayout)
    if not isinstance(parent, named):
        raise _refuse(obj, "parent", "an NVMMADistributedLayout, BlockedLayout, AMDMFMALayout or "
                                     "AMDWMMALayout", parent)
    check_lowering(parent, shape)
    if isinstance(parent, ttgl.BlockedLayout):
        if k_width != 0 or isinstance(k_width, bool):
            raise _refuse(obj, "k_width", "0 for a blocked (FMA) parent", k_width)
        return
    if not _pow2(k_width, 4):
        raise _refuse(obj, "k_width", "a power of two from 1 to 16", k_width)
    if isinstance(parent, ttgl.NVMMADistributedLayout) and parent.version[0] == 3 \
            and obj.operand_index == 1:
        raise InteropError("DotOperandLayout of operand B with a Hopper (v3) MMA parent: wgmma "
                           "reads B from shared memory (Triton's lowering asserts it)")


# --------------------------------------------------------------------------- memory


def _nvmma_shared(obj: Any, shape: list[int]) -> None:
    rank = len(shape)
    if obj.rank != rank:
        raise InteropError(f"NVMMASharedLayout has rank {shown(obj.rank)}; shape "
                           f"{format_shape(tuple(shape))} has rank {rank}")
    per_cta = _cga(obj, shape)
    width, bits = obj.swizzle_byte_width, obj.element_bitwidth
    if not width:
        return
    if rank < 2:
        raise InteropError(f"NVMMASharedLayout({width}B) on shape {format_shape(tuple(shape))}: a "
                           f"swizzled NVMMA layout needs rank 2 or more")
    # getTMABlockShape: the TMA box, at most 256 along each dimension, its contiguous
    # dimension (the first if transposed, else the last) exactly one swizzle row
    contig = 0 if obj.transposed else rank - 1
    box = list(per_cta)
    pack = 2 if obj.fp4_padded else 1
    box[contig] *= pack
    box = [min(n, TMA_DIM_MAX) for n in box]
    row = 8 * width // bits
    if box[contig] < row:
        raise InteropError(f"NVMMASharedLayout({width}B, {bits} bits{', transposed' * obj.transposed}) "
                           f"needs {row} contiguous elements along dimension {contig}; shape "
                           f"{format_shape(tuple(shape))} has {per_cta[contig]} (Triton aborts: block "
                           f"shape too small for the swizzle)")
    box[contig] = row // pack
    # nvmmaSharedToLinearLayout: the box collapsed to 2D, at least 8 rows of one core matrix
    collapsed = [math.prod(box[:-1]), box[-1]]
    if obj.transposed:
        collapsed.reverse()
    cols = 8 * max(16, width) // bits
    if collapsed[1] * pack < cols or collapsed[0] < 8:
        raise InteropError(f"NVMMASharedLayout({width}B, {bits} bits{', transposed' * obj.transposed}) "
                           f"on shape {format_shape(tuple(shape))}: its TMA box collapses to "
                           f"{collapsed[0]} x {collapsed[1]}; Triton needs at least 8 x {cols // pack} "
                           f"(it aborts: illegal shared layout)")


def _swizzled(obj: Any, shape: list[int]) -> None:
    for field in ("vec", "per_phase", "max_phase"):
        value = getattr(obj, field)
        if not _is_int(value) or not 1 <= value <= 1 << 16:
            raise _refuse(obj, field, "an int from 1 to 65536 (0 divides by zero in Triton's "
                                      "lowering, a negative one wraps)", value)
    _order(obj, obj.order, len(shape))
    _cga(obj, shape)


def _tmem(obj: Any, shape: list[int]) -> None:
    block = _int_list(obj, "block", obj.block, 2)
    if len(shape) != 2:
        raise InteropError(f"TensorMemoryLayout on shape {format_shape(tuple(shape))}: tensor "
                           f"memory is rank 2")
    if block[0] not in TMEM_BLOCK_M or not _pow2(block[1]):
        raise _refuse(obj, "block", "(M, N) with M 64 or 128 and N a power of two", block)
    if not _pow2(obj.col_stride, 5):
        raise _refuse(obj, "col_stride", "1, 2, 4, 8, 16 or 32", obj.col_stride)
    rows = _cga(obj, shape)[0]
    if rows < block[0] and not (block[0] == 64 and rows == 64):
        raise InteropError(f"TensorMemoryLayout block M = {block[0]} needs at least {block[0]} rows "
                           f"per CTA; shape {format_shape(tuple(shape))} has {rows} (Triton asserts)")
    if block[0] == 64 and 64 < rows < 128:
        raise InteropError(f"TensorMemoryLayout block M = 64 on {rows} rows: expected 64 or at "
                           f"least 128")


def _linear(obj: Any, shape: list[int]) -> None:
    dims = check_shape(obj.shape)
    if len(dims) != len(shape):
        raise InteropError(f"DistributedLinearLayout for shape {format_shape(tuple(dims))} lowered "
                           f"for shape {format_shape(tuple(shape))}: the ranks differ")
    vectors = []
    for field in ("reg_bases", "lane_bases", "warp_bases", "block_bases"):
        given = getattr(obj, field)
        if not isinstance(given, list | tuple) or len(given) > MAX_LOG2:
            raise _refuse(obj, field, f"a list of at most {MAX_LOG2} basis vectors", given)
        vectors += list(given)
    bits = _bits_per_dim(obj, "bases", vectors, len(dims))
    if [1 << b for b in bits] != dims:
        raise InteropError(f"DistributedLinearLayout bases cover {format_shape(tuple(1 << b for b in bits))}"
                           f", not its shape {format_shape(tuple(dims))}: each element must be "
                           f"reached by exactly one nonzero basis combination")


def _shared_linear(obj: Any, shape: list[int]) -> None:
    for vec in obj.offset_bases:
        values = _int_list(obj, "offset_bases", vec, len(shape))
        if any(not 0 <= v < n for v, n in zip(values, shape, strict=True)):
            raise InteropError(f"SharedLinearLayout offset basis {shown(values)} is outside the "
                               f"shape {format_shape(tuple(shape))} (Triton aborts)")
    _cga(obj, shape, "block_bases")


def _tmem_scales(obj: Any, shape: list[int]) -> None:
    if len(shape) != 2:
        raise InteropError(f"TensorMemoryScalesLayout on shape {format_shape(tuple(shape))}: "
                           f"tensor memory is rank 2")


_CHECKS: MappingProxyType[type, Callable[[Any, list[int]], None]] = MappingProxyType({
    ttgl.BlockedLayout: _blocked,
    ttgl.SliceLayout: _slice,
    ttgl.NVMMADistributedLayout: _mma,
    ttgl.DotOperandLayout: _dot,
    ttgl_amd.AMDMFMALayout: _mfma,
    ttgl_amd.AMDWMMALayout: _wmma,
    ttgl.DistributedLinearLayout: _linear,
    ttgl.NVMMASharedLayout: _nvmma_shared,
    ttgl.SwizzledSharedLayout: _swizzled,
    ttgl.SharedLinearLayout: _shared_linear,
    ttgl_bw.TensorMemoryLayout: _tmem,
    ttgl_bw.TensorMemoryScalesLayout: _tmem_scales,
})


def _bits(v: Any) -> int:
    return v.bit_length() - 1 if _pow2(v) else 0


def tile_bits(obj: Any, rank: int) -> list[int]:
    """Per dimension, the bits of a distributed layout's tile (what its registers, lanes and
    warps cover once). Where the tile is larger than the shape the rest are broadcasts,
    so ``sum(max(shape bits, tile bits))`` bounds its in dims, which Triton keeps in int32
    (:data:`MAX_LOG2`). A slice's parent is bounded on its own shape (zeros if unknown)."""
    out = [0] * rank
    if isinstance(obj, ttgl.BlockedLayout):
        for field in ("size_per_thread", "threads_per_warp", "warps_per_cta"):
            out = [o + _bits(v) for o, v in zip(out, getattr(obj, field), strict=False)]
    elif isinstance(obj, ttgl.NVMMADistributedLayout | ttgl_amd.AMDMFMALayout):
        instr = obj.instr_shape
        mn = instr[-2:] if isinstance(obj, ttgl.NVMMADistributedLayout) and obj.version[0] == 2 \
            else instr[:2]
        out = [_bits(w) for w in obj.warps_per_cta]
        out[-2:] = [o + _bits(v) for o, v in zip(out[-2:], mn, strict=False)]
        if isinstance(obj, ttgl_amd.AMDMFMALayout):
            out = [o + _bits(t) for o, t in zip(out, obj.tiles_per_warp, strict=False)]
    elif isinstance(obj, ttgl_amd.AMDWMMALayout):
        out[-2:] = [4, 4]
        for vec in [*obj.warp_bases, *obj.reg_bases]:
            moved = [d for d, v in enumerate(vec) if v]
            if moved:
                out[moved[0]] += 1
    elif isinstance(obj, ttgl.DotOperandLayout):
        out = tile_bits(obj.parent, rank)
        k = rank - 1 if obj.operand_index == 0 else rank - 2
        out[k] += _bits(obj.k_width) + 4
    return out[:rank] + [0] * (rank - len(out))


def check_shape(shape: Any) -> list[int]:
    """``shape`` as a list of ints if Triton can lower a layout for it: rank 1 or more, each
    dimension a power of two, at most 2**30 elements in all."""
    if not isinstance(shape, list | tuple) or not shape or not all(_is_int(s) for s in shape):
        raise InteropError(f"a shape to lower for: expected a non-empty list of ints, got "
                           f"{shown(shape)}")
    dims = list(shape)
    if not all(_pow2(s) for s in dims) or sum(s.bit_length() - 1 for s in dims) > MAX_LOG2:
        raise InteropError(f"shape {format_shape(tuple(dims))}: Triton lowers layouts only on "
                           f"power-of-two shapes of at most 2**{MAX_LOG2} elements")
    return dims


def check_lowering(obj: Any, shape: Any) -> None:
    """Refuse ``obj`` for ``shape`` unless Triton's lowering accepts it (one InteropError)."""
    dims = check_shape(shape)
    check = _CHECKS.get(type(obj))
    if check is None:
        raise InteropError(f"{type(obj).__name__} is not a Gluon layout Triton lowers here "
                           f"(expected one of {', '.join(c.__name__ for c in _CHECKS)})")
    try:
        rank = getattr(obj, "rank", None) if check not in (_tmem, _tmem_scales) else 2
    except Exception:  # noqa: BLE001 (a parent without a rank: its own check says why)
        rank = None
    if _is_int(rank) and rank != len(dims) and check is not _nvmma_shared:
        raise InteropError(f"{type(obj).__name__} has rank {rank}; shape "
                           f"{format_shape(tuple(dims))} has rank {len(dims)}")
    check(obj, dims)
    if isinstance(obj, DistributedLayout) and sum(
            max(_bits(n), t) for n, t in zip(dims, tile_bits(obj, len(dims)), strict=True)) + \
            len(getattr(obj, "cga_layout", []) or []) > MAX_LOG2:
        raise InteropError(f"{type(obj).__name__} on shape {format_shape(tuple(dims))}: its "
                           f"registers, lanes and warps would need more than 2**{MAX_LOG2} "
                           f"positions (Triton's int32 linear layouts overflow)")


__all__ = ["MAX_LOG2", "check_lowering", "check_shape"]
