"""A staging through shared memory as code sees it: per pass, the store instructions, a
barrier, the load instructions, and where every destination unit lands.

Each :class:`Access` is one instruction every taking-part thread issues: its PTX name,
its register operands (each the units it holds, position order: :mod:`.exchange`) and
per thread the byte address it gives (a vector's first byte; for ``ldmatrix`` /
``stmatrix`` the 16-byte row that lane supplies). :class:`StagingProgram` holds both
sides, the passes and, for the destination, ``take``: the loaded register and position
each destination unit comes from. :func:`from_route` reads an element-by-element plan's
staging (:class:`~tilelayout.planning.mechanisms.staging.staging.Staging`);
:mod:`.bit_staging_program` builds the same from a plan found on bits. :func:`run`
executes it on a byte model of shared memory (the emitter's self-check).

>>> import tilelayout as tl
>>> p = tl.plan_conversion("S[(4,8):(1@laneid,1)]", "S[(4,8):(1@laneid,1@warpid)]", None, "float32")
>>> s = from_route(p._route, 256)
>>> [a.op for a in s.store], s.passes, s.barrier
(['st.shared.v4.b32', 'st.shared.v4.b32'], 1, 'bar.sync')
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from ...core.frozen import freeze_fields
from ..mechanisms.staging.byte_matrix import byte_lane_addresses
from ..mechanisms.staging.instructions import MatrixAccess
from ..mechanisms.staging.staging import Side
from ..model.placement import WARP
from ..model.routing import Route
from .exchange import joint_to_real, per_word, unit_bits

#: vector bytes -> the PTX width suffix of st/ld.shared
WIDTHS = MappingProxyType({1: "b8", 2: "b16", 4: "b32", 8: "v2.b32", 16: "v4.b32"})


@dataclass(frozen=True, eq=False)
class Access:
    """One shared-memory instruction (see the module doc). ``form``: ``"vector"``, or the
    matrix form (``"m8n8"``, ``"m16n8"``, ``"m16n16"``) with ``trans`` and ``width``
    (elements of one 16-byte row) as :class:`~.instructions.MatrixAccess` has them;
    ``address[t]``: -1 where thread ``t`` does not take part."""

    op: str
    form: str
    regs: tuple[tuple[int, ...], ...]
    address: np.ndarray
    step: int
    trans: bool = False
    width: int = 0

    def __post_init__(self) -> None:
        freeze_fields(self)

    @property
    def matrix(self) -> bool:
        return self.form != "vector"


@dataclass(frozen=True, eq=False)
class StagingProgram:
    """Stores, a barrier (``bar.sync`` between warps, ``bar.warp.sync`` inside each warp),
    loads, pass by pass through one ``bytes``-byte buffer (a barrier between passes);
    ``take[t, u]``: (loaded register, position) of destination unit ``u`` (registers
    numbered over the loads in order), (-1, -1) where none. A side that is a shared-memory
    tile has no accesses (``barrier`` None then)."""

    bits: int
    store: tuple[Access, ...]
    load: tuple[Access, ...]
    passes: int
    barrier: str | None
    bytes: int
    take: np.ndarray

    def __post_init__(self) -> None:
        freeze_fields(self)

    def loaded_registers(self) -> int:
        return sum(len(a.regs) for a in self.load)


def op_name(store: bool, kind: str, vector_bytes: int = 0, count: int = 0, trans: bool = False,
            form: str = "m8n8") -> str:
    """The PTX instruction of an access.

    >>> op_name(True, "vector", 16), op_name(False, "matrix", count=4, trans=True)
    ('st.shared.v4.b32', 'ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16')
    """
    if kind == "vector":
        return f"{'st' if store else 'ld'}.shared.{WIDTHS[vector_bytes]}"
    kind = "stmatrix" if store else "ldmatrix"
    b8 = form != "m8n8"
    return (f"{kind}.sync.aligned.{form}.x{count}" + (".trans" if trans or b8 else "")
            + f".shared.{'b8' if b8 else 'b16'}")


def registers(slots: list[int], bits: int) -> tuple[tuple[int, ...], ...]:
    """The register operands of a vector of ``slots``: ``per_word`` units each (two
    words per 64-bit value), or one register holding every unit (in its low bits) for
    an access narrower than a word."""
    units = [u for s in slots for u in ([s] if bits <= 32 else [2 * s, 2 * s + 1])]
    pw = per_word(bits) if len(slots) * bits >= 32 else len(units)
    return tuple(tuple(units[i:i + pw]) for i in range(0, len(units), pw))


def matrix_registers(m: MatrixAccess, q: int) -> tuple[tuple[int, ...], ...]:
    """The register operands of instruction ``q`` of a matrix schedule."""
    out = []
    for j in range(m.counts[q]):
        if m.form == "m16n16":  # two registers of 4 bytes per matrix
            out += [tuple(int(x) for x in m.slots[q, j, 4 * h:4 * h + 4]) for h in (0, 1)]
        elif m.form == "m16n8" or m.width == 16:  # four bytes: an 8-bit form, or m8n8
            out.append(tuple(int(x) for x in m.slots[q, j, :4]))
        elif m.width == 8:
            out.append((int(m.slots[q, j, 0]), int(m.slots[q, j, 1])))
        else:
            out.append((int(m.slots[q, j, 0]),))
    return tuple(out)


def side_accesses(side: Side, real: np.ndarray, threads: int, bits: int, store: bool,
                  passes: int, take: np.ndarray | None, first_reg: int = 0
                  ) -> list[Access]:
    """The accesses of one side of a route's staging, pass by pass; for a load, fills
    ``take`` (destination unit -> loaded register, position)."""
    nbytes = bits // 8
    out: list[Access] = []
    reg = first_reg
    if side.matrix is not None:
        for k, m in enumerate(side.matrix):
            for q, count in enumerate(m.counts):
                addr = np.full(threads, -1, dtype=np.int64)
                for gw in range(m.rows.shape[0]):
                    rows = m.rows[gw, q]
                    if (rows >= 0).any():
                        t = real[gw] * WARP + np.arange(WARP)
                        addr[t] = np.where(rows >= 0, rows * nbytes, -1)
                regs = matrix_registers(m, q)
                acc = Access(op_name(store, "matrix", count=count, trans=m.trans, form=m.form),
                             m.form, regs, addr, k, m.trans, m.width)
                if take is not None:
                    _take_matrix(acc, m, q, real, take, reg)
                reg += len(regs)
                out.append(acc)
        return out
    if not side.start.size:
        return out
    k = side.k
    for step in range(passes):
        for v in range(side.start.shape[2]):
            live = side.start[:, :, v] >= 0
            if side.pass_of is not None:
                live &= side.pass_of[:, :, v] == step
            elif step:
                continue
            if not live.any():
                continue
            slots = [v * k + j for j in range(k)]
            if side.order is not None:
                slots = [side.order[s] for s in slots]
            addr = np.full(threads, -1, dtype=np.int64)
            gw, lane = np.nonzero(live)
            addr[real[gw] * WARP + lane] = side.start[gw, lane, v] * nbytes
            regs = registers(slots, bits)
            acc = Access(op_name(store, "vector", k * nbytes), "vector", regs, addr, step)
            if take is not None:
                t = np.flatnonzero(addr >= 0)
                for r, units in enumerate(regs):
                    for p, u in enumerate(units):
                        take[t, u, 0] = reg + r
                        take[t, u, 1] = p
            reg += len(regs)
            out.append(acc)
    return out


def _take_matrix(acc: Access, m: MatrixAccess, q: int, real: np.ndarray, take: np.ndarray,
                 first: int) -> None:
    """Destination units of a loading matrix instruction: every lane of a warp that
    issues it receives each register's positions."""
    for gw in range(m.rows.shape[0]):
        if not (m.rows[gw, q] >= 0).any():
            continue
        t = real[gw] * WARP + np.arange(WARP)
        for r, units in enumerate(acc.regs):
            for p, u in enumerate(units):
                if u >= 0:
                    take[t, u, 0] = first + r
                    take[t, u, 1] = p


