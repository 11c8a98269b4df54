"""Shared-memory bank conflicts of warp-wide accesses (a *model*, see below).

The model (docs/hardware-facts.md#shared-memory-banks; NVIDIA documents the 32-bank / 4-byte-word / broadcast
rules, not the phase split, which is the conventional model): a warp-wide request in
which every lane accesses ``access_bytes`` (4, 8 or 16) is served in phases of 32, 16 or
8 lanes (one 128-byte wavefront each at best). A phase costs the largest number of
*distinct* 4-byte words any one bank is asked for (lanes reading the same word share
it: broadcast); the request costs the sum over phases.

>>> smem_wavefronts([4 * lane for lane in range(32)], 4)          # one word per bank
1
>>> smem_wavefronts([128 * lane for lane in range(32)], 4)        # all in bank 0
32
>>> smem_wavefronts([16 * (lane % 8) for lane in range(32)], 16)  # 4 phases, broadcast
4
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np

from ..core.capacity import SMEM_BANK_BYTES, SMEM_BANKS
from ..core.compose import Layout
from ..core.dtypes import dtype_bytes
from ..core.errors import LayoutError
from ..core.iter import as_int
from ..core.shape import flat_index
from .banks import bank_map

WARP = 32
ACCESS_BYTES = (4, 8, 16)


def _lanes_per_phase(access_bytes: int) -> int:
    if isinstance(access_bytes, bool) or not isinstance(access_bytes, int | np.integer) \
            or access_bytes not in ACCESS_BYTES:
        raise LayoutError(f"access_bytes must be 4, 8 or 16 (one LDS/STS), got {access_bytes}")
    return WARP * SMEM_BANK_BYTES // access_bytes


def wavefronts_batch(byte_addresses: np.ndarray, access_bytes: int) -> np.ndarray:
    """Vectorized :func:`smem_wavefronts` over many requests: ``(n, 32)`` -> ``(n,)``.

    Negative addresses mark inactive lanes.

    >>> wavefronts_batch(np.array([[0] * 32, [128 * l for l in range(32)]]), 4).tolist()
    [1, 32]
    """
    addr = np.asarray(byte_addresses, dtype=np.int64)
    if addr.ndim != 2 or addr.shape[1] != WARP:
        raise LayoutError(f"expected {WARP} byte addresses per request, got shape {addr.shape}")
    per_phase = _lanes_per_phase(access_bytes)
    active = addr >= 0
    if np.any(addr[active] % access_bytes):
        raise LayoutError(f"every active byte address must be aligned to {access_bytes} bytes")
    k = access_bytes // SMEM_BANK_BYTES
    n = addr.shape[0]
    nphase = WARP // per_phase
    words = (addr // SMEM_BANK_BYTES)[:, :, None] + np.arange(k)  # (n, 32, k)
    # one key per (request, phase, bank) group and line: distinct keys = distinct words
    group = ((np.arange(n)[:, None] * nphase + np.arange(WARP) // per_phase)[:, :, None]
             * SMEM_BANKS + words % SMEM_BANKS)
    line = words // SMEM_BANKS
    span = int(line.max()) + 1 if line.size else 1
    if n * nphase * SMEM_BANKS * span < 1 << 62:
        key = group * span + line
        key = np.sort(key[np.broadcast_to(active[:, :, None], key.shape)])
        slot = key[np.r_[True, key[1:] != key[:-1]]] // span if key.size else key
    else:  # huge addresses: deduplicate (group, line) rows instead
        keep = np.broadcast_to(active[:, :, None], words.shape)
        slot = np.unique(np.stack([group[keep], line[keep]], axis=1), axis=0)[:, 0]
    per_bank = np.bincount(slot, minlength=n * nphase * SMEM_BANKS)
    return per_bank.reshape(n, nphase, SMEM_BANKS).max(axis=2).sum(axis=1)


def smem_wavefronts(byte_addresses: Sequence[int | None], access_bytes: int) -> int:
    """Wavefronts of one warp-wide request: 32 per-lane start byte addresses (``None``
    for an inactive lane), each lane accessing ``access_bytes`` = 4, 8 or 16 bytes.

    >>> smem_wavefronts([16 * lane for lane in range(32)], 16)       # 512 contiguous bytes
    4
    """
    if len(byte_addresses) != WARP:
        raise LayoutError(f"expected {WARP} lane addresses, got {len(byte_addresses)}")
    row = [-1 if a is None else as_int(a, f"byte address of lane {lane}")
           for lane, a in enumerate(byte_addresses)]
    for lane, (a, given) in enumerate(zip(row, byte_addresses, strict=True)):
        if given is not None and a < 0:
            raise LayoutError(f"byte address of lane {lane} is {a}; addresses must be >= 0 "
                              f"(None marks an inactive lane)")
    return int(wavefronts_batch(np.asarray([row], dtype=np.int64), access_bytes)[0])


def linear_wavefronts(lane_bytes: Sequence[int], access_bytes: int) -> tuple[int, int]:
    """Wavefronts and ideal of one warp-wide request whose lane addresses are XOR-linear in
    the lane id: lane ``l`` starts at ``c ^ XOR(lane_bytes[k] for the set bits k of l)``
    for some constant ``c`` (lanes ``2**len(lane_bytes)`` and up are inactive). The same
    model as :func:`smem_wavefronts`, in closed form: in a phase the lanes' units
    (``access_bytes``, at least one 4-byte word) form an affine subspace, each bank line
    of ``128 / unit`` units is hit by the same number of distinct units, so a phase costs
    ``2**(rank(units) - rank(units mod lines))``. Accesses under 4 bytes are charged as
    the 4-byte word holding them (docs/data-movement.md).

    >>> linear_wavefronts([4, 8, 16, 32, 64], 4)        # 32 consecutive words
    (1, 1)
    >>> linear_wavefronts([128, 256, 512, 1024, 2048], 4)  # all in bank 0
    (32, 1)
    >>> linear_wavefronts([16, 32, 0, 0, 0], 16)        # lanes 4.. repeat: broadcast
    (4, 4)
    """
    unit = max(SMEM_BANK_BYTES, int(access_bytes))
    if unit & (unit - 1) or unit > 16:
        raise LayoutError(f"access_bytes must be a power of two up to 16, got {access_bytes}")
    shift = unit.bit_length() - 1
    phase_bits = (WARP * SMEM_BANK_BYTES // unit).bit_length() - 1
    line = WARP * SMEM_BANK_BYTES // unit  # units per bank line
    lanes = list(lane_bytes)
    phases = 1 << max(0, len(lanes) - phase_bits)
    units = [int(b) >> shift for b in lanes[:phase_bits]]
    excess = _rank(units) - _rank([u % line for u in units])
    return phases << excess, phases


def _rank(vectors: Sequence[int]) -> int:
    rows: dict[int, int] = {}
    for v in vectors:
        while v:
            top = v.bit_length() - 1
            if top not in rows:
                rows[top] = v
                break
            v ^= rows[top]
    return len(rows)


@dataclass(frozen=True)
class ConflictReport:
    """Bank conflicts of one warp-wide access (model; see the module docstring)."""

    wavefronts: int
    ideal: int
    access_bytes: int
    byte_addresses: tuple[int | None, ...]
    #: bank -> the most distinct words one phase asks of it (read-only)
    conflicting_banks: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({}))

    def __post_init__(self) -> None:
        object.__setattr__(self, "conflicting_banks",
                           MappingProxyType(dict(self.conflicting_banks)))

    @property
    def ways(self) -> int:
        """The worst bank's number of distinct words (1 = conflict-free, k = k-way)."""
        return max(self.conflicting_banks.values(), default=1)

    @property
    def conflict_free(self) -> bool:
        """True when the access needs no more wavefronts than the ideal."""
        return self.wavefronts == self.ideal

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data."""
        return {"wavefronts": self.wavefronts, "ideal": self.ideal,
                "access_bytes": self.access_bytes,
                "byte_addresses": list(self.byte_addresses),
                "conflicting_banks": {str(b): n for b, n in self.conflicting_banks.items()},
                "model": "phases of 32/16/8 lanes; cost = max distinct words per bank"}

    def __str__(self) -> str:
        banks = ", ".join(f"bank {b}: {n} words" for b, n in self.conflicting_banks.items())
        return (f"{self.wavefronts} wavefront(s), ideal {self.ideal}"
                + (f"; conflicts on {banks}" if banks else "; conflict-free"))


def _report(addresses: list[int | None], access_bytes: int) -> ConflictReport:
    per_phase = _lanes_per_phase(access_bytes)
    k = access_bytes // SMEM_BANK_BYTES
    ideal = 0  # one wavefront per phase with an active lane (a phase asks <= 32 words)
    worst: dict[int, int] = {}
    for p in range(0, WARP, per_phase):
        words = {a // SMEM_BANK_BYTES + j for a in addresses[p:p + per_phase] if a is not None
                 for j in range(k)}
        ideal += math.ceil(len(words) / SMEM_BANKS) if words else 0
        count: dict[int, int] = {}
        for w in words:
            count[w % SMEM_BANKS] = count.get(w % SMEM_BANKS, 0) + 1
        for b, c in count.items():
            if c > 1:
                worst[b] = max(worst.get(b, 0), c)
    return ConflictReport(smem_wavefronts(addresses, access_bytes), ideal, access_bytes,
                          tuple(addresses), dict(sorted(worst.items())))


def bank_conflicts(
    layout: Layout,
    dtype: str,
    lanes: Sequence[Sequence],
    shape: Sequence[int] | None = None,
) -> ConflictReport:
    """Bank conflicts when lane ``l`` accesses the logical elements ``lanes[l]`` (a
    vector: consecutive swizzled addresses, 1/2/4/8/16 bytes, aligned to its own size as
    every LDS/STS must be; narrower than 4 bytes counts as one 4-byte access to the word
    holding it). Fewer than 32 entries leave the other lanes inactive. A vector of another
    size or a misaligned one is a :class:`LayoutError`.

    >>> import tilelayout as tl
    >>> L = tl.parse("S[(8,64):(64,1)]")
    >>> column = [[(r, j) for j in range(8)] for r in range(8)]   # 8 x 16-byte column
    >>> bank_conflicts(L, "float16", column).wavefronts
    8
    >>> sw = tl.ComposeLayout(tl.Swizzle.for_dtype("float16", "128B"), L)
    >>> bank_conflicts(sw, "float16", column).conflict_free
    True
    """
    if layout.replica_count != 1:
        raise LayoutError("bank analysis needs one address per element; the layout has replicas")
    if "m" not in layout.axes:
        raise LayoutError(f"bank analysis needs a shared-memory address on axis 'm'; {layout} has none")
    if len(lanes) > WARP:
        raise LayoutError(f"a warp has {WARP} lanes, got {len(lanes)} lane accesses")
    s = layout.check_shape(shape)
    nbytes = dtype_bytes(dtype)
    addrs: list[int | None] = []
    width = None
    for lane, elems in enumerate(lanes):
        if not len(elems):
            addrs.append(None)
            continue
        a = [layout.base(flat_index(e, s), s)["m"] for e in elems]
        if a != list(range(a[0], a[0] + len(a))):
            raise LayoutError(f"lane {lane}'s elements are not one contiguous vector (addresses {a})")
        vb, start = len(a) * nbytes, a[0] * nbytes
        if vb not in (1, 2, 4, 8, 16):
            raise LayoutError(f"lane {lane} accesses {vb} bytes; one shared-memory access is "
                              f"1, 2, 4, 8 or 16 bytes")
        if start % vb:
            raise LayoutError(f"lane {lane}'s {vb}-byte vector starts at byte {start}, which is "
                              f"not {vb}-byte aligned (a misaligned access is illegal)")
        w = max(vb, SMEM_BANK_BYTES)
        if width not in (None, w):
            raise LayoutError("every lane must access the same number of bytes")
        width = w
        addrs.append(start - start % w)
    addrs += [None] * (WARP - len(addrs))
    return _report(addrs, width or SMEM_BANK_BYTES)


@dataclass(frozen=True)
class TileConflicts:
    """Every warp-wide access that reads a 2-D tile (:func:`tile_conflicts`).

    ``per_access[k]`` is access ``k``'s wavefronts and ``requests[k]`` the flat indices
    of the tile elements its lanes read (lane by lane, each lane's vector in order).
    """

    order: str
    access_bytes: int
    per_vector: int
    wavefronts: int
    ideal: int
    per_access: tuple[int, ...]
    requests: tuple[tuple[int, ...], ...]

    @property
    def accesses(self) -> int:
        """How many warp-wide accesses read the tile."""
        return len(self.per_access)

    @property
    def conflict_free(self) -> bool:
        """True when the tile costs no more wavefronts than the ideal."""
        return self.wavefronts == self.ideal

    @property
    def ideal_per_access(self) -> int:
        """The ideal of one full access."""
        return self.ideal // max(1, self.accesses)

    def worst(self) -> int:
        """The index of the most expensive access (the first of equals)."""
        return max(range(self.accesses), key=lambda k: (self.per_access[k], -k))

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data (the totals and per-access wavefronts)."""
        return {"wavefronts": self.wavefronts, "ideal": self.ideal, "accesses": self.accesses,
                "per_access": list(self.per_access), "conflict_free": self.conflict_free}


def tile_conflicts(
    layout: Layout, dtype: str, shape: Sequence[int], access_bytes: int = 16,
    order: str = "column",
) -> TileConflicts:
    """Every warp-wide access that reads a 2-D tile in ``access_bytes`` vectors.

    The last dim is cut into vectors; ``order="column"`` lists the vectors down each
    vector column, column after column, and gives each access the next 32 of them (with
    a multiple of 32 rows, lane ``l`` of access ``(c, b)`` reads row ``32*b + l`` of
    column ``c``); ``"row"`` takes 32 consecutive vectors in row-major order. A last,
    partial access leaves its other lanes inactive. Vectorized over the whole tile.
    Returns a frozen :class:`TileConflicts`: totals, the ideal (one wavefront per phase
    with an active lane), the per-access wavefronts and each access's elements.

    >>> import tilelayout as tl
    >>> L = tl.ComposeLayout(tl.Swizzle.for_dtype("float16", "128B"), tl.parse("S[(64,64):(64,1)]"))
    >>> r = tile_conflicts(L, "float16", (64, 64))
    >>> r.wavefronts, r.ideal, r.requests[0][:10]
    (64, 64, (0, 1, 2, 3, 4, 5, 6, 7, 64, 65))
    """
    if len(shape) != 2:
        raise LayoutError(f"tile_conflicts reads a 2-D tile, got shape {tuple(shape)}")
    rows, cols = shape
    nbytes = dtype_bytes(dtype)
    per_phase = _lanes_per_phase(access_bytes)
    if access_bytes % nbytes:
        raise LayoutError(f"a {access_bytes}-byte access does not hold whole {dtype} elements "
                          f"({nbytes} bytes each)")
    per = access_bytes // nbytes
    if cols % per:
        raise LayoutError(f"the last dim ({cols}) must split into {access_bytes}-byte vectors")
    if order not in ("column", "row"):
        raise LayoutError(f"order must be 'column' or 'row', got {order!r}")
    byte = bank_map(layout, dtype, (rows, cols))["byte"][..., 0].reshape(rows, cols // per, per)
    if not np.all(np.diff(byte, axis=2) == nbytes):
        raise LayoutError("the tile's vectors are not contiguous in shared memory")
    start = byte[:, :, 0]
    if np.any(start < 0) or np.any(start % access_bytes):
        raise LayoutError(f"every {access_bytes}-byte vector must start at a non-negative, "
                          f"{access_bytes}-byte aligned address")
    vectors = start.T.reshape(-1) if order == "column" else start.reshape(-1)
    pad = (-len(vectors)) % WARP
    vectors = np.concatenate([vectors, np.full(pad, -1, dtype=np.int64)]).reshape(-1, WARP)
    waves = wavefronts_batch(vectors, access_bytes)
    # one wavefront per phase with an active lane (only the last access can be partial)
    active = (vectors >= 0).reshape(len(vectors), WARP // per_phase, per_phase).any(axis=2)
    ideal = int(active.sum())
    # the elements of each vector, in the same order: vector (row, vc) holds
    # row*cols + vc*per + j for j < per
    vr, vc = np.divmod(np.arange(rows * (cols // per)), cols // per)
    if order == "column":
        vc, vr = np.divmod(np.arange(rows * (cols // per)), rows)
    elems = (vr * cols + vc * per)[:, None] + np.arange(per)
    requests = tuple(tuple(chunk.reshape(-1).tolist())
                     for chunk in np.split(elems, range(WARP, len(elems), WARP)))
    return TileConflicts(order, access_bytes, per, int(waves.sum()), ideal,
                         tuple(waves.tolist()), requests)
