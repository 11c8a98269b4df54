"""The executor: all threads of one CTA of an entry function, vectorized over threads.

Registers are numpy arrays with one value per thread (raw bits in ``uint64``, predicates
as ``bool``). Execution is warp-lockstep with per-thread program counters and the
*minimum-PC* rule: each step runs the instruction at the lowest PC any runnable thread
of the CTA is at, for exactly the threads at that PC. Threads that branch apart run
separately and reconverge where their PCs meet again -- at the immediate post-dominator
of structured code (if / else, loops: threads leaving a loop wait at the exit, the
lowest-PC threads keep iterating). This is documented in docs/ptx-interpreter.md.

Warp-synchronous instructions (``shfl.sync``, ``vote.sync``, ``bar.warp.sync``,
``ldmatrix``, ``stmatrix``, ...) run for a warp only when every non-exited lane they
name (the member mask; every lane for ``.aligned``) is at the instruction; lanes that
are elsewhere are waited for, and a wait that can never end is a :class:`DeadlockError`.
``bar.sync`` / ``barrier.sync`` wait for their thread count (all threads by default).

>>> from tests.ptx.parser import parse
>>> m = Machine(parse('''.version 8.0
... .target sm_90
... .address_size 64
... .visible .entry k() {
...   .reg .b32 %r<4>;  .reg .pred %p<2>;
...   mov.u32 %r1, %laneid;  mov.u32 %r2, 0;
... $L:
...   add.s32 %r2, %r2, 1;  setp.lt.u32 %p1, %r2, %r1;  @%p1 bra $L;
...   ret;
... }''').kernels["k"], threads=32)
>>> m.run().regs["%r2"][:6].tolist(), m.steps   # each lane loops max(lane, 1) times
([1, 1, 2, 3, 4, 5], 96)
"""

from __future__ import annotations

import numpy as np

from tilelayout.analysis.conflicts import wavefronts_batch

from . import async_proxy, semantics
from .errors import DeadlockError, PtxError, at
from .formats import mask as bitmask
from .memory import (
    LOCAL_WINDOW,
    PARAM_WINDOW,
    SHARED_WINDOW,
    WINDOW_SIZE,
    GlobalMemory,
    LocalMemory,
    SharedMemory,
)
from .parser import Imm, Kernel, Reg, Special, Sym, Variable
from .records import Access, Event

U64 = np.uint64
WARP = 32
MAX_STEPS = 200_000
MAX_THREADS = 1024
#: the dynamic shared-memory window starts at a multiple of this (the statics come first)
DYNAMIC_ALIGN = 1024
HANDLED = False  # an executor's answer: it moved the program counters itself


