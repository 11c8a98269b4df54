"""A tile staged through shared memory: vectorized stores, a barrier, vectorized loads.

Each side of the exchange is a register layout (threads + ``m`` = register slot). One
warp-wide request per (warp, vector index ``v``): lane ``l`` moves register slots
``[v*k, (v+1)*k)`` -- consecutive and ``k``-aligned in shared memory -- with ``k`` the
widest vector (at most 16 bytes) that holds for every thread (SPEC §6). Wavefronts come
from the bank model of :func:`tilelayout.analysis.conflicts.wavefronts_batch`.

:func:`stage_through` evaluates the candidate shared-memory tiles (every order of the
tile's dims, each unswizzled and with the 32B / 64B / 128B XOR swizzle for the dtype --
the layouts TMA, wgmma and tcgen05 accept) and keeps the one with the fewest
wavefronts, then fewest instructions.

>>> import tilelayout as tl
>>> from tilelayout.planning.placement import place
>>> src, dst = place(tl.parse("S[(32,32):(1@laneid,1)]"), tl.parse("S[(32,32):(1,1@laneid)]"), None)
>>> s = stage_through(src, dst, "float32")
>>> (s.write.vector_bytes, s.read.vector_bytes, s.write.wavefronts + s.read.wavefronts)
(16, 4, 64)
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from ..analysis.conflicts import wavefronts_batch
from ..core.axes import SMEM_BANK_BYTES
from ..core.compose import ComposeLayout, Layout
from ..core.dtypes import dtype_bits
from ..core.errors import LayoutError
from ..core.iter import Iter
from ..core.swizzle import Swizzle
from ..core.tile import TileLayout
from .placement import WARP, Placement

SWIZZLE_FAMILY = ("none", "32B", "64B", "128B")


@dataclass(frozen=True)
class SideAccess:
    """One side (the stores or the loads) of a shared-memory exchange.

    ``start`` is ``(warps, 32, vectors)``: each lane's start element address per vector
    (-1: the lane moves nothing in that request); ``k`` elements per vector.
    """

    vector_bytes: int
    requests: int
    wavefronts: int
    ideal: int
    per_warp: int  # instructions each warp issues
    k: int
    start: np.ndarray
    worst: dict

    def to_dict(self) -> dict:
        return {"vector_bytes": self.vector_bytes, "requests": self.requests,
                "wavefronts": self.wavefronts, "ideal": self.ideal,
                "instructions_per_warp": self.per_warp, "worst_request": self.worst}


@dataclass(frozen=True)
class Staging:
    """The shared-memory tile chosen for an exchange, and both sides' accesses."""

    layout: Layout
    write: SideAccess
    read: SideAccess
    bytes: int
    candidates: tuple[tuple[str, int, int], ...]  # (layout text, wavefronts, instructions)

    @property
    def wavefronts(self) -> int:
        return self.write.wavefronts + self.read.wavefronts

    @property
    def ideal(self) -> int:
        return self.write.ideal + self.read.ideal

    def to_dict(self) -> dict:
        return {"layout": str(self.layout), "bytes": self.bytes, "write": self.write.to_dict(),
                "read": self.read.to_dict(), "wavefronts": self.wavefronts, "ideal": self.ideal,
                "candidates": [{"layout": t, "wavefronts": w, "instructions": i}
                               for t, w, i in self.candidates]}


def slot_grid(p: Placement, rows: np.ndarray, gwarp: np.ndarray, warps: int) -> np.ndarray:
    """``(warps, 32, slots)`` element held in each register slot (-1: none)."""
    slots = int(p.slot[rows].max(initial=-1)) + 1
    grid = np.full((warps, WARP, max(slots, 1)), -1, dtype=np.int64)
    if (p.slot[rows] < 0).any():
        raise LayoutError("register slots (axis m) must be >= 0 in a register layout")
    grid[gwarp[rows], p.lane[rows], p.slot[rows]] = p.element[rows]
    return grid


