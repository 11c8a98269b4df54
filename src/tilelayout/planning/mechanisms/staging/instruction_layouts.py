"""Shared-memory layouts built for the instruction kinds of :mod:`.instructions`.

The layout families of :func:`~.smem_choice.choose_smem_layout` put a side's
*consecutive* register slots at consecutive addresses. Two more constructions serve the
staging of a conversion plan (both sides F2-linear, as Triton's linear layouts):

* **packed**: the register vectors both sides hold in one lane (the intersection of the
  two register spans) go to the lowest address bits, whatever their slot order, and the
  rest is synthesized as in :mod:`.xor_family` -- so each lane can move two (or more)
  non-adjacent registers as one access;
* **matrix**: a side's lanes and one register bit are laid out as ``ldmatrix`` /
  ``stmatrix`` (with or without ``.trans``) want their 8x8 matrices of 16-byte rows, the
  other bits above; the 16-byte rows are then XOR-swizzled inside each 128-byte line by
  higher address bits (2 or 3 row bits, from the first bits above the line), which keeps the
  matrices conflict-free and spreads the other side's accesses over the banks; one more
  swizzle ("rows^phase") is built for the other side: each of its phase lanes whose
  16-byte row repeats an earlier one's is moved to a fresh row by XORing in an address
  bit above the line that only it (of the phase) uses -- Triton's transposing
  ``convert_layout`` (16-byte packed stores read by ``ldmatrix.x4.trans``) is one. For
  8-bit data the same is built for the 8-bit forms (``ldmatrix .m16n16`` for the reader,
  ``stmatrix .m16n8`` for the writer, :mod:`.byte_matrix`).

:func:`instruction_candidates` returns them as ``(name, layout, addresses)``; the staging
costs each side with :func:`~tilelayout.planning.mechanisms.staging.instructions.best_access` (matrix layouts
first: they need the fewest instructions).

>>> import tilelayout as tl
>>> from tilelayout.planning.mechanisms.staging.costing import prepare
>>> sides = prepare(tl.parse("S[(32,32):(1@laneid,1)]"), tl.parse("S[(32,32):(1,1@laneid)]"),
...                 (32, 32), "float16")
>>> names = [c[0] for c in instruction_candidates(sides)]
>>> "ldmatrix.trans(reader) none" in names
True
"""

from __future__ import annotations

import math
from types import MappingProxyType

import numpy as np

from ....core.compose import Layout
from ....core.dtypes import dtype_bytes
from ....core.errors import LayoutError
from ....core.f2 import Subspace
from .byte_matrix import FORMS, LOAD_FORM, STORE_FORM
from .costing import Sides
from .instructions import MATRIX_BYTES
from .instructions import ROW_BYTES as MATRIX_ROW_BYTES
from .xor_family import (
    LinearSide,
    inverse_columns,
    linear_side,
    phase_lanes,
    synthesize,
    xor_layout,
)

#: source bits tried for the row swizzle: the first ones above a line (a transposing
#: side's phase lanes sit there; further shifts cost time and never won in the tests)
_SHIFTS = 2


def _addresses(images: list[int], size: int) -> np.ndarray:
    flat = np.arange(size, dtype=np.int64)
    addr = np.zeros(size, dtype=np.int64)
    for k, v in enumerate(images):
        addr ^= np.where((flat >> k) & 1 == 1, v, 0)
    return addr


def _complete(columns: list[int], pool: list[int], n: int) -> list[int] | None:
    span = Subspace(columns)
    if span.dim != len(columns):
        return None
    out = list(columns) + [v for v in pool if v and span.add(v)]
    return out if len(out) == n else None


def _common_first(side: LinearSide, common: list[int]) -> LinearSide:
    span = Subspace(common)
    rest = [v for v in side.slots if v and span.add(v)]
    return LinearSide(tuple(common + rest), side.lanes, side.warps)


