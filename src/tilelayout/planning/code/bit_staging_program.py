"""A staging found on bits (:class:`~tilelayout.planning.on_bits.BitProgram`) as a
:class:`~.staging.StagingProgram`.

Every unit's buffer address is an XOR of per-bit constants of its element
(:func:`~tilelayout.planning.mechanisms.staging.bit_reports.flat_addresses`), and each
side's instruction is the one the bit staging costed (``BitStaging.store`` / ``.load``):
``st`` / ``ld.shared`` vectors over the registers whose elements are the lowest address
bits, or ``stmatrix`` / ``ldmatrix`` (``.trans``) scheduled by
:func:`~tilelayout.planning.mechanisms.staging.instructions.matrix_access`. Broadcast
registers (slots that repeat others) are not stored; a destination's are copied from the
slot they repeat. The program's instruction counts per warp must be the bit staging's,
else :func:`from_bits` refuses (an internal error).

>>> import tilelayout as tl
>>> p = tl.plan_conversion("S[(4,4,4,8,8):(8,1@warpid,8@laneid,1@laneid,1)]",
...                        "S[(8,8,4,4,4):(1@laneid,1,8,1@warpid,8@laneid)]", (64, 64), "float16")
>>> s = from_bits(p._bits, p, 128)
>>> sorted({a.op for a in s.store}), sorted({a.op for a in s.load})
(['st.shared.v4.b32'], ['ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16'])
"""

from __future__ import annotations

import itertools

import numpy as np

from ...core.errors import LayoutError
from ..mechanisms.staging.bit_access import BYTE_PAIR_STORE
from ..mechanisms.staging.bit_reports import flat_addresses
from ..mechanisms.staging.bit_staging import BitAccess, BitStaging
from ..mechanisms.staging.instructions import (
    MatrixAccess,
    byte_matrix_access,
    matrix_access,
    matrix_report,
)
from ..model.bits import ThreadBits
from ..model.placement import WARP
from ..model.threads import RegisterFile
from .staging import (
    Access,
    StagingProgram,
    crosses_warps,
    matrix_registers,
    op_name,
    registers,
)

_MECHANISMS = ("staging", "shared-memory")


def _table(tb: ThreadBits, threads: int) -> np.ndarray:
    """``[t, slot]``: the element of every register slot of every thread (-1: none)."""
    slots = 1 << len(tb.reg)
    out = np.full((threads, slots), -1, dtype=np.int64)
    lanes = 1 << len(tb.lane)
    for t in range(min(threads, WARP << len(tb.warp))):
        lane, warp = t % WARP, t // WARP
        if lane >= lanes:
            continue
        for s in range(slots):
            out[t, s] = tb.element(s, lane, warp)
    return out


def _broadcast_bits(tb: ThreadBits) -> int:
    return sum(1 << i for i, v in enumerate(tb.reg) if not v)


def _where(elements: np.ndarray, addr: tuple[int, ...], rep: tuple[int, ...]
           ) -> tuple[np.ndarray, np.ndarray]:
    a = np.zeros(elements.shape, dtype=np.int64)
    r = np.zeros(elements.shape, dtype=np.int64)
    for p in range(len(addr)):
        on = (elements >> p) & 1 == 1
        a[on] ^= addr[p]
        r[on] ^= rep[p]
    return np.where(elements >= 0, a, -1), np.where(elements >= 0, r, -1)


def from_bits(program, plan, threads: int) -> StagingProgram:
    """The staging of a plan found on bits (see the module doc)."""
    kind = getattr(program, "mechanism", "staging")
    if kind not in _MECHANISMS or program.staging is None:
        raise LayoutError(f"internal: no code for a bit program of mechanism {kind!r}")
    bs: BitStaging = program.staging
    eb = bs.elem_bytes
    addr, rep = flat_addresses(bs.buffer, program.src.bits)
    units = (1 << len(program.dst.reg)) * (2 if eb > 4 else 1)
    take = np.full((threads, units, 2), -1, dtype=np.int64)
    sides = []
    first_reg = 0
    for tb, acc, store in ((program.src, bs.store, True), (program.dst, bs.load, False)):
        table = _table(tb, threads)
        bcast = _broadcast_bits(tb)
        kept = np.array([s & bcast == 0 for s in range(table.shape[1])])
        moved = np.where(kept[None, :], table, -1)
        a, r = _where(moved, addr, rep)
        out = _side(moved, a * eb, r, acc, eb, store, bs.passes,
                    None if store else take, first_reg)
        if not store:
            for s in np.flatnonzero(~kept).tolist():  # a broadcast slot repeats slot s & ~bcast
                for h in range(2 if eb > 4 else 1):
                    per = 2 if eb > 4 else 1
                    take[:, s * per + h] = take[:, (s & ~bcast) * per + h]
        per_warp = _per_warp(out, threads)
        if per_warp != acc.per_warp:
            raise LayoutError(f"internal: the {'store' if store else 'load'} side issues "
                              f"{per_warp} {acc.instruction} per warp, the plan "
                              f"{acc.per_warp}; please report it")
        sides.append(out)
    barrier = "bar.warp.sync" if plan.costs.get("barrier_instruction") == "bar.warp.sync" \
        else "bar.sync"
    out = StagingProgram(8 * eb, tuple(sides[0]), tuple(sides[1]), bs.passes, barrier,
                         bs.bytes, take)
    if barrier == "bar.warp.sync" and crosses_warps(out):
        out = StagingProgram(8 * eb, out.store, out.load, bs.passes, "bar.sync", bs.bytes, take)
    return out


