"""The asynchronous proxy: proxy fences, the TMA's bulk tensor copies
(``cp.async.bulk.tensor``, both directions) and ``mbarrier`` objects.

**The tensor map** is opaque in PTX (a 128-byte ``CUtensorMap`` the host encodes with
``cuTensorMapEncodeTiled``), so a test passes a :class:`TensorMap` model as the kernel's
tensor-map argument: the global tensor, its dimensions (innermost first), its strides,
the box, the element size and the swizzle, as ``cuTensorMapEncodeTiled`` takes them.

**A TMA load** (``cp.async.bulk.tensor.Nd.shared::cluster.global.tile.mbarrier::
complete_tx::bytes [dst], [map, {c0, ..}], [mbar]``, PTX ISA "cp.async.bulk.tensor")
copies the box whose first element is at ``(c0, ..)``: box element ``(i0, i1, ..)`` is
global element ``(c0 + i0, c1 + i1, ..)`` (zero outside the tensor), at byte
``((i0 + box0 * (i1 + box1 * ..)) * elem_bytes`` of the box. Byte ``o`` lands at shared
address ``swizzle(dst + o)``, the swizzle mode's pattern on the address
(docs/hardware.md, "Swizzle modes": ``a ^ (((a >> 7) & (k - 1)) << 4)``, k = 2 / 4 / 8 for
32B / 64B / 128B). ``dst`` must be 128-byte aligned. The copy is performed when the
instruction issues, by the *async agent*: a writer of its own in the race check (one more
vector clock), which knows what the issuing thread knew and whose writes become visible
to a thread only through the mbarrier (a successful wait on the phase its complete-tx
finished, or a barrier after such a wait), as the PTX ISA's memory model says of the
async proxy. Then it performs complete-tx of the box's bytes on ``mbar``.

**An mbarrier** (PTX ISA "mbarrier") has a phase, a pending arrival count, an expected
arrival count and a tx-count. ``arrive`` decrements the pending count, ``expect_tx``
raises the tx-count, complete-tx lowers it; the phase completes when both are zero:
the phase advances, the pending count is reloaded, and the arrivals' (and the async
agent's) clocks are released to the threads whose wait then succeeds. A thread whose
``try_wait`` / ``test_wait`` finds its phase incomplete is delayed while any other
thread can run (a scheduling choice the hardware may make too); when none can, each
delayed thread's wait returns false once. A thread that waits again, with no mbarrier
changed since, while nobody else can run, is a :class:`~.errors.DeadlockError`: the
phase can never complete.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .errors import PtxError, at
from .formats import U64, signed
from .memory import SHARED_WINDOW
from .parser import Addr, Instruction, Sym, TensorRef
from .records import Event
from .semantics import _address, _n_operands, _unknown

#: CUtensorMapSwizzle name or short name -> the XOR pattern on shared byte addresses:
#: (mask of the bits above the 128-byte row, shift it lands at) -- docs/hardware.md
SWIZZLES = {"none": (0, 4), "32B": (1, 4), "64B": (3, 4), "128B": (7, 4),
            "128B_ATOM_32B": (3, 5), "128B_ATOM_64B": (1, 6)}
#: the swizzle span (bytes) an inner box row may not exceed
SPANS = {"none": None, "32B": 32, "64B": 64, "128B": 128, "128B_ATOM_32B": 128,
         "128B_ATOM_64B": 128}
#: a TMA load's shared destination alignment (PTX ISA "cp.async.bulk.tensor")
DST_ALIGN = 128
#: PTX ISA limits of a tensor map (cuTensorMapEncodeTiled): rank, box extent
MAX_RANK = 5
MAX_BOX = 256


def swizzle_name(mode: str) -> str:
    """``"128B"`` for ``"CU_TENSOR_MAP_SWIZZLE_128B"`` or ``"128B"``; refuses others."""
    short = mode.removeprefix("CU_TENSOR_MAP_SWIZZLE_")
    short = "none" if short.upper() == "NONE" else short
    if short not in SWIZZLES:
        raise PtxError(f"expected a swizzle of {sorted(SWIZZLES)}, got {mode!r}")
    return short


def swizzled(addr: np.ndarray, mode: str) -> np.ndarray:
    """Shared byte addresses after the swizzle ``mode`` (its pattern on the address)."""
    mask, shift = SWIZZLES[swizzle_name(mode)]
    a = np.asarray(addr, np.int64)
    return a ^ (((a >> 7) & mask) << shift)


@dataclass(frozen=True)
class TensorMap:
    """What a ``CUtensorMap`` encodes (``cuTensorMapEncodeTiled``): ``data`` the global
    tensor (its bytes), ``dims`` its extents innermost first, ``strides`` the byte
    strides of dims 1.. (multiples of 16), ``box`` the box extents innermost first,
    ``elem_bytes`` and the ``swizzle`` mode (``"none"``, ``"32B"``, ``"64B"``, ``"128B"``
    or the ``CU_TENSOR_MAP_SWIZZLE_*`` names)."""

    data: np.ndarray
    dims: tuple[int, ...]
    strides: tuple[int, ...]
    box: tuple[int, ...]
    elem_bytes: int
    swizzle: str = "none"

    def __post_init__(self) -> None:
        rank = len(self.dims)
        if not 1 <= rank <= MAX_RANK or len(self.box) != rank or len(self.strides) != rank - 1:
            raise PtxError(f"expected 1 .. {MAX_RANK} dims with as many box extents and one "
                           f"stride fewer, got dims {self.dims}, box {self.box}, strides "
                           f"{self.strides}")
        if any(not 1 <= b <= MAX_BOX for b in self.box) or any(d < 1 for d in self.dims):
            raise PtxError(f"expected box extents 1 .. {MAX_BOX} and positive dims, got box "
                           f"{self.box}, dims {self.dims}")
        inner = self.box[0] * self.elem_bytes
        span = SPANS[swizzle_name(self.swizzle)]
        if inner % 16 or (span is not None and inner > span):
            raise PtxError(f"expected an inner box row of a multiple of 16 bytes, at most the "
                           f"{self.swizzle} span {span}, got {inner} bytes")
        if any(s % 16 for s in self.strides):
            raise PtxError(f"expected global strides that are multiples of 16 bytes, got "
                           f"{self.strides}")
        last = (self.dims[0] - 1) * self.elem_bytes + sum(
            (d - 1) * s for d, s in zip(self.dims[1:], self.strides, strict=True))
        if last + self.elem_bytes > self.data.nbytes:
            raise PtxError(f"the global tensor has {self.data.nbytes} bytes, its dims and "
                           f"strides reach {last + self.elem_bytes}")

    @property
    def box_bytes(self) -> int:
        return int(np.prod(self.box)) * self.elem_bytes

    def box_image(self, coords: tuple[int, ...]) -> np.ndarray:
        """The box at ``coords`` (innermost first) as bytes in box order, zero outside the
        tensor (``CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE``)."""
        grids = np.meshgrid(*[np.arange(b) + c for b, c in zip(self.box, coords, strict=True)],
                            indexing="ij")  # [i0, i1, ...]
        inside = np.ones(grids[0].shape, bool)
        offset = np.zeros(grids[0].shape, np.int64)
        for k, g in enumerate(grids):
            inside &= (g >= 0) & (g < self.dims[k])
            offset += g * (self.elem_bytes if k == 0 else self.strides[k - 1])
        raw = self.data.reshape(-1).view(np.uint8)
        idx = np.where(inside, offset, 0)[..., None] + np.arange(self.elem_bytes)
        out = np.where(inside[..., None], raw[idx], 0).astype(np.uint8)
        # box order: i0 fastest, so transpose the (i0, i1, ..) grid to (.., i1, i0)
        return out.transpose(*reversed(range(len(self.box))), len(self.box)).reshape(-1)


# -- fences and bulk copies --------------------------------------------------------------------

def fence(ins: Instruction):
    """``fence.proxy.async`` records the step per thread (a TMA store checks it); the
    other fences (``fence.mbarrier_init``, ``fence.acq_rel``, ...) order nothing the
    interpreter does not already order."""
    parts = ins.parts
    proxy_async = len(parts) > 2 and parts[1] == "proxy" and parts[2] == "async"

    def run(m, mask, act):
        if proxy_async:
            m.fenced[act] = m.steps
    return run


_LOAD_QUALS = {"shared::cluster", "shared::cta", "global", "tile", "mbarrier::complete_tx::bytes"}
_STORE_QUALS = {"global", "shared::cta", "bulk_group", "tile"}


def cp(ins: Instruction):
    """``cp.async.bulk.commit_group`` / ``wait_group`` (no-ops: a store is recorded when
    issued), the TMA store and the TMA load."""
    parts = ins.parts
    op = ".".join(parts)
    if op == "cp.async.bulk.commit_group" or op.startswith("cp.async.bulk.wait_group"):
        return lambda m, mask, act: None
    if parts[1:4] != ("async", "bulk", "tensor") or len(parts) < 6 or \
            parts[4] not in {f"{k}d" for k in range(1, MAX_RANK + 1)}:
        raise _unknown(ins)
    rank = int(parts[4][0])
    quals = set(parts[5:])
    if parts[5] == "global":
        if quals - _STORE_QUALS or "bulk_group" not in quals:
            raise _unknown(ins, f"qualifier .{sorted(quals - _STORE_QUALS)[0]}"
                           if quals - _STORE_QUALS else "completion")
        _n_operands(ins, 2)
        dst, src = ins.operands
        if not isinstance(dst, TensorRef) or not isinstance(src, Addr):
            raise _unknown(ins, "operands")
        return _tma_store(ins, dst, src)
    if parts[5] in ("shared::cluster", "shared::cta") and parts[6:7] == ("global",):
        if quals - _LOAD_QUALS or "mbarrier::complete_tx::bytes" not in quals:
            raise _unknown(ins, f"qualifier .{sorted(quals - _LOAD_QUALS)[0]}"
                           if quals - _LOAD_QUALS else "completion")
        _n_operands(ins, 3)
        dst, src, bar = ins.operands
        if not isinstance(dst, Addr) or not isinstance(src, TensorRef) or \
                not isinstance(bar, Addr) or len(src.coords.items) != rank:
            raise _unknown(ins, "operands")
        return _tma_load(ins, dst, src, bar)
    raise _unknown(ins)


def _map_names(m, ref: TensorRef, idx: np.ndarray, ins) -> list[str]:
    if isinstance(ref.base, Sym):
        return [ref.base.name] * len(idx)
    return [m.param_name(int(a)) for a in m.read(ref.base, 64, ins)[idx]]


def _coords(m, ref: TensorRef, ins) -> np.ndarray:
    return np.stack([signed(m.read(c, 32, ins), 32) for c in ref.coords.items], axis=1)


def _tma_store(ins: Instruction, dst: TensorRef, src: Addr):
    """``cp.async.bulk.tensor.Nd.global.shared::cta.bulk_group [map, {c..}], [smem]``:
    recorded as an :class:`~tests.ptx.records.Event` with the tensor map (the parameter
    it is, or its address), each issuing thread's coordinates and shared address, and a
    copy of shared memory. Every shared byte written before it must have been made
    visible to the async proxy by its writer (``fence.proxy.async`` after the write, PTX
    ISA "membar / fence") and, if another thread wrote it, ordered before the issuing
    thread by a barrier. (Without the tensor map's box the interpreter checks every
    written byte.)"""

    def run(m, mask, act):
        where = at(ins.line, ins.text)
        idx = np.flatnonzero(act)
        if not len(idx):
            return
        smem, _ = _address(m, src, ins, "shared")
        coords = _coords(m, dst, ins)
        maps = _map_names(m, dst, idx, ins)
        written = np.flatnonzero(m.shared.written())
        w = m.shared.writer[written]
        agent = w == m.agent  # bytes the async proxy wrote need no proxy fence
        fenced = agent | (m.fenced[np.minimum(w, m.n - 1)] > m.shared.wstep[written])
        for t in idx:
            ordered = (w == t) | (m.clocks[t, w] >= m.shared.stamp[written])
            bad = ~fenced | ~ordered
            if bad.any():
                k = int(np.flatnonzero(bad)[0])
                why = "no fence.proxy.async after it" if not fenced[k] else \
                    "no barrier between them"
                raise PtxError(f"{where}: thread {t} stores shared byte {int(written[k])} "
                               f"through the async proxy, but thread {int(w[k])} wrote it at "
                               f"line {int(m.shared.wline[written[k]])} with {why}")
        m.events.append(Event(ins.line, ins.op, tuple(int(t) for t in idx), {
            "tensor_map": maps, "coords": coords[idx].tolist(), "smem": smem[idx].tolist(),
            "shared": m.shared.data.copy()}))
    return run


def _tma_load(ins: Instruction, dst: Addr, src: TensorRef, bar: Addr):
    """The TMA load of the module doc, one box per issuing thread."""

    def run(m, mask, act):
        where = at(ins.line, ins.text)
        idx = np.flatnonzero(act)
        if not len(idx):
            return
        smem, _ = _address(m, dst, ins, "shared")
        bars = barrier_addresses(m, bar, ins, shared=True)
        coords = _coords(m, src, ins)
        for t, name in zip(idx, _map_names(m, src, idx, ins), strict=True):
            model = m.tensor_maps.get(name)
            if model is None:
                raise PtxError(f"{where}: no tensor-map model for {name} (pass a "
                               f"tests.ptx.async_proxy.TensorMap as that argument)")
            if len(model.dims) != len(src.coords.items):
                raise PtxError(f"{where}: a {len(src.coords.items)}d copy through the "
                               f"rank-{len(model.dims)} tensor map {name}")
            base = int(smem[t])
            if base % DST_ALIGN:
                raise PtxError(f"{where}: the shared destination {base} is not "
                               f"{DST_ALIGN}-byte aligned")
            b = mbarrier_at(m, int(bars[t]), where)
            image = model.box_image(tuple(int(c) for c in coords[t]))
            chunks = swizzled(base + np.arange(0, len(image), 16), model.swizzle)
            agent = m.agent
            m.clocks[agent] = np.maximum(m.clocks[agent], m.clocks[t])  # issued after t's past
            m.shared.write(np.full(len(chunks), agent), chunks, image.reshape(-1, 16), where,
                           ins.line)
            m.events.append(Event(ins.line, ins.op, (int(t),), {
                "tensor_map": name, "coords": coords[t].tolist(), "smem": base}))
            b["clock"] = np.maximum(b["clock"], m.clocks[agent])
            m.clocks[agent, agent] += 1
            b["tx"] -= len(image)  # complete-tx
            changed(m, b)
    return run


# -- mbarrier ----------------------------------------------------------------------------------

_MBAR_QUALS = {"shared", "shared::cta", "b64", "release", "acquire", "relaxed", "cta", "cluster"}


def barrier_addresses(m, op: Addr, ins, shared: bool) -> np.ndarray:
    """Per thread the shared-space address of an mbarrier operand (generic when the
    instruction names no state space)."""
    a, _ = _address(m, op, ins, "shared" if shared else None)
    return a if shared else a - SHARED_WINDOW


def mbarrier_at(m, a: int, where: str) -> dict:
    if a not in m.mbarriers:
        raise PtxError(f"{where}: mbarrier at shared address {a} is used before mbarrier.init")
    return m.mbarriers[a]


def changed(m, b: dict) -> None:
    """An mbarrier's counts changed: complete its phase when nothing is pending, and wake
    the delayed waiters to look again."""
    if b["pending"] == 0 and b["tx"] == 0:
        b["phase"] += 1
        b["pending"] = b["expected"]
        b["released"] = b["clock"].copy()
    m.mbar_generation += 1
    m.mbar_delayed[:] = False


def mbarrier(ins: Instruction):
    """``mbarrier.init / arrive / arrive_drop / arrive.expect_tx / expect_tx /
    try_wait{.parity} / test_wait{.parity} / inval`` (see the module doc)."""
    parts = ins.parts
    what = parts[1]
    ops = ins.operands
    rest = set(parts[2:]) - _MBAR_QUALS - ({"expect_tx"} if what == "arrive" else set()) - \
        ({"parity"} if what in ("try_wait", "test_wait") else set())
    if rest:
        raise _unknown(ins, f"qualifier .{sorted(rest)[0]}")
    shared = "shared" in parts or "shared::cta" in parts
    if what == "init":
        _n_operands(ins, 2)

        def run_init(m, mask, act):
            addr = barrier_addresses(m, ops[0], ins, shared)
            cnt = m.read(ops[1], 32, ins)
            for t in np.flatnonzero(act):
                m.mbarriers[int(addr[t])] = {"expected": int(cnt[t]), "pending": int(cnt[t]),
                                             "tx": 0, "phase": 0,
                                             "clock": np.zeros(m.clocks.shape[1], np.int64),
                                             "released": np.zeros(m.clocks.shape[1], np.int64)}
                m.mbar_generation += 1
        return run_init
    if what in ("arrive", "arrive_drop", "expect_tx"):
        return _arrive(ins, what, shared)
    if what in ("try_wait", "test_wait"):
        return _wait(ins, "parity" in parts, shared)
    if what == "inval":
        def run_inval(m, mask, act):
            for a in barrier_addresses(m, ops[0], ins, shared)[act]:
                m.mbarriers.pop(int(a), None)
        return run_inval
    raise _unknown(ins)


def _arrive(ins: Instruction, what: str, shared: bool):
    tx = "expect_tx" in ins.parts
    ops = ins.operands
    state_op = ops[0] if what != "expect_tx" and ops and not isinstance(ops[0], Addr) else None
    rest = ops[1:] if state_op is not None else ops
    if not rest or not isinstance(rest[0], Addr) or len(rest) > 2 or (tx and len(rest) != 2):
        raise _unknown(ins, "operands")

    def run(m, mask, act):
        where = at(ins.line, ins.text)
        addr = barrier_addresses(m, rest[0], ins, shared)
        amount = m.read(rest[1], 32, ins) if len(rest) > 1 else None
        states = np.zeros(m.n, U64)
        for t in np.flatnonzero(act):
            b = mbarrier_at(m, int(addr[t]), where)
            states[t] = b["phase"]
            if tx:
                b["tx"] += int(amount[t])
            if what != "expect_tx":
                count = 1 if tx or amount is None else int(amount[t])
                b["clock"] = np.maximum(b["clock"], m.clocks[t])
                m.clocks[t, t] += 1  # the thread's later accesses are not released
                b["pending"] -= count
                if what == "arrive_drop":
                    b["expected"] -= count
                if b["pending"] < 0:
                    raise PtxError(f"{where}: more arrivals than the mbarrier's pending count")
            changed(m, b)
        if state_op is not None:
            m.write(state_op, states, act, ins)
    return run


def _wait(ins: Instruction, parity: bool, shared: bool):
    ops = ins.operands
    _n_operands(ins, 3, 4)

    def run(m, mask, act):
        where = at(ins.line, ins.text)
        addr = barrier_addresses(m, ops[1], ins, shared)
        want = m.read(ops[2], 64, ins)
        done = np.zeros(m.n, bool)
        moves = mask.copy()
        for t in np.flatnonzero(act):
            b = mbarrier_at(m, int(addr[t]), where)
            ph = b["phase"]
            done[t] = (ph & 1) != (int(want[t]) & 1) if parity else ph > int(want[t])
            if done[t]:
                m.clocks[t] = np.maximum(m.clocks[t], b["released"])
            elif m.mbar_timed_out[t]:  # nobody else could run: the wait returns false
                m.mbar_timed_out[t] = False
                m.mbar_seen[t] = m.mbar_generation
            else:
                m.mbar_delayed[t] = True
                moves[t] = False
        m.write(ops[0], done, act & moves, ins)
        return moves
    return run


def time_out(m) -> bool:
    """No thread can run but some wait at an mbarrier: let each wait that has not yet
    returned false since the last mbarrier change return false (True), else nothing can
    ever change (False: a deadlock)."""
    waiting = m.alive & m.mbar_delayed
    fresh = waiting & (m.mbar_seen != m.mbar_generation)
    if not fresh.any():
        return False
    m.mbar_delayed[fresh] = False
    m.mbar_timed_out[fresh] = True
    return True


DECODERS = {"fence": fence, "cp": cp, "mbarrier": mbarrier}

__all__ = ["DECODERS", "SWIZZLES", "TensorMap", "swizzled", "time_out"]
