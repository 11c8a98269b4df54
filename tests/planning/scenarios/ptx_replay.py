"""Replay a kernel's PTX shared-memory traffic, thread by thread, to measure what it costs.

Test infrastructure (not library code): the scenario suite holds our plans against the
code Triton generates, and Triton's PTX (compiled on the CPU, no GPU) is the evidence.
:func:`replay` evaluates the integer arithmetic of the entry function for every thread of
the CTA at once -- registers are numpy arrays over threads, derived from ``%tid`` /
``%laneid`` / ``%warpid`` (``%ctaid`` is 0) -- and, at every ``st.shared`` /
``ld.shared`` / ``stmatrix`` / ``ldmatrix``, takes each lane's byte address and counts
the warp-wide request's wavefronts with the bank model of ``tl.smem_wavefronts``
(docs/data-movement.md: phases of 32 / 16 / 8 lanes for 4 / 8 / 16-byte accesses, a
phase costs the most distinct 4-byte words one bank is asked for). Accesses narrower
than 4 bytes are charged as a 4-byte access to the word that holds them, as the planner
charges them. An ``ldmatrix`` / ``stmatrix`` ``.xN`` (m8n8) is N matrices of eight
16-byte rows whose addresses lanes ``8j .. 8j+7`` supply: one 8-lane phase per matrix,
i.e. a 16-byte request of the first ``8N`` lanes (PTX ISA, "Warp-level matrix load
instruction: ldmatrix").

Values that come from memory, parameters or floating-point work are *data*: unknown to
the replay. A ``selp`` / ``prmt`` of data counts as data movement when it works on
data received from another lane or from shared memory, or when what it builds is then
shuffled or stored to shared memory (the same opcodes on thread indices are address
arithmetic; packing loaded values for a global store is not the exchange); float
conversions (``cvt``) and register packing (``mov.pack``) are counted apart. A
shared-memory address that depends on data, a branch (loops), or an opcode the replay
does not know on the address path is refused with :class:`ReplayError` saying which line.

The shared-memory base symbols (``global_smem``) are address 0: the dynamic shared
memory window starts at least 128-byte aligned, and banks depend on the address modulo
128 only.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from tilelayout.analysis.conflicts import wavefronts_batch

from .ptx_integer import COMPARE, MASK, alu
from .ptx_opcodes import kind
from .ptx_text import (
    MEM,
    REG,
    SPECIAL,
    ReplayError,
    body,
    is_signed,
    parse_int,
    split_operands,
    threads_of,
    type_bits,
)

WARP = 32


@dataclass(frozen=True)
class Access:
    """One shared-memory instruction as every warp executes it."""

    line: int
    name: str  # e.g. "st.shared.v4.b32", "ldmatrix.x4.trans"
    access_bytes: int  # per lane (16 for a matrix row)
    addresses: np.ndarray  # (threads,) byte addresses; -1 = inactive lane
    wavefronts: int  # summed over warps
    ideal: int  # one wavefront per phase with an active lane, summed over warps


@dataclass(frozen=True)
class Replay:
    """What a kernel's shared-memory traffic costs.

    ``counts``: data-movement instructions per warp by name (every warp runs the same
    straight-line code). ``wavefronts`` / ``ideal``: summed over all warps and requests.
    """

    target: str
    threads: int
    accesses: tuple[Access, ...]
    counts: dict[str, int] = field(default_factory=dict)

    @property
    def warps(self) -> int:
        return self.threads // WARP

    @property
    def wavefronts(self) -> int:
        return sum(a.wavefronts for a in self.accesses)

    @property
    def ideal(self) -> int:
        return sum(a.ideal for a in self.accesses)

    @property
    def footprint(self) -> int:
        """Bytes from address 0 to the end of the highest access (the buffer it needs)."""
        ends = [int(a.addresses.max()) + a.access_bytes for a in self.accesses
                if (a.addresses >= 0).any()]
        return max(ends, default=0)

    @property
    def smem_instructions(self) -> int:
        """Shared-memory instructions per warp."""
        return len(self.accesses)

    def count(self, *prefixes: str) -> int:
        """Instructions per warp whose name starts with one of ``prefixes``."""
        return sum(n for k, n in self.counts.items() if k.startswith(prefixes))

    def summary(self) -> str:
        return ", ".join(f"{n} {k}" for k, n in sorted(self.counts.items())) or "none"


# -- evaluation ----------------------------------------------------------------------------

class _Machine:
    def __init__(self, threads: int, shared: dict[str, int]):
        tid = np.arange(threads, dtype=np.int64)
        self.n = threads
        self.shared = shared
        self.env: dict[str, np.ndarray | None] = {
            "%tid.x": tid, "%laneid": tid % WARP, "%warpid": tid // WARP,
            "%ntid.x": np.full(threads, threads, np.int64),
            **{k: np.full(threads, v, np.int64) for k, v in SPECIAL.items()}}
        self.why: dict[str, str] = {}  # unknown register -> where its data came from
        #: registers holding data received from another lane or from shared memory
        self.received: set[str] = set()
        #: data selects / permutes not yet counted: register -> the (id, opcode) of each
        #: one that built it; counted once each when the register -- or a part or copy of
        #: it (a 64-bit value shuffled as two 32-bit halves), or it zero-extended by an
        #: ``and`` with a constant (an 8-bit value widened to be shuffled) -- is shuffled or stored to
        #: shared memory (:func:`replay`)
        self.pending: dict[str, tuple[tuple[int, str], ...]] = {}
        self.counted: set[int] = set()
        self.scopes: list[dict[str, object]] = []

    def value(self, text: str, line: int) -> np.ndarray | None:
        t = text.strip()
        if t.startswith("!"):
            v = self.value(t[1:], line)
            return None if v is None else ~v.astype(bool)
        if (k := parse_int(t)) is not None:
            return np.full(self.n, k, np.int64)
        if t in self.shared:
            return np.full(self.n, self.shared[t], np.int64)
        if t.startswith("%"):
            if t not in self.env:
                raise ReplayError(f"line {line}: register {t} is read before it is written")
            return self.env[t]
        if re.fullmatch(r"0[fFdD][0-9a-fA-F]+", t):
            return None  # a float immediate: data
        raise ReplayError(f"line {line}: operand {t!r} is not understood")

    def set(self, name: str, v: np.ndarray | None, why: str, pred: np.ndarray | None = None
            ) -> None:
        if pred is not None and v is not None:
            old = self.env.get(name)
            v = None if old is None else np.where(pred, v, old)
        self.env[name] = v
        self.received.discard(name)
        self.pending.pop(name, None)
        if v is None:
            self.why[name] = why
        else:
            self.why.pop(name, None)

    def declare(self, text: str) -> None:
        """``.reg`` inside an inline-asm block: names local to the block."""
        if not self.scopes:
            return
        for name in re.findall(r"%\w+(?:<\d+>)?", text):
            if m := re.fullmatch(r"(%\w+)<(\d+)>", name):
                names = [f"{m.group(1)}{i}" for i in range(int(m.group(2)))]
            else:
                names = [name]
            for n in names:
                self.scopes[-1].setdefault(n, self.env.get(n, _ABSENT))
                self.env.pop(n, None)

    def close(self) -> None:
        for n, old in self.scopes.pop().items():
            if old is _ABSENT:
                self.env.pop(n, None)
            else:
                self.env[n] = old  # type: ignore[assignment]


_ABSENT = object()


def _access_name(op: str) -> tuple[str, int]:
    """(counted name, bytes per lane) of a shared-memory instruction."""
    parts = op.split(".")
    if parts[0] in ("ldmatrix", "stmatrix"):
        num = next(int(p[1:]) for p in parts if re.fullmatch(r"x[124]", p))
        shape = next((p for p in parts if p.startswith("m") and "n" in p), "m8n8")
        per = {"m8n8": 1, "m16n16": 2}.get(shape)
        if per is None:
            raise ReplayError(f"{op}: matrix shape {shape} is not replayed")
        name = f"{parts[0]}.x{num}" + (".trans" if "trans" in parts else "") + \
            ("" if shape == "m8n8" else f".{shape}.{parts[-1]}")
        return name, 16 * 1000 + num * per  # matrices encoded beside the row bytes
    vec = next((int(p[1:]) for p in parts if re.fullmatch(r"v[248]", p)), 1)
    bits = type_bits(op)
    name = f"{parts[0]}.shared" + (f".v{vec}" if vec > 1 else "") + f".{parts[-1]}"
    return name, vec * bits // 8


def _wavefronts(addr: np.ndarray, access_bytes: int, lanes: int) -> tuple[int, int]:
    """Wavefronts and ideal of one instruction over every warp."""
    a = addr.reshape(-1, WARP).copy()
    a[:, lanes:] = -1
    nb = access_bytes
    if nb < 4:  # charged as a 4-byte access to the word holding it
        a = np.where(a >= 0, a // 4 * 4, -1)
        nb = 4
    waves = wavefronts_batch(a, nb)
    per_phase = WARP * 4 // nb
    active = (a >= 0).reshape(a.shape[0], -1, per_phase).any(axis=2)
    return int(waves.sum()), int(active.sum())


def replay(ptx: str, threads: int | None = None) -> Replay:
    """Evaluate the shared-memory traffic of ``ptx`` (one ``.entry``) for every thread.

    >>> ptx = '''.target sm_90
    ... .visible .entry k() .reqntid 32 {
    ...   mov.u32 %r1, %tid.x; shl.b32 %r2, %r1, 7;
    ...   st.shared.b32 [%r2], %r9;
    ... }'''
    >>> r = replay(ptx)
    >>> r.wavefronts, r.ideal, r.counts
    (32, 1, {'st.shared.b32': 1})
    """
    statements, shared, target = body(ptx)
    n = threads_of(ptx, threads)
    if n % WARP:
        raise ReplayError(f"{n} threads is not a whole number of warps")
    m = _Machine(n, shared)
    accesses: list[Access] = []
    counts: Counter[str] = Counter()
    for line, stmt in statements:
        if stmt == "{":
            m.scopes.append({})
            continue
        if stmt == "}":
            m.close()
            continue
        if stmt.startswith("."):
            if stmt.startswith(".reg"):
                m.declare(stmt)
            continue
        if stmt.endswith(":") or stmt.startswith("$") and ":" in stmt:
            continue
        _step(m, line, stmt, accesses, counts)
    return Replay(target, n, tuple(accesses), dict(counts))


#: integer ops the replay evaluates (with every source known)
_EVALUATED = ("mov", "add", "sub", "mul", "mad", "shl", "shr", "and", "or", "xor", "not",
              "neg", "min", "max", "bfe", "bfi", "lop3", "prmt", "cvt", "cvta", "setp", "selp")
#: opcodes that write no register (their first operand is an address or a barrier id)
_NO_DEST = ("st", "red", "bar", "barrier", "fence", "cp", "prefetch", "tcgen05.st",
            "tcgen05.commit", "tcgen05.mma", "tcgen05.wait", "tcgen05.fence", "wgmma.fence",
            "wgmma.commit_group", "wgmma.wait_group", "mbarrier.init", "mbarrier.expect_tx",
            "griddepcontrol", "setmaxnreg", "membar")
_FLOAT = re.compile(r"(?:^|\.)(?:f16x2|bf16x2|f16|bf16|f32|f64|tf32|e4m3\w*|e5m2\w*|e2m\w+|"
                    r"e3m\w+|ue8m0\w*)(?:\.|$)")


def _step(m: _Machine, line: int, stmt: str, accesses: list[Access], counts: Counter) -> None:
    guard = None
    if stmt.startswith("@"):
        guard, stmt = stmt.split(None, 1)
    parts = stmt.split(None, 1)
    op, ops = parts[0], split_operands(parts[1] if len(parts) > 1 else "")
    base = op.split(".")[0]
    if base in ("bra", "brx", "call"):
        raise ReplayError(f"line {line}: {op}: control flow (a loop or a call) is not "
                          f"replayed; the replay evaluates straight-line kernels only")
    if kind(op) is None:
        raise ReplayError(f"line {line}: {op} is an instruction the replay does not know "
                          f"(the known ones: tests/planning/scenarios/ptx_opcodes.py)")
    pred = None if guard is None else m.value(guard[1:], line)
    if guard is not None and pred is None:  # a data-dependent guard (e.g. elect.sync)
        if op.startswith(("st.shared", "ld.shared", "stmatrix", "ldmatrix")):
            raise ReplayError(f"line {line}: the guard {guard} of {op} depends on data")
        pred = np.ones(m.n, dtype=bool)
    elif pred is not None:
        pred = pred.astype(bool)
    if base in ("ret", "exit", "trap"):
        return
    if op.startswith(("st.shared", "ld.shared", "stmatrix", "ldmatrix")):
        _shared(m, line, op, ops, pred, accesses, counts)
        return
    if base in ("bar", "barrier"):
        counts[op] += 1
    elif op.startswith(("cp.async.bulk", "fence.proxy", "tcgen05", "wgmma", "mbarrier")):
        counts[".".join(op.split(".")[:4])] += 1
    if base == "shfl":
        _shfl(m, line, op, ops, counts)
        return
    if op == "elect.sync":  # with a full member mask: lane 0 is elected
        lane = np.arange(m.n) % WARP
        d = _dests(ops[0])
        m.set(d[0], np.zeros(m.n, np.int64), "")
        if len(d) > 1:
            m.set(d[1], (lane == 0).astype(np.int64), "")
        return
    if not ops or op.startswith(_NO_DEST) and not (base == "cp" and ops[0].startswith("%")):
        return
    dst, srcs = ops[0], ops[1:]
    regs = [r for s in srcs for r in REG.findall(s)]
    for r in regs:
        if r not in m.env:
            raise ReplayError(f"line {line}: register {r} is read before it is written")
    data = any(m.env[r] is None for r in regs) or _FLOAT.search(op) is not None or \
        any(re.fullmatch(r"0[fFdD][0-9a-fA-F]+", s.strip()) for s in srcs) or \
        any(re.fullmatch(r"[A-Za-z_$][\w$]*", s.strip()) and s.strip() not in m.shared
            for s in srcs)  # a parameter or global symbol's address
    packs = base == "mov" and bool(srcs) and srcs[0].startswith("{")
    got = any(r in m.received for r in regs)
    if data and (packs or base == "cvt" and _FLOAT.search(op)):
        counts["mov.pack" if packs else op] += 1
    elif data and base in ("prmt", "selp") and got:  # unpacking / choosing received data
        counts[op] += 1
    if base not in _EVALUATED or data or packs or dst.startswith("{") or \
            any(s.strip().startswith("[") for s in srcs):
        why = f"line {line}: {op}" + (" of data" if data else "")
        # the selects / permutes that built the inputs (a chain of byte permutes packing
        # four values counts whole when its word is stored)
        chain = tuple(dict.fromkeys(x for r in regs if r in m.pending for x in m.pending[r]))
        for d in _dests(dst):
            m.set(d, None, why)
            if got:
                m.received.add(d)
            elif data and base in ("prmt", "selp"):
                m.pending[d] = (*chain, (line, op))
            elif chain and (base in ("mov", "cvt") or base == "and" and _masks(srcs)):
                # a half or copy of a select's result, or it zero-extended (a sub-word
                # value made a 32-bit shuffle operand: and.b32 with a constant mask)
                m.pending[d] = chain
        return
    vals = [m.value(s, line) for s in srcs]
    if base == "mov":
        m.set(dst, vals[0], "", pred)
    elif base in ("cvt", "cvta"):
        types = op.split(".")
        bits = type_bits(types[-2] if base == "cvt" else op)
        v = vals[0] & MASK.get(bits, MASK[64])
        if base == "cvt" and is_signed(types[-1]) and bits < 64:
            v = np.where(v >= 1 << (bits - 1), v - (1 << bits), v)
        m.set(dst, v, "", pred)
    elif base == "setp":
        cmp = op.split(".")[1]
        if cmp not in COMPARE or len(op.split(".")) > 3 or "|" in dst:
            raise ReplayError(f"line {line}: {op} is not evaluated by the replay")
        bits = type_bits(op)
        x, y = vals[0] & MASK[bits], vals[1] & MASK[bits]
        if is_signed(op):
            x = np.where(x >= 1 << (bits - 1), x - (1 << bits), x)
            y = np.where(y >= 1 << (bits - 1), y - (1 << bits), y)
        m.set(dst, COMPARE[cmp](x, y).astype(np.int64), "", pred)
    elif base == "selp":
        m.set(dst, np.where(vals[2].astype(bool), vals[0], vals[1]), "", pred)
    else:
        m.set(dst, alu(op, vals, line), "", pred)


def _masks(srcs: list[str]) -> bool:
    """Whether an ``and``'s operands include a constant (a mask)."""
    return any(re.fullmatch(r"-?(0[xX][0-9a-fA-F]+|\d+)", s.strip()) for s in srcs)


