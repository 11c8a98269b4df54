"""What an execution did, per warp: every instruction by name, the data-movement
instructions the way the address-only replay (``tests/planning/scenarios/ptx_replay.py``)
counts them, and the shared-memory requests with their wavefronts.

The replay reads a kernel once, statically; :class:`Movement` applies its rules to the
instructions as they execute, so on a straight-line kernel both give the same counts:

* a shared-memory instruction counts by its name (``st.shared.v4.b32``,
  ``ldmatrix.x4.trans``); a barrier by its opcode (``bar.sync``, ``bar.warp.sync``);
  ``cp.async.bulk`` / ``fence.proxy`` / ``mbarrier`` ... by their first four name parts;
* values that come from memory, parameters or floating-point work are *data*; a
  ``shfl.sync`` of data counts (``shfl.sync.idx``), a shuffle of a thread index is
  address arithmetic;
* a ``selp`` / ``prmt`` of data counts when it works on data received from another lane
  or from shared memory, or when what it builds is then shuffled or stored to shared
  memory (once, also when a ``mov`` / ``cvt`` first takes a half or copy of it -- a
  64-bit value is shuffled as two 32-bit words, as the replay has it -- or an ``and``
  with a constant zero-extends it, as Triton widens an 8-bit value to shuffle it); float
  conversions (``cvt`` of a float type) and ``mov`` packing of data (``mov.pack``)
  count apart.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field

import numpy as np

from .parser import Addr, FImm, Imm, Instruction, Pair, Reg, Sym, TensorRef, Vec
from .records import Access

WARP = 32
_EVALUATED = ("mov", "add", "sub", "mul", "mad", "shl", "shr", "and", "or", "xor", "not",
              "neg", "min", "max", "bfe", "bfi", "lop3", "prmt", "cvt", "cvta", "setp", "selp")
_NO_DEST = ("st", "red", "bar", "barrier", "fence", "cp", "prefetch", "tcgen05.st",
            "tcgen05.commit", "tcgen05.mma", "tcgen05.wait", "tcgen05.fence", "wgmma.fence",
            "wgmma.commit_group", "wgmma.wait_group", "mbarrier.init", "mbarrier.expect_tx",
            "griddepcontrol", "setmaxnreg", "membar")
_FLOAT = re.compile(r"(?:^|\.)(?:f16x2|bf16x2|f16|bf16|f32|f64|tf32|e4m3\w*|e5m2\w*|e2m\w+|"
                    r"e3m\w+|ue8m0\w*)(?:\.|$)")
_SHARED_OPS = ("st.shared", "ld.shared", "stmatrix", "ldmatrix")


def _regs(op) -> list[str]:
    if isinstance(op, Reg):
        return [op.name]
    if isinstance(op, Vec):
        return [n for it in op.items for n in _regs(it)]
    if isinstance(op, Pair):
        return _regs(op.first) + _regs(op.second)
    if isinstance(op, Addr):
        return _regs(op.base) if op.base is not None else []
    if isinstance(op, TensorRef):
        return _regs(op.base) + _regs(op.coords)
    inner = getattr(op, "inner", None)
    return _regs(inner) if inner is not None else []


class Movement:
    """The replay's data-movement counts, per warp (an observer of a Machine)."""

    def __init__(self, warps: int, shared_symbols: set[str]):
        self.warps = warps
        self.counts: dict[str, np.ndarray] = {}
        self.data: set[str] = set()
        self.received: set[str] = set()
        #: registers holding what selects / permutes built, or a half or copy of it (a
        #: token per instruction of the chain that built it, each counted once, when
        #: first sent)
        self.pending: dict[str, frozenset[int]] = {}
        self.built: dict[int, str] = {}
        self._tokens = itertools.count()
        self.shared_symbols = shared_symbols

    def _count(self, name: str, warps: np.ndarray) -> None:
        c = self.counts.setdefault(name, np.zeros(self.warps, np.int64))
        c += warps

    def _set(self, name: str, data: bool) -> None:
        self.received.discard(name)
        self.pending.pop(name, None)
        if data:
            self.data.add(name)
        else:
            self.data.discard(name)

    def _sent(self, ops, warps) -> None:
        for o in ops:
            for r in _regs(o):
                for token in self.pending.pop(r, ()):
                    op = self.built.pop(token, None)
                    if op is not None:
                        self._count(op, warps)

    def __call__(self, m, ins: Instruction, mask: np.ndarray, act: np.ndarray) -> None:
        warps = m.warps_of(mask).astype(np.int64)
        op, ops = ins.op, ins.operands
        base = ins.parts[0]
        if base in ("ret", "exit", "trap", "bra"):
            return
        if op.startswith(_SHARED_OPS):
            self._count(ins.count_name, warps)
            if op.startswith(("ld", "ldmatrix")):
                for r in _regs(ops[0]):
                    self._set(r, True)
                    self.received.add(r)
            else:
                self._sent(ops[1:], warps)
            return
        if base in ("bar", "barrier"):
            self._count(op, warps)
        elif op.startswith(("cp.async.bulk", "fence.proxy", "tcgen05", "wgmma", "mbarrier")):
            self._count(".".join(ins.parts[:4]), warps)
        if base == "shfl":
            value, lane = ops[1], ops[2]
            if any(r in self.data for r in _regs(value) + _regs(lane)):
                self._count(".".join(ins.parts[:3]), warps)
                self._sent([value], warps)
                for r in _regs(ops[0]):
                    self._set(r, True)
                    self.received.add(r)
            else:
                for r in _regs(ops[0]):
                    self._set(r, False)
            return
        if op == "elect.sync":
            for r in _regs(ops[0]):
                self._set(r, False)
            return
        if not ops or op.startswith(_NO_DEST) and not (base == "cp" and isinstance(ops[0], Reg)):
            return
        dst, srcs = ops[0], ops[1:]
        regs = [r for s in srcs for r in _regs(s)]
        data = any(r in self.data for r in regs) or _FLOAT.search(op) is not None or \
            any(isinstance(s, FImm) for s in srcs) or \
            any(isinstance(s, Sym) and s.name not in self.shared_symbols for s in srcs)
        packs = base == "mov" and bool(srcs) and isinstance(srcs[0], Vec)
        got = any(r in self.received for r in regs)
        if data and (packs or base == "cvt" and _FLOAT.search(op)):
            self._count("mov.pack" if packs else op, warps)
        elif data and base in ("prmt", "selp") and got:
            self._count(op, warps)
        dests = _regs(dst)
        chain = frozenset().union(*(self.pending.get(r, ()) for r in regs))
        # a half or copy of a select's result, or it zero-extended by a constant mask
        masked = base == "and" and any(isinstance(s, Imm) for s in srcs)
        carried = chain if base in ("mov", "cvt") or masked else frozenset()
        if base not in _EVALUATED or data or packs or isinstance(dst, Vec) or \
                any(isinstance(s, Addr) for s in srcs):
            for d in dests:
                self._set(d, True)
                if got:
                    self.received.add(d)
                elif data and base in ("prmt", "selp"):
                    # a chain of permutes packing one word counts whole when it is sent
                    token = next(self._tokens)
                    self.built[token] = op
                    self.pending[d] = chain | {token}
                elif carried:
                    self.pending[d] = carried
            return
        for d in dests:
            self._set(d, False)


