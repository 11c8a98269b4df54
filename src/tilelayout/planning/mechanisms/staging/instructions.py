"""Instruction kinds a staging may use beyond smem_access's consecutive-slot vectors.

:func:`~tilelayout.planning.mechanisms.staging.access.smem_access` moves register slots ``[v*k, (v+1)*k)``
of every lane as one vector (``ld.shared`` / ``st.shared``). A conversion plan may also:

* **pack** register slots that are not adjacent: a register permutation inside each
  thread is free (register allocation), so the slots are put in the order of their
  shared-memory addresses first (one order for every lane) and then vectorized —
  two 16-bit registers whose addresses are adjacent move as one 4-byte access;
* use **ldmatrix / stmatrix** (``.x1`` / ``.x2`` / ``.x4``, with and without ``.trans``)
  for 16-bit and 32-bit elements: each 8x8 matrix is eight 16-byte rows whose addresses eight lanes
  supply; without ``.trans`` lane ``t`` holds row ``t/4``, elements ``2(t%4)`` and
  ``2(t%4)+1`` in one 32-bit register, with ``.trans`` elements ``t/4`` of rows
  ``2(t%4)`` and ``2(t%4)+1``; 32-bit elements move as pairs of halves without
  ``.trans`` (lane ``t``: element ``t%4`` of row ``t/4``), and 8-bit elements as
  pairs of bytes without ``.trans`` (lane ``t``: bytes ``4(t%4) .. 4(t%4)+3`` of row
  ``t/4``; the bit planner's schedule, :func:`matrix_access` with ``width`` 16).
  Costed with the same wavefront model: every row address is one 16-byte access,
  phases of 8 lanes.
* use the **8-bit forms** ``ldmatrix .m16n16`` / ``stmatrix .m16n8`` (``.trans``) for
  8-bit elements where the target has them (:mod:`.byte_matrix`; kind ``matrix.b8``).

:func:`best_access` costs every kind that fits a side and keeps the cheapest (fewest
wavefronts, then fewest instructions); its :class:`AccessReport` names the kind in
``mechanism`` and carries what the machine model needs (``slot_order`` / ``matrix``).

>>> import tilelayout as tl
>>> from tilelayout.planning.model.threads import register_file
>>> cols = register_file(tl.parse("S[(32,32):(1,1@laneid)]"), (32, 32))     # lane = column
>>> addr = smem_addresses_of_transposed_rows()
>>> r = best_access(cols, addr, "float16", store=False)
>>> r.mechanism, r.requests, r.wavefronts
('ldmatrix.x4.trans', 4, 16)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ....analysis.conflicts import WARP, wavefronts_batch
from ....core.dtypes import dtype_bytes
from ....core.frozen import freeze_fields
from ...model.threads import RegisterFile
from .access import AccessReport, _worst, access_report, ideal_batch
from .byte_matrix import (
    LOAD_FORM,
    STORE_FORM,
    byte_lane_addresses,
    byte_schedule,
    split_matrices,
)

#: bytes of one matrix row (eight rows make an 8x8 matrix of 16-bit halves)
ROW_BYTES = 16
#: the b16 matrix rows in 16-bit elements (32-bit data moves as pairs: 4 per row)
ROW = 8
#: element sizes ldmatrix / stmatrix move: 16-bit halves, and 32-bit values as pairs
MATRIX_BYTES = (2, 4)


@dataclass(frozen=True, eq=False)
class MatrixAccess:
    """An ldmatrix / stmatrix schedule: ``rows[w, q, i]`` is the element address of the
    16-byte row lane ``i`` supplies in instruction ``q`` of warp ``w`` (-1: none);
    ``slots[q, j, e]`` the register slot that receives half ``e`` of matrix ``j``
    (every lane alike; -1: none); ``counts[q]`` the matrices of instruction ``q``
    (x1/x2/x4). ``width`` is the elements of one 16-byte row: 8 for 16-bit data, 4
    for 32-bit data, whose value is the pair of halves one lane receives (half 0 only),
    16 for 8-bit data (``e`` 0..3: the four bytes of one register, two 16-bit halves)."""

    trans: bool
    rows: np.ndarray
    slots: np.ndarray
    counts: tuple[int, ...]
    width: int = ROW
    #: ``"m8n8"`` (16-bit halves), or an 8-bit form of :mod:`.byte_matrix` (``"m16n16"``
    #: ldmatrix, ``"m16n8"`` stmatrix), whose ``slots[q, j, e]`` is byte ``e``'s slot
    form: str = "m8n8"

    def __post_init__(self) -> None:
        freeze_fields(self)  # its arrays are read-only through it

    def lane_addresses(self, q: int, j: int, e: int) -> np.ndarray:
        """``(warps, 32)``: the element address lane ``t`` gets as half ``e`` of matrix
        ``j`` of instruction ``q`` (the instruction's semantics)."""
        if self.form != "m8n8":
            return byte_lane_addresses(self.rows, self.form, q, j, e)
        t = np.arange(WARP)
        per = self.width // 4  # elements of one 32-bit register: 2 halves or 1 pair
        row, pos = ((2 * (t % 4) + e, t // 4) if self.trans else (t // 4, per * (t % 4) + e))
        base = self.rows[:, q, ROW * j + row]
        return np.where(base >= 0, base + pos, -1)


def smem_addresses_of_transposed_rows() -> np.ndarray:
    """Doctest helper: addresses of a 32x32 16-bit tile whose 16-byte rows hold columns
    ``h, h+4, ..., h+28`` of one tile row (the layout ``ldmatrix.trans`` wants when lane
    ``l`` must end up with column ``l``)."""
    r, c = np.divmod(np.arange(32 * 32), 32)
    return (r // 2) * 64 + (2 * (c % 4) + r % 2) * 8 + c // 4


def _reference_lane(table: np.ndarray) -> tuple[int, int]:
    held = (table >= 0).sum(axis=2)
    w, lane = np.unravel_index(int(np.argmax(held)), held.shape)
    return int(w), int(lane)


def packed_order(rf: RegisterFile, addr: np.ndarray) -> tuple[int, ...] | None:
    """Register slots in the order of their shared-memory addresses (taken from the lane
    holding the most elements; every lane uses the same order), or None if that is the
    order they already have."""
    t = rf.table
    w, lane = _reference_lane(t)
    ref = t[w, lane]
    key = np.where(ref >= 0, addr[np.maximum(ref, 0)], np.iinfo(np.int64).max)
    order = np.argsort(key, kind="stable")
    if np.array_equal(order, np.arange(len(order))):
        return None
    return tuple(int(x) for x in order)


def permuted(rf: RegisterFile, order: tuple[int, ...]) -> RegisterFile:
    """``rf`` with its slots renumbered: new slot ``i`` is old slot ``order[i]``."""
    return RegisterFile(rf.table[:, :, list(order)], rf.warps, rf.shape, rf.replicated)


def matrix_access(rf: RegisterFile, addr: np.ndarray, trans: bool, width: int = ROW,
                  copies: bool = False) -> MatrixAccess | None:
    """The ldmatrix / stmatrix schedule that moves ``rf``'s elements at ``addr`` (``width``
    per 16-byte row: 8 16-bit, 4 32-bit or 16 8-bit ones, the last two without
    ``.trans``), or None when the addresses do not fall into whole 16-byte rows the
    instruction's lane pattern serves (see the module doc). ``copies``: lanes that hold
    copies of a row's elements (a broadcast lane bit among the row lanes) each supply
    that row's address -- an ``ldmatrix`` gives each of them the row, a ``stmatrix``
    writes the same values to it twice; else such a side has no schedule.

    >>> t = np.arange(32)[:, None]                    # lane t: bytes 4(t%4).. of row t/4
    >>> rf = RegisterFile(np.arange(128).reshape(1, 32, 4), (), (), False)
    >>> addr = np.zeros(128, np.int64); addr[np.arange(128)] = (16 * (t // 4) + 4 * (t % 4)
    ...                                                        + np.arange(4)).reshape(-1)
    >>> m = matrix_access(rf, addr, False, 16)
    >>> m.counts, m.slots[0, 0].tolist(), matrix_access(rf, addr, True, 16) is None
    ((1,), [0, 1, 2, 3], True)
    """
    if trans and width != ROW:
        # .trans moves 16-bit elements: it splits a 32-bit pair's halves over two lanes,
        # and keeps two bytes together (docs/hardware.md, *m8n8 with 8-bit data*)
        return None
    t = rf.table
    W = t.shape[0]
    w, lane, slot = np.nonzero(t >= 0)
    per = width // 4  # elements of one 32-bit register: 1, 2 or 4 (8-bit data)
    if not len(w) or len(w) % (WARP * per):  # whole matrices: 8 rows of ``width``
        return None
    a = addr[t[w, lane, slot]]
    chunk, pos = np.divmod(a, width)
    # the row's lanes: without .trans lanes 4i..4i+3 (elements 2(t%4), +1); with .trans
    # lanes 4*pos + h for one h per row
    if trans:
        if np.any(lane // 4 != pos):
            return None
        group = lane % 4
    else:
        if np.any(lane % 4 != pos // per):
            return None
        group = lane // 4
    # a row is read per warp (a replicated side reads it in every warp holding it), and
    # with ``copies`` by every group of lanes holding it
    span = int(chunk.max()) + 1
    key = (w * span + chunk) * 8 + (group if copies else 0)
    uniq, inv, count = np.unique(key, return_inverse=True, return_counts=True)
    inv = inv.reshape(-1)
    if np.any(count != width):
        return None
    c_g = np.full(len(uniq), -1, dtype=np.int64)
    c_g[inv] = group
    if np.any(c_g[inv] != group):  # every row: one group of lanes
        return None
    c_w, c_chunk = np.divmod(uniq // 8, span)
    c_key = np.zeros(len(uniq), np.int64)
    at0 = pos == 0
    c_key[inv[at0]] = slot[at0]  # a row is ordered by the slot of its element 0
    order = np.lexsort((c_key, c_g, c_w))
    rank = np.zeros(len(uniq), np.int64)
    sorted_wg = c_w[order] * 8 + c_g[order]
    starts = np.r_[0, np.flatnonzero(np.diff(sorted_wg)) + 1]
    sizes = np.diff(np.r_[starts, len(order)])
    if len(set(sizes.tolist())) != 1:
        return None
    groups = 4 if trans else 8
    if len(starts) != len(np.unique(w)) * groups:  # warps holding nothing issue nothing
        return None
    rank[order] = np.arange(len(order)) - np.repeat(starts, sizes)
    per_group = int(sizes[0])
    if trans:
        if per_group % 2:
            return None
        matrices = per_group // 2
        m_of, row_of = rank // 2, 2 * c_g + rank % 2
        half = (rank % 2)[inv]
    else:
        matrices = per_group
        m_of, row_of = rank, c_g
        half = pos % per
    # one register slot per (matrix, half), the same in every lane
    m_el = m_of[inv]
    positions = max(2, per)  # a 32-bit value's lane has one, the slots array two
    slot_of = np.full((matrices, positions), -1, dtype=np.int64)
    slot_of[m_el, half] = slot
    if np.any(slot_of[m_el, half] != slot) or np.any(slot_of[:, :per] < 0):
        return None
    counts, q_of, j_of = split_matrices(matrices)
    rows = np.full((W, len(counts), WARP), -1, dtype=np.int64)
    rows[c_w, q_of[m_of], ROW * j_of[m_of] + row_of] = c_chunk * width
    slots = np.full((len(counts), 4, positions), -1, dtype=np.int64)
    slots[q_of, j_of] = slot_of
    return MatrixAccess(trans, rows, slots, counts, width)


def byte_matrix_access(rf: RegisterFile, addr: np.ndarray, store: bool
                       ) -> MatrixAccess | None:
    """The 8-bit ``stmatrix .m16n8`` (``store``) / ``ldmatrix .m16n16`` schedule that
    moves ``rf``'s bytes at ``addr`` (:mod:`.byte_matrix`), or None."""
    form = STORE_FORM if store else LOAD_FORM
    found = byte_schedule(rf.table, addr, form)
    if found is None:
        return None
    rows, slots, counts = found
    return MatrixAccess(True, rows, slots, counts, ROW_BYTES, form)


def schedule_again(rf: RegisterFile, addr: np.ndarray, m: MatrixAccess
                   ) -> MatrixAccess | None:
    """The schedule of ``m``'s kind for ``rf`` at ``addr`` (another pass, another side)."""
    if m.form != "m8n8":
        return byte_matrix_access(rf, addr, m.form == STORE_FORM)
    return matrix_access(rf, addr, m.trans, m.width)


def matrix_report(rf: RegisterFile, addr: np.ndarray, dtype: str, m: MatrixAccess,
                  store: bool, *, worst: bool = True) -> AccessReport:
    """The :class:`AccessReport` of an ldmatrix / stmatrix schedule: one request per
    (warp, instruction), every row address a 16-byte access."""
    nbytes = dtype_bytes(dtype)
    W, Q, _ = m.rows.shape
    byte = np.where(m.rows >= 0, m.rows * nbytes, -1).reshape(W * Q, WARP)
    ids = np.stack(np.divmod(np.arange(W * Q), Q), axis=1)
    keep = (byte >= 0).any(axis=1)
    byte, ids = byte[keep], ids[keep]
    waves = wavefronts_batch(byte, ROW_BYTES)
    ideal = ideal_batch(byte, ROW_BYTES)
    found = None
    if worst:
        inverse = np.full(int(addr.max()) + 1, -1, dtype=np.int64)
        inverse[addr] = np.arange(len(addr))
        first = np.where(byte >= 0, inverse[np.maximum(byte // nbytes, 0)], -1)
        found = _worst(rf, byte, first, ids, waves, ideal, ROW_BYTES)
    widest = max(m.counts)
    shape = "" if m.form == "m8n8" else f".{m.form}"
    name = (f"{'stmatrix' if store else 'ldmatrix'}{shape}.x{widest}"
            + (".trans" if m.trans else "") + (".b8" if shape else ""))
    return AccessReport(
        dtype=dtype, vector_bytes=ROW_BYTES, access_bytes=ROW_BYTES, requests=len(waves),
        wavefronts=int(waves.sum()), ideal=int(ideal.sum()), per_request=tuple(waves.tolist()),
        request_ids=tuple(map(tuple, ids.tolist())), warps=rf.warps,
        worst=found, mechanism=name, matrix=m)


def best_access(rf: RegisterFile, addr: np.ndarray, dtype: str, store: bool,
                plain: AccessReport | None = None, *, worst: bool = True,
                kinds: tuple[str, ...] = ("vector", "packed", "matrix", "matrix.b8"),
                cache: dict | None = None) -> AccessReport:
    """The cheapest way for ``rf`` to move its tile at ``addr``: consecutive-slot vectors
    (docs/data-movement.md, ``plain`` if already costed), packed slots, or ldmatrix / stmatrix (16-bit
    elements), among ``kinds``. Fewest wavefronts wins, then fewest instructions, then the
    earlier kind. ``worst=False`` leaves out the worst request (a quicker ranking);
    ``cache`` (a dict kept across calls on the same ``rf``) reuses reordered register
    files."""
    cache = {} if cache is None else cache

    def reordered(order: tuple[int, ...]) -> RegisterFile:
        if order not in cache:
            cache[order] = permuted(rf, order)
        return cache[order]

    options: list[tuple[tuple[int, int, int], str, object]] = []

    def add(r: AccessReport, kind: str, extra: object) -> None:
        options.append(((r.wavefronts, r.requests, len(options)), kind, extra))

    if "vector" in kinds:
        add(plain if plain is not None else access_report(rf, addr, dtype, worst=False),
            "vector", None)
    order = packed_order(rf, addr) if "packed" in kinds else None
    if order is not None:
        add(access_report(reordered(order), addr, dtype, worst=False), "packed", order)
    nb = dtype_bytes(dtype)
    if "matrix" in kinds and nb in MATRIX_BYTES and rf.table.shape[1] == WARP:
        for trans in (False, True):
            m = matrix_access(rf, addr, trans, ROW_BYTES // nb)
            if m is not None:
                add(matrix_report(rf, addr, dtype, m, store, worst=False), "matrix", m)
    if "matrix.b8" in kinds and nb == 1 and rf.table.shape[1] == WARP:
        m = byte_matrix_access(rf, addr, store)
        if m is not None:
            add(matrix_report(rf, addr, dtype, m, store, worst=False), "matrix", m)
    _, kind, extra = min(options, key=lambda o: o[0])
    if kind == "vector":
        return plain if plain is not None and (plain.worst is not None or not worst) \
            else access_report(rf, addr, dtype, worst=worst)
    if kind == "packed":
        assert isinstance(extra, tuple)
        return _with(access_report(reordered(extra), addr, dtype, worst=worst), "packed",
                     extra)
    assert isinstance(extra, MatrixAccess)
    return matrix_report(rf, addr, dtype, extra, store, worst=worst)


def _with(r: AccessReport, mechanism: str, order: tuple[int, ...]) -> AccessReport:
    return AccessReport(r.dtype, r.vector_bytes, r.access_bytes, r.requests, r.wavefronts,
                        r.ideal, r.per_request, r.request_ids, r.warps, r.worst,
                        mechanism=mechanism, slot_order=order)
