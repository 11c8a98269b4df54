"""The interpreter's state spaces: global buffers, a byte-addressed shared memory that
detects races, per-thread local memory, and the kernel parameters.

Generic addresses (``cvta``, ``ld`` / ``st`` without a state space) are one 64-bit space:
global buffers at their own bases (``cvta.to.global`` is the identity, as on the
hardware), and windows for the shared, local and parameter spaces
(:data:`SHARED_WINDOW`, ...): ``cvta.shared`` adds the window's base to a shared-space
address, ``cvta.to.shared`` removes it.

Races (PTX ISA "Memory Consistency Model": ``bar.sync`` / ``barrier.sync`` and
``bar.warp.sync`` order the memory accesses of the threads taking part): every thread
has a vector clock; a barrier merges the clocks of the threads it releases. A shared
byte remembers its last writer and that writer's clock, and reads are logged until a
barrier orders them before every thread. An access is a race when the other thread's
conflicting access is not ordered before it: a read of a byte another thread wrote, a
write of a byte another thread read or wrote -- unless the write leaves the byte's value
as it was (two threads storing the same replicated value is not a race here). Lanes of
one instruction storing different values to one byte are an error too.
"""

from __future__ import annotations

import numpy as np

from .errors import PtxError, RaceError

U64 = np.uint64
GLOBAL_BASE = 0x1000_0000_0000
GLOBAL_STRIDE = 1 << 36
SHARED_WINDOW = 0x7000_0000_0000
LOCAL_WINDOW = 0x7100_0000_0000
PARAM_WINDOW = 0x7200_0000_0000
WINDOW_SIZE = 1 << 32
#: the bytes of shared memory no thread wrote yet (what a read of them returns)
UNWRITTEN = 0xCD


def pack(data: np.ndarray) -> np.ndarray:
    """``(n, k)`` little-endian bytes -> ``(n,)`` uint64 (k <= 8)."""
    k = data.shape[1]
    shifts = (np.arange(k, dtype=U64) * U64(8))
    return np.bitwise_or.reduce(data.astype(U64) << shifts, axis=1) if k else \
        np.zeros(data.shape[0], U64)


def unpack(values: np.ndarray, k: int) -> np.ndarray:
    """``(n,)`` uint64 -> ``(n, k)`` little-endian bytes."""
    shifts = (np.arange(k, dtype=U64) * U64(8))
    return ((values[:, None] >> shifts) & U64(0xFF)).astype(np.uint8)


class Buffer:
    """One global-memory array (an input, an output, or a kernel's ``.global`` variable)."""

    def __init__(self, name: str, data: bytes | np.ndarray, base: int, writable: bool = True):
        self.name = name
        self.data = np.frombuffer(bytes(data), np.uint8).copy() if not isinstance(
            data, np.ndarray) else data.view(np.uint8).reshape(-1).copy()
        self.base = base
        self.writable = writable

    def __repr__(self) -> str:
        return f"{self.name} at 0x{self.base:x} ({len(self.data)} bytes)"


class GlobalMemory:
    def __init__(self) -> None:
        self.buffers: list[Buffer] = []

    def add(self, name: str, data, writable: bool = True) -> Buffer:
        b = Buffer(name, data, GLOBAL_BASE + len(self.buffers) * GLOBAL_STRIDE, writable)
        self.buffers.append(b)
        return b

    def _locate(self, addr: np.ndarray, nbytes: int, where: str, write: bool
                ) -> list[tuple[Buffer, np.ndarray, np.ndarray]]:
        """Per buffer: (buffer, the threads' positions in ``addr``, their offsets)."""
        left = np.ones(len(addr), bool)
        out = []
        a = addr.astype(np.int64)
        for b in self.buffers:
            hit = left & (a >= b.base) & (a + nbytes <= b.base + len(b.data))
            if hit.any():
                if write and not b.writable:
                    raise PtxError(f"{where}: a store to the read-only buffer {b.name}")
                idx = np.flatnonzero(hit)
                out.append((b, idx, a[idx] - b.base))
                left &= ~hit
        if left.any():
            bad = int(a[np.flatnonzero(left)[0]])
            raise PtxError(f"{where}: {nbytes} bytes at global address 0x{bad:x} are outside "
                           f"every buffer ({', '.join(map(repr, self.buffers)) or 'none'})")
        return out

    def read(self, addr: np.ndarray, nbytes: int, where: str) -> np.ndarray:
        out = np.zeros((len(addr), nbytes), np.uint8)
        for b, idx, off in self._locate(addr, nbytes, where, False):
            out[idx] = b.data[off[:, None] + np.arange(nbytes)]
        return out

    def write(self, addr: np.ndarray, data: np.ndarray, where: str) -> None:
        for b, idx, off in self._locate(addr, data.shape[1], where, True):
            b.data[off[:, None] + np.arange(data.shape[1])] = data[idx]