@dataclass
class Counts:
    """Per-warp counts of one execution (each dict: name -> count per warp)."""

    instructions: dict[str, np.ndarray]
    movement: dict[str, np.ndarray]
    accesses: list[Access] = field(default_factory=list)

    @property
    def warps(self) -> int:
        return len(next(iter(self.instructions.values()))) if self.instructions else 0

    def per_warp(self, *prefixes: str, movement: bool = False) -> np.ndarray:
        """Instructions per warp whose name starts with one of ``prefixes``."""
        src = self.movement if movement else self.instructions
        out = np.zeros(self.warps, np.int64)
        for k, v in src.items():
            if k.startswith(prefixes):
                out += v
        return out

    def most(self, *prefixes: str, movement: bool = False) -> int:
        """The most instructions named ``prefixes`` any warp executed."""
        v = self.per_warp(*prefixes, movement=movement)
        return int(v.max()) if len(v) else 0

    def uniform(self, movement: bool = False) -> dict[str, int]:
        """``{name: count}`` when every warp executed the same; raises otherwise."""
        src = self.movement if movement else self.instructions
        out = {}
        for k, v in src.items():
            if (v != v[0]).any():
                raise ValueError(f"warps differ in {k}: {v.tolist()}")
            out[k] = int(v[0])
        return out

    @property
    def wavefronts(self) -> int:
        """Wavefronts of every executed shared-memory request, summed over warps."""
        return int(sum(int(a.wavefronts.sum()) for a in self.accesses))

    @property
    def ideal(self) -> int:
        return int(sum(int(a.ideal.sum()) for a in self.accesses))

    def wavefronts_per_warp(self) -> np.ndarray:
        out = np.zeros(self.warps, np.int64)
        for a in self.accesses:
            out += a.wavefronts
        return out

    def shared_by_kind(self) -> dict[str, int]:
        """Shared-memory instructions per warp by name (the most any warp executed)."""
        kinds = {a.name for a in self.accesses}
        return {k: self.most(k) for k in sorted(kinds)}