def _per_warp(accs: list[Access], threads: int) -> int:
    warps = max(1, threads // WARP)
    n = np.zeros(warps, dtype=np.int64)
    for a in accs:
        n += (a.address.reshape(warps, WARP) >= 0).any(axis=1)
    return int(n.max(initial=0))


def _side(table: np.ndarray, addr: np.ndarray, rep: np.ndarray, acc: BitAccess, eb: int,
          store: bool, passes: int, take: np.ndarray | None, first_reg: int) -> list[Access]:
    bits = 8 * eb
    out: list[Access] = []
    reg = first_reg
    for step in range(passes):
        here = np.where(rep == step, addr, -1)
        if acc.kind == "matrix":
            trans = acc.instruction.endswith(".trans")
            width = 16 // eb
            held = np.where(here >= 0, table, -1)
            warps = table.shape[0] // WARP
            rf = RegisterFile(held.reshape(warps, WARP, -1), (), (), False)
            elem_addr = np.full(int(table.max(initial=0)) + 1, -1, dtype=np.int64)
            ok = held >= 0
            elem_addr[held[ok]] = here[ok] // eb
            m = _best_matrix(rf, elem_addr, trans, width,
                             {1: "int8", 2: "float16", 4: "float32"}[eb], store,
                             acc.tile == "b8")
            if m is None:
                raise LayoutError(f"internal: {acc.instruction} does not fit the bit staging")
            for q, count in enumerate(m.counts):
                address = np.where(m.rows[:, q] >= 0, m.rows[:, q] * eb, -1).reshape(-1)
                regs = matrix_registers(m, q)
                a = Access(op_name(store, "matrix", count=count, trans=m.trans, form=m.form),
                           m.form, regs, address, step, m.trans, m.width)
                if take is not None:
                    for t in np.flatnonzero(np.repeat((m.rows[:, q] >= 0).any(axis=1), WARP)):
                        for r, units in enumerate(regs):
                            for p, u in enumerate(units):
                                take[t, u] = (reg + r, p)
                reg += len(regs)
                out.append(a)
            continue
        k = acc.vector_bytes // eb if acc.vector_bytes >= eb else 1
        pairs = acc.instruction == BYTE_PAIR_STORE  # each byte its own operand
        for slots, address in _vectors(here, k, eb):
            regs = tuple((u,) for u in slots) if pairs else registers(slots, bits)
            op = acc.instruction if pairs else op_name(store, "vector", acc.vector_bytes)
            a = Access(op, "vector", regs, address, step)
            if take is not None:
                for t in np.flatnonzero(address >= 0):
                    for r, units in enumerate(regs):
                        for p, u in enumerate(units):
                            take[t, u] = (reg + r, p)
            reg += len(regs)
            out.append(a)
    return out


def _best_matrix(rf: RegisterFile, addr: np.ndarray, trans: bool, width: int, dtype: str,
                 store: bool, b8: bool) -> MatrixAccess | None:
    """The ldmatrix / stmatrix schedule of ``rf`` at ``addr`` with the fewest wavefronts
    over its register bits in their order and with any two of them swapped: which
    register bit makes a matrix's rows is the schedule's choice (the bit staging costs
    the best one), and the slots are renamed back. ``b8``: the 8-bit forms (``.m16n16``
    / ``.m16n8``); else m8n8 ``.b16``, whose 32-bit registers hold four bytes of 8-bit
    data (``width`` 16, no ``.trans``: docs/hardware.md, *m8n8 with 8-bit data*)."""
    slots = rf.table.shape[2]
    nbits = max(0, slots - 1).bit_length()
    orders = [tuple(range(nbits))]
    for i, j in itertools.combinations(range(nbits), 2):
        o = list(range(nbits))
        o[i], o[j] = j, i
        orders.append(tuple(o))
    best = None
    for order in orders:
        perm = [sum(((s >> k) & 1) << order[k] for k in range(nbits)) for s in range(slots)]
        permuted = RegisterFile(rf.table[:, :, perm], (), (), False)
        m = byte_matrix_access(permuted, addr, store) if b8 else \
            matrix_access(permuted, addr, trans, width, copies=True)
        if m is None:
            continue
        waves = matrix_report(rf, addr, dtype, m, store, worst=False).wavefronts
        if best is None or waves < best[0]:
            renamed = np.where(m.slots >= 0, np.asarray(perm)[np.maximum(m.slots, 0)], -1)
            best = (waves, MatrixAccess(m.trans, m.rows, renamed, m.counts, m.width, m.form))
    return None if best is None else best[1]


def _vectors(addr: np.ndarray, k: int, eb: int) -> list[tuple[list[int], np.ndarray]]:
    """Slots grouped into vectors of ``k`` at consecutive, aligned byte addresses, the
    same groups in every thread (the reference thread's address order), with each
    vector's first byte per thread (-1 where the thread moves none of it); the vectors
    in the order of their first slot."""
    live = addr >= 0
    if not live.any():
        return []
    ref = int(np.argmax(live.sum(axis=1)))
    slots = np.flatnonzero(live[ref])
    slots = slots[np.argsort(addr[ref, slots], kind="stable")]
    out = []
    for i in range(0, len(slots), k):
        group = [int(s) for s in slots[i:i + k]]
        a = addr[:, group]
        on = a[:, 0] >= 0
        step = a - a[:, :1]
        if not ((a >= 0) == on[:, None]).all() or \
                not (step[on] == np.arange(len(group)) * eb).all() or \
                (a[on, 0] % (len(group) * eb)).any():
            raise LayoutError("internal: the bit staging's vectors are not the same slots "
                              "in every thread")
        out.append((group, np.where(on, a[:, 0], -1)))
    return sorted(out, key=lambda g: g[0][0])  # in slot order: registers in order


__all__ = ["from_bits"]
