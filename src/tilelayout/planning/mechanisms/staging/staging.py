"""A tile staged through shared memory: vectorized stores, a barrier, vectorized loads.

The shared-memory layout is the one :func:`~.smem_choice.choose_smem_layout`
picks for the source (writer) and destination (reader) -- or the side that is itself a
shared-memory tile -- and each side's cost is its
:func:`~.access.smem_access` report (docs/data-movement.md). This module adds
what a plan needs on top: which source holder stores each element (one per element: the first
replica), and for the machine model the start address of every (warp, lane, vector).

>>> import tilelayout as tl
>>> from tilelayout.planning.model.placement import place
>>> src, dst = place(tl.parse("S[(32,32):(1@laneid,1)]"), tl.parse("S[(32,32):(1,1@laneid)]"), None)
>>> s = stage_through(src, dst, "float32")
>>> (s.choice.write.vector_bytes, s.choice.read.vector_bytes, s.wavefronts)
(16, 16, 64)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ....algebra.slicing import slice_layout
from ....core import budget
from ....core.compose import ComposeLayout, Layout
from ....core.dtypes import dtype_bytes
from ....core.errors import LayoutError
from ....core.frozen import freeze_fields
from ...model.placement import (
    WARP,
    Placement,
    joint_warps,
)
from ...model.threads import (
    RegisterFile,
    register_file,
    slot_vectors,
    wide_instructions,
    writer_of,
)
from ...problem.targeting import TargetChoice, kinds_for
from .access import AccessReport, footprint, no_access, smem_addresses, vector_ok
from .chunking import chunk_digits, common_digits
from .costing import Sides, prepare
from .instruction_layouts import instruction_candidates
from .instructions import (
    ROW_BYTES,
    MatrixAccess,
    best_access,
    byte_matrix_access,
    matrix_access,
    matrix_report,
    packed_order,
    schedule_again,
)
from .smem_choice import SmemChoice, widest_choice

#: a staging in passes is searched only for a whole-tile buffer above this many bytes
#: per warp (2 KB for a warpgroup): smaller buffers hardly limit occupancy, and the
#: search for a pass's layout costs more than planning the rest. Per warp, so that every
#: warp doing the same exchange is planned as one warp doing it
MIN_PASS_BYTES_PER_WARP = 512


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
    #: ldmatrix / stmatrix: per pass, the instructions' row addresses and register slots
    matrix: tuple[MatrixAccess, ...] | None = None

    def __post_init__(self) -> None:
        freeze_fields(self)  # its arrays are read-only through it


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

    def __post_init__(self) -> None:
        freeze_fields(self)  # its arrays are read-only through it

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
        m = schedule_again(rf, addr, report.matrix)
        if m is None:
            raise LayoutError("internal: the ldmatrix / stmatrix schedule does not fit")
        return Side(1, np.zeros((0, WARP, 0), np.int64), len(m.counts), matrix=(m,))
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
    first = slot_vectors(grid, k)[..., 0]
    start = np.where(first >= 0, addr[np.maximum(first, 0)], -1)
    per_warp = int((start >= 0).any(axis=1).sum(axis=1).max(initial=0))
    return Side(k, start, per_warp)


def _given_side(layout: Layout, addr: np.ndarray, shape: tuple[int, ...], dtype: str,
                store: bool, on: TargetChoice | None) -> AccessReport:
    """One side's access to a given shared-memory tile with the cheapest instruction kind
    the target has (fewest wavefronts, then fewest instructions:
    :func:`.mechanisms.best_access`)."""
    rf = register_file(layout, shape, "writer" if store else "reader")
    return best_access(rf, addr, dtype, store, kinds=kinds_for(on, store))


def stage_through(src: Placement, dst: Placement, dtype: str,
                  gwarp: tuple[np.ndarray, np.ndarray] | None = None,
                  src_rows: np.ndarray | None = None, on: TargetChoice | None = None,
                  max_bytes: int | None = None) -> Staging:
    """Choose (or take) the shared-memory tile between ``src`` and ``dst`` and measure both
    sides; ``src_rows`` are the source rows that store (default: all); ``on``: the target
    (instruction kinds and swizzle modes; None: every target's). ``max_bytes``: the
    caller has a plan in that many bytes, so a buffer over it cannot win: the whole
    tile's instruction search is skipped where the tile alone is larger, and a staging
    within it is preferred."""
    shape = src.shape
    if gwarp is None:
        gwarp = joint_warps(src, dst)
    warps = int(max(gwarp[0].max(initial=-1), gwarp[1].max(initial=-1))) + 1
    rows_s = np.arange(src.rows) if src_rows is None else src_rows
    nbytes = dtype_bytes(dtype)
    if "shared" in (src.role, dst.role):
        smem = src.layout if src.role == "shared" else dst.layout
        addr = smem_addresses(smem, shape)
        write = _given_side(writer_of(src.layout), addr, shape, dtype, True, on) \
            if src.role == "registers" else no_access(dtype)
        read = _given_side(dst.layout, addr, shape, dtype, False, on) \
            if dst.role == "registers" else no_access(dtype)
        choice = SmemChoice(smem, "given", write, read, write.ideal + read.ideal, (),
                            "given", shape, dtype, (), target=None if on is None else on.name,
                            target_from="" if on is None else on.why)
    else:
        sides = prepare(writer_of(src.layout), dst.layout, shape, dtype)  # once, for both
        choice = widest_choice(writer_of(src.layout), dst.layout, shape, dtype, on, sides=sides)
    grids = (slot_grid(src, rows_s, gwarp[0], warps) if src.role == "registers" else None,
             slot_grid(dst, np.arange(dst.rows), gwarp[1], warps) if dst.role == "registers"
             else None)
    whole = _whole(choice, grids, shape, nbytes)
    if "shared" in (src.role, dst.role):
        return whole
    options = [whole]
    passes = _in_passes(whole, writer_of(src.layout), dst.layout, shape, dtype, grids, on)
    if passes is not None:
        options.append(passes)
    # a staging at both floors (every wavefront 128 bytes, every instruction 16 bytes per
    # lane) in the smaller buffer cannot be beaten: the whole tile's instruction search
    # is skipped then
    whole_fits = max_bytes is None or math.prod(shape) * nbytes <= max_bytes
    if whole_fits and (passes is None or rank(passes)[:2] > _floors(grids, nbytes)):
        better = with_instructions(choice, writer_of(src.layout), dst.layout, on=on,
                                   sides=sides)
        if better is not choice:
            options.append(_whole(better, grids, shape, nbytes))
    fits = [o for o in options if max_bytes is None or o.bytes <= max_bytes]
    return min(fits or options, key=rank)


def _floors(grids, nbytes: int) -> tuple[int, int]:
    """The fewest wavefronts (128 bytes each) and instructions per warp (16 bytes per
    lane each) any staging of these register files takes."""
    wavefronts = instructions = 0
    for g in grids:
        if g is None:
            continue
        wavefronts += math.ceil(int((g >= 0).sum()) * nbytes / 128)
        instructions += int(wide_instructions(g, 8 * nbytes).max(initial=0))
    return wavefronts, instructions


def rank(s: Staging) -> tuple[int, int, int, int]:
    """The order of preference of stagings: fewest wavefronts, then fewest shared-memory
    instructions per warp, then the smaller buffer, then fewer passes (barriers)."""
    return (s.wavefronts, s.store.per_warp + s.load.per_warp, s.bytes, s.passes)


def _whole(choice: SmemChoice, grids, shape: tuple[int, ...], nbytes: int) -> Staging:
    addr = smem_addresses(choice.layout, shape)
    store, load = _sides(grids, addr, choice, nbytes)
    return Staging(choice, footprint(addr, nbytes), store, load)


def with_instructions(choice: SmemChoice, writer: Layout, reader: Layout,
                      top: int = 1, on: TargetChoice | None = None, *,
                      sides: Sides | None = None) -> SmemChoice:
    """``choice`` or a cheaper staging that packs non-adjacent registers or uses
    ldmatrix / stmatrix (:mod:`.mechanisms`): the ``top`` best candidates of ``choice``
    and the layouts of :mod:`.instruction_layouts`, each side costed with the instruction
    kinds that fit. Fewest wavefronts win, then fewest instructions, then fewer bytes.
    A choice whose sides both move conflict-free 16-byte vectors is kept as it is.
    ``sides``: ``prepare(writer, reader, choice.shape, choice.dtype)`` when the caller
    has it (:mod:`.costing`)."""
    w0, r0 = choice.write, choice.read
    nbytes = dtype_bytes(choice.dtype)
    # no access moves more than 128 bytes per wavefront: at that bound only the
    # instruction count could improve
    floor = 2 * math.ceil(math.prod(choice.shape) * nbytes / 128)
    if all(x.conflict_free and x.vector_bytes == 16 for x in (w0, r0)):
        return choice  # no instruction moves more than 16 bytes per lane
    if sides is None:
        sides = prepare(writer, reader, choice.shape, choice.dtype)
    # every instruction moves at most 16 bytes per lane
    least = sum(int(wide_instructions(rf.table, 8 * nbytes).sum())
                for rf in (sides.writer, sides.reader))
    best = (choice.wavefronts, w0.requests + r0.requests,
            footprint(smem_addresses(choice.layout, choice.shape), nbytes))
    found = None
    tries = [(c.name, c.layout, None, c, None) for c in choice.candidates[:top]]
    # matrix layouts for both sides: one built for a side that already moves 16-byte
    # rows may still let the other side issue fewer instructions
    matrix_sides = ("reader", "writer") if on is None else on.matrix_sides(nbytes == 1)
    tries += [(n, lay, a, None, who)
              for n, lay, a, who in instruction_candidates(sides, matrix_sides)]
    budget.check("the instruction-aware staging costs", len(tries), "search")
    plain_kinds = ("vector", "packed")
    kinds = {True: kinds_for(on, True), False: kinds_for(on, False)}
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
                m = byte_matrix_access(rf, addr, who == "writer") if nbytes == 1 else \
                    matrix_access(rf, addr, "trans" in construction, ROW_BYTES // nbytes)
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
                            kinds=kinds[True], cache=caches[True])
            r = best_access(sides.reader, addr, choice.dtype, False,
                            None if costed is None else costed.read, worst=False,
                            kinds=kinds[False], cache=caches[False])
            cost = (w.wavefronts + r.wavefronts, w.requests + r.requests)
        key = (*cost, footprint(addr, nbytes))
        if key < best:
            best, found = key, (name, layout, addr, () if costed is None else
                                costed.accepted_by)
            if best[0] <= floor and best[1] <= least:  # no layout does better
                break
    if found is None:
        return choice
    name, layout, addr, accepted = found
    w = best_access(sides.writer, addr, choice.dtype, True, kinds=kinds[True],
                    cache=caches[True])
    r = best_access(sides.reader, addr, choice.dtype, False, kinds=kinds[False],
                    cache=caches[False])
    note = (f"staged with {w.mechanism} stores and {r.mechanism} loads through {name}: "
            f"{w.wavefronts + r.wavefronts} wavefronts and {w.requests + r.requests} "
            f"instructions, against {choice.wavefronts} and {w0.requests + r0.requests} "
            f"with consecutive-slot vectors ({choice.name})")
    return SmemChoice(layout, name, w, r, min(choice.ideal, w.ideal + r.ideal), accepted,
                      choice.family, choice.shape, choice.dtype, choice.candidates,
                      choice.searched + len(tries), choice.notes + (note,), choice.target,
                      choice.target_from)


def _cost(r: AccessReport) -> tuple[int, int]:
    return r.wavefronts, r.requests


def _sides(grids, addr: np.ndarray, choice: SmemChoice, nbytes: int) -> tuple[Side, Side]:
    none = Side(1, np.zeros((0, WARP, 0), np.int64), 0)
    store = none if grids[0] is None else _side(grids[0], addr, choice.write, nbytes)
    load = none if grids[1] is None else _side(grids[1], addr, choice.read, nbytes)
    return store, load


def _in_passes(whole: Staging, src: Layout, dst: Layout, shape: tuple[int, ...], dtype: str,
               grids, on: TargetChoice | None = None) -> Staging | None:
    """The exchange in passes through a smaller buffer (:mod:`.chunking`): one pass's
    tile chosen as a whole tile is (:func:`widest_choice`, then
    :func:`with_instructions`, so passes combine with packed registers and ldmatrix /
    stmatrix); None when the tile does not split."""
    warps = max(g.shape[0] for g in grids if g is not None)
    if isinstance(src, ComposeLayout) or isinstance(dst, ComposeLayout) or \
            whole.bytes <= MIN_PASS_BYTES_PER_WARP * warps:
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
        w, r = slice_layout(src, digits, region), slice_layout(dst, digits, region)
        both = prepare(w, r, sub, dtype)
        part = widest_choice(w, r, sub, dtype, on, sides=both)
        part = with_instructions(part, w, r, on=on, sides=both)
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
    sides = [_pass_side(g, local, rep, nbytes, chunk, passes)
             for g, rep in zip(grids, (part.write, part.read), strict=True)]
    if sides[0] is None or sides[1] is None:
        return None
    return Staging(part, footprint(local, nbytes), sides[0], sides[1], passes, chunk)


def _pass_side(grid: np.ndarray | None, local: np.ndarray, report: AccessReport,
               nbytes: int, chunk: np.ndarray, passes: int) -> Side | None:
    """One side of a staging in passes for the machine model, or None when its vectors
    (or matrices) straddle passes."""
    if grid is None:
        return Side(1, np.zeros((0, WARP, 0), np.int64), 0)
    if report.matrix is not None:
        held = np.where(grid >= 0, chunk[np.maximum(grid, 0)], -1)
        ms = []
        for k in range(passes):
            rf = RegisterFile(np.where(held == k, grid, -1), (), (), False)
            m = schedule_again(rf, local, report.matrix)
            if m is None:
                return None
            ms.append(m)
        return Side(1, np.zeros((0, WARP, 0), np.int64), sum(len(m.counts) for m in ms),
                    matrix=tuple(ms))
    k = max(1, report.vector_bytes // nbytes)
    order = None
    if report.slot_order is not None:
        # the pass's order numbers the pass's slots: the whole grid's slots in the order
        # of (pass, address) (packed_order; None there: the slots' own order)
        by_pass = chunk * (int(local.max()) + 1) + local
        order = packed_order(RegisterFile(grid, (), (), False), by_pass) \
            or tuple(range(grid.shape[2]))
    g = grid if order is None else grid[:, :, list(order)]
    side = _vector_side(g, local, k)
    # every vector at consecutive, aligned addresses (vector_ok) and in one pass (_pass_of)
    if not vector_ok(RegisterFile(g, (), (), False), local, k):
        return None
    of = _pass_of(g, k, chunk)
    if of is None:
        return None
    return Side(k, side.start, side.per_warp, of, order)


def _pass_of(grid: np.ndarray, k: int, chunk: np.ndarray) -> np.ndarray | None:
    """The pass of every (warp, lane, vector), or None if a vector straddles passes."""
    g = slot_vectors(grid, k)
    c = np.where(g >= 0, chunk[np.maximum(g, 0)], -1)
    if not ((c == c[..., :1]) | (g < 0)).all():
        return None
    return c[..., 0]