class SharedMemory:
    """``size`` bytes of one CTA's shared memory, with the race bookkeeping of the module
    doc (``clocks``: the machine's vector clocks, ``clocks[t, u]`` = what thread ``t``
    knows of thread ``u``)."""

    def __init__(self, size: int, clocks: np.ndarray, threads: int | None = None):
        self.size = size
        self.threads = clocks.shape[0] if threads is None else threads
        self.data = np.full(size, UNWRITTEN, np.uint8)
        self.writer = np.full(size, -1, np.int32)
        self.stamp = np.zeros(size, np.int64)
        self.wline = np.zeros(size, np.int32)
        self.wstep = np.zeros(size, np.int64)  # the machine step of the last write
        self.step = 0  # set by the machine before every instruction
        self.clocks = clocks
        self.reads: list[tuple[np.ndarray, np.ndarray, np.ndarray, int]] = []
        self.unwritten_reads = 0
        self._scratch = np.full(size, -1, np.int64)

    def _bytes(self, addr: np.ndarray, nbytes: int, where: str) -> np.ndarray:
        a = addr.astype(np.int64)
        if (a < 0).any() or (a + nbytes > self.size).any():
            bad = int(a[(a < 0) | (a + nbytes > self.size)][0])
            raise PtxError(f"{where}: {nbytes} bytes at shared address {bad} are outside the "
                           f"{self.size} bytes of shared memory")
        return a[:, None] + np.arange(nbytes)

    def read(self, tids: np.ndarray, addr: np.ndarray, nbytes: int, where: str, line: int
             ) -> np.ndarray:
        idx = self._bytes(addr, nbytes, where)
        w = self.writer[idx]
        t = np.broadcast_to(tids[:, None], idx.shape)
        known = self.clocks[t, np.maximum(w, 0)]
        bad = (w >= 0) & (w != t) & (known < self.stamp[idx])
        if bad.any():
            i = tuple(np.argwhere(bad)[0])
            raise RaceError(f"{where}: thread {int(t[i])} reads shared byte {int(idx[i])}, "
                            f"which thread {int(w[i])} wrote at line {int(self.wline[idx[i]])} "
                            f"with no barrier between them")
        self.unwritten_reads += int((w < 0).sum())
        self.reads.append((tids.copy(), idx, self.clocks[tids, tids].copy(), line))
        return self.data[idx]

    def write(self, tids: np.ndarray, addr: np.ndarray, data: np.ndarray, where: str,
              line: int) -> None:
        nbytes = data.shape[1]
        idx = self._bytes(addr, nbytes, where)
        flat, vals = idx.reshape(-1), data.reshape(-1)
        owner = np.repeat(tids, nbytes)
        order = np.argsort(flat, kind="stable")
        fs, vs = flat[order], vals[order]
        same = fs[1:] == fs[:-1]
        if (same & (vs[1:] != vs[:-1])).any():
            k = int(np.flatnonzero(same & (vs[1:] != vs[:-1]))[0])
            raise RaceError(f"{where}: threads {int(owner[order][k])} and "
                            f"{int(owner[order][k + 1])} store different values to shared "
                            f"byte {int(fs[k])} in one instruction")
        changed = self.data[flat] != vals
        # write after write: the previous writer's store must be ordered before this one
        w = self.writer[flat]
        known = self.clocks[owner, np.maximum(w, 0)]
        bad = changed & (w >= 0) & (w != owner) & (known < self.stamp[flat])
        if bad.any():
            k = int(np.flatnonzero(bad)[0])
            raise RaceError(f"{where}: thread {int(owner[k])} overwrites shared byte "
                            f"{int(flat[k])}, which thread {int(w[k])} wrote at line "
                            f"{int(self.wline[flat[k]])} with no barrier between them")
        # write after read: every logged read of a byte this store changes must be ordered
        if self.reads:
            sc = self._scratch
            sc[flat[changed]] = owner[changed]
            for rt, ridx, rstamp, rline in self.reads:
                wr = sc[ridx]
                hit = wr >= 0
                if not hit.any():
                    continue
                rr = np.broadcast_to(rt[:, None], ridx.shape)
                known = self.clocks[np.maximum(wr, 0), rr]
                bad = hit & (wr != rr) & (known < np.broadcast_to(rstamp[:, None], ridx.shape))
                if bad.any():
                    i = tuple(np.argwhere(bad)[0])
                    sc[flat] = -1
                    raise RaceError(f"{where}: thread {int(wr[i])} overwrites shared byte "
                                    f"{int(ridx[i])}, which thread {int(rr[i])} read at line "
                                    f"{rline} with no barrier between them")
            sc[flat] = -1
        self.data[flat] = vals
        self.writer[flat] = owner
        self.stamp[flat] = self.clocks[owner, owner]
        self.wline[flat] = line
        self.wstep[flat] = self.step

    def prune(self) -> None:
        """Forget the reads a barrier has ordered before every thread (the async agent
        learns them from the thread issuing a copy, so they are ordered before it too)."""
        low = self.clocks[:self.threads].min(axis=0)
        self.reads = [r for r in self.reads if (low[r[0]] < r[2]).any()]

    def written(self) -> np.ndarray:
        """Which bytes some thread wrote."""
        return self.writer >= 0


class LocalMemory:
    """Each thread's ``.local`` bytes (the stack frame nvcc names ``__local_depot``)."""

    def __init__(self, threads: int, size: int):
        self.size = size
        self.data = np.zeros((threads, max(size, 1)), np.uint8)

    def _idx(self, addr: np.ndarray, nbytes: int, where: str) -> np.ndarray:
        a = addr.astype(np.int64)
        if (a < 0).any() or (a + nbytes > self.size).any():
            raise PtxError(f"{where}: {nbytes} bytes at local address "
                           f"{int(a[(a < 0) | (a + nbytes > self.size)][0])} are outside the "
                           f"{self.size} local bytes")
        return a[:, None] + np.arange(nbytes)

    def read(self, tids: np.ndarray, addr: np.ndarray, nbytes: int, where: str) -> np.ndarray:
        return self.data[tids[:, None], self._idx(addr, nbytes, where)]

    def write(self, tids: np.ndarray, addr: np.ndarray, data: np.ndarray, where: str) -> None:
        self.data[tids[:, None], self._idx(addr, data.shape[1], where)] = data
