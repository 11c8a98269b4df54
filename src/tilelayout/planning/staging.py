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

import math
from dataclasses import dataclass

import numpy as np

from ..algebra.slicing import slice_layout
from ..core.compose import ComposeLayout, Layout, tile_of
from ..core.dtypes import dtype_bytes
from ..core.errors import LayoutError
from .access import AccessReport, smem_access, smem_addresses
from .choose import SmemChoice, choose_smem_layout
from .chunking import chunk_digits, common_digits
from .placement import WARP, Placement


@dataclass(frozen=True)
class Side:
    """One side of the exchange for the machine model: ``start[w, l, v]`` is the element
    address where lane ``l`` of warp ``w`` moves its vector ``v`` (slots ``[v*k, (v+1)*k)``),
    -1 where it moves nothing; ``per_warp`` instructions each warp issues."""

    k: int
    start: np.ndarray
    per_warp: int
    #: in a staging in passes: the pass of each (warp, lane, vector), -1 where none
    pass_of: np.ndarray | None = None


@dataclass(frozen=True)
class Staging:
    """The shared-memory tile of an exchange: the :class:`SmemChoice` (layout, both
    :class:`AccessReport` s, ideal, candidates), its footprint and the sides' vectors."""

    choice: SmemChoice
    bytes: int
    store: Side
    load: Side
    #: passes through the buffer (1: the whole tile at once); ``chunk_of[e]`` is element
    #: ``e``'s pass, ``choice`` and ``bytes`` describe one pass
    passes: int = 1
    chunk_of: np.ndarray | None = None

    @property
    def layout(self) -> Layout:
        return self.choice.layout

    @property
    def wavefronts(self) -> int:
        return self.passes * (self.choice.write.wavefronts + self.choice.read.wavefronts)

    @property
    def ideal(self) -> int:
        return self.passes * (self.choice.write.ideal + self.choice.read.ideal)


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
    grids = (slot_grid(src, rows_s, gwarp[0], warps) if src.role == "registers" else None,
             slot_grid(dst, np.arange(dst.rows), gwarp[1], warps) if dst.role == "registers"
             else None)
    store, load = _sides(grids, addr, choice, nbytes)
    if addr.size and int(addr.min()) < 0:
        raise LayoutError("the shared-memory layout gives a negative address")
    whole = Staging(choice, (int(addr.max()) + 1) * nbytes if addr.size else 0, store, load)
    if "shared" in (src.role, dst.role):
        return whole
    return _in_passes(whole, writer_of(src.layout), dst.layout, shape, dtype, grids) or whole


def _sides(grids, addr: np.ndarray, choice: SmemChoice, nbytes: int) -> tuple[Side, Side]:
    none = Side(1, np.zeros((0, WARP, 0), np.int64), 0)
    store = none if grids[0] is None else \
        _side(grids[0], addr, max(1, choice.write.vector_bytes // nbytes))
    load = none if grids[1] is None else \
        _side(grids[1], addr, max(1, choice.read.vector_bytes // nbytes))
    return store, load


def _in_passes(whole: Staging, src: Layout, dst: Layout, shape: tuple[int, ...], dtype: str,
               grids) -> Staging | None:
    """The exchange in passes through a smaller buffer (:mod:`.chunking`), when that
    costs no more wavefronts and no more instructions per warp than ``whole``."""
    if isinstance(src, ComposeLayout) or isinstance(dst, ComposeLayout):
        return None
    digits = common_digits(src, dst)
    nbytes = dtype_bytes(dtype)
    if digits is None:
        return None
    cut = chunk_digits(src, dst, digits, whole.store.k, whole.load.k)
    if not cut:
        return None
    region = tuple(slice(0, 1) if d in cut else slice(0, e) for d, e in enumerate(digits))
    sub = tuple(1 if d in cut else e for d, e in enumerate(digits))
    try:
        part = choose_smem_layout(slice_layout(src, digits, region),
                                  slice_layout(dst, digits, region), sub, dtype)
    except LayoutError:
        return None
    passes = math.prod(digits[d] for d in cut)
    # every element: its pass and its address inside the pass's buffer
    idx = np.indices(digits).reshape(len(digits), -1)
    chunk = np.zeros(idx.shape[1], dtype=np.int64)
    for d in cut:
        chunk = chunk * digits[d] + idx[d]
        idx[d] = 0
    local = smem_addresses(part.layout, sub)[np.ravel_multi_index(tuple(idx), sub)]
    store, load = _sides(grids, local, part, nbytes)
    staged = Staging(part, (int(local.max()) + 1) * nbytes, store, load, passes, chunk)
    if staged.wavefronts > whole.wavefronts or \
            store.per_warp + load.per_warp > whole.store.per_warp + whole.load.per_warp:
        return None
    sides = []
    for side, grid in zip((store, load), grids, strict=True):
        of = _pass_of(grid, side.k, chunk)
        if of is None:
            return None
        sides.append(Side(side.k, side.start, side.per_warp, of))
    return Staging(part, staged.bytes, sides[0], sides[1], passes, chunk)


def _pass_of(grid: np.ndarray, k: int, chunk: np.ndarray) -> np.ndarray | None:
    """The pass of every (warp, lane, vector), or None if a vector straddles passes."""
    warps, lanes, slots = grid.shape
    g = np.concatenate([grid, np.full((warps, lanes, (-slots) % k), -1, np.int64)], axis=2)
    g = g.reshape(warps, lanes, -1, k)
    c = np.where(g >= 0, chunk[np.maximum(g, 0)], -1)
    if not ((c == c[..., :1]) | (g < 0)).all():
        return None
    return c[..., 0]


def joint_warps(src: Placement, dst: Placement) -> tuple[np.ndarray, np.ndarray]:
    """One warp numbering for both sides: ``(src rows' warp, dst rows' warp)``."""
    both = np.concatenate([np.stack([src.device, src.cta, src.warp], 1),
                           np.stack([dst.device, dst.cta, dst.warp], 1)])
    _, inv = np.unique(both, axis=0, return_inverse=True)
    inv = inv.reshape(-1)
    return inv[: src.rows], inv[src.rows:]
