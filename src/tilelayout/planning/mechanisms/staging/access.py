"""Shared-memory access through a distributed layout: requests, wavefronts, the worst one.

``smem_access(dist, smem, shape, dtype)`` answers "each thread stores (or loads) its
registers to a shared-memory tile: how many wavefronts does that cost?". ``dist`` places
the tile on threads and register slots (see :mod:`tilelayout.planning.model.threads`); ``smem``
places it in shared memory (a layout on ``m``, optionally swizzled). Each lane moves its
registers in vectors of ``k = vector_bytes / dtype bytes`` slots: slots ``[v*k, (v+1)*k)``
must hold elements at consecutive, ``k``-aligned shared-memory addresses. One warp-wide
request per (warp, vector index ``v``); lanes with nothing in those slots are inactive.
Each request is costed by the wavefront model of :mod:`tilelayout.analysis.conflicts`
(phases of 32/16/8 lanes, a phase costs the most distinct 4-byte words one bank is asked
for); its ideal is one wavefront per phase with an active lane. Vectorized over every
request at once.

>>> import tilelayout as tl
>>> C = tl.parse("S[(2,8,4,2):(2,4@laneid,1@laneid,1)]")          # mma.m16n8k16 C
>>> r = smem_access(C, tl.parse("S[(16,8):(8,1)]"), (16, 8), "float32")
>>> r.vector_bytes, r.requests, r.wavefronts, r.ideal
(8, 2, 4, 4)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ....analysis.conflicts import WARP, wavefronts_batch
from ....core import budget
from ....core.capacity import SMEM_BANK_BYTES, SMEM_BANKS
from ....core.compose import Layout
from ....core.dtypes import dtype_bytes
from ....core.errors import LayoutError, shown
from ....core.shape import Shape, shape_arg
from ...model.threads import RegisterFile, WarpName, register_file
from ...problem.operands import resolve

#: the widest single shared-memory access of one lane (LDS.128 / STS.128)
MAX_VECTOR_BYTES = 16


@dataclass(frozen=True)
class WorstRequest:
    """The request with the most wavefronts above its ideal (the first such one).

    ``byte_addresses``, ``banks`` and ``elements`` have one entry per lane (``None`` for an
    inactive lane): the start byte of the lane's access, its first bank, and the logical
    index of the first element it moves. ``conflict_lanes`` are the lanes that ask the
    most-contended bank of some phase for a different word than another lane does.
    """

    warp: WarpName
    vector: int
    wavefronts: int
    ideal: int
    byte_addresses: tuple[int | None, ...]
    banks: tuple[int | None, ...]
    elements: tuple[tuple[int, ...] | None, ...]
    conflict_lanes: tuple[int, ...]
    conflict_banks: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data."""
        return {"warp": dict(self.warp), "vector": self.vector, "wavefronts": self.wavefronts,
                "ideal": self.ideal, "byte_addresses": list(self.byte_addresses),
                "banks": list(self.banks),
                "elements": [None if e is None else list(e) for e in self.elements],
                "conflict_lanes": list(self.conflict_lanes),
                "conflict_banks": list(self.conflict_banks)}


#: the mechanism of a store of two bytes from two operands (``st.shared.v2.b8``)
BYTE_PAIRS = "byte pairs"