def side_access(grid: np.ndarray, addr: np.ndarray, bits: int) -> SideAccess:
    """Requests of one side: ``grid`` from :func:`slot_grid`, ``addr[element]`` the
    element's shared-memory address (elements)."""
    warps, _, slots = grid.shape
    a = np.where(grid >= 0, addr[np.maximum(grid, 0)], -1)
    nbytes = max(bits // 8, 1)
    k = 1
    for cand in (16, 8, 4, 2, 1):
        kk = cand // nbytes
        if kk < 1 or cand % nbytes:
            continue
        pad = (-slots) % kk
        v = np.concatenate([a, np.full((warps, WARP, pad), -1, np.int64)], axis=2)
        v = v.reshape(warps, WARP, -1, kk)
        present = v >= 0
        whole = present.all(axis=3) | ~present.any(axis=3)
        first = v[..., :1]
        ok = whole & (~present.all(axis=3) | (((v - first) == np.arange(kk)).all(axis=3)
                                               & (first[..., 0] % kk == 0)))
        if ok.all():
            k = kk
            break
    pad = (-slots) % k
    v = np.concatenate([a, np.full((warps, WARP, pad), -1, np.int64)], axis=2)
    start = v.reshape(warps, WARP, -1, k)[..., 0]  # (warps, 32, vectors)
    vb = k * nbytes
    access = max(vb, SMEM_BANK_BYTES)
    req = start.transpose(0, 2, 1).reshape(-1, WARP)
    live = (req >= 0).any(axis=1)
    req = req[live]
    byte = np.where(req >= 0, (req * nbytes) // access * access, -1)
    waves = wavefronts_batch(byte, access) if len(req) else np.zeros(0, np.int64)
    per_phase = WARP * SMEM_BANK_BYTES // access
    ideal = int((req >= 0).reshape(len(req), -1, per_phase).any(axis=2).sum())
    worst: dict = {}
    if len(req):
        i = int(np.argmax(waves))
        lanes = [int(x) for x in np.flatnonzero(byte[i] >= 0)]
        worst = {"wavefronts": int(waves[i]), "lanes": lanes,
                 "banks": [int(byte[i, x] // SMEM_BANK_BYTES % 32) for x in lanes]}
    per_warp = int((start >= 0).any(axis=1).sum(axis=1).max(initial=0))
    return SideAccess(vb, int(len(req)), int(waves.sum()), ideal, per_warp, k, start, worst)


def candidate_tiles(shape: tuple[int, ...], dtype: str) -> list[Layout]:
    """Dense tiles of ``shape`` in every dim order (rank <= 3; else row- and column-major),
    each plain and with every XOR swizzle mode the dtype has."""
    rank = len(shape)
    orders = list(itertools.permutations(range(rank))) if rank <= 3 else \
        [tuple(range(rank)), tuple(reversed(range(rank)))]
    out: list[Layout] = []
    for order in orders:
        stride = [0] * rank
        acc = 1
        for d in reversed(order):
            stride[d] = acc
            acc *= shape[d]
        tile = TileLayout([Iter(n, s if n > 1 else 0, "m") for n, s in zip(shape, stride, strict=True)])
        for mode in SWIZZLE_FAMILY:
            if mode == "none":
                out.append(tile)
                continue
            try:
                sw = Swizzle.for_dtype(dtype, mode)
            except LayoutError:
                continue
            out.append(ComposeLayout(sw, tile))
    return out


def _addresses(layout: Layout, shape: tuple[int, ...]) -> np.ndarray:
    return np.asarray(layout.map_all(shape)["m"], dtype=np.int64)[..., 0].reshape(-1)


def stage_through(src: Placement, dst: Placement, dtype: str,
                  gwarp: tuple[np.ndarray, np.ndarray] | None = None,
                  src_rows: np.ndarray | None = None) -> Staging:
    """Pick the shared-memory tile for storing ``src`` and loading ``dst`` (or use the
    side that is itself a shared-memory layout) and measure both sides."""
    bits = dtype_bits(dtype)
    shape = src.shape
    if gwarp is None:
        gwarp = _joint_warps(src, dst)
    warps = int(max(gwarp[0].max(initial=-1), gwarp[1].max(initial=-1))) + 1
    rows_s = np.arange(src.rows) if src_rows is None else src_rows
    fixed = src.layout if src.role == "shared" else dst.layout if dst.role == "shared" else None
    cands = [fixed] if fixed is not None else candidate_tiles(shape, dtype)
    best = None
    table = []
    for cand in cands:
        addr = _addresses(cand, shape)
        if fixed is None and not np.array_equal(np.sort(addr), np.arange(len(addr))):
            continue  # a swizzle whose atom does not tile this shape
        write = side_access(slot_grid(src, rows_s, gwarp[0], warps), addr, bits) \
            if src.role == "registers" else None
        read = side_access(slot_grid(dst, np.arange(dst.rows), gwarp[1], warps), addr, bits) \
            if dst.role == "registers" else None
        sides = [s for s in (write, read) if s is not None]
        waves = sum(s.wavefronts for s in sides)
        instr = sum(s.per_warp for s in sides)
        table.append((str(cand), waves, instr))
        key = (waves, instr)
        if best is None or key < best[0]:
            best = (key, cand, write, read, addr)
    assert best is not None
    _, layout, write, read, addr = best
    empty = SideAccess(0, 0, 0, 0, 0, 1, np.zeros((0, WARP, 0), np.int64), {})
    nbytes = (int(addr.max()) + 1) * bits // 8
    order = sorted(range(len(table)), key=lambda i: table[i][1:])
    return Staging(layout, write or empty, read or empty, nbytes,
                   tuple(table[i] for i in order[:6]))


def _joint_warps(src: Placement, dst: Placement) -> tuple[np.ndarray, np.ndarray]:
    both = np.concatenate([np.stack([src.device, src.cta, src.warp], 1),
                           np.stack([dst.device, dst.cta, dst.warp], 1)])
    _, inv = np.unique(both, axis=0, return_inverse=True)
    inv = inv.reshape(-1)
    return inv[: src.rows], inv[src.rows:]