def _shfl(m: _Machine, line: int, op: str, ops: list[str], counts: Counter) -> None:
    """``shfl.sync.MODE d[|p], a, b, c, mask``: of data it is data movement (counted); of
    a thread index (a warp-uniform broadcast) it is evaluated."""
    dst, srcs = ops[0], ops[1:]
    vals = [m.value(s, line) for s in srcs[:2]]
    mode = op.split(".")[2]
    names = [d.strip() for d in dst.split("|")]
    if vals[0] is None or vals[1] is None:
        counts[".".join(op.split(".")[:3])] += 1
        _sent(m, srcs[:1], counts)
        for d in names:
            m.set(d, None, f"line {line}: {op} of data")
            m.received.add(d)
        return
    lane = np.arange(m.n) % WARP
    b = vals[1] & 31
    src = {"idx": b, "bfly": lane ^ b, "up": np.where(lane >= b, lane - b, lane),
           "down": np.where(lane + b < WARP, lane + b, lane)}[mode]
    m.set(names[0], vals[0][np.arange(m.n) - lane + src], "")
    if len(names) > 1:
        m.set(names[1], np.ones(m.n, np.int64), "")


def _sent(m: _Machine, operands: list[str], counts: Counter) -> None:
    """Data leaves the thread (a shuffle or a shared-memory store): the selects and
    permutes that built it count."""
    for r in (r for o in operands for r in REG.findall(o)):
        for ident, op in m.pending.pop(r, ()):
            if ident not in m.counted:
                m.counted.add(ident)
                counts[op] += 1