class Machine:
    """One CTA of ``kernel`` on ``threads`` threads (a multiple of 32).

    ``params``: kernel parameter values by name (an int, or bytes for an array
    parameter); ``memory``: the global buffers the pointers point into;
    ``dynamic_smem``: bytes of the ``extern .shared`` window; ``module_variables``: the
    module's ``.shared`` / ``.global`` variables.
    """

    def __init__(self, kernel: Kernel, threads: int, params: dict | None = None,
                 memory: GlobalMemory | None = None, dynamic_smem: int = 0,
                 module_variables: list[Variable] | tuple = (), max_steps: int = MAX_STEPS,
                 target: str = "sm_90a", tensor_maps: dict | None = None):
        if threads <= 0 or threads % WARP or threads > MAX_THREADS:
            raise PtxError(f"expected a CTA of 32 .. {MAX_THREADS} threads in whole warps, "
                           f"got {threads}")
        need = kernel.reqntid
        if need is not None and need != threads:
            raise PtxError(f"kernel {kernel.name} requires {need} threads (.reqntid), got {threads}")
        if kernel.maxntid is not None and threads > kernel.maxntid:
            raise PtxError(f"kernel {kernel.name} allows at most {kernel.maxntid} threads "
                           f"(.maxntid), got {threads}")
        self.kernel = kernel
        self.target = target
        self.n = threads
        self.warps = threads // WARP
        self.tid = np.arange(threads)
        self.lane = self.tid % WARP
        self.warp = self.tid // WARP
        self.max_steps = max_steps
        self.steps = 0
        self.regs: dict[str, np.ndarray] = {}
        self.pcs = np.zeros(threads, np.int64)
        self.alive = np.ones(threads, bool)
        self.blocked = np.zeros(threads, bool)  # waiting at a warp-synchronous instruction
        self.barrier_wait = np.full(threads, -1, np.int64)  # the CTA barrier waited at
        #: vector clocks (memory.py); row / column ``threads`` is the async agent, the
        #: TMA's writer (async_proxy.py)
        self.agent = threads
        self.clocks = np.eye(threads + 1, dtype=np.int64)
        self.memory = memory if memory is not None else GlobalMemory()
        self.dynamic_smem = dynamic_smem
        self.counts: dict[str, np.ndarray] = {}  # instruction name -> executions per warp
        self.accesses: list[Access] = []
        self.events: list[Event] = []
        self.barriers: dict[int, dict] = {}
        self.mbarriers: dict[int, dict] = {}
        self.fenced = np.full(threads, -1, np.int64)  # step of each thread's last proxy fence
        self.tensor_maps: dict = dict(tensor_maps or {})  # parameter -> async_proxy.TensorMap
        # mbarrier waits (async_proxy.py): delayed at an incomplete phase, told to return
        # false once, the mbarrier generation each last saw false at
        self.mbar_delayed = np.zeros(threads, bool)
        self.mbar_timed_out = np.zeros(threads, bool)
        self.mbar_seen = np.full(threads, -1, np.int64)
        self.mbar_generation = 0
        self.observers: list = []  # called as f(machine, instruction, mask) for every step
        self._layout(kernel, list(module_variables), params or {})
        for ins in kernel.code:
            if ins.run is None:
                proxy = async_proxy.DECODERS.get(ins.parts[0])
                ins.run = proxy(ins) if proxy else semantics.decode(ins, self.kernel)
                ins.count_name = getattr(ins.run, "name", ins.op)

    # -- state spaces ----------------------------------------------------------------------

    def _layout(self, kernel: Kernel, module_vars: list[Variable], params: dict) -> None:
        self.symbols: dict[str, tuple[str, int]] = {}  # name -> (space, address in it)
        shared_top = 0
        local_top = 0
        dynamic: list[Variable] = []
        for v in module_vars + kernel.variables:
            if v.space == "shared":
                if v.size is None:
                    dynamic.append(v)
                    continue
                shared_top = -(-shared_top // v.align) * v.align
                self.symbols[v.name] = ("shared", shared_top)
                shared_top += v.size
            elif v.space == "local":
                local_top = -(-local_top // v.align) * v.align
                self.symbols[v.name] = ("local", local_top)
                local_top += v.size or 0
            elif v.space in ("global", "const"):
                b = self.memory.add(v.name, v.init or bytes(v.size or 0), writable=v.space == "global")
                self.symbols[v.name] = ("global", b.base)
        self.static_smem = shared_top
        base = -(-shared_top // DYNAMIC_ALIGN) * DYNAMIC_ALIGN if dynamic and shared_top else 0
        for v in dynamic:
            self.symbols[v.name] = ("shared", base)
        self.dynamic_base = base
        self.shared = SharedMemory(base + self.dynamic_smem if dynamic else shared_top,
                                   self.clocks, self.n)
        self.local = LocalMemory(self.n, local_top)
        # the parameter space: each parameter at its alignment, its bytes from `params`
        top = 0
        blob = bytearray()
        names = {p.name for p in kernel.params}
        for k in params:
            if k not in names:
                raise PtxError(f"kernel {kernel.name} has no parameter {k!r} "
                               f"(it has {sorted(names)})")
        self.param_of: dict[int, str] = {}
        for p in kernel.params:
            top = -(-top // p.align) * p.align
            blob.extend(b"\0" * (top - len(blob)))
            v = params.get(p.name, 0)
            if isinstance(v, (bytes, bytearray)):
                data = bytes(v).ljust(p.size, b"\0")[:p.size]
            else:
                data = (int(v) & bitmask(8 * min(p.size, 8))).to_bytes(min(p.size, 8), "little")
                data = data.ljust(p.size, b"\0")
            self.symbols[p.name] = ("param", top)
            self.param_of[top] = p.name
            blob.extend(data)
            top += p.size
        self.params = np.frombuffer(bytes(blob), np.uint8).copy()

    def param_name(self, addr: int) -> str:
        """The parameter at a param-space (or generic param-window) address, else the
        address in hex (a tensor map in global memory)."""
        off = addr - PARAM_WINDOW if PARAM_WINDOW <= addr < PARAM_WINDOW + WINDOW_SIZE else addr
        return self.param_of.get(off, f"0x{addr:x}")

    def symbol_address(self, name: str, where: str) -> tuple[str, int]:
        if name not in self.symbols:
            raise PtxError(f"{where}: {name} is not a variable or parameter")
        return self.symbols[name]

    def generic(self, space: str, addr: int) -> int:
        base = {"global": 0, "shared": SHARED_WINDOW, "local": LOCAL_WINDOW,
                "param": PARAM_WINDOW}[space]
        return base + addr

    @staticmethod
    def space_of(addr: np.ndarray) -> np.ndarray:
        """Per thread the state space of a generic address: 0 global, 1 shared, 2 local,
        3 param."""
        a = addr.astype(np.int64)
        out = np.zeros(len(a), np.int64)
        for k, base in ((1, SHARED_WINDOW), (2, LOCAL_WINDOW), (3, PARAM_WINDOW)):
            out[(a >= base) & (a < base + WINDOW_SIZE)] = k
        return out

    # -- operands --------------------------------------------------------------------------

    def special(self, name: str, ins) -> np.ndarray:
        n = self.n
        lane = self.lane
        table = {
            "%tid.x": self.tid, "%tid.y": 0, "%tid.z": 0, "%ntid.x": n, "%ntid.y": 1,
            "%ntid.z": 1, "%laneid": lane, "%warpid": self.warp, "%nwarpid": self.warps,
            "%ctaid.x": 0, "%ctaid.y": 0, "%ctaid.z": 0, "%nctaid.x": 1, "%nctaid.y": 1,
            "%nctaid.z": 1, "%clock": self.steps, "%clock64": self.steps, "%smid": 0,
            "%nsmid": 1, "%gridid": 0, "%cluster_ctarank": 0, "%cluster_nctarank": 1,
            "%clusterid.x": 0, "%clusterid.y": 0, "%clusterid.z": 0, "%nclusterid.x": 1,
            "%nclusterid.y": 1, "%nclusterid.z": 1, "%cluster_ctaid.x": 0,
            "%cluster_ctaid.y": 0, "%cluster_ctaid.z": 0, "%cluster_nctaid.x": 1,
            "%cluster_nctaid.y": 1, "%cluster_nctaid.z": 1, "%is_explicit_cluster": 0,
            "%dynamic_smem_size": self.dynamic_smem,
            "%total_smem_size": self.static_smem + self.dynamic_smem,
            "%lanemask_eq": 1 << lane, "%lanemask_lt": (1 << lane) - 1,
            "%lanemask_le": (2 << lane) - 1, "%lanemask_gt": 0xFFFFFFFF ^ ((2 << lane) - 1),
            "%lanemask_ge": 0xFFFFFFFF ^ ((1 << lane) - 1),
        }
        if name not in table:
            raise PtxError(f"{at(ins.line, ins.text)}: special register {name} is not modelled")
        v = table[name]
        return np.broadcast_to(np.asarray(v, np.int64).astype(U64), (n,)).copy()

    def read(self, op, bits: int, ins) -> np.ndarray:
        """The operand's raw bits (uint64 per thread), ``bits`` wide."""
        if isinstance(op, Reg):
            v = self.regs.get(op.name)
            if v is None:
                raise PtxError(f"{at(ins.line, ins.text)}: register {op.name} is read before any "
                               f"thread wrote it")
            return v & U64(bitmask(bits)) if op.kind != "pred" else v.astype(U64)
        if isinstance(op, Imm):
            return np.full(self.n, op.value & bitmask(bits), U64)
        if isinstance(op, Special):
            return self.special(op.name, ins) & U64(bitmask(bits))
        if isinstance(op, Sym):
            space, addr = self.symbol_address(op.name, at(ins.line, ins.text))
            return np.full(self.n, addr, U64)
        return semantics.read_other(self, op, bits, ins)

    def pred(self, op, ins) -> np.ndarray:
        """A predicate operand (``p`` or ``!p``) as bool per thread."""
        return semantics.read_pred(self, op, ins)

    def write(self, op, value: np.ndarray, act: np.ndarray, ins) -> None:
        """Write ``value`` (raw bits, or bool for a predicate) into register ``op`` for the
        threads in ``act``."""
        if not isinstance(op, Reg):
            if type(op).__name__ == "Sink":
                return
            raise PtxError(f"{at(ins.line, ins.text)}: destination {op} is not a register")
        if op.kind == "pred":
            value = np.asarray(value).astype(bool)
            old = self.regs.get(op.name)
            self.regs[op.name] = value.copy() if old is None else np.where(act, value, old)
            return
        value = np.asarray(value).astype(U64) & U64(bitmask(op.bits))
        old = self.regs.get(op.name)
        if old is None:
            self.regs[op.name] = np.where(act, value, U64(0))
        else:
            self.regs[op.name] = np.where(act, value, old)

    # -- counting --------------------------------------------------------------------------

    def warps_of(self, mask: np.ndarray) -> np.ndarray:
        return mask.reshape(self.warps, WARP).any(axis=1)

    def count(self, name: str, mask: np.ndarray) -> None:
        c = self.counts.get(name)
        if c is None:
            c = self.counts[name] = np.zeros(self.warps, np.int64)
        c += self.warps_of(mask)

    def access(self, ins, name: str, addr: np.ndarray, act: np.ndarray, nbytes: int,
               lanes: int = WARP) -> None:
        """Record a shared-memory request (``lanes``: the lanes whose addresses it uses)."""
        a = np.where(act, addr.astype(np.int64), -1).reshape(self.warps, WARP).copy()
        a[:, lanes:] = -1
        nb = nbytes
        if nb < 4:  # charged as a 4-byte access to the word that holds it
            a = np.where(a >= 0, a // 4 * 4, -1)
            nb = 4
        if (a[a >= 0] % nb).any():
            raise PtxError(f"{at(ins.line, ins.text)}: a shared-memory access of {nb} bytes at a "
                           f"misaligned address")
        waves = wavefronts_batch(a, nb)
        per = WARP * 4 // nb
        ideal = (a >= 0).reshape(self.warps, -1, per).any(axis=2).sum(axis=1)
        self.accesses.append(Access(ins.line, name, nbytes, a.reshape(-1), waves, ideal))

    # -- synchronization -------------------------------------------------------------------

    def converged(self, mask: np.ndarray, act: np.ndarray, ins, member: np.ndarray | None
                  ) -> np.ndarray:
        """The threads of ``mask`` that may go on past a warp-synchronous instruction: a
        warp's executing threads wait until every non-exited lane in their member mask
        (``member``: per-thread mask, None = the whole warp, ``.aligned``) executes it."""
        where = at(ins.line, ins.text)
        am = act.reshape(self.warps, WARP)
        mm = mask.reshape(self.warps, WARP)
        alive = self.alive.reshape(self.warps, WARP)
        ok = np.ones(self.warps, bool)
        for w in np.flatnonzero(am.any(axis=1)):
            lanes = np.flatnonzero(am[w])
            if member is None:
                if not alive[w].all():
                    raise PtxError(f"{where}: an .aligned instruction in warp {w}, some of whose "
                                   f"threads have exited (undefined)")
                need = np.ones(WARP, bool)
            else:
                mw = member.reshape(self.warps, WARP)[w, lanes]
                if (mw != mw[0]).any():
                    raise PtxError(f"{where}: the lanes of warp {w} give different member masks")
                bits = int(mw[0])
                need = (bits >> np.arange(WARP)) & 1 == 1
                if not need[lanes].all():
                    raise PtxError(f"{where}: lane {int(lanes[~need[lanes]][0])} of warp {w} is "
                                   f"not in its own member mask 0x{bits:08x} (undefined)")
                need &= alive[w]
            missing = need & ~am[w]
            if not missing.any():
                continue
            if (missing & mm[w]).any():
                lane = int(np.flatnonzero(missing & mm[w])[0])
                raise DeadlockError(f"{where}: lane {lane} of warp {w} must take part but its "
                                    f"guard is false")
            ok[w] = False
        go = np.repeat(ok, WARP) | ~act
        self.blocked |= mask & ~go
        return mask & go

    def sync(self, group: np.ndarray) -> None:
        """A barrier among the threads of ``group`` (bool mask): their memory accesses
        before it are ordered before their accesses after it."""
        idx = np.flatnonzero(group)
        if not len(idx):
            return
        merged = self.clocks[idx].max(axis=0)
        self.clocks[idx] = merged
        self.clocks[idx, idx] += 1
        self.shared.prune()

    # -- the loop --------------------------------------------------------------------------

    def run(self) -> Machine:
        code = self.kernel.code
        n_code = len(code)
        pcs = self.pcs
        while True:
            cand = self.alive & ~self.blocked & (self.barrier_wait < 0) & ~self.mbar_delayed
            if not cand.any():
                if not self.alive.any():
                    return self
                if async_proxy.time_out(self):
                    continue
                self._deadlock()
            pc = int(pcs[cand].min())
            mask = cand & (pcs == pc)
            if pc >= n_code:
                raise PtxError(f"kernel {self.kernel.name}: threads ran past the last "
                               f"instruction without ret / exit")
            ins = code[pc]
            self.steps += 1
            self.shared.step = self.steps
            if self.steps > self.max_steps:
                raise PtxError(f"{at(ins.line, ins.text)}: more than {self.max_steps} steps (an "
                               f"endless loop?); pass max_steps= to allow more")
            if ins.guard is None:
                act = mask
            else:
                g = self.regs.get(ins.guard.name)
                if g is None:
                    raise PtxError(f"{at(ins.line, ins.text)}: guard {ins.guard.name} is read "
                                   f"before any thread wrote it")
                act = mask & (~g if ins.guard_negated else g)
            for f in self.observers:
                f(self, ins, mask, act)
            moved = ins.run(self, mask, act)
            if moved is None:
                moved = mask
                pcs[mask] += 1
            elif moved is not HANDLED:
                pcs[moved] += 1
            else:
                moved = mask
            self.count(ins.count_name, moved & ~self.blocked)
            if self.blocked.any():  # a warp that moved on may release its waiting lanes
                progressed = np.repeat(self.warps_of(moved & ~self.blocked), WARP)
                self.blocked &= ~progressed | mask

    def _deadlock(self) -> None:
        lines = []
        for pc in np.unique(self.pcs[self.alive]):
            ins = self.kernel.code[int(pc)]
            who = self.alive & (self.pcs == pc)
            kind = "a barrier" if (self.barrier_wait[who] >= 0).any() else \
                "an mbarrier whose phase can never complete" if self.mbar_delayed[who].any() \
                else "a warp-synchronous instruction"
            lines.append(f"{int(who.sum())} threads wait at {kind}, {at(ins.line, ins.text)}")
        raise DeadlockError("the CTA cannot go on: " + "; ".join(lines))
