"""A tile staged through shared memory: vectorized stores, a barrier, vectorized loads.

The shared-memory layout is the one :func:`~tilelayout.planning.choose.choose_smem_layout`
picks for the source (writer) and destination (reader) -- or the side that is itself a
shared-memory tile -- and each side's cost is its
:func:`~tilelayout.planning.access.smem_access` report (SPEC §6). This module adds what a
plan needs on top: which source holder stores each element (one per element: the first
replica), and for the machine model the start address of every (warp, lane, vector).

>>> import tilelayout as tl
>>> from tilelayout.planning.placement import place
>>> src, dst = place(tl.parse("S[(32,32):(1@laneid,1)]"), tl.parse("S[(32,32):(1,1@laneid)]"), None)
>>> s = stage_through(src, dst, "float32")
>>> (s.choice.write.vector_bytes, s.choice.read.vector_bytes, s.wavefronts)
(16, 4, 64)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.compose import ComposeLayout, Layout, tile_of
from ..core.dtypes import dtype_bytes
from ..core.errors import LayoutError
from .access import AccessReport, smem_access, smem_addresses
from .choose import SmemChoice, choose_smem_layout
from .placement import WARP, Placement


@dataclass(frozen=True)
class Side:
    """One side of the exchange for the machine model: ``start[w, l, v]`` is the element
    address where lane ``l`` of warp ``w`` moves its vector ``v`` (slots ``[v*k, (v+1)*k)``),
    -1 where it moves nothing; ``per_warp`` instructions each warp issues."""

    k: int
    start: np.ndarray
    per_warp: int


@dataclass(frozen=True)
class Staging:
    """The shared-memory tile of an exchange: the :class:`SmemChoice` (layout, both
    :class:`AccessReport` s, ideal, candidates), its footprint and the sides' vectors."""

    choice: SmemChoice
    bytes: int
    store: Side
    load: Side

    @property
    def layout(self) -> Layout:
        return self.choice.layout

    @property
    def wavefronts(self) -> int:
        return self.choice.write.wavefronts + self.choice.read.wavefronts

    @property
    def ideal(self) -> int:
        return self.choice.write.ideal + self.choice.read.ideal


def slot_grid(p: Placement, rows: np.ndarray, gwarp: np.ndarray, warps: int) -> np.ndarray:
    """``(warps, 32, slots)`` element held in each register slot (-1: none)."""
    slots = int(p.slot[rows].max(initial=-1)) + 1
    grid = np.full((warps, WARP, max(slots, 1)), -1, dtype=np.int64)
    grid[gwarp[rows], p.lane[rows], p.slot[rows]] = p.element[rows]
    return grid


def _side(grid: np.ndarray, addr: np.ndarray, k: int) -> Side:
    warps, _, slots = grid.shape
    pad = (-slots) % k
    g = np.concatenate([grid, np.full((warps, WARP, pad), -1, np.int64)], axis=2)
    first = g.reshape(warps, WARP, -1, k)[..., 0]
    start = np.where(first >= 0, addr[np.maximum(first, 0)], -1)
    per_warp = int((start >= 0).any(axis=1).sum(axis=1).max(initial=0))
    return Side(k, start, per_warp)


def _empty(dtype: str) -> AccessReport:
    return AccessReport(dtype, 0, 0, 0, 0, 0, (), (), (), None)


def writer_of(layout: Layout) -> Layout:
    """``layout`` without its replicas: a tile is stored once, by its first holders."""
    if layout.replica_count == 1:
        return layout
    tile = tile_of(layout).replace(replica=())
    return ComposeLayout(layout.swizzle, tile) if isinstance(layout, ComposeLayout) else tile


def stage_through(src: Placement, dst: Placement, dtype: str,
                  gwarp: tuple[np.ndarray, np.ndarray] | None = None,
                  src_rows: np.ndarray | None = None) -> Staging:
    """Choose (or take) the shared-memory tile between ``src`` and ``dst`` and measure both
    sides; ``src_rows`` are the source rows that store (default: all)."""
    shape = src.shape
    if gwarp is None:
        gwarp = joint_warps(src, dst)
    warps = int(max(gwarp[0].max(initial=-1), gwarp[1].max(initial=-1))) + 1
    rows_s = np.arange(src.rows) if src_rows is None else src_rows
    nbytes = dtype_bytes(dtype)
    if "shared" in (src.role, dst.role):
        smem = src.layout if src.role == "shared" else dst.layout
        write = smem_access(writer_of(src.layout), smem, shape, dtype) \
            if src.role == "registers" else _empty(dtype)
        read = smem_access(dst.layout, smem, shape, dtype) \
            if dst.role == "registers" else _empty(dtype)
        choice = SmemChoice(smem, "given", write, read, write.ideal + read.ideal, (),
                            "given", shape, dtype, ())
    else:
        choice = choose_smem_layout(writer_of(src.layout), dst.layout, shape, dtype)
    addr = smem_addresses(choice.layout, shape)
    store = _side(slot_grid(src, rows_s, gwarp[0], warps), addr,
                  max(1, choice.write.vector_bytes // nbytes)) if src.role == "registers" \
        else Side(1, np.zeros((0, WARP, 0), np.int64), 0)
    load = _side(slot_grid(dst, np.arange(dst.rows), gwarp[1], warps), addr,
                 max(1, choice.read.vector_bytes // nbytes)) if dst.role == "registers" \
        else Side(1, np.zeros((0, WARP, 0), np.int64), 0)
    if addr.size and int(addr.min()) < 0:
        raise LayoutError("the shared-memory layout gives a negative address")
    return Staging(choice, (int(addr.max()) + 1) * nbytes if addr.size else 0, store, load)


def joint_warps(src: Placement, dst: Placement) -> tuple[np.ndarray, np.ndarray]:
    """One warp numbering for both sides: ``(src rows' warp, dst rows' warp)``."""
    both = np.concatenate([np.stack([src.device, src.cta, src.warp], 1),
                           np.stack([dst.device, dst.cta, dst.warp], 1)])
    _, inv = np.unique(both, axis=0, return_inverse=True)
    inv = inv.reshape(-1)
    return inv[: src.rows], inv[src.rows:]
