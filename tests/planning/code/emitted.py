"""Proving a plan's emitted CUDA on the CPU: compile its harness unit with nvcc, execute
the PTX in the interpreter (``tests/ptx``) with element values placed where the source
layout puts them, check every destination slot, and count per warp what executed
against the plan's claimed costs.

* **Values.** Each element gets a bit pattern that is an exact, finite value of the
  dtype (NaN codes skipped); two fillings, and an element's pair of values is unique
  even for 8-bit types. Slots that hold no element start with a sentinel and must keep
  it. Replicas on either side are checked like any slot.
* **Counts.** Only the function's own instructions: its shared-memory accesses are
  inline PTX with ``.b`` widths, the harness's copies are C++ (``.u`` widths), and the
  harness's one ``__syncthreads`` of a shared-memory side is subtracted.
* **TMA.** A plan whose source is a TMA load runs ``NAME_kernel(in, out, tensor_map)``:
  ``in`` is the global tensor (the tile at origin 0, its dims innermost first as the
  tensor map's), and :func:`tma_source` gives it with the model of the tensor map its
  ``NAME_tma_load`` reads through; the boxes it issues count as ``tma boxes`` (one
  ``cp.async.bulk.tensor`` per box, by the thread that issues it: the plan's
  ``tma_boxes``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from unittest import mock

import numpy as np

import tilelayout as tl
from tilelayout.core.dtypes import dtype_bits
from tilelayout.planning import plan as plan_module
from tilelayout.planning.code.cuda_transpose import PACKING
from tilelayout.planning.code.program import ConversionProgram
from tilelayout.planning.mechanisms.shuffle.warp_transpose import counts as shuffle_counts

from ...ptx import toolchain
from ...ptx.async_proxy import TensorMap
from ...ptx.driver import Result, run_convert

SENTINEL = {8: 0x7F, 16: 0x7FFF, 32: 0x7FFFFFFF, 64: 0x7FFFFFFFFFFFFFFF}
STORAGE = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}


def codes(dtype: str) -> np.ndarray:
    """Every bit pattern that is a finite value of ``dtype`` (for integers: every one;
    for 32/64-bit: a large sample of exact small floats)."""
    bits = dtype_bits(dtype)
    d = dtype.lower()
    if bits == 8:
        c = np.arange(256, dtype=np.uint8)
        if d in ("e4m3", "float8", "float8_e4m3"):
            c = c[(c & 0x7F) != 0x7F]
        elif d in ("e5m2", "float8_e5m2"):
            c = c[(c & 0x7C) != 0x7C]
        return c
    if bits == 16:
        c = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16)
        exp = (c >> 10) & 0x1F if d in ("float16", "half", "fp16") else (c >> 7) & 0xFF
        top = 0x1F if d in ("float16", "half", "fp16") else 0xFF
        return c[exp != top] if d not in ("int16",) else c
    if bits == 32:
        if d.startswith("int") or d.startswith("uint"):
            return np.arange(1 << 16, dtype=np.uint32) * 2654435761 % (1 << 31)
        v = (np.arange(1 << 16, dtype=np.float64) - (1 << 15)) * 0.25
        return v.astype(np.float32).view(np.uint32)
    v = (np.arange(1 << 16, dtype=np.float64) - (1 << 15)) * 0.125
    return v.view(np.uint64)


def values_of(dtype: str, n: int, filling: int) -> np.ndarray:
    """Filling ``filling`` (0 or 1) of ``n`` elements: bit patterns of ``dtype``."""
    c = codes(dtype)
    e = np.arange(n)
    if filling == 0:
        return c[e % len(c)]
    rng = np.random.default_rng(7)
    perm = rng.permutation(len(c))
    return c[perm[(e // len(c) + e * 7919) % len(c)]]


def held_values(held: str, planned: str, n: int, filling: int) -> np.ndarray:
    """Source values of a plan that converts ``held`` to ``planned`` first: the
    planned type's exact values, widened to the held type (the conversion is exact)."""
    v = values_of(planned, n, filling)
    p = planned.lower()
    if p in ("bfloat16", "bf16"):
        return (v.astype(np.uint32) << 16).view(np.float32).view(np.uint32)
    if p in ("float16", "half", "fp16"):
        return v.view(np.float16).astype(np.float32).view(np.uint32)
    ml = __import__("ml_dtypes")
    kind = ml.float8_e4m3fn if p in ("e4m3", "float8", "float8_e4m3") else ml.float8_e5m2
    return v.view(kind).astype(np.float32).view(np.uint32)


