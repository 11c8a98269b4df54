"""A tile staged through shared memory: vectorized stores, a barrier, vectorized loads.

The shared-memory layout is the one :func:`~tilelayout.planning.choose.choose_smem_layout`
picks for the source (writer) and destination (reader) -- or the side that is itself a
shared-memory tile -- and each side's cost is its
:func:`~tilelayout.planning.access.smem_access` report (docs/data-movement.md). This module adds what a
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
from ..core import budget
from ..core.compose import ComposeLayout, Layout, tile_of
from ..core.dtypes import dtype_bytes
from ..core.errors import LayoutError
from .access import AccessReport, smem_access, smem_addresses
from .choose import SmemChoice, choose_smem_layout
from .chunking import chunk_digits, common_digits
from .costing import prepare
from .instruction_layouts import instruction_candidates
from .mechanisms import MatrixAccess, best_access, matrix_access, matrix_report
from .placement import WARP, Placement
from .threads import RegisterFile

#: a staging in passes is searched only for a whole-tile buffer above this many bytes:
#: smaller buffers hardly limit occupancy, and the search for a pass's layout (every
#: order of its many small dims) costs more than planning the rest
MIN_PASS_BYTES = 2048


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
    #: packed vectors: position ``i`` of the slots is register slot ``order[i]``
    order: tuple[int, ...] | None = None
    #: ldmatrix / stmatrix: the instructions' row addresses and register slots
    matrix: MatrixAccess | None = None


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


def _side(grid: np.ndarray, addr: np.ndarray, report: AccessReport, nbytes: int) -> Side:
    """The machine model's view of one side moving as ``report`` says."""
    if report.matrix is not None:
        rf = RegisterFile(grid, (), (), False)
        m = matrix_access(rf, addr, report.matrix.trans)
        if m is None:
            raise LayoutError("internal: the ldmatrix / stmatrix schedule does not fit")
        return Side(1, np.zeros((0, WARP, 0), np.int64), len(m.counts), matrix=m)
    k = max(1, report.vector_bytes // nbytes)
    order = report.slot_order
    if order is None:
        return _vector_side(grid, addr, k)
    pad = len(order) - grid.shape[2]
    if pad > 0:
        grid = np.concatenate([grid, np.full(grid.shape[:2] + (pad,), -1, np.int64)], axis=2)
    side = _vector_side(grid[:, :, list(order)], addr, k)
    return Side(k, side.start, side.per_warp, order=order)


def _vector_side(grid: np.ndarray, addr: np.ndarray, k: int) -> Side:
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
    grids = (slot_grid(src, rows_s, gwarp[0], warps) if src.role == "registers" else None,
             slot_grid(dst, np.arange(dst.rows), gwarp[1], warps) if dst.role == "registers"
             else None)
    whole = _whole(choice, grids, shape, nbytes)
    if "shared" in (src.role, dst.role):
        return whole
    plain = _in_passes(whole, writer_of(src.layout), dst.layout, shape, dtype, grids) or whole
    better = with_instructions(choice, writer_of(src.layout), dst.layout)
    if better is choice:
        return plain
    other = _whole(better, grids, shape, nbytes)
    # fewest wavefronts, then the smaller buffer, then fewer instructions per warp
    return min((plain, other), key=lambda s: (s.wavefronts, s.bytes,
                                              s.store.per_warp + s.load.per_warp))


def _whole(choice: SmemChoice, grids, shape: tuple[int, ...], nbytes: int) -> Staging:
    addr = smem_addresses(choice.layout, shape)
    store, load = _sides(grids, addr, choice, nbytes)
    return Staging(choice, _footprint(addr, nbytes), store, load)


def with_instructions(choice: SmemChoice, writer: Layout, reader: Layout,
                      top: int = 1) -> SmemChoice:
    """``choice`` or a cheaper staging that packs non-adjacent registers or uses
    ldmatrix / stmatrix (:mod:`.mechanisms`): the ``top`` best candidates of ``choice``
    and the layouts of :mod:`.instruction_layouts`, each side costed with the instruction
    kinds that fit. Fewest wavefronts win, then fewest instructions, then fewer bytes.
    A choice whose sides both move conflict-free 16-byte vectors is kept as it is."""
    w0, r0 = choice.write, choice.read
    nbytes = dtype_bytes(choice.dtype)
    # no access moves more than 128 bytes per wavefront: at that bound only the
    # instruction count could improve
    floor = 2 * math.ceil(math.prod(choice.shape) * nbytes / 128)
    if choice.wavefronts <= floor or all(x.conflict_free and x.vector_bytes == 16
                                         for x in (w0, r0)):
        return choice
    sides = prepare(writer, reader, choice.shape, choice.dtype)
    best = (choice.wavefronts, w0.requests + r0.requests,
            _footprint(smem_addresses(choice.layout, choice.shape), nbytes))
    found = None
    tries = [(c.name, c.layout, None, c, None) for c in choice.candidates[:top]]
    # matrix layouts only for a side that is not already at conflict-free 16-byte rows
    needy = tuple(who for who, x in (("reader", r0), ("writer", w0))
                  if not (x.conflict_free and x.vector_bytes == 16))
    tries += [(n, lay, a, None, who) for n, lay, a, who in instruction_candidates(sides, needy)]
    budget.check("the instruction-aware staging costs", len(tries), "search")
    plain_kinds, every = ("vector", "packed"), ("vector", "packed", "matrix")
    # a matrix side costs the same under every row swizzle of its layout (each matrix
    # stays in one 128-byte line): costed once per construction
    matrix_cost: dict[str, tuple[int, int] | None] = {}
    caches: dict[bool, dict] = {True: {}, False: {}}  # reordered register files per side
    settled: set[str] = set()  # constructions whose other side is already conflict-free
    for name, layout, addr, costed, who in tries:
        if addr is None:
            addr = smem_addresses(layout, choice.shape)
        construction = name.rsplit(" ", 1)[0]
        if who is not None:
            if construction not in matrix_cost:
                rf = sides.writer if who == "writer" else sides.reader
                m = matrix_access(rf, addr, "trans" in construction)
                matrix_cost[construction] = None if m is None else _cost(matrix_report(
                    rf, addr, choice.dtype, m, who == "writer", worst=False))
            fixed = matrix_cost[construction]
            if fixed is None or construction in settled:
                continue
            rf, store = (sides.reader, False) if who == "writer" else (sides.writer, True)
            other = best_access(rf, addr, choice.dtype, store, worst=False,
                                kinds=plain_kinds, cache=caches[store])
            if other.conflict_free:  # further row swizzles cannot do better
                settled.add(construction)
            cost = (fixed[0] + other.wavefronts, fixed[1] + other.requests)
        else:
            w = best_access(sides.writer, addr, choice.dtype, True,
                            None if costed is None else costed.write, worst=False,
                            kinds=every, cache=caches[True])
            r = best_access(sides.reader, addr, choice.dtype, False,
                            None if costed is None else costed.read, worst=False,
                            kinds=every, cache=caches[False])
            cost = (w.wavefronts + r.wavefronts, w.requests + r.requests)
        key = (*cost, _footprint(addr, nbytes))
        if key < best:
            best, found = key, (name, layout, addr, () if costed is None else
                                costed.accepted_by)
            if best[0] <= floor:  # no layout moves more bytes per wavefront
                break
    if found is None:
        return choice
    name, layout, addr, accepted = found
    w = best_access(sides.writer, addr, choice.dtype, True, cache=caches[True])
    r = best_access(sides.reader, addr, choice.dtype, False, cache=caches[False])
    note = (f"staged with {w.mechanism} stores and {r.mechanism} loads through {name}: "
            f"{w.wavefronts + r.wavefronts} wavefronts and {w.requests + r.requests} "
            f"instructions, against {choice.wavefronts} and {w0.requests + r0.requests} "
            f"with consecutive-slot vectors ({choice.name})")
    return SmemChoice(layout, name, w, r, min(choice.ideal, w.ideal + r.ideal), accepted,
                      choice.family, choice.shape, choice.dtype, choice.candidates,
                      choice.searched + len(tries), choice.notes + (note,))


def _cost(r: AccessReport) -> tuple[int, int]:
    return r.wavefronts, r.requests


def _footprint(addr: np.ndarray, nbytes: int) -> int:
    return (int(addr.max()) + 1) * nbytes if addr.size else 0


def _sides(grids, addr: np.ndarray, choice: SmemChoice, nbytes: int) -> tuple[Side, Side]:
    none = Side(1, np.zeros((0, WARP, 0), np.int64), 0)
    store = none if grids[0] is None else _side(grids[0], addr, choice.write, nbytes)
    load = none if grids[1] is None else _side(grids[1], addr, choice.read, nbytes)
    return store, load


def _in_passes(whole: Staging, src: Layout, dst: Layout, shape: tuple[int, ...], dtype: str,
               grids) -> Staging | None:
    """The exchange in passes through a smaller buffer (:mod:`.chunking`), when that
    costs no more wavefronts and no more instructions per warp than ``whole``."""
    if isinstance(src, ComposeLayout) or isinstance(dst, ComposeLayout) or \
            whole.bytes <= MIN_PASS_BYTES:
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
