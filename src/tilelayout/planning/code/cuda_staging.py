"""A staging (:mod:`.staging`) as CUDA: inline-PTX ``st`` / ``ld.shared`` at the plan's
widths and ``stmatrix`` / ``ldmatrix``, each thread's addresses as one base (a strided
form, or named XOR constants for a swizzle) plus a constant per instruction, the
barriers, and the passes.

Shared-memory instructions are inline PTX on 32-bit shared addresses
(``__cvta_generic_to_shared``), so the instruction is the plan's whatever the compiler
knows about ``smem``. Registers a vector or matrix moves that are not one of the
thread's words in order are repacked: 16-bit halves by ``mov.b32`` unpacks and packs
(register moves, as Triton packs them), bytes by ``__byte_perm`` (``prmt``), one per
further source register -- the permutes the plan counts (``byte_permutes``).

>>> import tilelayout as tl
>>> from .cuda_text import Writer
>>> from .staging import from_route
>>> p = tl.plan_conversion("S[(4,8):(1@laneid,1)]", "S[(4,8):(1@laneid,1@warpid)]", None, "float32")
>>> w = Writer("convert")
>>> out = emit_staging(w, from_route(p._route, 256), [f"s[{i}]" for i in range(8)], 256)
>>> w.counts
{'st.shared.v4.b32': 2, 'bar.sync': 1, 'ld.shared.b32': 1}
"""

from __future__ import annotations

import re
from dataclasses import replace
from types import MappingProxyType

import numpy as np

from ...core.dtypes import dtype_bits
from ..cost_model import DESTINATION_PERMUTES
from .cuda_text import Writer
from .exchange import per_word
from .staging import Access, StagingProgram, from_route
from .thread_values import Form, fit, fit_condition

WARP = 32
#: the named barrier the code synchronizes its threads with by default (0 is
#: __syncthreads'; ``ConversionPlan.code(barrier=...)`` picks another)
BARRIER_ID = 1


def emit_staging(w: Writer, s: StagingProgram, own: list[str], threads: int,
                 with_barrier: bool = True, unpacked: bool = False) -> list[str | None]:
    """Emit the staging; ``own``: expressions of the thread's source words (empty for a
    shared-memory source). Returns the destination words' expressions (None: none);
    ``unpacked``: each destination unit's instead, shifted out of the register it was
    loaded into (no byte permute), for a destination held one value to a register."""
    w.emit("const uint32_t buffer = static_cast<uint32_t>(__cvta_generic_to_shared(smem));")
    loaded: list[str] = []
    bar = _barrier(s.barrier, threads, w.barrier)
    for step in range(s.passes):
        tag = f"pass {step + 1} of {s.passes}: " if s.passes > 1 else ""
        if step and bar:
            w.comment(f"{tag}every load of the previous pass is done before the buffer "
                      f"is written again")
            _emit_barrier(w, s.barrier, bar)
        stores = [a for a in s.store if a.step == step]
        loads = [a for a in s.load if a.step == step]
        if stores:
            w.comment(f"{tag}store {_summary(stores)}")
            _emit_accesses(w, stores, own, s.bits, True, loaded, f"store{step}")
        if stores and loads and bar and with_barrier:
            w.comment(f"{tag}every store lands before any load")
            _emit_barrier(w, s.barrier, bar)
        if loads:
            w.comment(f"{tag}load {_summary(loads)}")
            _emit_accesses(w, loads, own, s.bits, False, loaded, f"load{step}")
    out: list[str | None] = []
    if unpacked and per_word(s.bits) > 1:
        for parts in _destination_words(s):
            out += [None if x is None else loaded[x[0]] if not x[1] else
                    f"({loaded[x[0]]} >> {x[1] * s.bits})" for x in parts]
        return out[:s.take.shape[1]]
    built: dict[tuple, str | None] = {}  # a word the destination holds twice is built once
    for parts in _destination_words(s):
        key = tuple(parts)
        if key not in built:
            built[key] = pack(w, [None if x is None else (loaded[x[0]], x[1]) for x in parts],
                              s.bits)
        out.append(built[key])
    return out


