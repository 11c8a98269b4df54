"""Any bijective XOR-linear shared-memory layout of a 2^n-element tile.

The family is every ``ComposeLayout(XorSwizzle(images), row-major tile)``: address bit
``k`` is the XOR of some set of the flat index's bits, an invertible n x n matrix over
F2 (Triton's shared linear layouts). Costs depend on the matrix only through three
things, which the synthesis picks directly instead of searching GL(n, 2):

* **vectors**: a side moves ``2^j``-element vectors iff its first ``j`` register-slot
  vectors are address bits ``0..j-1`` and its other hardware vectors span the rest;
  every split ``(j_writer, j_reader)`` the two sides allow is tried;
* **banks**: a side is conflict-free iff no nonzero combination of its phase lanes
  (the lanes served together) lands in the span of the line bits (address bits at and
  above one 128-byte line) plus its own within-access bits. The line bits are chosen
  one by one avoiding both sides' spans (over F2 a space is never the union of two
  proper subspaces, so a choice avoiding both exists while both are proper);
* the order of the remaining (bank) bits does not matter.

Each constructed layout is then costed exactly (:func:`~tilelayout.planning.mechanisms.staging.costing.cost`),
together with the hardware swizzle family (also XOR-linear), and the best wins; the
report says how far it is from the lower bound.

Requires the writer and reader to be F2-linear maps of (warp, lane, slot) bits — power-
of-two extents and strides, as Triton's linear layouts.

>>> import tilelayout as tl
>>> from tilelayout.planning.mechanisms.staging.costing import prepare
>>> rows = tl.parse("S[(32,8):(1@laneid,1)]")
>>> costed, notes = xor_candidates(prepare(rows, rows, (32, 8), "float16"))
>>> min(c.wavefronts for c in costed)
8
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ....core import budget, f2
from ....core.compose import ComposeLayout, Layout
from ....core.dtypes import dtype_bytes
from ....core.errors import LayoutError
from ....core.f2 import Subspace
from ....core.targets import Target
from ....core.tile import TileLayout
from ....core.xor_swizzle import XorSwizzle
from ...model.threads import WARP, RegisterFile
from .access import MAX_VECTOR_BYTES, vector_ok
from .costing import Costed, Sides, cost
from .swizzle_family import swizzle_candidates


def inverse_columns(columns: Sequence[int], n: int) -> list[int]:
    """``images`` of the inverse: ``columns[k]`` is the index vector at address bit ``k``;
    returns, for each index bit ``i``, the address it maps to (:func:`tilelayout.core.f2.inverse`
    of the first ``n`` columns).

    >>> inverse_columns([1, 3], 2)      # address bit 1 holds index vector 0b11
    [1, 3]
    """
    return list(f2.inverse(columns[:n]))


# -- the two sides as F2 maps --------------------------------------------------------------
@dataclass(frozen=True)
class LinearSide:
    """A side's hardware vectors: the index vector each slot / lane / warp bit adds
    (0 for a broadcast bit, None for an unused one)."""

    slots: tuple[int | None, ...]
    lanes: tuple[int | None, ...]
    warps: tuple[int | None, ...]

    def others(self, j: int) -> list[int]:
        """Every nonzero hardware vector except the first ``j`` slot vectors."""
        return [v for v in self.slots[j:] + self.lanes + self.warps if v]


def _bits(count: int) -> int:
    return max(count - 1, 0).bit_length()


def linear_side(rf: RegisterFile, what: str) -> LinearSide:
    """The side as an F2-linear map, or a one-line error saying it is not one."""
    t = rf.table
    w, l, s = t.shape
    nb = (_bits(w), _bits(l), _bits(s))
    full = np.full((1 << nb[0], 1 << nb[1], 1 << nb[2]), -1, dtype=np.int64)
    full[:w, :l, :s] = t
    x0 = int(full[0, 0, 0])
    if x0 < 0:
        raise LayoutError(f"family='any' needs the {what}'s warp 0, lane 0, slot 0 to hold "
                          f"an element")
    def vec(idx: tuple[int, int, int]) -> int | None:
        v = int(full[idx])
        return None if v < 0 else v ^ x0
    slots = tuple(vec((0, 0, 1 << b)) for b in range(nb[2]))
    lanes = tuple(vec((0, 1 << b, 0)) for b in range(nb[1]))
    warps = tuple(vec((1 << b, 0, 0)) for b in range(nb[0]))
    # every held cell must be x0 XOR its bits' vectors; unused bits must hold nothing
    grids = np.meshgrid(*(np.arange(1 << k) for k in nb), indexing="ij")
    expect = np.full(full.shape, x0, dtype=np.int64)
    usable = np.ones(full.shape, dtype=bool)
    for g, vecs in zip(grids, (warps, lanes, slots), strict=True):
        for b, v in enumerate(vecs):
            on = (g >> b) & 1 == 1
            if v is None:
                usable &= ~on
            else:
                expect ^= np.where(on, v, 0)
    if np.any(full[usable] != expect[usable]) or np.any(full[~usable] >= 0):
        raise LayoutError(f"family='any' needs F2-linear layouts (power-of-two extents and "
                          f"strides); the {what} is not one: use family='swizzle'")
    return LinearSide(slots, lanes, warps)


# -- synthesis -----------------------------------------------------------------------------
def _pick(pool: Sequence[int], taken: Subspace, avoid: Sequence[Subspace]) -> int | None:
    """A vector of span(pool) outside ``taken`` and outside every ``avoid`` span (each
    contains ``taken``) that some pool vector escapes; the others cannot be avoided."""
    free = [v for v in pool if v not in taken]
    if not free:
        return None
    outside = []
    for a in avoid:
        b = next((v for v in free if v not in a), None)
        if b is not None:
            outside.append((b, a))
    if not outside:
        return free[0]
    if len(outside) == 1:
        return outside[0][0]
    (b1, a1), (b2, a2) = outside
    if b1 not in a2:
        return b1
    if b2 not in a1:
        return b2
    return b1 ^ b2  # b1 in a2, b2 in a1: the sum is in neither


def phase_lanes(side: LinearSide, j: int, nbytes: int) -> list[int]:
    """The lane vectors of one phase when the side moves ``2^j``-element vectors.

    >>> side = LinearSide((1, 2, 4), (8, 16, 32, 64, 128), ())
    >>> phase_lanes(side, 3, 2), phase_lanes(side, 1, 2)   # 16-byte / 4-byte accesses
    ([8, 16, 32], [8, 16, 32, 64, 128])
    """
    access = max((1 << j) * nbytes, 4)
    return [v for v in side.lanes[:_bits(WARP * 4 // access)] if v]


def synthesize(w: LinearSide, r: LinearSide, jw: int, jr: int, n: int, nbytes: int
               ) -> list[int] | None:
    """Address-bit columns (the index vector at each address bit) for the vector split
    ``(jw, jr)``, or None when the split is impossible."""
    long_, short, jl, js = (w, r, jw, jr) if jw >= jr else (r, w, jr, jw)
    if any(not v for v in long_.slots[:jl]) or long_.slots[:js] != short.slots[:js]:
        return None
    columns = list(long_.slots[:jl])
    if Subspace(columns).dim != jl:
        return None
    pool = long_.others(jl)               # the long side's vectors align only if the
    pool_span = Subspace(pool)                # other address bits come from their span
    word = max((4 // nbytes).bit_length() - 1, 0)   # address bits inside a 4-byte word
    low = min(max(jl, word), n)
    lines = max(n - (128 // nbytes).bit_length() + 1, 0)   # address bits above a line
    phases = [phase_lanes(w, jw, nbytes), phase_lanes(r, jr, nbytes)]
    # bits inside a word: lanes served together that share a word cost nothing
    for v in [v for p in phases for v in p] + pool:
        if len(columns) >= low:
            break
        if v in pool_span and v not in Subspace(columns):
            columns.append(v)
    if len(columns) < low:
        return None
    # the line bits: outside each side's phase lanes + the bits below them
    top: list[int] = []
    for _ in range(lines):
        taken = columns + top
        v = _pick(pool, Subspace(taken), [Subspace(taken + p) for p in phases])
        if v is None:
            return None
        top.append(v)
    every = Subspace(columns + top)
    middle = [v for v in pool if every.add(v)]
    out = columns + middle + top
    return out if len(out) == n else None


def _row_major(shape: tuple[int, ...]) -> TileLayout:
    strides = [math.prod(shape[d + 1:]) for d in range(len(shape))]
    return TileLayout([(e, s, "m") for e, s in zip(shape, strides, strict=True)])


def xor_layout(images: Sequence[int], shape: tuple[int, ...]) -> Layout:
    """``ComposeLayout(XorSwizzle(images), row-major tile)`` (just the tile when the
    swizzle is the identity).

    >>> str(xor_layout([1, 2, 12, 8], (4, 4)))
    'ComposeLayout(XorSwizzle(1,2,12,8), S[(4,4):(4,1)])'
    """
    tile = _row_major(shape)
    if all(v == 1 << k for k, v in enumerate(images)):
        return tile
    return ComposeLayout(XorSwizzle(list(images)), tile)


def _max_vector(rf: RegisterFile, nbytes: int) -> int:
    j = 0
    while (1 << (j + 1)) * nbytes <= MAX_VECTOR_BYTES and vector_ok(rf, None, 1 << (j + 1)):
        j += 1
    return j


def xor_candidates(sides: Sides, target: Target | None = None,
                   enough: Callable[[Costed], bool] | None = None
                   ) -> tuple[list[Costed], list[str]]:
    """The XOR-linear candidates (one per feasible vector split) and the hardware swizzle
    family, costed; plus notes for the report. When a synthesized layout is ``enough``
    (e.g. it reaches the lower bounds), the hardware family is not costed."""
    shape = sides.shape
    size = math.prod(shape)
    if size & (size - 1) or size < 2:
        raise LayoutError(f"family='any' needs a tile of 2^n elements; {tuple(shape)} has "
                          f"{size}: use family='swizzle'")
    n = size.bit_length() - 1
    nbytes = dtype_bytes(sides.dtype)
    w = linear_side(sides.writer, "writer")
    r = linear_side(sides.reader, "reader")
    splits = [(jw, jr) for jw in range(_max_vector(sides.writer, nbytes) + 1)
              for jr in range(_max_vector(sides.reader, nbytes) + 1)]
    # with ``enough``, the hardware family is listed (and counted) only when it is costed
    family = [] if enough is not None else swizzle_candidates(shape, sides.dtype, target)
    budget.check("family='any' costs", len(splits) + len(family), "search")
    costed: list[Costed] = []
    seen: set[tuple[int, ...]] = set()
    flat = np.arange(size, dtype=np.int64)
    for jw, jr in sorted(splits, key=lambda s: -(s[0] + s[1])):
        columns = synthesize(w, r, jw, jr, n, nbytes)
        if columns is None:
            continue
        images = tuple(inverse_columns(columns, n))
        if images in seen:
            continue
        seen.add(images)
        addr = np.zeros(size, dtype=np.int64)
        for k, v in enumerate(images):
            addr ^= np.where((flat >> k) & 1 == 1, v, 0)
        layout = xor_layout(images, shape)
        costed.append(cost(sides, f"xor(vectors {1 << jw}/{1 << jr})", layout, (), addr))
    if enough is not None and costed and not any(enough(c) for c in costed):
        family = swizzle_candidates(shape, sides.dtype, target)
        budget.check("family='any' costs", len(splits) + len(family), "search")
    costed += [cost(sides, c.name, c.layout, c.accepted_by) for c in family]
    notes = [f"{len(seen)} XOR-linear layouts synthesized (one per vector split), "
             f"{len(family)} hardware swizzles"]
    return costed, notes