@dataclass(frozen=True)
class AccessReport:
    """Cost of moving a tile between registers (``dist``) and shared memory (``smem``).

    ``requests`` warp-wide requests of ``vector_bytes`` per lane (``access_bytes`` = the
    bytes the bank model charges, at least one 4-byte word) cost ``wavefronts`` in total;
    ``ideal`` is one wavefront per phase with an active lane. ``per_request[i]`` is the
    cost of request ``request_ids[i]`` = ``(warp number, vector index)``; ``warps[w]``
    names warp ``w``.
    """

    dtype: str
    vector_bytes: int
    access_bytes: int
    requests: int
    wavefronts: int
    ideal: int
    per_request: tuple[int, ...]
    request_ids: tuple[tuple[int, int], ...]
    warps: tuple[WarpName, ...]
    worst: WorstRequest | None
    #: the instruction kind (:mod:`.instructions`): ``"vector"`` (docs/data-movement.md:
    #: consecutive register slots), ``"packed"`` (register slots reordered by address,
    #: ``slot_order``), or ``"ldmatrix.xN[.trans]"`` / ``"stmatrix.xN[.trans]"`` (``matrix``)
    mechanism: str = "vector"
    slot_order: tuple[int, ...] | None = field(default=None, repr=False, compare=False)
    matrix: Any = field(default=None, repr=False, compare=False)

    @property
    def conflict_free(self) -> bool:
        """True when every request costs its ideal."""
        return self.wavefronts == self.ideal

    @property
    def excess(self) -> float:
        """``wavefronts / ideal`` (1.0 = conflict-free)."""
        return self.wavefronts / self.ideal if self.ideal else 1.0

    def to_dict(self, *, per_request: bool = True) -> dict[str, Any]:
        """Plain JSON-ready data (``per_request=False`` leaves out the per-request lists)."""
        out: dict[str, Any] = {
            "dtype": self.dtype, "vector_bytes": self.vector_bytes,
            "access_bytes": self.access_bytes, "requests": self.requests,
            "wavefronts": self.wavefronts, "ideal": self.ideal,
            "conflict_free": self.conflict_free, "mechanism": self.mechanism,
            "worst": None if self.worst is None else self.worst.to_dict(),
            "model": "phases of 32/16/8 lanes; cost = max distinct words per bank"}
        if per_request:
            out["per_request"] = list(self.per_request)
            out["request_ids"] = [list(r) for r in self.request_ids]
            out["warps"] = [dict(w) for w in self.warps]
        return out

    def __str__(self) -> str:
        verdict = "conflict-free" if self.conflict_free else f"{self.excess:.2f}x the ideal"
        how = "" if self.mechanism == "vector" else f" [{self.mechanism}]"
        return (f"{self.requests} requests of {self.vector_bytes} B/lane{how}: "
                f"{self.wavefronts} wavefronts, ideal {self.ideal} ({verdict})")


# -- shared-memory side -----------------------------------------------------------------
def smem_addresses(smem: Layout, shape: Shape, what: str = "shared-memory") -> np.ndarray:
    """Every element's (swizzled) shared-memory address, flat row-major: int64 ``(N,)``.

    Refuses layouts with axes other than ``m``, replicas, negative or shared addresses.

    >>> import tilelayout as tl
    >>> smem_addresses(tl.parse("S[(2,4):(1,2)]"), (2, 4)).tolist()
    [0, 2, 4, 6, 1, 3, 5, 7]
    """
    if tuple(smem.axes) != ("m",):
        raise LayoutError(f"the {what} layout must place the tile on the address m only; "
                          f"{smem} uses {', '.join(smem.axes) or 'no axis'}")
    if smem.replica_count != 1:
        raise LayoutError(f"the {what} layout has replicas; one address per element is needed")
    addr = smem.map_all(shape)["m"].reshape(-1)
    if addr.size and int(addr.min()) < 0:
        raise LayoutError(f"the {what} layout gives a negative address ({int(addr.min())})")
    ordered = np.sort(addr)
    if np.any(ordered[1:] == ordered[:-1]):
        raise LayoutError(f"the {what} layout puts two elements at one address")
    return addr


def no_access(dtype: str) -> AccessReport:
    """The report of a side that issues no shared-memory instruction (TMA, or a side that
    is itself the shared-memory tile).

    >>> no_access("float16").requests
    0
    """
    return AccessReport(dtype, 0, 0, 0, 0, 0, (), (), (), None)


def footprint(addr: np.ndarray, nbytes: int) -> int:
    """The bytes a tile at element addresses ``addr`` spans (from address 0).

    >>> footprint(np.array([0, 2, 5]), 2)
    12
    """
    return (int(addr.max()) + 1) * nbytes if addr.size else 0


# -- vectors ---------------------------------------------------------------------------
def vector_ok(rf: RegisterFile, addr: np.ndarray | None, k: int) -> bool:
    """Whether slots ``[v*k, (v+1)*k)`` of every lane are all empty or hold ``k`` elements at
    consecutive, ``k``-aligned addresses (``addr=None``: only the all-or-nothing test)."""
    g = rf.groups(k)
    if g is None:
        return False
    if addr is None or k == 1 or not len(g):
        return True
    step = np.arange(k)
    for part in (g[:64], g):  # most misfits show in the first groups: test those first
        a = addr[part]
        if not (np.all(a == a[:, :1] + step) and np.all(a[:, 0] % k == 0)):
            return False
    return True


