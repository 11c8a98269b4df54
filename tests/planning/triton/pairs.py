"""Seeded random pairs of Triton distributed layouts for the differential harness
(issue 26; :mod:`.harness` compiles and compares them).

A pair is two Gluon layouts of one tensor, one ``num_warps``, a dtype and a target,
written as plain data (a *spec*: a dict that JSON keeps, that :mod:`.gluon_specs` turns
into the Gluon object inside a child process, and that :func:`spec_text` prints as the
Gluon constructor). Families:

* ``blocked``: random ``size_per_thread`` / ``threads_per_warp`` / ``warps_per_cta`` /
  ``order`` (rank 2, or rank 1 beside a slice);
* ``mma2`` / ``mma3``: ``NVMMADistributedLayout`` version [2, 0] (instruction 16x8) or
  [3, 0] (16 x n x k, warps a multiple of 4 along M; sm_90a / sm_100a only);
* ``dot``: ``DotOperandLayout`` of an MMA v2 parent (operand 0 or 1) or v3 (operand 0),
  at every ``k_width`` in :data:`K_WIDTHS`; of a blocked parent with ``k_width`` 0;
* ``slice``: ``SliceLayout`` of any of the above (the pair is then rank 1);
* ``linear``: ``DistributedLinearLayout`` with random single-bit bases over register,
  lane and warp, zero bases (broadcasts) included.

Half the MMA / dot-operand pairs are an MMA result and the dot operand *of that MMA*,
half the linear / linear pairs differ only within each warp (:func:`_related`).

Shapes are powers of two that each layout covers (the MMA families' instruction tile at
least; smaller than a blocked tile means broadcast), with at most :data:`MAX_ELEMENTS`
elements and :data:`MAX_PER_THREAD` per thread. Every draw is a function of
``(seed, index)`` alone, so pair ``i`` of a seed is the same in every run and every job.

>>> p = draw_pair(7, 0)
>>> p == draw_pair(7, 0), p.warps in WARPS, p.dtype in DTYPES, p.target in TARGETS
(True, True, True, True)
>>> spec_text({"kind": "blocked", "spt": [1, 8], "tpw": [4, 8], "wpc": [4, 1], "order": [1, 0]})
'BlockedLayout([1, 8], [4, 8], [4, 1], [1, 0])'
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass
from typing import Any

DTYPES = ("int8", "e4m3", "float16", "bfloat16", "float32", "int64")
TARGETS = ("sm_80", "sm_90a", "sm_100a")
WARPS = (1, 2, 4, 8, 16)
FAMILIES = ("blocked", "mma2", "mma3", "dot", "slice", "linear")
#: the k_width values drawn for an MMA parent (Triton's verifier refuses 0 there and
#: accepts any power of two; the lowering bounds it by the tile, see :func:`_dot`)
K_WIDTHS = (1, 2, 4, 8, 16)
MAX_ELEMENTS = 1 << 15
MAX_PER_THREAD = 128
BITS = {"int8": 8, "e4m3": 8, "float16": 16, "bfloat16": 16, "float32": 32, "int64": 64}

Spec = dict[str, Any]


@dataclass(frozen=True)
class Pair:
    """One conversion: ``src`` -> ``dst`` specs of a tensor of ``shape``."""

    seed: int
    index: int
    family: str  # "src family -> dst family"
    src: Spec
    dst: Spec
    shape: tuple[int, ...]
    dtype: str
    target: str
    warps: int

    def key(self) -> str:
        """What the measurement depends on (not the seed / index that drew it)."""
        return json.dumps([self.src, self.dst, list(self.shape), self.dtype, self.target,
                           self.warps], sort_keys=True, separators=(",", ":"))

    def as_json(self) -> dict[str, Any]:
        return {"seed": self.seed, "index": self.index, "family": self.family,
                "src": self.src, "dst": self.dst, "shape": list(self.shape),
                "dtype": self.dtype, "target": self.target, "warps": self.warps}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Pair:
        return cls(d["seed"], d["index"], d["family"], d["src"], d["dst"], tuple(d["shape"]),
                   d["dtype"], d["target"], d["warps"])

    def text(self) -> str:
        return (f"{spec_text(self.src)} -> {spec_text(self.dst)} on {list(self.shape)} "
                f"{self.dtype}, {self.warps} warp(s), {self.target}")


def spec_text(s: Spec) -> str:
    """The Gluon constructor a spec stands for."""
    k = s["kind"]
    if k == "blocked":
        return f"BlockedLayout({s['spt']}, {s['tpw']}, {s['wpc']}, {s['order']})"
    if k == "mma":
        return f"NVMMADistributedLayout([{s['version']}, 0], {s['warps']}, {s['instr']})"
    if k == "dot":
        return f"DotOperandLayout({s['op']}, {spec_text(s['parent'])}, {s['k_width']})"
    if k == "slice":
        return f"SliceLayout({s['dim']}, {spec_text(s['parent'])})"
    if k == "linear":
        return (f"DistributedLinearLayout({s['reg']}, {s['lane']}, {s['warp']}, [], "
                f"{s['shape']})")
    raise ValueError(f"unknown layout spec kind {k!r}")


def spec_family(s: Spec) -> str:
    k = s["kind"]
    if k == "mma":
        return f"mma{s['version']}"
    return k


# -- layouts -----------------------------------------------------------------------------

def _log2(n: int) -> int:
    return n.bit_length() - 1


def _split(rng: random.Random, total: int, parts: int) -> list[int]:
    """``total`` (a power of two) as ``parts`` random powers of two with that product."""
    out = [1] * parts
    for _ in range(_log2(total)):
        out[rng.randrange(parts)] *= 2
    return out


def per_thread(spt, tpw, wpc, shape) -> int:
    """Registers a thread holds for a blocked layout on ``shape`` (tiled or broadcast)."""
    return math.prod(max(min(s, n), n // (t * w))
                     for s, t, w, n in zip(spt, tpw, wpc, shape, strict=True))


def _blocked(rng: random.Random, shape: tuple[int, ...], warps: int, bits: int) -> Spec | None:
    rank = len(shape)
    tpw = _split(rng, 32, rank)
    wpc = _split(rng, warps, rank)
    vec = max(1, 128 // bits)  # up to 16 bytes along one dimension, as Triton vectorizes
    spt = [min(n, 1 << rng.randrange(_log2(2 * vec) + 1)) if rng.random() < 0.6 else
           min(n, 1 << rng.randrange(3)) for n in shape]
    order = list(range(rank))
    rng.shuffle(order)
    if per_thread(spt, tpw, wpc, shape) > MAX_PER_THREAD:
        return None
    return {"kind": "blocked", "spt": spt, "tpw": tpw, "wpc": wpc, "order": order}


def _mma(rng: random.Random, shape: tuple[int, int], warps: int, version: int, bits: int
         ) -> Spec | None:
    m, n = shape
    if version == 2:
        w = _split(rng, warps, 2)
        instr = [16, 8]
        if m < 16 or n < 8:
            return None
    else:
        if warps % 4 or m < 64:
            return None
        w0 = 4 << rng.randrange(_log2(warps // 4) + 1)  # warpgroups tile M
        w = [w0, warps // w0]
        choices = [c for c in (8, 16, 32, 64, 128, 256) if c <= n]
        if not choices:
            return None
        instr = [16, rng.choice(choices), {8: 32, 16: 16, 32: 8}.get(bits, 16)]
    return {"kind": "mma", "version": version, "warps": w, "instr": instr}


def _dot(rng: random.Random, shape: tuple[int, int], warps: int, target: str, bits: int
         ) -> Spec | None:
    kind = rng.choice(("mma2", "mma2", "mma3", "blocked") if target != "sm_80" else
                      ("mma2", "mma2", "mma2", "blocked"))
    if kind == "blocked":
        parent = _blocked(rng, shape, warps, bits)
        return None if parent is None else {"kind": "dot", "op": rng.randrange(2),
                                            "parent": parent, "k_width": 0}
    op = 0 if kind == "mma3" else rng.randrange(2)
    k = shape[1 - op]
    k_width = rng.choice(K_WIDTHS)
    if 8 * k_width > k:  # four lanes x k_width x 2 along K: the smallest K tile
        return None
    mn = (shape[0], 256) if op == 0 else (256, shape[1])  # the parent's M (op 0) / N
    parent = _mma(rng, mn, warps, 3 if kind == "mma3" else 2, bits)
    if parent is None:
        return None
    return {"kind": "dot", "op": op, "parent": parent, "k_width": k_width}


def _linear(rng: random.Random, shape: tuple[int, ...], warps: int) -> Spec | None:
    """Single-bit bases: every logical bit once, on a register, lane or warp bit; the lane
    and warp bits left over are zero (broadcast); rarely a zero register. Half are fully
    random, half blocked-like (registers, lanes, warps, registers over the bits of a
    random dimension order) with a few bits swapped."""
    dims = list(range(len(shape)))
    rng.shuffle(dims)
    logical = [[0] * len(shape) for _ in range(sum(_log2(n) for n in shape))]
    i = 0
    for d in dims:
        for b in range(_log2(shape[d])):
            logical[i][d] = 1 << b
            i += 1
    wbits = _log2(warps)
    lanes = min(len(logical), 5 if rng.random() < 0.7 else rng.randrange(6))
    ws = min(len(logical) - lanes, wbits if rng.random() < 0.7 else rng.randrange(wbits + 1))
    zero = [0] * len(shape)
    if rng.random() < 0.5:
        rng.shuffle(logical)
        lead = 0
    else:  # blocked-like: the lowest bits of the leading dimension stay in registers
        lead = min(len(logical) - lanes - ws, rng.randrange(4))
        for _ in range(rng.randrange(3)):
            a, b = rng.randrange(len(logical)), rng.randrange(len(logical))
            logical[a], logical[b] = logical[b], logical[a]
    reg = logical[:lead] + logical[lead + lanes + ws:]
    lane = logical[lead:lead + lanes] + [zero] * (5 - lanes)
    warp = logical[lead + lanes:lead + lanes + ws] + [zero] * (wbits - ws)
    if rng.random() < 0.1:
        reg.insert(rng.randrange(len(reg) + 1), zero)
    if rng.random() < 0.5:
        rng.shuffle(lane)
        rng.shuffle(warp)
    if len(reg) > _log2(MAX_PER_THREAD):
        return None
    return {"kind": "linear", "reg": reg, "lane": lane, "warp": warp, "shape": list(shape)}


def _layout(rng: random.Random, family: str, shape: tuple[int, ...], warps: int, target: str,
            bits: int) -> Spec | None:
    if family == "blocked":
        return _blocked(rng, shape, warps, bits)
    if family == "linear":
        return _linear(rng, shape, warps)
    if len(shape) != 2:
        raise ValueError(f"family {family} is rank 2; shape {shape}")
    if family in ("mma2", "mma3"):
        return _mma(rng, shape, warps, int(family[-1]), bits)  # type: ignore[arg-type]
    if family == "dot":
        return _dot(rng, shape, warps, target, bits)  # type: ignore[arg-type]
    raise ValueError(f"unknown family {family!r}")


def _slice(rng: random.Random, n: int, warps: int, target: str, bits: int) -> Spec | None:
    dim = rng.randrange(2)
    parents = [f for f in ("blocked", "mma2", "mma3", "dot", "linear")
               if f != "mma3" or (target != "sm_80" and warps % 4 == 0)]
    family = rng.choice(parents)
    other = 1 << rng.randrange(4, 8)  # the sliced extent: the parent's tile over it
    shape = (other, n) if dim == 0 else (n, other)
    parent = _layout(rng, family, shape, warps, target, bits)
    if parent is None:
        return None
    if parent["kind"] == "linear":  # a linear parent holds its own shape: slice it at 1
        parent = _linear(rng, (n, 1) if dim == 1 else (1, n), warps)
        if parent is None:
            return None
    return {"kind": "slice", "dim": dim, "parent": parent}


def _related(rng: random.Random, specs: list[Spec]) -> list[Spec]:
    """Some pairs as compilers meet them: an MMA result and the dot operand of the same
    MMA (the next matmul's A, e.g. attention's P); two linear layouts that differ only
    within each warp (registers and lanes permuted, warps kept: a warp-local exchange)."""
    a, b = specs
    if rng.random() < 0.5:
        for x, y in ((a, b), (b, a)):
            if x["kind"] == "mma" and y["kind"] == "dot" and y["parent"]["kind"] == "mma" \
                    and (x["version"] == 2 or y["op"] == 0):
                y = {**y, "parent": x}
                return [x, y] if x is a else [y, x]
    if a["kind"] == b["kind"] == "linear" and rng.random() < 0.5:
        bits = a["reg"] + a["lane"]
        rng.shuffle(bits)
        b = {**a, "reg": bits[:len(a["reg"])], "lane": bits[len(a["reg"]):]}
        return [a, b]
    return specs


def _shape(rng: random.Random, rank: int, warps: int, bits: int) -> tuple[int, ...]:
    per_thread_max = MAX_PER_THREAD * 32 * warps
    while True:
        if rank == 1:
            shape = (1 << rng.randrange(5, 13),)
        else:
            shape = (1 << rng.randrange(3, 9), 1 << rng.randrange(3, 9))
        n = math.prod(shape)
        if n <= min(MAX_ELEMENTS, per_thread_max) and n * bits // 8 <= 1 << 17 and \
                n >= 32 * rng.choice((1, warps)):
            return shape


def draw_pair(seed: int, index: int, tries: int = 200) -> Pair:
    """Pair ``index`` of ``seed``: families, warps, dtype, target, shape, then layouts
    (redrawn, deterministically, until both fit the shape)."""
    rng = random.Random(f"{seed}:{index}")
    target = rng.choice(TARGETS)
    # Triton has fp8e4nv from sm_89 on: on sm_80 it refuses the type itself
    dtype = rng.choice([d for d in DTYPES if d != "e4m3" or target != "sm_80"])
    bits = BITS[dtype]
    for _ in range(tries):
        warps = rng.choice(WARPS)
        wgmma = target != "sm_80" and warps % 4 == 0
        families = [f for f in FAMILIES if f != "mma3" or wgmma] + ["mma3"] * wgmma
        a = rng.choice(families)
        if a == "slice":
            b = rng.choice(("slice", "slice", "blocked", "linear"))
        else:
            b = rng.choice([f for f in families if f != "slice"])
        pair = [a, b]
        rng.shuffle(pair)
        rank = 1 if "slice" in pair else 2
        shape = _shape(rng, rank, warps, bits)
        specs = []
        for f in pair:
            if f == "slice":
                s = _slice(rng, shape[0], warps, target, bits)
            else:
                s = _layout(rng, f, shape, warps, target, bits)
            specs.append(s)
        if None in specs:
            continue
        specs = _related(rng, specs)
        if specs[0] == specs[1]:
            continue
        return Pair(seed, index, f"{spec_family(specs[0])} -> {spec_family(specs[1])}",
                    specs[0], specs[1], shape, dtype, target, warps)
    raise RuntimeError(f"no pair fits after {tries} draws (seed {seed}, index {index})")