def _dests(dst: str) -> list[str]:
    return REG.findall(dst) if dst.startswith("{") else [d.strip() for d in dst.split("|")]


def _shared(m: _Machine, line: int, op: str, ops: list[str], pred: np.ndarray | None,
            accesses: list[Access], counts: Counter) -> None:
    name, nbytes = _access_name(op)
    matrix = nbytes >= 1000
    lanes = WARP
    if matrix:
        lanes, nbytes = 8 * (nbytes - 16000), 16
    mem = ops[0] if op.startswith(("st", "stmatrix")) else ops[1]
    if not (mm := MEM.match(mem.replace(" ", ""))):
        raise ReplayError(f"line {line}: address {mem!r} is not understood")
    base = m.value(mm.group(1), line)
    if base is None:
        reg = mm.group(1)
        raise ReplayError(f"line {line}: the address of {op} depends on data ({reg}: "
                          f"{m.why.get(reg, 'unknown')})")
    off = int(mm.group(3), 0) * (-1 if mm.group(2) == "-" else 1) if mm.group(3) else 0
    addr = base + off
    if pred is not None:
        addr = np.where(pred, addr, -1)
    if (addr[addr >= 0] % min(nbytes, 16)).any() and nbytes >= 4:
        raise ReplayError(f"line {line}: {op} at a misaligned address")
    waves, ideal = _wavefronts(addr, nbytes, lanes)
    accesses.append(Access(line, name, nbytes, addr, waves, ideal))
    counts[name] += 1
    if op.startswith(("ld", "ldmatrix")):
        for d in _dests(ops[0]):
            m.set(d, None, f"line {line}: loaded from shared memory")
            m.received.add(d)
    else:
        _sent(m, ops[1:], counts)


__all__ = ["Access", "Replay", "ReplayError", "replay"]  # ReplayError: from .ptx_text