def widths(nbytes: int) -> list[int]:
    """Vector widths in elements, widest first: powers of two of at most 16 bytes.

    >>> widths(2)
    [8, 4, 2, 1]
    """
    out = []
    k = 1
    while k * nbytes <= MAX_VECTOR_BYTES:
        out.append(k)
        k *= 2
    return out[::-1] or [1]


def widest_vector(rf: RegisterFile, addr: np.ndarray | None, nbytes: int) -> int:
    """The widest vector (elements) every lane can move (see :func:`vector_ok`)."""
    return next(k for k in widths(nbytes) if vector_ok(rf, addr, k))


def _pick_vector(rf: RegisterFile, addr: np.ndarray, nbytes: int,
                 vector_bytes: int | None) -> int:
    if vector_bytes is None:
        return widest_vector(rf, addr, nbytes)
    if (isinstance(vector_bytes, bool) or not isinstance(vector_bytes, int | np.integer)
            or vector_bytes <= 0 or vector_bytes % nbytes
            or vector_bytes // nbytes not in widths(nbytes)):
        raise LayoutError(f"vector_bytes must be a power-of-two multiple of the element size "
                          f"({nbytes} B) of at most {MAX_VECTOR_BYTES}, got {shown(vector_bytes)}")
    k = int(vector_bytes) // nbytes
    if not vector_ok(rf, None, k):
        raise LayoutError(f"{vector_bytes}-byte vectors need register slots filled in aligned "
                          f"groups of {k}; some lane holds a partial group")
    if not vector_ok(rf, addr, k):
        raise LayoutError(f"{vector_bytes}-byte vectors need each group of {k} register slots "
                          f"at consecutive, {k}-aligned shared-memory addresses; they are not")
    return k


# -- the requests ------------------------------------------------------------------------
def request_addresses(rf: RegisterFile, addr: np.ndarray, k: int, nbytes: int
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """Per request: the 32 lanes' access byte addresses (-1 inactive), the first element
    each lane moves (-1), and the request ids ``(warp, vector)``; plus the access bytes."""
    first, ids = rf.requests(k)
    access = max(k * nbytes, SMEM_BANK_BYTES)
    byte = addr[first] * nbytes  # first = -1 reads the last address: masked below
    if access > k * nbytes:
        byte -= byte % access
    byte[first < 0] = -1
    return byte, first, ids, access


def ideal_batch(byte: np.ndarray, access_bytes: int) -> np.ndarray:
    """One wavefront per phase with an active lane, per request: ``(n, 32)`` -> ``(n,)``.

    >>> ideal_batch(np.array([[0] * 8 + [-1] * 24]), 16).tolist()
    [1]
    """
    per_phase = WARP * SMEM_BANK_BYTES // access_bytes
    active = (byte >= 0).reshape(len(byte), WARP // per_phase, per_phase).any(axis=2)
    return active.sum(axis=1)


def _worst(rf: RegisterFile, byte: np.ndarray, first: np.ndarray, ids: np.ndarray,
           waves: np.ndarray, ideal: np.ndarray, access: int) -> WorstRequest | None:
    if not len(waves):
        return None
    i = int(np.argmax(waves - ideal))
    row, elems = byte[i].tolist(), first[i].tolist()
    per_phase = WARP * SMEM_BANK_BYTES // access
    lanes_hot: np.ndarray = np.zeros(WARP, dtype=bool)
    banks: set[int] = set()
    if waves[i] > ideal[i]:
        words = byte[i][:, None] // SMEM_BANK_BYTES + np.arange(access // SMEM_BANK_BYTES)
        on = np.broadcast_to((byte[i] >= 0)[:, None], words.shape)
        for p in range(0, WARP, per_phase):
            w, a = words[p:p + per_phase], on[p:p + per_phase]
            distinct = np.unique(w[a])
            count = np.bincount(distinct % SMEM_BANKS, minlength=SMEM_BANKS)
            if count.max() < 2:
                continue
            hot = np.flatnonzero(count == count.max())
            banks.update(hot.tolist())
            lanes_hot[p:p + per_phase] |= (np.isin(w % SMEM_BANKS, hot) & a).any(axis=1)
    lanes = set(np.flatnonzero(lanes_hot).tolist())
    return WorstRequest(
        warp=rf.warps[int(ids[i, 0])], vector=int(ids[i, 1]), wavefronts=int(waves[i]),
        ideal=int(ideal[i]),
        byte_addresses=tuple(None if a < 0 else a for a in row),
        banks=tuple(None if a < 0 else (a // SMEM_BANK_BYTES) % SMEM_BANKS for a in row),
        elements=tuple(None if e < 0 else tuple(int(c) for c in np.unravel_index(e, rf.shape))
                       for e in elems),
        conflict_lanes=tuple(sorted(lanes)), conflict_banks=tuple(sorted(banks)))


def access_report(rf: RegisterFile, addr: np.ndarray, dtype: str,
                  vector_bytes: int | None = None, *, worst: bool = True) -> AccessReport:
    """:func:`smem_access` on a prepared register file and address array
    (``worst=False`` skips finding the worst request: a quicker report for ranking)."""
    nbytes = dtype_bytes(dtype)
    if nbytes > MAX_VECTOR_BYTES:
        raise LayoutError(f"a {dtype} element is wider than one {MAX_VECTOR_BYTES}-byte access")
    k = _pick_vector(rf, addr, nbytes, vector_bytes)
    byte, first, ids, access = request_addresses(rf, addr, k, nbytes)
    waves = wavefronts_batch(byte, access) if len(byte) else np.zeros(0, dtype=np.int64)
    ideal = ideal_batch(byte, access) if len(byte) else np.zeros(0, dtype=np.int64)
    return AccessReport(
        dtype=dtype, vector_bytes=k * nbytes, access_bytes=access, requests=len(waves),
        wavefronts=int(waves.sum()), ideal=int(ideal.sum()),
        per_request=tuple(waves.tolist()),
        request_ids=tuple(map(tuple, ids.tolist())), warps=rf.warps,
        worst=_worst(rf, byte, first, ids, waves, ideal, access) if worst else None)


def check_tile(layout: Layout, shape: Sequence[int] | None, what: str) -> Shape:
    """``shape`` admitted by ``layout`` (None: the layout's own), or a one-line error
    naming the side."""
    shape = shape_arg(shape)
    try:
        return layout.check_shape(shape)
    except LayoutError as exc:
        if shape is None:
            raise LayoutError(f"the {what} layout: {exc}") from None
        n = math.prod(shape)
        if layout.size() != n:
            raise LayoutError(f"the {what} layout holds {layout.size()} elements but the tile "
                              f"{tuple(shape)} has {n}: it does not cover the tile") from None
        raise LayoutError(f"the {what} layout does not admit the tile shape {tuple(shape)}: "
                          f"{exc}") from None


def smem_access(
    dist: Layout | str, smem: Layout | str, shape: Sequence[int] | None = None,
    dtype: str | None = None, vector_bytes: int | None = None, *,
    limits: budget.Limits | None = None,
) -> AccessReport:
    """Wavefronts of moving a tile between the registers of ``dist`` and the shared-memory
    layout ``smem`` (see the module doc). Either may be a layout, layout text or
    ``"preset:NAME[:KEY=VALUE...]"`` (:mod:`.operands`: ``shape`` and ``dtype`` default to
    the presets'; different preset dtypes need ``dtype=``). ``vector_bytes`` defaults to
    the widest width, at most 16 bytes, contiguous in both register slots and
    shared-memory addresses. The register file (warps x 32 x slots) is bounded by the
    ``elements`` limit (``limits=`` or ``tl.limits``).

    >>> import tilelayout as tl
    >>> rows = tl.parse("S[(32,8):(1@laneid,1)]")                  # lane l holds row l
    >>> r = smem_access(rows, tl.parse("S[(32,8):(64,1)]"), (32, 8), "float16")  # 128 B apart
    >>> r.vector_bytes, r.wavefronts, r.ideal, r.worst.conflict_lanes[:4], r.worst.banks[:2]
    (16, 32, 4, (0, 1, 2, 3), (0, 0))
    """
    ops = resolve([(dist, "distributed"), (smem, "shared-memory")], shape, dtype, None)
    dist_l, smem_l = ops.layouts
    with budget.using(limits):
        s = check_tile(dist_l, ops.shape, "distributed")
        check_tile(smem_l, s, "shared-memory")
        rf = register_file(dist_l, s, "distributed")
        return access_report(rf, smem_addresses(smem_l, s), ops.dtype, vector_bytes)
