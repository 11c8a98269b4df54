"""The CUDA translation unit of a plan (SPEC section 8): ``__device__ void NAME(const SRC_T*
src, DST_T* dst, unsigned char* smem)``, for a TMA endpoint ``NAME_tma_store`` /
``NAME_tma_load`` beside it, and with ``harness=True`` the test kernel ``NAME_kernel``.

The function reads the thread's source slots as 32-bit registers (sub-word values packed
as they sit in memory), converts a wider source type first (``cvt``, packed pairs),
runs the plan's mechanism (:mod:`.cuda_exchange`, :mod:`.cuda_staging`) and writes the
destination slots that hold an element, leaving the others as they were.

>>> import tilelayout as tl
>>> p = tl.plan_conversion("S[(32,2):(1@laneid,1)]", "S[(32,2):(1@laneid,-1)] + 1", None, "float32")
>>> text = cuda_unit(p, "swap")
>>> "__device__ __forceinline__ void swap(const float* src, float* dst, unsigned char* smem)" in text
True
"""

from __future__ import annotations

import re

import numpy as np

from ...core.dtypes import dtype_bits
from ...core.errors import LayoutError
from .cuda_exchange import emit_exchange
from .cuda_helpers import helper_text
from .cuda_staging import BARRIER_ID, emit_staging
from .cuda_text import Writer
from .cuda_tma import emit_tma
from .cuda_transpose import emit_transpose
from .cuda_types import cuda_type, header
from .exchange import per_word
from .program import ConversionProgram, program_of
from .thread_values import Condition, fit_condition

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def cuda_unit(plan, name: str = "convert", harness: bool = False,
              barrier: int = BARRIER_ID) -> str:
    """The translation unit of ``plan`` (see the module doc); ``name`` must be a C++
    identifier; ``barrier``: the named barrier (1-15) the code synchronizes the CTA's
    threads with, which the caller's kernel must not use meanwhile."""
    if not _NAME.fullmatch(name or ""):
        raise ValueError(f"expected a C++ identifier for the function name, got {name!r}")
    if isinstance(barrier, bool) or not isinstance(barrier, int) or not 1 <= barrier <= 15:
        raise BarrierError(f"expected a named barrier id 1..15 for barrier= (0 is "
                           f"__syncthreads' own), got {barrier!r}")
    prog = program_of(plan)
    w = Writer(name, barrier)
    body(w, prog)
    src_t, dst_t = cuda_type(prog.held), cuda_type(prog.dtype)
    tail = _harness(prog, name, src_t, dst_t, w) if harness else []
    lines = _head(plan, prog, w, harness)
    includes = ["<cstdint>", "<cstring>"]
    for t in (prog.held, prog.dtype):
        h = header(t)
        if h and h not in includes:
            includes.append(h)
    if prog.tma is not None:
        includes.append("<cuda.h>")
    lines += [f"#include {h}" for h in includes] + [""]
    helpers = helper_text(w.helpers)
    if helpers or w.tables:
        lines.append(f"namespace {name}_detail {{")
        lines += helpers + w.tables
        lines.append(f"}}  // namespace {name}_detail")
        lines.append("")
    lines += _signature_doc(prog, src_t, dst_t, w.barrier)
    lines.append(f"__device__ __forceinline__ void {name}(const {src_t}* src, {dst_t}* dst, "
                 f"unsigned char* smem) {{")
    lines += _identity(w) + ["  " + c for c in w.constants] + w.body
    lines.append("}")
    if prog.tma is not None:
        lines.append("")
        lines += emit_tma(prog.tma, name, prog.threads, barrier)
    if harness:
        lines.append("")
        lines += tail
    return "\n".join(lines) + "\n"


class BarrierError(LayoutError):
    """A ``barrier=`` that is not a named barrier the code may use."""


def code_counts(plan) -> dict[str, int]:
    """The data-movement instructions the plan's code issues per warp, by kind (the
    code's own count: ``shfl``, ``select``, ``prmt``, each shared-memory instruction,
    barriers, ``cvt``)."""
    w = Writer("convert")
    body(w, program_of(plan))
    return dict(w.counts)