@dataclass
class Proof:
    """One plan's emitted unit run on one target: wrong slots, the measured counts per
    warp (totals over warps for shared-memory requests and wavefronts) and the plan's."""

    name: str
    arch: str
    wrong: int
    checked: int
    measured: dict[str, int] = field(default_factory=dict)
    claimed: dict[str, int] = field(default_factory=dict)
    sass: dict[str, int] | None = None

    def differences(self) -> dict[str, tuple[int, int]]:
        keys = set(self.measured) | set(self.claimed)
        return {k: (self.measured.get(k, 0), self.claimed.get(k, 0)) for k in sorted(keys)
                if self.measured.get(k, 0) != self.claimed.get(k, 0)}


def _norm(name: str) -> str:
    parts = [x for x in name.replace("+packed", "").split(".")
             if x not in ("sync", "aligned", "shared", "b16", "m8n8")]
    return ".".join(parts[:1] + sorted(parts[1:]))


def claimed(p: tl.ConversionPlan) -> dict[str, int]:
    """The plan's costs in the measured terms (per warp; shared-memory requests and
    wavefronts in total over the warps)."""
    c = p.costs
    out: dict[str, int] = {}
    for side in ("store", "load"):
        n = int(c.get(f"{side}_requests", 0))
        if n:
            out[f"{side}:{_norm(c[f'{side}_instruction'])}"] = n
    if c.get("wavefronts"):
        out["wavefronts"] = int(c["wavefronts"])
    shfl = int(c.get("shuffle_instructions", c.get("shuffle_rounds", 0)) or 0)
    if shfl and p.mechanism == "warp-shuffle":
        out["shfl"] = shfl
    if p.mechanism in ("warp-shuffle", "registers"):
        sel = int(c.get("shuffle_selects", 0)) + int(c.get("shuffle_packs", 0) or 0)
        if sel:
            out["selp+prmt"] = sel + int(c.get("byte_permutes", 0))
        elif c.get("byte_permutes"):
            out["selp+prmt"] = int(c["byte_permutes"])
    if p.mechanism == "shared-memory" and c.get("byte_permutes"):
        out["selp+prmt"] = int(c["byte_permutes"])
    if c.get("barriers"):
        out[f"barrier:{c['barrier_instruction']}"] = int(c["barriers"])
    if c.get("conversions"):
        out["cvt"] = int(c["conversions"])
    if _tma_loads(p._program):
        out["tma boxes"] = int(c["tma_boxes"])
    return out


def _tma_loads(prog: ConversionProgram) -> bool:
    return prog.tma is not None and prog.tma.direction == "load"


def asm_lines(ptx: str) -> frozenset[int]:
    """The PTX lines (1-based) nvcc copied from inline ``asm`` statements: the
    function's shared-memory accesses (the harness's copies are C++)."""
    out, inside = set(), False
    for i, line in enumerate(ptx.splitlines(), start=1):
        if "// begin inline asm" in line:
            inside = True
        elif "// end inline asm" in line:
            inside = False
        elif inside:
            out.add(i)
    return frozenset(out)


def measured(r: Result, prog: ConversionProgram, harness_barriers: int) -> dict[str, int]:
    out: dict[str, int] = {}
    waves = 0
    own = asm_lines(r.ptx)
    for a in r.counts.accesses:
        if a.line not in own:
            continue  # the harness's own copies
        side = "store" if a.name.startswith(("st", "stmatrix")) else "load"
        key = f"{side}:{_norm(a.name)}"
        out[key] = out.get(key, 0) + int((a.wavefronts > 0).sum() if False else
                                         (a.addresses.reshape(-1, 32) >= 0).any(axis=1).sum())
        waves += int(a.wavefronts.sum())
    if waves:
        out["wavefronts"] = waves
    mv = r.counts.movement
    most = r.counts.most
    shfl = most("shfl.sync", movement=True)
    if shfl:
        out["shfl"] = shfl
    sel = most("selp", "prmt", movement=True)
    if sel:
        out["selp+prmt"] = sel
    for kind, less in (("bar.sync", harness_barriers), ("bar.warp.sync", 0)):
        n = most(kind, movement=True) - less
        if n:
            out[f"barrier:{kind}"] = n
    cvt = most("cvt.rn", movement=True)
    if cvt:
        out["cvt"] = cvt
    boxes = most("cp.async.bulk.tensor")
    if boxes:
        out["tma boxes"] = boxes
    del mv
    return out


