"""Named Gluon layouts that may equal a layout: the guesses :func:`tilelayout.interop.gluon.to_gluon`
tries, each inferred from the layout's Triton bases (imports Triton; loaded with
:mod:`tilelayout.interop.gluon`).

A guess is only a candidate: ``to_gluon`` has Triton lower it and keeps it only if Triton's
bases equal ours, so a wrong guess costs a lowering, never a wrong answer. Guesses come
lazily, most common first: blocked, NVMMA v2/v3, MMA dot operands, FMA (blocked-parent)
dot operands, MFMA, WMMA, MFMA / WMMA dot operands, rank-3 (batched) MMA / MFMA / WMMA
layouts and MMA dot operands, then slices of blocked and of MMA parents (a slice of an
odd rank-3 blocked layout can equal many things: it is the last resort).

>>> bases = {"register": [[0, 1]], "lane": [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]]}
>>> next(distributed_candidates(bases, (8, 8), False))
BlockedLayout(size_per_thread=[1, 2], threads_per_warp=[8, 4], warps_per_cta=[1, 1], order=[1, 0], ...)
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from triton.experimental.gluon import language as ttgl
from triton.experimental.gluon.language import amd as ttgl_amd

Bases = Mapping[str, list[list[int]]]
#: a WMMA tile is 16 x 16; its register / warp bases count tiles
WMMA_TILE = 16
#: registers of one WMMA tile's accumulator (8 elements per lane)
WMMA_TILE_REGS = 3


def _dim_of(vec: Sequence[int]) -> int | None:
    nonzero = [d for d, v in enumerate(vec) if v]
    return nonzero[0] if len(nonzero) == 1 else None


def _order(vectors: Sequence[Sequence[int]], rank: int) -> list[int]:
    """Dimensions in the order ``vectors`` first move them, then the unmoved ones from the
    last down (a blocked / swizzled layout's ``order``, most minor first)."""
    seen: list[int] = []
    for vec in vectors:
        d = _dim_of(vec)
        if d is not None and d not in seen:
            seen.append(d)
    return seen + [d for d in reversed(range(rank)) if d not in seen]


def _splits(n_bits: int) -> list[list[int]]:
    """Every (M, N) split of 2**n_bits warps."""
    return [[(1 << n_bits) >> k, 1 << k] for k in range(n_bits + 1)]


def _k_run(regs: Sequence[Sequence[int]], k_dim: int) -> int:
    """2**(the run of register bases 1, 2, 4, .. along K at the start): a dot's kWidth."""
    k_width = 1
    for vec in regs:
        if _dim_of(vec) != k_dim or vec[k_dim] != k_width:
            break
        k_width *= 2
    return k_width


def _wmma_tiles(vectors: Sequence[Sequence[int]], rank: int) -> list[list[int]]:
    """``vectors`` counted in 16 x 16 WMMA tiles on the last two dims (batch entries stay)."""
    return [[v // WMMA_TILE if d >= rank - 2 else v for d, v in enumerate(vec)]
            for vec in vectors]


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


def _blocked_candidates(bases: Bases, rank: int,
                        zero_dim: int | None = None) -> list[Any]:
    regs, lanes, warps = (bases.get(k, []) for k in ("register", "lane", "warp"))
    tpw, wpc = _counts(lanes, rank, zero_dim), _counts(warps, rank, zero_dim)
    if tpw is None or wpc is None:
        return []
    order = _order((*lanes, *warps, *regs), rank)
    spt = [1] * rank
    it = iter(regs)
    pending = next(it, None)
    for d in order:  # identityStandardND: each dimension's register bits in order
        while pending is not None and _dim_of(pending) == d and pending[d] == spt[d]:
            spt[d] *= 2
            pending = next(it, None)
    return [ttgl.BlockedLayout(spt, tpw, wpc, order, bases.get("block", []))]


def _mma_candidates(bases: Bases, shape: Sequence[int],
                    warpgroups: bool) -> list[Any]:
    """NVMMADistributedLayout v2 (mma.sync) and v3 (wgmma: warps in warpgroups of 4 along
    M; tried first when the layout is written over warpgroup axes)."""
    if len(shape) != 2:
        return []
    n_bits = len(bases.get("warp", []))
    n_warps, splits = 1 << n_bits, _splits(n_bits)
    v2 = [ttgl.NVMMADistributedLayout([2, 0], w, [16, 8]) for w in splits]
    v3 = []
    if n_warps % 4 == 0:
        ns = [n for n in (256, 128, 64, 32, 16, 8) if n <= max(shape[1], 8)]
        v3 = [ttgl.NVMMADistributedLayout([3, 0], w, [16, n, 16])
              for n in ns for w in splits if w[0] % 4 == 0]
    return v3 + v2 if warpgroups else v2 + v3


def _dot_candidates(bases: Bases, shape: Sequence[int]) -> list[Any]:
    """DotOperandLayout over mma v2 (A and B) and v3 (A) parents: k_width from the first
    register bases along K, warp splits as for the parent."""
    if len(shape) != 2:
        return []
    splits = _splits(len(bases.get("warp", [])))
    out = []
    for op in (0, 1):
        k_width = _k_run(bases.get("register", []), 1 - op)
        for w in splits:
            out.append(ttgl.DotOperandLayout(op, ttgl.NVMMADistributedLayout([2, 0], w, [16, 8]),
                                             k_width))
            if op == 0 and w[0] % 4 == 0:
                n = min(256, max(8, shape[1]))
                parent = ttgl.NVMMADistributedLayout([3, 0], w, [16, n, 16])
                out.append(ttgl.DotOperandLayout(0, parent, k_width))
    return out


def _slice_candidates(bases: Bases, rank: int) -> list[Any]:
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


def _amd_candidates(bases: Bases, shape: Sequence[int]) -> list[Any]:
    """AMDMFMALayout (64-lane wavefronts: six lane bits) over the warp splits."""
    if len(shape) != 2 or len(bases.get("lane", [])) != 6:
        return []
    splits = _splits(len(bases.get("warp", [])))
    return [ttgl_amd.AMDMFMALayout(3, instr, trans, w, bits)
            for instr in ([32, 32, 8], [16, 16, 16]) for trans in (False, True)
            for bits in (32, 64) for w in splits]


def swizzled_candidate(offsets: list[list[int]], rank: int) -> Any | None:
    order = _order(offsets, rank)
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



def _fma_candidates(bases: Bases, shape: Sequence[int]) -> Iterator[Any]:
    """DotOperandLayout(op, BlockedLayout, 0), tried when the registers hold all of K (the
    FMA dot's signature): zero lanes and warps may be K's or a broadcast past a small
    shape, so every split of the lanes and warps is tried (6 x (warp bits + 1) x 2
    orders); size per thread is the run of registers along M (A) or N (B), 1 along K
    (the thread holds all of K either way)."""
    if len(shape) != 2:
        return
    regs = bases.get("register", [])
    n_lane, n_warp = len(bases.get("lane", [])), len(bases.get("warp", []))
    for op in (0, 1):
        k_dim = 1 if op == 0 else 0
        if sum(1 for v in regs if _dim_of(v) == k_dim) != shape[k_dim].bit_length() - 1:
            continue
        other = 1 - k_dim
        spt = [1, 1]
        for vec in regs:  # the run 1, 2, 4, .. along M (A) / N (B)
            if _dim_of(vec) == other and vec[other] == spt[other]:
                spt[other] *= 2
        for tpw in _splits(n_lane):
            for wpc in _splits(n_warp):
                for order in ([1, 0], [0, 1]):
                    yield ttgl.DotOperandLayout(op, ttgl.BlockedLayout(spt, tpw, wpc, order), 0)


def _wmma_candidates(bases: Bases, shape: Sequence[int]) -> Iterator[Any]:
    """AMDWMMALayout (32-lane wavefronts: five lane bits): the bases past one 16 x 16 tile,
    in tiles, as the explicit register / warp bases (or registers left to repetition)."""
    lanes, regs, warps = (bases.get(k, []) for k in ("lane", "register", "warp"))
    rank = len(shape)
    if rank not in (2, 3) or len(lanes) != 5 or len(regs) < WMMA_TILE_REGS:
        return
    extra, warp_tiles = regs[WMMA_TILE_REGS:], warps
    if any(v % WMMA_TILE for vec in extra + warp_tiles for v in vec[rank - 2:]):
        return

    for version in (2, 1, 3):
        for transposed in (False, True):
            for reg_bases in (_wmma_tiles(extra, rank), []):
                yield ttgl_amd.AMDWMMALayout(version, transposed, _wmma_tiles(warp_tiles, rank),
                                             reg_bases,
                                             rank=rank)


def _mma_slice_candidates(bases: Bases, shape: Sequence[int]) -> Iterator[Any]:
    """SliceLayout(d, NVMMADistributedLayout) of a rank-2 MMA parent (v2, and v3 with the
    instruction N a power of two up to 256)."""
    if len(shape) != 1 or bases.get("block"):
        return
    n_bits = len(bases.get("warp", []))
    for dim in (0, 1):
        for w in _splits(n_bits):
            yield ttgl.SliceLayout(dim, ttgl.NVMMADistributedLayout([2, 0], w, [16, 8]))
        for w in _splits(n_bits):
            if w[0] % 4 == 0:
                for n in (256, 128, 64, 32, 16, 8):
                    yield ttgl.SliceLayout(dim, ttgl.NVMMADistributedLayout([3, 0], w, [16, n, 16]))


def _splits_nd(n_bits: int, rank: int) -> Iterator[list[int]]:
    """Every split of 2**n_bits warps over ``rank`` dimensions (powers of two)."""
    for cut in itertools.product(range(n_bits + 1), repeat=rank - 1):
        if sum(cut) <= n_bits:
            yield [*(1 << c for c in cut), 1 << (n_bits - sum(cut))]


def _batched_candidates(bases: Bases, shape: Sequence[int]) -> Iterator[Any]:
    """Rank 3 (batch first): mma v2 and its dot operands, MFMA over the warp splits (WMMA:
    :func:`_wmma_candidates` takes rank 3 too)."""
    if len(shape) != 3:
        return
    n_bits, n_lanes = len(bases.get("warp", [])), len(bases.get("lane", []))
    regs = bases.get("register", [])
    for w in _splits_nd(n_bits, 3):
        if n_lanes == 5:
            mma = ttgl.NVMMADistributedLayout([2, 0], w, [1, 16, 8])
            yield mma
            for op in (0, 1):
                yield ttgl.DotOperandLayout(op, mma, _k_run(regs, 2 - op))
        if n_lanes == 6:
            for instr, trans in itertools.product(([32, 32, 8], [16, 16, 16]), (False, True)):
                yield ttgl_amd.AMDMFMALayout(3, instr, trans, w)


def _amd_dot_candidates(bases: Bases, shape: Sequence[int]) -> Iterator[Any]:
    """DotOperandLayout of MFMA (six lane bits) and WMMA (five) parents: kWidth from the
    registers along K; MFMA warp splits; the WMMA parent's warp bases read back from the
    operand's (M or N part; the other part is not seen, so 0)."""
    rank = len(shape)
    if rank not in (2, 3):
        return
    lanes, regs, warps = (bases.get(k, []) for k in ("lane", "register", "warp"))
    for op in (0, 1):
        k_dim = rank - 1 if op == 0 else rank - 2
        k_width = _k_run(regs, k_dim)
        if len(lanes) == 6:
            for instr in ([32, 32, 8], [16, 16, 16]):
                for w in _splits_nd(len(warps), rank):
                    yield ttgl.DotOperandLayout(op, ttgl_amd.AMDMFMALayout(3, instr, False, w), k_width)
        if len(lanes) == 5 and not any(v % WMMA_TILE for vec in warps for v in vec[rank - 2:]):
            tiles = _wmma_tiles(warps, rank)
            for version in (2, 1, 3):
                parent = ttgl_amd.AMDWMMALayout(version, False, tiles, [], rank=rank)
                # version 1: lanes 16..31 add no K, so the K registers run on past kWidth
                for width in (k_width >> b for b in range(max(1, k_width.bit_length() - 3))):
                    yield ttgl.DotOperandLayout(op, parent, width)


def distributed_candidates(bases: Bases, shape: Sequence[int], warpgroups: bool) -> Iterator[Any]:
    """Named distributed layouts to try for ``bases`` over ``shape``, in order (lazily)."""
    rank = len(shape)
    yield from _blocked_candidates(bases, rank)
    yield from _mma_candidates(bases, shape, warpgroups)
    yield from _dot_candidates(bases, shape)
    yield from _fma_candidates(bases, shape)
    yield from _amd_candidates(bases, shape)
    yield from _wmma_candidates(bases, shape)
    yield from _amd_dot_candidates(bases, shape)
    yield from _batched_candidates(bases, shape)
    yield from _slice_candidates(bases, rank)
    yield from _mma_slice_candidates(bases, shape)


__all__ = ["distributed_candidates", "swizzled_candidate"]