def _head(plan, prog: ConversionProgram, w: Writer, harness: bool) -> list[str]:
    shape = "x".join(map(str, plan.shape))
    lines = [f"// {w.name}: {plan.src}  ->  {plan.dst}",
             f"// a {shape} {plan.dtype} tile on {plan.target}; {plan.kind} exchange by "
             f"{prog.mechanism} (planned by tilelayout):"]
    for i, s in enumerate(plan.stages):
        lines.append(f"//   {i + 1}. {s.text}")
    counts = ", ".join(f"{n} {k}" for k, n in sorted(w.counts.items()))
    lines.append(f"// per warp: {counts or 'no data-movement instruction'}")
    if harness:
        lines.append(f"// harness: threads={prog.threads} smem_bytes={prog.smem_bytes} "
                     f"src_slots={prog.src_slots} dst_slots={prog.dst_slots}")
        tma = prog.tma
        if tma is not None and tma.direction == "load":  # what the host encodes (in: the tile)
            dims = [tma.shape[d] for d in tma.dims]
            strides = [tma.elem_bytes * int(np.prod(dims[:k + 1])) for k in range(len(dims) - 1)]
            lines.append(f"// harness tensor map: type={tma.data_type} dims="
                         f"{','.join(map(str, dims))} strides={','.join(map(str, strides)) or '-'}"
                         f" box={','.join(str(tma.box[d]) for d in tma.dims)} "
                         f"swizzle={tma.swizzle}")
    return lines


def _signature_doc(prog: ConversionProgram, src_t: str, dst_t: str, barrier: int) -> list[str]:
    def side(shared: bool, slots: int, what: str, t: str) -> str:
        if shared:
            return (f"{what}: unused; the tile is in smem at its own addresses "
                    f"({slots} {t} of address span)")
        return f"{what}: this thread's {slots} slots of {t}, in slot order"
    lines = [f"// Threads 0..{prog.threads - 1} of the CTA call it (thread id: threadIdx.x).",
             "// " + side(prog.src_shared, prog.src_slots, "src", src_t),
             "// " + side(prog.dst_shared, prog.dst_slots, "dst", dst_t)
             + ("" if prog.dst_shared else "; slots that hold no element are left as they were")]
    if prog.smem_bytes:
        lines.append(f"// smem: {prog.smem_bytes} bytes of shared memory, {prog.smem_align}-byte "
                     f"aligned" + (f"; named barrier {barrier} over the {prog.threads} threads "
                                   f"(code(barrier=...) picks another)"
                                   if _meets(prog) else ""))
    else:
        lines.append("// smem: unused")
    return lines


def _meets(prog: ConversionProgram) -> bool:
    """Whether the code synchronizes the CTA's threads at its named barrier (a staging
    by ``bar.sync``, or before a TMA store)."""
    return prog.staging is not None and prog.staging.barrier == "bar.sync" or \
        prog.tma is not None and prog.tma.direction == "store"


def _identity(w: Writer) -> list[str]:
    out = []
    if w.uses("tid") or w.uses("lane") or w.uses("warp"):
        out.append("  const unsigned tid = threadIdx.x;")
    if w.uses("lane"):
        out.append("  const unsigned lane = tid % 32;")
    if w.uses("warp"):
        out.append("  const unsigned warp = tid / 32;")
    return out


def body(w: Writer, prog: ConversionProgram) -> None:
    """The function's statements (into ``w``)."""
    bits = prog.bits
    pw = per_word(bits)
    own: list[str] = []
    if not prog.src_shared:
        own = _source(w, prog)
    loose = prog.unpacked
    if prog.exchange is not None:
        words = emit_exchange(w, prog.exchange, own, loose)
    elif prog.transpose is not None:
        words = emit_transpose(w, prog.transpose, own, loose)
    else:
        assert prog.staging is not None
        words = emit_staging(w, prog.staging, own, prog.threads, unpacked=loose)
    if prog.dst_shared:
        return
    if loose:
        _write_units(w, prog, words)
    else:
        _write_back(w, prog, words, pw)