def inputs(p: tl.ConversionPlan, prog: ConversionProgram, filling: int
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(in, out, expected out)`` arrays of the harness for one filling."""
    n = int(np.prod(p.shape))
    bits = dtype_bits(prog.dtype)
    held_bits = dtype_bits(prog.held)
    vals = values_of(prog.dtype, n, filling) if prog.conversion is None else \
        held_values(prog.held, prog.dtype, n, filling)
    vals = vals.astype(STORAGE[held_bits])
    per = 2 if bits > 32 else 1

    def table(units: np.ndarray, slots: int, b: int, v: np.ndarray) -> np.ndarray:
        el = units[:, ::per][:, :slots]
        out = np.full(el.shape, SENTINEL[b], dtype=STORAGE[b])
        out[el >= 0] = v[el[el >= 0]]
        return out.reshape(-1)

    src = table(prog.src_units, prog.src_slots, held_bits, vals)
    want_vals = values_of(prog.dtype, n, filling).astype(STORAGE[bits])
    want = table(prog.dst_units, prog.dst_slots, bits, want_vals)
    out = np.full(want.shape, SENTINEL[bits], dtype=STORAGE[bits])
    return src, out, want


def tma_source(prog: ConversionProgram, tile: np.ndarray) -> tuple[np.ndarray, TensorMap]:
    """The global tensor and the model of its tensor map for a plan whose source is a TMA
    load, from ``tile`` (``in`` of the harness by shared address: ``tile[a]`` the element
    at address ``a``): the tile at origin 0 with the tensor map's dims innermost first,
    each dim's pitch the extents below it (as the emitted comment encodes it)."""
    t = prog.tma
    assert t is not None and t.direction == "load"
    shape = t.shape
    pitch = {d: int(np.prod([shape[e] for e in t.dims[:k]])) for k, d in enumerate(t.dims)}
    coords = np.unravel_index(np.arange(int(np.prod(shape))), shape)
    where = sum(c * pitch[d] for d, c in enumerate(coords))  # element e's global offset
    per = 2 if prog.bits > 32 else 1  # 64-bit elements are two 32-bit units
    units = prog.src_units[:, ::per][:, :prog.src_slots].reshape(-1)
    tensor = np.zeros(int(np.prod(shape)), dtype=tile.dtype)
    have = units >= 0
    tensor[where[units[have]]] = tile[have]
    model = TensorMap(tensor, tuple(shape[d] for d in t.dims),
                      tuple(pitch[d] * t.elem_bytes for d in t.dims[1:]),
                      tuple(t.box[d] for d in t.dims), t.elem_bytes, t.swizzle)
    return tensor, model


def prove(p: tl.ConversionPlan, arch: str, name: str = "convert", ptx: str | None = None,
          sass: bool = False) -> Proof:
    """Run ``p``'s harness unit on ``arch`` with two fillings (see the module doc)."""
    prog = p._program
    source = p.code(harness=True, name=name)
    wrong = checked = 0
    counts: dict[str, int] = {}
    r = None
    for filling in (0, 1):
        x, out, want = inputs(p, prog, filling)
        tmap = None
        if _tma_loads(prog):
            x, tmap = tma_source(prog, x)
        r = run_convert(source, name, prog.threads, x, out, prog.smem_bytes, arch, ptx=ptx,
                        tensor_map=tmap)
        got = r.buffers[1]
        ok = prog.dst_units[:, ::2 if prog.bits > 32 else 1][:, :prog.dst_slots].reshape(-1) >= 0
        if prog.dst_shared:
            ok = np.ones(len(got), dtype=bool)
            ok = ok & (want != SENTINEL[dtype_bits(prog.dtype)])
        wrong += int((got != want).sum())
        checked += int(ok.sum())
        counts = measured(r, prog, 1 if prog.src_shared or prog.dst_shared else 0)
    assert r is not None
    proof = Proof(name, arch, wrong, checked, counts, claimed(p))
    if sass:
        proof.sass = r.sass()
    return proof


def compile_batch(plans: dict[str, tl.ConversionPlan], arch: str) -> str:
    """One nvcc run for many plans' harness units (names must be unique)."""
    units = {k: p.code(harness=True, name=k) for k, p in plans.items()}
    return next(iter(toolchain.compile_many(units, arch).values()))


@contextmanager
def on_bits_only() -> Iterator[None]:
    """Plan as the planner on bits does, without the element search beside it (which may
    find a cheaper plan of another mechanism): for tests of the bit mechanisms' code."""
    with mock.patch.object(plan_module, "SEARCH_ELEMENTS", 0), \
            mock.patch.object(plan_module, "SEARCH_SHUFFLE_ELEMENTS", 0):
        yield


#: why a measured count may differ from the plan's claim (the only accepted reasons)
REASONS = {
    "selects": "the cost model charges ceil(log2 n) selects to pick one of n lane-dependent "
               "registers and none where a register takes its own value in some lanes and "
               "a shuffled one in others (when no idle round can deliver the own value); "
               "the code needs a chain of n - 1 selects",
    "keep": "the destination holds an element in some threads only: the others keep the "
            "slot's value (SPEC section 8), a select nvcc makes of the conditional write",
    "race": "the plan stages a lane exchange with __syncwarp, but its replicated source "
            "stores an element from another warp than the one loading it: the code "
            "synchronizes the CTA's threads (bar.sync)",
    "pack": "the plan counts reordering sub-word values between registers as free "
            "(register allocation; Triton holds them unpacked); a register built from two "
            "registers' values takes a prmt, in the machine code of any spelling of it (at "
            "most the packing permutes the code writes)",
    "one-sided": "the plan's lane exchange on bits has a one-sided transposition (a source "
                 "register bit of copies sent to a lane) on a packed register bit: it claims "
                 "one shuffle per packed register and no select, but that register's values "
                 "sit in two lanes, so no code meets the claim (the planner now keeps such "
                 "values one to a register); the code moves it by the element planner's "
                 "shuffle schedule",
    "gather": "the plan's lane exchange on bits gathers each destination register from its "
              "2**m candidate source registers (2**m indexed shuffles and 2**m - 1 selects, "
              "as Triton's PTX does where the destination needs fewer registers than the "
              "source holds), but a needed value is in none of them: the code moves it by "
              "the element planner's shuffle schedule (a planner claim to recheck)",
    "b8-claim": "the bit staging's closed form for the 8-bit matrix forms (ldmatrix "
                ".m16n16 / stmatrix .m16n8) claims fewer wavefronts than the code executes "
                "with any pairing of its registers into matrices (the element model costs "
                "more still): a planner claim to recheck",
    "extract": "the test kernel moves sub-word slots that fill no whole word one by one "
               "between global memory and registers, and nvcc packs or extracts them with "
               "a prmt (the harness's instruction, not the function's)",
    "fewer": "the code issues fewer than the plan claims",
}


def _gathers(p: tl.ConversionPlan) -> bool:
    bp = p._bits
    return bp is not None and bp.shuffle is not None and \
        shuffle_counts(bp.shuffle, p._program.bits).form == "gather"


def _b8_matrix_on_bits(p: tl.ConversionPlan) -> bool:
    st = getattr(p._bits, "staging", None) if p._bits is not None else None
    return st is not None and any(a.kind == "matrix" and a.instruction.endswith(".b8")
                                  for a in (st.store, st.load))


def explain(p: tl.ConversionPlan, proof: Proof) -> dict[str, str]:
    """``{count: reason}`` for every count that differs from the claim (see
    :data:`REASONS`); a difference no reason explains is ``"unexplained"``."""
    from tilelayout.planning.code.cuda_unit import code_counts  # noqa: PLC0415

    prog = p._program
    own = code_counts(p)
    written = own.get("select", 0) + own.get("prmt", 0) + own.get(PACKING, 0)
    need = prog.dst_units >= 0
    partial = bool((need.any(axis=0) & ~need.all(axis=0)).any())
    out = {}
    fallback = getattr(p._route, "warp_exchange", False) and prog.transpose is None
    for key, (got, want) in proof.differences().items():
        if got < want:
            out[key] = "fewer"
        elif key == "wavefronts" and _b8_matrix_on_bits(p):
            out[key] = "b8-claim"
        elif fallback and key in ("shfl", "selp+prmt"):
            out[key] = "gather" if _gathers(p) else "one-sided"
        elif key == "selp+prmt" and (prog.staging is not None and got <= written or
                                     prog.transpose is not None and
                                     got <= want + own.get(PACKING, 0)):
            out[key] = "pack"
        elif key == "selp+prmt" and want < got <= written:
            out[key] = "selects"  # (nvcc may fold some of the code's selects)
        elif key == "selp+prmt" and partial and got > written and written <= want:
            out[key] = "keep"
        elif key == "selp+prmt" and partial and got > written > want:
            out[key] = "selects+keep"
        elif key == "selp+prmt" and prog.bits < 32 and got > written >= want and \
                (prog.dst_slots * prog.bits % 32 or prog.src_slots * prog.bits % 32):
            out[key] = "extract"
        elif key.startswith("barrier:") and prog.staging is not None and \
                prog.staging.barrier == "bar.sync" and \
                p.costs.get("barrier_instruction") == "bar.warp.sync":
            out[key] = "race"
        else:
            out[key] = "unexplained"
    return out
