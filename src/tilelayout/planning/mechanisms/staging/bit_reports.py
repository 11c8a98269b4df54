"""A staging planned on bits (:mod:`.bit_staging`) in the planner's common terms: its
buffer as a layout, each side's :class:`~.access.AccessReport`, the
:class:`~.smem_choice.SmemChoice`, and -- only when a plan is executed -- the
:class:`~.staging.Staging` the machine model runs (every element's address and pass).

>>> from tilelayout.planning.model.bits import ThreadBits
>>> from tilelayout.planning.mechanisms.staging.bit_staging import BitBuffer
>>> str(buffer_layout(BitBuffer((2, 1, 4), ()), (2, 4)))
'ComposeLayout(XorSwizzle(2,1,4), S[(2,4):(4,1)])'
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ....core.capacity import SMEM_BANK_BYTES, SMEM_BANKS
from ....core.compose import ComposeLayout, Layout
from ....core.tile import TileLayout
from ....core.xor_swizzle import XorSwizzle
from ....syntax.parser import parse
from ...model.bits import ThreadBits
from ...model.placement import WARP, Placement
from ...model.threads import WarpName
from .access import BYTE_PAIRS, AccessReport, WorstRequest
from .bit_access import BYTE_PAIR_STORE
from .bit_staging import BitAccess, BitBuffer, BitStaging
from .smem_choice import SmemChoice
from .staging import Side, Staging, slot_grid


def flat_addresses(buf: BitBuffer, bits: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per bit of the flat element index, its buffer address and its pass (ints).

    >>> flat_addresses(BitBuffer((2, 1), (4,)), 3)
    ((2, 1, 0), (0, 0, 1))
    """
    parts = [buf.split(1 << p) or (0, 0) for p in range(bits)]
    return tuple(a for a, _ in parts), tuple(r for _, r in parts)


def buffer_layout(buf: BitBuffer, shape: Sequence[int]) -> Layout:
    """The buffer as a layout of the whole tile: the row-major index XOR-permuted into
    the buffer address, the pass bits above it (pass ``k`` of a staging in passes uses
    addresses ``k * size ..``; the plan reuses one buffer)."""
    n = len(buf.address)
    addr, rep = flat_addresses(buf, int(np.prod(shape, dtype=np.int64)).bit_length() - 1)
    images = tuple(a | (r << n) for a, r in zip(addr, rep, strict=True))
    tile = parse("S[" + ("(" + ",".join(map(str, shape)) + ")" if len(shape) > 1
                         else str(shape[0])) + "]") if shape else TileLayout((), ())
    if all(img == 1 << k for k, img in enumerate(images)):
        return tile
    return ComposeLayout(XorSwizzle(images), tile)


def _warp_names(layout: Layout, warps: int) -> tuple[WarpName, ...]:
    axes = [a for a in ("warpid", "wid_in_wg", "wgid") if a in layout.axes]
    name = axes[0] if len(axes) == 1 else "warp"
    return tuple(((name, w),) for w in range(warps))


def access_report(side: ThreadBits, layout: Layout, buf: BitBuffer, acc: BitAccess,
                  dtype: str, elem_bytes: int, passes: int,
                  shape: Sequence[int] | None = None) -> AccessReport:
    """One pass of ``acc`` as an :class:`~.access.AccessReport` (every request costs the
    same). Where a request has conflicts, the worst is the first one, for vectors with each
    lane's access (the lowest address of its vector, the element there as coordinates of
    ``shape``, default: the flat index) and the lanes in the conflict; a matrix access's
    rows are not listed."""
    per_pass = acc.per_warp // passes
    requests = per_pass * acc.warps
    names = _warp_names(layout, acc.warps)
    ids = tuple((w, v) for w in range(acc.warps) for v in range(per_pass))
    worst = None
    if acc.request_wavefronts > acc.request_ideal and acc.kind != "matrix":
        worst = _first_request(side, buf, acc, elem_bytes,
                               tuple(shape) if shape else (1 << side.bits,), names[0])
    mechanism = acc.instruction if acc.kind == "matrix" else \
        BYTE_PAIRS if acc.instruction == BYTE_PAIR_STORE else ("packed" if acc.packed else "vector")
    return AccessReport(dtype, acc.vector_bytes, max(4, acc.vector_bytes), requests,
                        requests * acc.request_wavefronts, requests * acc.request_ideal,
                        (acc.request_wavefronts,) * requests, ids, names, worst, mechanism,
                        matrix=acc.instruction if acc.kind == "matrix" else None)