def _source(w: Writer, prog: ConversionProgram) -> list[str]:
    """The source as 32-bit words ``s[...]`` (converted first when the source type is
    wider), returning their names."""
    bits = prog.bits
    if prog.conversion is not None:
        return _convert(w, prog)
    nbytes = prog.src_slots * bits // 8
    nwords = -(-nbytes // 4)
    w.comment(f"the source slots as 32-bit registers ({max(1, 32 // bits)} per register)"
              if bits < 32 else "the source slots as 32-bit registers")
    w.emit(f"uint32_t s[{nwords}]{' = {}' if nbytes % 4 else ''};")
    w.emit(f"memcpy(s, src, {nbytes});")
    return [f"s[{j}]" for j in range(nwords)]


def _convert(w: Writer, prog: ConversionProgram) -> list[str]:
    """Convert the source slots to the planned type, packed into 32-bit words: one
    ``cvt`` per pair of values (``.x2`` forms), pairs that hold nothing skipped."""
    c = prog.conversion
    assert c is not None
    per = 32 // c.out_bits
    nwords = -(-prog.src_slots // per)
    have = np.zeros(nwords * per, dtype=bool)
    have[:prog.src_slots] = (prog.src_units >= 0).any(axis=0)[:prog.src_slots]
    pairs = have.reshape(nwords, per // 2, 2).any(axis=2)
    w.comment(f"convert {c.held} -> {c.planned}: {c.instruction}, {c.per_instruction} "
              f"values each, packed {per} to a register")
    w.emit(f"uint32_t s[{nwords}];")
    if have.all():  # every slot: one loop
        w.emit("#pragma unroll")
        w.open(f"for (int j = 0; j < {nwords}; ++j) {{")
        w.emit(_cvt_word(c.instruction, c.out_bits, "s[j]",
                         [f"src[{per} * j + {i}]" if i else f"src[{per} * j]"
                          for i in range(per)], [True] * (per // 2)))
        w.close()
    else:
        for j in range(nwords):
            vals = [f"src[{j * per + i}]" if have[j * per + i] else "0.0f" for i in range(per)]
            w.emit(_cvt_word(c.instruction, c.out_bits, f"s[{j}]", vals, pairs[j].tolist()))
    w.count(c.instruction, int(pairs.sum()))
    return [f"s[{j}]" for j in range(nwords)]


def _cvt_word(ins: str, out_bits: int, word: str, vals: list[str], pairs: list[bool]) -> str:
    """One 32-bit word of converted values (the value from ``a`` lands in the upper
    half or byte: PTX ISA "cvt")."""
    if out_bits == 16:
        if not pairs[0]:
            return f"{word} = 0u;"
        return f'asm("{ins} %0, %2, %1;" : "=r"({word}) : "f"({vals[0]}), "f"({vals[1]}));'
    if not any(pairs):
        return f"{word} = 0u;"
    lines = [".reg .b16 lo, hi;"]
    lines.append(f"{ins} lo, %2, %1;" if pairs[0] else "mov.b16 lo, 0;")
    lines.append(f"{ins} hi, %4, %3;" if pairs[1] else "mov.b16 hi, 0;")
    lines.append("mov.b32 %0, {lo, hi};")
    body = "\\n".join(lines)
    return (f'asm("{{\\n{body}\\n}}" : "=r"({word}) : "f"({vals[0]}), "f"({vals[1]}), '
            f'"f"({vals[2]}), "f"({vals[3]}));')


def _write_back(w: Writer, prog: ConversionProgram, words: list[str | None], pw: int) -> None:
    """Store the destination words into ``dst``: whole runs where every thread assigns
    them, under a thread condition where only some do."""
    ub = max(1, dtype_bits(prog.dtype) // 8) if prog.bits < 32 else 4
    need = prog.dst_units >= 0  # [t, u]
    units = need.shape[1]
    real = [j for j, x in enumerate(words) if x is not None]
    if not real:
        return
    nwords = len(words)
    w.comment("the destination slots")
    array = _array_of(words)
    if array is None:
        array = "d"
        w.emit(f"const uint32_t d[{nwords}] = {{{', '.join(x or '0u' for x in words)}}};")
    everyone = need.all(axis=0) | ~need.any(axis=0)
    runs = _runs([u for u in range(units) if need[:, u].all()])
    for start, stop in runs:
        w.emit(_memcpy(array, start * ub, (stop - start) * ub))
    for cond, us in _by_threads(need, [u for u in range(units) if not everyone[u]]):
        w.open(f"if ({w.condition(cond)}) {{")
        for start, stop in _runs(us):  # word by word (no 64-bit value of a partial word)
            for at in range(start * ub, stop * ub, 4):
                w.emit(_memcpy(array, at, min(4 - at % 4, stop * ub - at)))
        w.close()


def _write_units(w: Writer, prog: ConversionProgram, units: list[str | None]) -> None:
    """Store each destination unit (a value in the low bits of its own register) into
    ``dst``: a byte (two) each, under a thread condition where only some threads take
    it."""
    need = prog.dst_units >= 0  # [t, u]
    ctype = "unsigned char" if prog.bits == 8 else "unsigned short"
    w.comment("the destination slots, one value to a register")
    taken = [u for u in range(min(need.shape[1], len(units)))
             if units[u] is not None and need[:, u].any()]
    for cond, us in _by_threads(need, taken):
        if cond.kind != "true":
            w.open(f"if ({w.condition(cond)}) {{")
        for u in us:
            w.emit(f"{{ const {ctype} one = static_cast<{ctype}>({units[u]}); "
                   f"memcpy(reinterpret_cast<char*>(dst) + {u * prog.bits // 8}, &one, "
                   f"{prog.bits // 8}); }}")
        if cond.kind != "true":
            w.close()


def _by_threads(need: np.ndarray, columns: list[int]) -> list[tuple[Condition, list[int]]]:
    """``columns`` of ``need`` (``[thread, column]``: whether the thread takes it) grouped
    by the threads that take them, each group with that thread condition, in first-seen
    order."""
    groups: dict[bytes, list[int]] = {}
    for u in columns:
        groups.setdefault(need[:, u].tobytes(), []).append(u)
    return [(fit_condition(np.frombuffer(key, dtype=bool).astype(np.int64)), us)
            for key, us in groups.items()]


def _memcpy(array: str, at: int, n: int) -> str:
    if not at:
        return f"memcpy(dst, {array}, {n});"
    return (f"memcpy(reinterpret_cast<char*>(dst) + {at}, reinterpret_cast<const char*>({array}) "
            f"+ {at}, {n});")


def _array_of(words: list[str | None]) -> str | None:
    """The array ``A`` when word ``j`` is ``A[j]`` for every ``j`` (the loads filled the
    destination registers in order), else None."""
    m = re.fullmatch(r"(\w+)\[0\]", words[0] or "")
    if m and all(x == f"{m.group(1)}[{j}]" for j, x in enumerate(words)):
        return m.group(1)
    return None


def _runs(units: list[int]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for u in units:
        if out and out[-1][1] == u:
            out[-1] = (out[-1][0], u + 1)
        else:
            out.append((u, u + 1))
    return out


def _storage(bits: int) -> str:
    return {8: "uint8_t", 16: "uint16_t", 32: "uint32_t", 64: "uint64_t"}[bits]


def _harness(prog: ConversionProgram, name: str, src_t: str, dst_t: str, w: Writer
             ) -> list[str]:
    """``NAME_kernel(in, out)`` of SPEC section 8 (one CTA of ``threads`` threads); it
    stores back only the slots each thread holds (the others keep ``out``'s values), as
    a kernel reads only the slots it holds, so the compiler keeps no select for the
    others (``w``: the unit's writer, for the conditions' tables)."""
    n = prog.threads
    loads = prog.tma is not None and prog.tma.direction == "load"
    lines = ["// The test kernel: one CTA of "
             f"{n} threads, {prog.smem_bytes} bytes of dynamic shared memory;",
             "// in[t * src_slots + i] / out[t * dst_slots + j] are thread t's slots (a "
             "shared-memory side: the element at address a is in[a] / out[a]).",
             f'extern "C" __global__ void {name}_kernel(const {src_t}* in, {dst_t}* out) {{']
    if loads:
        lines[1:] = ["// tensor_map: the tile as the host encodes it (above), its global "
                     "address in (the tile at origin 0);",
                     "// out[t * dst_slots + j] is thread t's slot j.",
                     f'extern "C" __global__ void {name}_kernel(const {src_t}* in, {dst_t}* '
                     f'out, const __grid_constant__ CUtensorMap tensor_map) {{']
    if prog.smem_bytes:
        lines.append(f"  extern __shared__ __align__({max(prog.smem_align, 16)}) "
                     f"unsigned char smem[];")
    else:
        lines.append("  unsigned char* smem = nullptr;")
    lines.append("  const unsigned t = threadIdx.x;")
    sb = dtype_bits(prog.held)
    db = dtype_bits(prog.dtype)
    if loads:
        lines += _tma_loaded(prog, name)
        src = "nullptr"
    elif prog.src_shared:
        st = _storage(sb)
        lines += [f"  for (unsigned a = t; a < {prog.src_slots}; a += {n})",
                  f"    reinterpret_cast<{st}*>(smem)[a] = reinterpret_cast<const {st}*>(in)[a];",
                  "  __syncthreads();"]
        src = "nullptr"
    else:
        lines += [f"  alignas(16) {src_t} src[{prog.src_slots}];"] + \
            _copy("src", "in", prog.src_slots, sb, "t", load=True)
        src = "src"
    if prog.dst_shared:
        lines.append(f"  {name}({src}, nullptr, smem);")
        dt = _storage(db)
        lines += ["  __syncthreads();",
                  f"  for (unsigned a = t; a < {prog.dst_slots}; a += {n})",
                  f"    reinterpret_cast<{dt}*>(out)[a] = reinterpret_cast<const {dt}*>(smem)[a];"]
    else:
        lines += [f"  alignas(16) {dst_t} dst[{prog.dst_slots}];"]
        lines.append(f"  {name}({src}, dst, smem);")
        lines += _store_held(prog, w, db)
    at = lines.index("  const unsigned t = threadIdx.x;") + 1
    if any(re.search(rf"\b{x}\b", line) for line in lines[at:] for x in ("tid", "lane", "warp")):
        lines.insert(at, "  const unsigned tid = t, lane = t % 32, warp = t / 32;")
    return lines + ["}"]


def _tma_loaded(prog: ConversionProgram, name: str) -> list[str]:
    """The tile loaded by ``NAME_tma_load`` (one arrival: the thread that arms the barrier
    with the bytes), the barrier initialized by one thread and the init made visible to
    the async proxy and the CTA before anyone uses it (PTX ISA "mbarrier.init",
    "fence.mbarrier_init")."""
    origins = ", ".join("0" for _ in prog.tma.dims) if prog.tma is not None else ""
    return ["  __shared__ uint64_t tma_barrier;",
            "  if (t == 0) {",
            '    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" :: '
            '"r"(static_cast<uint32_t>(__cvta_generic_to_shared(&tma_barrier))) : "memory");',
            '    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");',
            "  }",
            "  __syncthreads();",
            f"  {name}_tma_load(smem, &tensor_map, &tma_barrier, 0, {origins});"]


def _store_held(prog: ConversionProgram, h: Writer, bits: int) -> list[str]:
    """Store back the destination slots thread ``t`` holds: all of them (as words when
    they fill words) when every thread holds every slot, else the ones every thread
    holds and, under a condition of the thread id, the others (slots nobody holds are
    never written)."""
    per = 2 if prog.bits > 32 else 1
    need = prog.dst_units[:, ::per][:, :prog.dst_slots] >= 0
    some = need.any(axis=0)
    if need.all():  # (one value to a register: stored one by one, as the code has them)
        return _copy("dst", "out", prog.dst_slots, 32 if prog.unpacked else bits, "t",
                     load=False)
    d = prog.dst_slots
    lines = []
    for start, stop in _runs([j for j in range(d) if need[:, j].all()]):
        lines += ["#pragma unroll",
                  f"  for (int j = {start}; j < {stop}; ++j) out[t * {d} + j] = dst[j];"]
    for cond, slots in _by_threads(need, [j for j in range(d)
                                          if some[j] and not need[:, j].all()]):
        lines.append(f"  if ({h.condition(cond)}) {{")
        for start, stop in _runs(slots):
            lines.append(f"    for (int j = {start}; j < {stop}; ++j) out[t * {d} + j] = dst[j];")
        lines.append("  }")
    return lines


def _copy(local: str, glob: str, slots: int, bits: int, t: str, load: bool) -> list[str]:
    """Thread ``t``'s slots between a local array and global memory: as 32-bit words
    when they fill whole words (sub-word values stay packed, as registers hold them)."""
    if bits < 32 and slots * bits % 32 == 0:
        n = slots * bits // 32
        lw, gw = f"reinterpret_cast<uint32_t*>({local})", \
            f"reinterpret_cast<{'const ' if load else ''}uint32_t*>({glob})"
        a, b = (f"{lw}[i]", f"{gw}[{t} * {n} + i]") if load else (f"{gw}[{t} * {n} + i]",
                                                                   f"{lw}[i]")
        return ["#pragma unroll", f"  for (int i = 0; i < {n}; ++i) {a} = {b};"]
    a, b = (f"{local}[i]", f"{glob}[{t} * {slots} + i]") if load else \
        (f"{glob}[{t} * {slots} + i]", f"{local}[i]")
    return ["#pragma unroll", f"  for (int i = 0; i < {slots}; ++i) {a} = {b};"]


__all__ = ["body", "code_counts", "cuda_unit"]