def from_route(route: Route, threads: int, warp_local: bool = False) -> StagingProgram:
    """The staging of an element-by-element plan's route (``warp_local``: every warp
    exchanges only with itself, a ``__syncwarp`` for a barrier)."""
    s = route.staging
    assert s is not None
    bits, ps, pd = route.bits, route.src, route.dst
    real = joint_to_real(route)
    units = (int(pd.slot.max(initial=0)) + 1) * (2 if bits > 32 else 1)
    take = np.full((threads, units, 2), -1, dtype=np.int64)
    store = side_accesses(s.store, real, threads, bits, True, s.passes, None) \
        if ps.role == "registers" else []
    load = side_accesses(s.load, real, threads, bits, False, s.passes, take) \
        if pd.role == "registers" else []
    barrier = None if "shared" in (ps.role, pd.role) else \
        ("bar.warp.sync" if warp_local else "bar.sync")
    out = StagingProgram(bits, tuple(store), tuple(load), s.passes, barrier, s.bytes, take)
    if barrier == "bar.warp.sync" and crosses_warps(out):
        # a replicated source stores each element once, maybe from another warp than the
        # one loading it: only a barrier of all the threads orders the two
        out = StagingProgram(bits, out.store, out.load, s.passes, "bar.sync", s.bytes, take)
    return out