def _packed(w: LinearSide, r: LinearSide, n: int, nbytes: int) -> list[tuple[str, list[int]]]:
    rspan = Subspace([v for v in r.slots if v])
    common = [v for v in w.slots if v and v in rspan]
    cspan = Subspace()
    common = [v for v in common if cspan.add(v)]
    if not common or (list(w.slots[:len(common)]) == common
                      and list(r.slots[:len(common)]) == common):
        return []  # nothing to pack that consecutive slots do not already give
    w2, r2 = _common_first(w, common), _common_first(r, common)
    top = max(int(math.log2(16 // nbytes)), 0)
    out = []
    for jw in range(min(top, len(w2.slots)), -1, -1):
        for jr in range(min(top, len(r2.slots)), -1, -1):
            cols = synthesize(w2, r2, jw, jr, n, nbytes)
            if cols is not None:
                out.append((f"packed(vectors {1 << jw}/{1 << jr})", cols))
                if len(out) == 2:
                    return out
    return out


def _matrix(side: LinearSide, other: LinearSide, trans: bool, n: int, nbytes: int
            ) -> list[int] | None:
    lanes = list(side.lanes)
    if len(lanes) != 5 or not all(lanes):
        return None
    ospan = Subspace([v for v in other.slots if v])
    slots = [v for v in side.slots if v]
    if not slots:
        return None
    e = next((v for v in slots if v in ospan), slots[0])
    # 32-bit pairs: lane t holds element t % 4 of 16-byte row t / 4; 16-bit halves:
    # .trans puts lane t at column t / 4 of rows 2(t % 4) + e, else at row t / 4
    low = lanes if nbytes == 4 else (lanes[2:5] + [e] + lanes[0:2] if trans else [e] + lanes)
    # the other side's vectors next: its accesses stay wide
    pool = [v for v in other.slots if v] + slots + [v for v in side.warps if v]
    return _complete(low, pool, n)


def _byte_matrix(side: LinearSide, other: LinearSide, group: int, n: int) -> list[int] | None:
    """The 8-bit forms (:mod:`.byte_matrix`): lane ``t`` at byte ``t/4 + 8h`` of rows
    ``group (t % 4) + k``: three lane bits, then ``h`` and the ``k`` bits (register
    slots, those the other side also holds first), then two lane bits."""
    lanes = list(side.lanes)
    if len(lanes) != 5 or not all(lanes):
        return None
    ospan = Subspace([v for v in other.slots if v])
    slots = [v for v in side.slots if v]
    slots = [v for v in slots if v in ospan] + [v for v in slots if v not in ospan]
    need = 1 + (group.bit_length() - 1)
    if len(slots) < need:
        return None
    low = lanes[2:5] + slots[:need] + lanes[0:2]
    pool = [v for v in other.slots if v] + slots + [v for v in side.warps if v]
    return _complete(low, pool, n)


def _line_bits(nbytes: int) -> int:
    """Address bits (in elements) of one 128-byte line."""
    return (128 // nbytes).bit_length() - 1


def _row_swizzles(addr: np.ndarray, n: int, nbytes: int) -> list[tuple[str, np.ndarray]]:
    """``addr`` with the top ``b`` (2 or 3) of the 16-byte row bits inside a line XORed by
    ``b`` consecutive address bits from ``s`` on (above the line), for every ``b`` and
    ``s`` among the first :data:`_SHIFTS` above the line (the unswizzled layout first)."""
    out = [("none", addr)]
    line = _line_bits(nbytes)
    for b in (3, 2):
        low = line - b
        for s in range(line, min(n - b + 1, line + _SHIFTS)):
            hi = (addr >> s) & ((1 << b) - 1)
            out.append((f"rows^{b}@{s}", addr ^ (hi << low)))
    return out


def _phase_swizzle(addr: np.ndarray, cols: list[int], other: LinearSide, n: int,
                   nbytes: int) -> np.ndarray | None:
    """``addr`` with its 16-byte row bits inside a line XORed by higher address bits so
    that one phase of the *other* side's accesses (its widest vectors the low address
    bits allow) lands on distinct 16-byte rows of a line: conflict-free. Each XOR source
    is an address bit of the phase lane it serves that no earlier phase lane uses, so
    earlier lanes keep their rows; None when no such swizzle is needed or exists."""
    line = _line_bits(nbytes)
    row = (MATRIX_ROW_BYTES // nbytes).bit_length() - 1  # the first 16-byte row bit
    ospan = Subspace([v for v in other.slots if v])
    j = 0
    while j < min(row, n) and cols[j] in ospan:
        j += 1
    keep = ((1 << line) - 1) ^ ((1 << j) - 1)  # the bits that tell a phase's accesses apart
    xors: dict[int, int] = {}
    used = 0  # high address bits some earlier phase lane depends on
    chosen = Subspace()

    def seen(v: int) -> int:
        for b, m in xors.items():
            if v >> b & 1:
                v ^= m
        return v & keep

    for lane in phase_lanes(other, j, nbytes):
        image = int(addr[lane])
        c = seen(image)
        if not chosen.add(c):
            free = [b for b in range(line, n) if image >> b & 1 and not used >> b & 1]
            fix = next(((b, d << row) for b in free for d in range(1, 1 << (line - row))
                        if (c ^ d << row) not in chosen), None)
            if fix is None:
                return None
            xors[fix[0]] = fix[1]
            chosen.add(c ^ fix[1])
        used |= image & ~((1 << line) - 1)
    if not xors:
        return None
    out = addr.copy()
    for b, m in xors.items():
        out ^= np.where((addr >> b) & 1 == 1, m, 0)
    return out


#: the matrix instruction of each side
_OP = MappingProxyType({"reader": "ldmatrix", "writer": "stmatrix"})


def _swizzled(cols: list[int], other: LinearSide, shape: tuple[int, ...], nbytes: int,
              who: str, name: str) -> list[tuple[str, Layout, np.ndarray, str | None]]:
    """The matrix layout with address columns ``cols`` built for side ``who``, under each
    row swizzle (:func:`_row_swizzles`, then :func:`_phase_swizzle` for ``other``)."""
    n = len(cols)
    base = _addresses(inverse_columns(cols, n), 1 << n)
    swizzles = _row_swizzles(base, n, nbytes)
    phase = _phase_swizzle(base, cols, other, n, nbytes)
    if phase is not None:
        swizzles.append(("rows^phase", phase))
    return [(f"{name} {sw}", xor_layout([int(addr[1 << k]) for k in range(n)], shape), addr,
             who) for sw, addr in swizzles]


def instruction_candidates(sides: Sides, matrix_sides: tuple[str, ...] = ("reader", "writer")
                           ) -> list[tuple[str, Layout, np.ndarray, str | None]]:
    """The packed and matrix layouts for ``sides`` (see the module doc) as ``(name,
    layout, addresses, matrix side)`` -- the side (``"writer"`` / ``"reader"``) a matrix
    layout is built for, None for a packed one; empty when a side is not F2-linear or
    the tile is not 2^n elements. Matrix layouts are built for ``matrix_sides`` only (for
    8-bit data: the 8-bit forms, so the caller names the sides whose target has them)."""
    size = math.prod(sides.shape)
    if size < 2 or size & (size - 1):
        return []
    n = size.bit_length() - 1
    nbytes = dtype_bytes(sides.dtype)
    try:
        w = linear_side(sides.writer, "writer")
        r = linear_side(sides.reader, "reader")
    except LayoutError:
        return []
    out: list[tuple[str, Layout, np.ndarray, str | None]] = []
    if nbytes in MATRIX_BYTES and n >= _line_bits(nbytes):
        for side, other, who in ((r, w, "reader"), (w, r, "writer")):
            if who not in matrix_sides:
                continue
            for trans in (False, True) if nbytes == 2 else (False,):
                cols = _matrix(side, other, trans, n, nbytes)
                if cols is not None:
                    out += _swizzled(cols, other, sides.shape, nbytes, who,
                                     f"{_OP[who]}{'.trans' if trans else ''}({who})")
    if nbytes == 1:
        for side, other, who in ((r, w, "reader"), (w, r, "writer")):
            form = LOAD_FORM if who == "reader" else STORE_FORM
            cols = _byte_matrix(side, other, FORMS[form][0], n) if who in matrix_sides \
                else None
            if cols is not None:
                out += _swizzled(cols, other, sides.shape, nbytes, who,
                                 f"{_OP[who]}.{form}.b8({who})")
    for name, cols in _packed(w, r, n, nbytes):
        images = inverse_columns(cols, n)
        out.append((name, xor_layout(images, sides.shape), _addresses(images, size), None))
    return out