def with_claimed_permutes(plan):
    """``plan`` (an element-by-element ``ConversionPlan``) with the byte permutes of its
    8-bit staging's code claimed: :func:`staging_permutes` of the program its code is
    written from (:func:`.staging.from_route`); a word whose bytes come from several
    registers, or one register's reordered, takes a ``prmt`` (docs/data-movement.md,
    *Plans as code*)."""
    route = plan._route
    if dtype_bits(plan.dtype) != 8 or plan.mechanism != "shared-memory" or \
            route.staging is None or plan.tma is not None:
        return plan
    warps = int(max(route.src.warp.max(initial=0), route.dst.warp.max(initial=0))) + 1
    warp_local = plan.costs.get("barrier_instruction") == "bar.warp.sync"
    n, dst = staging_permutes(from_route(route, WARP * warps, warp_local))
    if not n:
        return plan
    return replace(plan, costs=MappingProxyType({**plan.costs, "byte_permutes": n,
                                                 DESTINATION_PERMUTES: dst}))


def _destination_words(s: StagingProgram) -> list[list[tuple[int, int] | None]]:
    """Each destination word as :func:`pack` parts ``(loaded register, position)``."""
    pw = per_word(s.bits)
    units = s.take.shape[1]
    words = []
    for j in range(-(-units // pw)):
        parts: list[tuple[int, int] | None] = []
        for p in range(pw):
            u = j * pw + p
            if u >= units:
                parts.append(None)
                continue
            names = s.take[:, u, 0]
            got = names[names >= 0]
            if not len(got):
                parts.append(None)
                continue
            regs = np.unique(got)
            if len(regs) != 1 or len(np.unique(s.take[names >= 0, u, 1])) != 1:
                raise AssertionError("a destination unit loaded by different instructions "
                                     "in different threads")
            parts.append((int(regs[0]), int(s.take[names >= 0, u, 1][0])))
        words.append(parts)
    return words


def _summary(accs: list[Access]) -> str:
    kinds: dict[str, int] = {}
    for a in accs:
        kinds[a.op] = kinds.get(a.op, 0) + 1
    return ", ".join(f"{n} x {k}" for k, n in kinds.items())


def _barrier(kind: str | None, threads: int, barrier: int) -> str | None:
    if kind is None:
        return None
    if kind == "bar.warp.sync":
        return "__syncwarp();"
    return f'asm volatile("bar.sync {barrier}, {threads};" ::: "memory");'


def _emit_barrier(w: Writer, kind: str | None, text: str) -> None:
    w.emit(text)
    w.count(kind or "")


def pack_permutes(parts: list[tuple[object, int] | None], bits: int) -> int:
    """The byte permutes :func:`pack` writes for ``parts`` (one rule for the code and for
    the plan's claim, :func:`staging_permutes`): none for a register in order or two
    16-bit halves, else one per further source register (one for a register's values
    moved inside it).

    >>> pack_permutes([("a", 1), ("a", 0), ("b", 2), ("b", 3)], 8)   # bytes out of order
    1
    >>> pack_permutes([("a", 0), ("a", 1), ("b", 2), ("b", 3)], 8)   # two halves in order
    0
    """
    real = [x for x in parts if x is not None]
    if not real or len(parts) == 1:
        return 0
    if _in_order(parts) or _as_halves(parts, bits) is not None:
        return 0
    return max(1, len({x[0] for x in real}) - 1)


def _in_order(parts: list[tuple[object, int] | None]) -> bool:
    """Whether ``parts`` are one register's values, each at its own position."""
    return len({x[0] for x in parts if x is not None}) == 1 and \
        all(x is None or x[1] == p for p, x in enumerate(parts))


def pack(w: Writer, parts: list[tuple[str, int] | None], bits: int,
         count: str = "prmt") -> str | None:
    """A 32-bit register of ``per_word(bits)`` units, unit ``p`` being position
    ``parts[p][1]`` of register ``parts[p][0]`` (None: any): the register itself when it
    is one in order, two 16-bit halves by ``mov.b32`` (the ``halves`` helper), else byte
    permutes (``__byte_perm``): one per further source register, as a person writes it
    (a register's values moved inside it: one) -- :func:`pack_permutes` of them, each
    counted in the writer as ``count``."""
    real = [x for x in parts if x is not None]
    if not real:
        return None
    if len(parts) == 1:
        return real[0][0]
    if _in_order(parts):
        return real[0][0]
    halves = _as_halves(parts, bits)
    if halves is not None:  # two 16-bit halves: register moves (mov.b32), not permutes
        lo, hi = (x or next(y for y in halves if y) for x in halves)
        w.helpers.add("halves")
        out = w.fresh("packed")
        w.emit(f"const uint32_t {out} = {w.name}_detail::halves<{lo[1]}, {hi[1]}>({lo[0]}, "
               f"{hi[0]});")
        return out
    nb = bits // 8
    srcs = list(dict.fromkeys(x[0] for x in real))
    acc = srcs[0]
    rounds = srcs[1:] or [srcs[0]]
    out = acc
    for step, other in enumerate(rounds):
        sel = 0
        for i, x in enumerate(parts):
            if x is None:
                src = i
            elif step == 0:
                src = x[1] + (len(parts) if x[0] == other and other != acc else 0)
            else:
                src = i if x[0] != other else len(parts) + x[1]
            for b in range(nb):
                sel |= (src * nb + b) << (4 * (i * nb + b))
        out = w.fresh("packed")
        w.emit(f"const uint32_t {out} = __byte_perm({acc}, {other}, {hex(sel)});")
        w.count(count)
        acc = out
    return out


def _as_halves(parts: list[tuple[str, int] | None], bits: int
               ) -> list[tuple[str, int] | None] | None:
    """``parts`` as two 16-bit halves ``(register, half)`` (None: any): 16-bit units, or
    8-bit ones two by two from one aligned half of a register; else None."""
    if bits == 16:
        return [None if x is None else (x[0], x[1]) for x in parts]
    if bits != 8:
        return None
    out: list[tuple[str, int] | None] = []
    for a, b in (parts[0:2], parts[2:4]):
        if a is None and b is None:
            out.append(None)
        elif a is not None and b is not None and a[0] == b[0] and a[1] % 2 == 0 and \
                b[1] == a[1] + 1:
            out.append((a[0], a[1] // 2))
        else:
            return None
    return out if any(out) else None


def _operand(units: tuple[int, ...], bits: int) -> tuple[int, int] | list | None:
    """How a store's 32-bit operand holding ``units`` is made: ``(word, shift)`` when
    they are one word's consecutive units from position ``shift`` (a narrow access takes
    them in the low bits, as ``st.shared.b8`` / ``.b16`` do), else the :func:`pack` parts
    ``[(word, position) | None, ...]``; None for values of 32 bits or more."""
    pw = per_word(bits)
    if pw == 1:
        return None
    if len(units) < pw:
        word, p = divmod(units[0], pw)
        if all(u == units[0] + i for i, u in enumerate(units)) and p + len(units) <= pw:
            return word, p
    parts = [(u // pw, u % pw) if u >= 0 else None for u in units]
    return parts + [None] * (pw - len(parts))


def _register(w: Writer, units: tuple[int, ...], own: list[str], bits: int) -> str:
    """The 32-bit operand of a store holding ``units`` (fewer than a word's: in the low
    bits, as ``st.shared.b8`` / ``.b16`` take them)."""
    how = _operand(units, bits)
    if how is None:
        return own[units[0]] if units[0] >= 0 else "0u"
    if isinstance(how, tuple):
        word, p = how
        return own[word] if not p else f"({own[word]} >> {p * bits})"
    out = pack(w, [None if x is None else (own[x[0]], x[1]) for x in how], bits)
    return out or "0u"


def staging_permutes(s: StagingProgram) -> tuple[int, int]:
    """The byte permutes per thread the staging's code writes (:func:`emit_staging`),
    as ``(all, destination)``: the stores' operands built from several words (or one
    word reordered), and each distinct destination word built from the loaded registers
    (``destination``, which a destination held one value to a register does without)
    -- the ``byte_permutes`` an element-by-element plan claims."""
    if per_word(s.bits) == 1:
        return 0, 0
    n = 0
    for a in s.store:
        for u in a.regs:
            how = _operand(u, s.bits)
            n += pack_permutes(how, s.bits) if isinstance(how, list) else 0
    distinct = {tuple(parts): parts for parts in _destination_words(s)}  # built once each
    dst = sum(pack_permutes(parts, s.bits) for parts in distinct.values())
    return n + dst, dst


def _offsets(accs: list[Access]) -> tuple[Form, list[tuple[str, int | Form]]]:
    """One base form for the group and each access's address relative to it: ``("add",
    c)`` (base + c), ``("xor", c)`` (base ^ c) or ``("own", form)``."""
    first = np.asarray(accs[0].address)
    base_form = fit(first)
    base_vals = base_form.values(len(first))
    span = int(np.bitwise_or.reduce(base_vals[base_vals >= 0])) if (base_vals >= 0).any() else 0
    offsets: list[tuple[str, int | Form]] = []
    for a in accs:
        live = a.address >= 0
        d_add = np.unique((a.address - base_vals)[live])
        d_xor = np.unique((a.address ^ base_vals)[live])
        if len(d_add) == 1 and int(d_add[0]) >= 0:
            offsets.append(("add", int(d_add[0])))
        elif len(d_xor) == 1 and not int(d_xor[0]) & span:  # an XOR that adds
            offsets.append(("add", int(d_xor[0])))
        elif len(d_xor) == 1:
            offsets.append(("xor", int(d_xor[0])))
        else:
            offsets.append(("own", fit(a.address)))
    return base_form, offsets


def _value(w: Writer, f: Form, tag: str) -> str:
    text = w.value(f, f"{tag} address")
    return f"({text})" if " " in text and not text.startswith("(") else text


def _address(w: Writer, base: str, off: tuple[str, int | Form], tag: str) -> str:
    kind, c = off
    if kind == "add":
        return f"buffer + {base}" + (f" + {c}" if c else "")
    if kind == "xor":
        return f"buffer + ({base} ^ {hex(c)}u)"  # type: ignore[arg-type]
    assert isinstance(c, Form)
    return f"buffer + {_value(w, c, tag)}"


def _word_index(text: str) -> int | None:
    m = re.fullmatch(r"s\[(\d+)\]", text)
    return int(m.group(1)) if m else None


def _runs(accs: list[Access], offs, words: list[list[int | None]]) -> list[tuple[int, int]]:
    """Maximal runs ``[i, j)`` of three or more accesses that differ only by a constant
    address step and a constant step of their registers (written as one loop)."""
    out, i = [], 0
    while i < len(accs):
        j = i + 1
        while j < len(accs) and accs[j].op == accs[i].op and offs[j][0] == offs[i][0] and \
                offs[i][0] in ("add", "xor") and _steps(offs, words, i, j):
            j += 1
        out.append((i, j) if j - i >= 3 else (i, i + 1))
        i = out[-1][1]
    return out


def _steps(offs, words, i: int, j: int) -> bool:
    if j - i == 1:
        return all(x is not None for x in words[j] + words[i]) and len(words[j]) == len(words[i])
    d_off = offs[i + 1][1] - offs[i][1]
    if offs[j][1] - offs[j - 1][1] != d_off:
        return False
    return all(a is not None and b is not None and c is not None and a - b == c - d
               for a, b, c, d in zip(words[j], words[j - 1], words[i + 1], words[i], strict=True))


def _emit_accesses(w: Writer, accs: list[Access], own: list[str], bits: int, store: bool,
                   loaded: list[str], tag: str) -> None:
    # accesses grouped by which threads take part (one condition per group)
    groups: dict[bytes, list[Access]] = {}
    for a in accs:
        groups.setdefault(_takes_part(a).tobytes(), []).append(a)
    for key, group in groups.items():
        cond = fit_condition(np.frombuffer(key, dtype=bool).astype(np.int64))
        base_form, offs = _offsets(group)
        if store:
            mark = len(w.body)
            ops = [[_register(w, u, own, bits) for u in a.regs] for a in group]
            if len(w.body) > mark:  # registers repacked: say so once
                w.body.insert(mark, "  " * w.level + "// registers of values in the order of "
                              "their addresses")
            words = [[_word_index(o) for o in op] for op in ops]
        else:
            words = [[k for k in range(len(a.regs))] for a in group]
            total = sum(len(a.regs) for a in group)
            array = w.fresh("v")  # declared outside the condition: the destination reads it
            w.emit(f"uint32_t {array}[{total}];")
            names, k = [], 0
            for a in group:
                names.append([f"{array}[{k + r}]" for r in range(len(a.regs))])
                words[len(names) - 1] = [k + r for r in range(len(a.regs))]
                k += len(a.regs)
            loaded += [n for ns in names for n in ns]
        if cond.kind != "true":
            w.open(f"if ({w.condition(cond)}) {{")
        side = "store" if store else "load"
        base = w.named(w.value(base_form, f"{side} offset"), f"{side}_offset",
                       f"the byte in the buffer of this thread's first {side}")
        for i, j in _runs(group, offs, words):
            a = group[i]
            n = len(a.regs)
            if j - i > 1:  # one loop over the run
                step = offs[i + 1][1] - offs[i][1]
                wstep = [words[i + 1][r] - words[i][r] for r in range(n)]
                if offs[i][0] == "add":
                    addr = _address(w, base, offs[i], tag) + f" + {step} * i"
                else:
                    addr = f"buffer + ({base} ^ ({hex(offs[i][1])}u + {step} * i))"
                regs = [f"{'s' if store else array}[{_affine(words[i][r], wstep[r])}]"
                        for r in range(n)]
                w.emit("#pragma unroll")
                w.open(f"for (int i = 0; i < {j - i}; ++i) {{")
                _one(w, a, addr, regs, store)
                w.close()
            else:
                addr = _address(w, base, offs[i], tag)
                _one(w, a, addr, ops[i] if store else names[i], store)
            for _ in range(j - i):
                w.count(a.op)
        if cond.kind != "true":
            w.close()


def _affine(start: int, step: int) -> str:
    if not step:
        return str(start)
    term = "i" if step == 1 else f"{step} * i"
    return f"{term} + {start}" if start else term


def _one(w: Writer, a: Access, addr: str, regs: list[str], store: bool) -> None:
    if store:
        ops = _operands(range(1, len(regs) + 1), a.matrix)
        ins = ", ".join(f'"r"({o})' for o in regs)
        w.emit(f'asm volatile("{a.op} [%0], {ops};" :: "r"({addr}), {ins} : "memory");')
    else:
        ops = _operands(range(len(regs)), a.matrix)
        outs = ", ".join(f'"=r"({n})' for n in regs)
        w.emit(f'asm volatile("{a.op} {ops}, [%{len(regs)}];" : {outs} : "r"({addr}) '
               f': "memory");')


def _operands(numbers, matrix: bool) -> str:
    """Inline-PTX register operands: ``{%1, %2}``, or ``%1`` for one scalar."""
    items = [f"%{i}" for i in numbers]
    return items[0] if len(items) == 1 and not matrix else "{" + ", ".join(items) + "}"


def _takes_part(a: Access) -> np.ndarray:
    """The threads that issue ``a``: those with an address (a vector), every lane of a
    warp with a row address (a matrix instruction is warp-wide)."""
    live = a.address >= 0
    if not a.matrix:
        return live
    warps = live.reshape(-1, WARP).any(axis=1)
    return np.repeat(warps, WARP)


__all__ = ["BARRIER_ID", "emit_staging", "pack", "pack_permutes", "staging_permutes",
           "with_claimed_permutes"]