def _lane_elements(acc: Access, unit_bytes: int) -> list[tuple[np.ndarray, int, int]]:
    """``(byte address per thread, register, position)`` of every unit an access moves."""
    out = []
    if acc.form == "vector":
        pw = len(acc.regs[0])
        for r, units in enumerate(acc.regs):
            for p in range(len(units)):
                out.append((np.where(acc.address >= 0, acc.address + (r * pw + p) * unit_bytes,
                                     -1), r, p))
        return out
    threads = len(acc.address)
    rows = acc.address.reshape(-1, WARP)  # (warps, 32) row byte addresses
    t = np.arange(WARP)
    eb = 16 // acc.width if acc.form == "m8n8" else 1
    for r, units in enumerate(acc.regs):
        for p in range(len(units)):
            if acc.form == "m8n8":
                j, e = r, p
                per = acc.width // 4
                row, pos = ((2 * (t % 4) + e, t // 4) if acc.trans else (t // 4, per * (t % 4) + e))
                base = rows[:, 8 * j + row]
                addr = np.where(base >= 0, base + pos * eb, -1)
            else:
                j, e = (r // 2, 4 * (r % 2) + p) if acc.form == "m16n16" else (r, p)
                fake = np.where(rows >= 0, rows, -1)[:, None, :]
                addr = byte_lane_addresses(fake, acc.form, 0, j, e)
            out.append((addr.reshape(threads), r, p))
    return out


def crosses_warps(s: StagingProgram) -> bool:
    """Whether some thread loads a unit another warp stored (then only a barrier of the
    CTA's threads orders them; ``__syncwarp`` orders one warp)."""
    ub = unit_bits(s.bits) // 8
    for step in range(s.passes):
        writer: dict[int, int] = {}
        for acc in s.store:
            if acc.step == step:
                for addr, _r, _p in _lane_elements(acc, ub):
                    for t in np.flatnonzero(addr >= 0).tolist():
                        writer[int(addr[t]) // ub] = t // WARP
        for acc in s.load:
            if acc.step == step:
                for addr, _r, _p in _lane_elements(acc, ub):
                    for t in np.flatnonzero(addr >= 0).tolist():
                        w = writer.get(int(addr[t]) // ub)
                        if w is not None and w != t // WARP:
                            return True
    return False


def run(s: StagingProgram, units: np.ndarray | None, tile: np.ndarray | None = None
        ) -> tuple[np.ndarray, np.ndarray]:
    """Execute the staging on values: ``units[t, u]`` the source units (None for a
    shared-memory source, then ``tile`` holds its units by address). Returns the
    destination units ``[t, u]`` (-1 where none) and the buffer's units by unit address
    after the last pass."""
    ub = unit_bits(s.bits) // 8
    size = max(s.bytes, 0 if tile is None else len(tile) * ub) // ub + 1
    loaded: list[np.ndarray] = []
    buf = np.full(size, -1, dtype=np.int64)
    if tile is not None:
        buf[:len(tile)] = tile
    for step in range(s.passes):
        if units is not None:
            for acc in s.store:
                if acc.step != step:
                    continue
                for addr, r, p in _lane_elements(acc, ub):
                    t = np.flatnonzero(addr >= 0)
                    u = acc.regs[r][p]
                    if u >= 0:
                        buf[addr[t] // ub] = units[t, u]
        for acc in s.load:
            if acc.step != step:
                continue
            regs = np.full((len(acc.address), len(acc.regs), len(acc.regs[0])), -1, np.int64)
            for addr, r, p in _lane_elements(acc, ub):
                t = np.flatnonzero(addr >= 0)
                regs[t, r, p] = buf[addr[t] // ub]
            loaded += [regs[:, r] for r in range(len(acc.regs))]
        if step + 1 < s.passes:
            buf[:] = -1
    out = np.full(s.take.shape[:2], -1, dtype=np.int64)
    if loaded:
        file = np.stack(loaded, axis=1)
        name, pos = s.take[..., 0], s.take[..., 1]
        t = np.arange(len(out))[:, None]
        out = np.where(name >= 0, file[t, np.maximum(name, 0), np.maximum(pos, 0)], -1)
    return out, buf


__all__ = ["Access", "StagingProgram", "from_route", "op_name", "registers", "run", "WIDTHS"]