def _first_request(side: ThreadBits, buf: BitBuffer, acc: BitAccess, elem_bytes: int,
                   shape: tuple[int, ...], warp: WarpName) -> WorstRequest:
    """Request 0 of warp 0: each lane's vector (its lowest address and the element there)
    and the lanes that ask a most-contended bank of their phase for another word."""
    addr, _ = flat_addresses(buf, side.bits)
    k = max(1, acc.vector_bytes // elem_bytes)
    inverse = _inverse(addr)
    lanes = 1 << len(side.lane)
    starts: list[int | None] = []
    for ln in range(WARP):
        if ln >= lanes:
            starts.append(None)
            continue
        e, a = side.element(0, ln, 0), 0
        for p in range(side.bits):
            if e >> p & 1:
                a ^= addr[p]
        starts.append(a & ~(k - 1))
    access = max(SMEM_BANK_BYTES, acc.vector_bytes)
    per_phase = WARP * SMEM_BANK_BYTES // access
    hot_lanes: set[int] = set()
    hot_banks: set[int] = set()
    for p0 in range(0, WARP, per_phase):
        words: dict[int, set[int]] = {}
        for ln in range(p0, p0 + per_phase):
            if starts[ln] is None:
                continue
            first = starts[ln] * elem_bytes // SMEM_BANK_BYTES  # type: ignore[operator]
            for w in range(first, first + access // SMEM_BANK_BYTES):
                words.setdefault(w % SMEM_BANKS, set()).add(w)
        most = max((len(v) for v in words.values()), default=0)
        if most < 2:
            continue
        hot = {b for b, v in words.items() if len(v) == most}
        hot_banks |= hot
        for ln in range(p0, p0 + per_phase):
            if starts[ln] is None:
                continue
            first = starts[ln] * elem_bytes // SMEM_BANK_BYTES  # type: ignore[operator]
            if any(w % SMEM_BANKS in hot for w in range(first, first + access // SMEM_BANK_BYTES)):
                hot_lanes.add(ln)
    byte = tuple(None if a is None else a * elem_bytes for a in starts)
    banks = tuple(None if b is None else b // SMEM_BANK_BYTES % SMEM_BANKS for b in byte)
    elems = tuple(None if a is None else
                  tuple(int(c) for c in np.unravel_index(_element_at(inverse, a), shape))
                  for a in starts)
    return WorstRequest(warp, 0, acc.request_wavefronts, acc.request_ideal, byte, banks, elems,
                        tuple(sorted(hot_lanes)), tuple(sorted(hot_banks)))


def _inverse(images: Sequence[int]) -> list[tuple[int, int]]:
    """Gaussian elimination of the element bits' address images: (pivot image, element
    bits) rows that solve ``address -> element`` (pass 0)."""
    rows: list[tuple[int, int]] = []
    for p, img in enumerate(images):
        v, x = img, 1 << p
        for r, rx in rows:
            if v ^ r < v:
                v, x = v ^ r, x ^ rx
        if v:
            rows.append((v, x))
            rows.sort(reverse=True)
    return rows


def _element_at(rows: list[tuple[int, int]], address: int) -> int:
    """The element (flat index) at ``address`` of pass 0 (:func:`_inverse`'s rows)."""
    e = 0
    for r, rx in rows:
        if address ^ r < address:
            address, e = address ^ r, e ^ rx
    return e


def smem_choice(staging: BitStaging, src: ThreadBits, dst: ThreadBits, src_l: Layout,
                dst_l: Layout, shape: tuple[int, ...], dtype: str, target: str | None,
                target_from: str) -> SmemChoice:
    """The staging's buffer and both sides as a :class:`~.smem_choice.SmemChoice` (the
    sides' reports describe one pass, as for every staging in passes)."""
    layout = buffer_layout(staging.buffer, shape)
    s, d = src.without_broadcast_registers(), dst.without_broadcast_registers()
    write = access_report(s, src_l, staging.buffer, staging.store, dtype, staging.elem_bytes,
                          staging.passes, shape)
    read = access_report(d, dst_l, staging.buffer, staging.load, dtype, staging.elem_bytes,
                         staging.passes, shape)
    name = f"{staging.buffer.name} ({staging.store.instruction} / {staging.load.instruction})"
    return SmemChoice(layout, name, write, read, write.ideal + read.ideal, (), "bits",
                      shape, dtype, (), 1, (), target, target_from)


def stand_in(choice: SmemChoice, staging: BitStaging) -> Staging:
    """A :class:`~.staging.Staging` that describes the bit staging for the plan's texts
    and costs (its sides' address tables are built only when the plan is executed:
    :func:`execution_staging`)."""
    empty = np.zeros((0, WARP, 0), dtype=np.int64)
    return Staging(choice, staging.bytes, Side(1, empty, staging.store.per_warp),
                   Side(1, empty, staging.load.per_warp), staging.passes)


def execution_staging(choice: SmemChoice, staging: BitStaging, ps: Placement, pd: Placement,
                      store_rows: np.ndarray, gwarp: tuple[np.ndarray, np.ndarray],
                      warps: int) -> Staging:
    """The staging the machine model runs: each register slot of each (warp, lane) moves
    one element to (from) its buffer address in its pass."""
    bits = int(np.prod(ps.shape, dtype=np.int64)).bit_length() - 1
    addr, rep = flat_addresses(staging.buffer, bits)

    def where(elements: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        a = np.zeros(elements.shape, dtype=np.int64)
        r = np.zeros(elements.shape, dtype=np.int64)
        for p in range(bits):
            on = (elements >> p) & 1 == 1
            a[on] ^= addr[p]
            r[on] ^= rep[p]
        return a, r

    def side(p: Placement, rows: np.ndarray, gw: np.ndarray, per_warp: int) -> Side:
        grid = slot_grid(p, rows, gw, warps)
        a, r = where(np.maximum(grid, 0))
        return Side(1, np.where(grid >= 0, a, -1), per_warp, np.where(grid >= 0, r, -1))

    store = side(ps, store_rows, gwarp[0], staging.store.per_warp)
    load = side(pd, np.arange(pd.rows), gwarp[1], staging.load.per_warp)
    return Staging(choice, staging.bytes, store, load, staging.passes)


__all__ = ["access_report", "buffer_layout", "execution_staging", "flat_addresses",
           "smem_choice", "stand_in"]
