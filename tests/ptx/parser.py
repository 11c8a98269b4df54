"""PTX text to a :class:`Module`: its variables, and each ``.entry`` function's parameters,
registers and instructions with their operands resolved.

Scopes (``{ ... }``, e.g. the blocks nvcc wraps around inline ``asm``) may declare
registers and labels of their own: those get a name unique to the scope
(``name@3``), so an inner ``%r1`` or ``lo`` never aliases an outer one. Every
instruction keeps its source line for the interpreter's messages.

>>> m = parse('''.version 8.0
... .target sm_90a
... .address_size 64
... .visible .entry k(.param .u64 k_param_0) .reqntid 32
... {
...   .reg .b32 %r<3>;
...   .reg .pred %p<2>;
...   mov.u32 %r1, %tid.x;
... $L_top:
...   { .reg .b32 t; add.s32 t, %r1, 1; }
...   @!%p1 bra $L_top;
... }''')
>>> k = m.kernels["k"]
>>> [i.op for i in k.code], k.reqntid, k.params[0].name
(['mov.u32', 'add.s32', 'bra'], 32, 'k_param_0')
>>> k.code[1].operands[0], k.code[2].target
(Reg(name='t@1', bits=32, kind='b'), 1)
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass, field

from .errors import PtxError

# -- operands ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Reg:
    """A register (``kind``: b / u / s / f / pred, as declared)."""

    name: str
    bits: int
    kind: str


@dataclass(frozen=True)
class Special:
    """A special register such as ``%tid.x`` or ``%laneid``."""

    name: str


@dataclass(frozen=True)
class Imm:
    value: int


@dataclass(frozen=True)
class FImm:
    """A floating-point immediate (``0f3F800000``, ``0d...`` or decimal): its value."""

    value: float


@dataclass(frozen=True)
class Sym:
    """A variable, parameter or label name used as a value (its address)."""

    name: str


@dataclass(frozen=True)
class Sink:
    """``_``: a destination whose value is thrown away."""


@dataclass(frozen=True)
class Vec:
    items: tuple


@dataclass(frozen=True)
class Addr:
    """``[base+offset]``; ``base`` is a Reg, a Sym, or None (an absolute address)."""

    base: Reg | Sym | None
    offset: int


@dataclass(frozen=True)
class TensorRef:
    """``[tensorMap, {c0, c1, ...}]``: a TMA tensor map and the box coordinates."""

    base: Reg | Sym
    coords: Vec


@dataclass(frozen=True)
class Pair:
    """``d|p``: a value and a predicate destination (shfl.sync, setp)."""

    first: object
    second: object


@dataclass(frozen=True)
class Not:
    """``!p``: a negated predicate operand."""

    inner: Reg


# -- module structure ----------------------------------------------------------------------


@dataclass(frozen=True)
class Variable:
    """A ``.shared`` / ``.global`` / ``.const`` / ``.local`` variable: ``size`` bytes
    (None for an ``extern`` array without a size), its initializer bytes (or None)."""

    name: str
    space: str
    align: int
    size: int | None
    init: bytes | None = None


@dataclass(frozen=True)
class Param:
    name: str
    type: str  # e.g. "u64", "b8"
    size: int  # bytes
    align: int


@dataclass
class Instruction:
    line: int
    text: str
    op: str  # the full opcode, e.g. "ld.shared.v4.b32"
    parts: tuple[str, ...]  # op split at ".", "::" kept inside a part
    operands: tuple
    guard: Reg | None = None
    guard_negated: bool = False
    target: int | None = None  # branch target (index into the code)
    label: str | None = None  # the branch label as written
    run: object = None  # the executor, set by the interpreter when it loads the kernel
    count_name: str = ""  # the name the interpreter counts it under


@dataclass
class Kernel:
    name: str
    params: list[Param]
    code: list[Instruction]
    registers: dict[str, Reg]
    variables: list[Variable]  # function-scope .shared / .local
    reqntid: int | None = None
    maxntid: int | None = None
    labels: dict[str, int] = field(default_factory=dict)


@dataclass
class Module:
    version: str
    target: str
    address_size: int
    variables: list[Variable]
    kernels: dict[str, Kernel]
    functions: list[str]


SPECIAL = re.compile(r"%(?:tid|ntid|ctaid|nctaid|clusterid|nclusterid|cluster_ctaid|"
                     r"cluster_nctaid)\.[xyz]|%(?:laneid|warpid|nwarpid|smid|nsmid|gridid|"
                     r"lanemask_(?:eq|le|lt|ge|gt)|clock|clock64|clock_hi|globaltimer|"
                     r"globaltimer_lo|globaltimer_hi|dynamic_smem_size|total_smem_size|"
                     r"aggr_smem_size|cluster_ctarank|cluster_nctarank|is_explicit_cluster|"
                     r"envreg\d+|pm\d+|pm\d+_64|reserved_smem_offset_\w+)")
_TYPE_BITS = {"pred": 1, "b8": 8, "u8": 8, "s8": 8, "b16": 16, "u16": 16, "s16": 16, "f16": 16,
              "bf16": 16, "b32": 32, "u32": 32, "s32": 32, "f32": 32, "f16x2": 32,
              "bf16x2": 32, "b64": 64, "u64": 64, "s64": 64, "f64": 64, "b128": 128}
_INT = re.compile(r"-?(?:0[xX][0-9a-fA-F]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)[uU]?")
_IDENT = re.compile(r"[A-Za-z_$%][\w$]*")


def type_bits(t: str) -> int:
    """Bits of a PTX type name such as ``b32`` / ``.f16x2``."""
    t = t.lstrip(".")
    if t not in _TYPE_BITS:
        raise PtxError(f"expected a PTX type such as .b32, got .{t}")
    return _TYPE_BITS[t]


def parse_int(text: str) -> int | None:
    t = text.strip()
    if not _INT.fullmatch(t):
        return None
    neg = t.startswith("-")
    t = t.lstrip("-").rstrip("uU")
    if t[:2] in ("0x", "0X"):
        v = int(t, 16)
    elif t[:2] in ("0b", "0B"):
        v = int(t, 2)
    elif len(t) > 1 and t[0] == "0":
        v = int(t, 8)
    else:
        v = int(t)
    return -v if neg else v


def _float(text: str) -> float | None:
    t = text.strip()
    if m := re.fullmatch(r"(-?)0[fF]([0-9a-fA-F]{8})", t):
        v = struct.unpack("<f", int(m.group(2), 16).to_bytes(4, "little"))[0]
        return -v if m.group(1) else v
    if m := re.fullmatch(r"(-?)0[dD]([0-9a-fA-F]{16})", t):
        v = struct.unpack("<d", int(m.group(2), 16).to_bytes(8, "little"))[0]
        return -v if m.group(1) else v
    if re.fullmatch(r"-?\d+\.\d*(?:[eE][+-]?\d+)?|-?\d+[eE][+-]?\d+", t):
        return float(t)
    return None


def split_operands(text: str) -> list[str]:
    """Operands at depth 0 of ``{}`` / ``[]``."""
    out, depth, cur = [], 0, []
    for ch in text:
        if ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
        if ch == "," and depth == 0:
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        out.append("".join(cur).strip())
    return out


def _strip_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    # .loc / .file are line directives without a ';'
    return re.sub(r"^[ \t]*\.(?:loc|file)\b[^\n]*", "", text, flags=re.M)


def _items(body: str, first_line: int) -> list[tuple]:
    """The body as ("open",), ("close",), ("label", line, name), ("stmt", line, text)."""
    out: list[tuple] = []
    i, line, n = 0, first_line, len(body)
    while i < n:
        ch = body[i]
        if ch == "\n":
            line += 1
            i += 1
        elif ch.isspace():
            i += 1
        elif ch == "{":
            out.append(("open",))
            i += 1
        elif ch == "}":
            out.append(("close",))
            i += 1
        else:
            if m := re.compile(r"([A-Za-z_$][\w$]*)\s*:(?!:)").match(body, i):
                out.append(("label", line, m.group(1)))
                line += m.group(0).count("\n")
                i = m.end()
                continue
            j = body.find(";", i)
            if j < 0:
                raise PtxError(f"line {line}: statement {body[i:i + 40].strip()!r} has no ';'")
            text = body[i:j]
            out.append(("stmt", line, " ".join(text.split())))
            line += text.count("\n")
            i = j + 1
    return out


def _declared_regs(text: str) -> tuple[str, list[str]]:
    """``.reg .b32 %r<3>, x;`` -> ("b32", ["%r0", "%r1", "%r2", "x"])."""
    m = re.fullmatch(r"\.reg\s+(?:\.v\d\s+)?\.(\w+)\s+(.+)", text)
    if not m:
        raise PtxError(f"a register declaration {text!r} is not understood")
    names: list[str] = []
    for part in m.group(2).split(","):
        part = part.strip()
        if rm := re.fullmatch(r"(%?[A-Za-z_$][\w$]*)<(\d+)>", part):
            names += [f"{rm.group(1)}{k}" for k in range(int(rm.group(2)))]
        elif _IDENT.fullmatch(part):
            names.append(part)
        else:
            raise PtxError(f"a register declaration {text!r} is not understood")
    return m.group(1), names


def _variable(text: str, space_default: str | None = None) -> Variable | None:
    """A ``.shared`` / ``.global`` / ``.const`` / ``.local`` declaration, or None."""
    m = re.fullmatch(r"((?:\.(?:extern|visible|weak|common)\s+)*)\.(shared|global|const|local)"
                     r"(?:::\w+)?\s+((?:\.\w+(?:\s+\d+)?\s+)*?)\.(\w+)\s+([A-Za-z_$][\w$]*)((?:\[\d*\])*)"
                     r"(?:\s*=\s*(.*))?", text.strip(), re.S)
    if not m:
        return None
    quals, space, mods, ty, name, dims, init = m.groups()
    align = int(a.group(1)) if (a := re.search(r"\.align\s+(\d+)", mods + " ")) else 0
    elem = type_bits(ty) // 8 if ty != "pred" else 1
    size: int | None = elem
    extern = "extern" in quals
    for d in re.findall(r"\[(\d*)\]", dims):
        if d == "":
            size = None
            break
        size = size * int(d)  # type: ignore[operator]
    data = None
    if init is not None:
        vals = [parse_int(v) for v in re.findall(r"[^\s{},]+", init)]
        if any(v is None for v in vals):
            raise PtxError(f"the initializer of {name} is not integers")
        data = b"".join((v & ((1 << (8 * elem)) - 1)).to_bytes(elem, "little")  # type: ignore[operator]
                        for v in vals)
        if size is None:
            size = len(data)
        data = data.ljust(size, b"\0")
    if size is None and not extern:
        raise PtxError(f"the variable {name} has no size")
    return Variable(name, space, max(align, elem), None if extern and size is None else size, data)


def _params(text: str) -> list[Param]:
    """``.param .u64 .ptr .global .align 1 k_param_0, .param .align 64 .b8 k_param_1[128]``."""
    out = []
    for p in split_operands(text):
        tokens = p.split()
        m = re.fullmatch(r"([A-Za-z_$][\w$]*)(?:\[(\d+)\])?", tokens[-1]) if tokens else None
        types = [t[1:] for t in tokens[1:-1] if t.startswith(".") and t[1:] in _TYPE_BITS]
        if not tokens or tokens[0] != ".param" or not m or not types:
            raise PtxError(f"a kernel parameter {p!r} is not understood")
        name, count = m.groups()
        elem = type_bits(types[0]) // 8
        size = elem * (int(count) if count else 1)
        align = int(a.group(1)) if (a := re.search(r"\.align\s+(\d+)", p)) else elem
        out.append(Param(name, types[0], size, align))
    return out


class _Scopes:
    """Register and label names of nested scopes (innermost last)."""

    def __init__(self, module_syms: set[str]):
        self.stack: list[tuple[int, dict[str, Reg]]] = [(0, {})]
        self.counter = 0
        self.syms = module_syms

    def push(self) -> None:
        self.counter += 1
        self.stack.append((self.counter, {}))

    def pop(self, line: int) -> None:
        if len(self.stack) == 1:
            raise PtxError(f"line {line}: a '}}' closes no scope")
        self.stack.pop()

    def path(self) -> tuple[int, ...]:
        return tuple(s for s, _ in self.stack)

    def declare(self, name: str, ty: str) -> Reg:
        sid, regs = self.stack[-1]
        kind = "pred" if ty == "pred" else ty[0]
        reg = Reg(name if sid == 0 else f"{name}@{sid}", type_bits(ty), kind)
        regs[name] = reg
        return reg

    def lookup(self, name: str) -> Reg | None:
        for _, regs in reversed(self.stack):
            if name in regs:
                return regs[name]
        return None


def _operand(text: str, scopes: _Scopes, line: int):
    t = text.strip()
    if t == "_":
        return Sink()
    if t.startswith("!"):
        inner = _operand(t[1:], scopes, line)
        if not isinstance(inner, Reg):
            raise PtxError(f"line {line}: '!' applies to a predicate register, not {t[1:]!r}")
        return Not(inner)
    if t.startswith("{") and t.endswith("}"):
        return Vec(tuple(_operand(x, scopes, line) for x in split_operands(t[1:-1])))
    if t.startswith("[") and t.endswith("]"):
        inner = split_operands(t[1:-1])
        if len(inner) == 2 and inner[1].startswith("{"):
            base = _operand(inner[0], scopes, line)
            coords = _operand(inner[1], scopes, line)
            if not isinstance(base, (Reg, Sym)) or not isinstance(coords, Vec):
                raise PtxError(f"line {line}: tensor operand {t!r} is not understood")
            return TensorRef(base, coords)
        return _address(t[1:-1], scopes, line)
    if "|" in t:
        a, b = t.split("|", 1)
        return Pair(_operand(a, scopes, line), _operand(b, scopes, line))
    if (v := parse_int(t)) is not None:
        return Imm(v)
    if (f := _float(t)) is not None:
        return FImm(f)
    if SPECIAL.fullmatch(t):
        return Special(t)
    if _IDENT.fullmatch(t):
        reg = scopes.lookup(t)
        if reg is not None:
            return reg
        if t in scopes.syms:
            return Sym(t)
        raise PtxError(f"line {line}: {t} is neither a declared register nor a known symbol")
    raise PtxError(f"line {line}: operand {t!r} is not understood")


def _address(inner: str, scopes: _Scopes, line: int) -> Addr:
    s = inner.replace(" ", "")
    m = re.fullmatch(r"([^+\-]+)?(?:([+-])(-?(?:0[xX][0-9a-fA-F]+|\d+)))?", s)
    if not m or not (m.group(1) or m.group(3)):
        raise PtxError(f"line {line}: address [{inner}] is not understood")
    base_text, sign, off_text = m.groups()
    off = 0
    if off_text is not None:
        off = parse_int(off_text)  # type: ignore[assignment]
        off = -off if sign == "-" else off
    if base_text is not None and (v := parse_int(base_text)) is not None:
        return Addr(None, v + off)
    base = None
    if base_text is not None:
        base = _operand(base_text, scopes, line)
        if not isinstance(base, (Reg, Sym)):
            raise PtxError(f"line {line}: address [{inner}]: its base is not a register or symbol")
    return Addr(base, off)


def _split_opcode(op: str) -> tuple[str, ...]:
    return tuple(op.split("."))


def _kernel(name: str, params_text: str, directives: str, body: str, body_line: int,
            module_syms: set[str]) -> Kernel:
    params = _params(params_text)
    reqntid = maxntid = None
    if m := re.search(r"\.reqntid\s+(\d+)(?:\s*,\s*(\d+))?(?:\s*,\s*(\d+))?", directives):
        reqntid = int(m.group(1)) * int(m.group(2) or 1) * int(m.group(3) or 1)
    if m := re.search(r"\.maxntid\s+(\d+)(?:\s*,\s*(\d+))?(?:\s*,\s*(\d+))?", directives):
        maxntid = int(m.group(1)) * int(m.group(2) or 1) * int(m.group(3) or 1)
    items = _items(body, body_line)
    syms = set(module_syms) | {p.name for p in params}
    # labels and function-scope variables are symbols too (labels for branches)
    for it in items:
        if it[0] == "label":
            syms.add(it[2])
        elif it[0] == "stmt" and (v := _variable(it[2])) is not None:
            syms.add(v.name)
    scopes = _Scopes(syms)
    code: list[Instruction] = []
    registers: dict[str, Reg] = {}
    variables: list[Variable] = []
    labels: dict[tuple[tuple[int, ...], str], int] = {}
    branches: list[tuple[Instruction, tuple[int, ...]]] = []
    for it in items:
        if it[0] == "open":
            scopes.push()
            continue
        if it[0] == "close":
            scopes.pop(body_line)
            continue
        if it[0] == "label":
            labels[(scopes.path(), it[2])] = len(code)
            continue
        _, line, text = it
        if text.startswith(".reg"):
            try:
                ty, names = _declared_regs(text)
            except PtxError as e:
                raise PtxError(f"line {line}: {e}") from None
            for n in names:
                r = scopes.declare(n, ty)
                registers[r.name] = r
            continue
        if text.startswith((".shared", ".local", ".global", ".const")):
            v = _variable(text)
            if v is None:
                raise PtxError(f"line {line}: declaration {text!r} is not understood")
            variables.append(v)
            continue
        if text.startswith((".pragma", ".loc", ".file", ".section", ".maxnreg")):
            continue
        if text.startswith("."):
            raise PtxError(f"line {line}: directive {text.split()[0]} is not understood")
        guard, negated = None, False
        rest = text
        if rest.startswith("@"):
            g, rest = rest.split(None, 1)
            negated = g.startswith("@!")
            greg = scopes.lookup(g[2:] if negated else g[1:])
            if greg is None or greg.kind != "pred":
                raise PtxError(f"line {line}: guard {g} is not a predicate register")
            guard = greg
        parts = rest.split(None, 1)
        op = parts[0]
        operands_text = parts[1] if len(parts) > 1 else ""
        ins = Instruction(line, text, op, _split_opcode(op), (), guard, negated)
        base = op.split(".")[0]
        if base == "bra":
            ins.label = operands_text.strip()
            branches.append((ins, scopes.path()))
        elif base not in ("call", "brx"):  # those two are refused when loaded
            ins.operands = tuple(_operand(o, scopes, line) for o in split_operands(operands_text))
        code.append(ins)
    if len(scopes.stack) != 1:
        raise PtxError(f"kernel {name}: a scope is not closed")
    for ins, path in branches:
        for k in range(len(path), 0, -1):
            if (path[:k], ins.label) in labels:
                ins.target = labels[(path[:k], ins.label)]
                break
        else:
            raise PtxError(f"line {ins.line}: branch target {ins.label} is not a label")
    flat = {lab: pc for (path, lab), pc in labels.items() if path == (0,)}
    return Kernel(name, params, code, registers, variables, reqntid, maxntid, flat)


def parse(ptx: str) -> Module:
    """Parse a PTX module (as nvcc or Triton writes it)."""
    text = _strip_comments(ptx)
    version = m.group(1) if (m := re.search(r"^\s*\.version\s+(\S+)", text, re.M)) else "?"
    target = m.group(1) if (m := re.search(r"^\s*\.target\s+([\w,\s]+?)\s*$", text, re.M)) else "?"
    addr = int(m.group(1)) if (m := re.search(r"^\s*\.address_size\s+(\d+)", text, re.M)) else 64
    variables: list[Variable] = []
    kernels: dict[str, Kernel] = {}
    functions: list[str] = []
    i, n = 0, len(text)
    pending: list[tuple[str, str, str, str, int]] = []
    head = re.compile(r"((?:\.(?:visible|extern|weak)\s+)*)\.(entry|func)\s+(?:\([^)]*\)\s*)?"
                      r"([A-Za-z_$][\w$]*)\s*(\(([^)]*)\))?([^{;]*)([{;])", re.S)
    while i < n:
        m = head.search(text, i)
        chunk = text[i:m.start() if m else n]
        for vm in re.finditer(r"(?:\.(?:extern|visible|weak|common)\s+)*\.(?:shared|global|const)"
                              r"\b[^;]*;", chunk):
            v = _variable(" ".join(vm.group(0)[:-1].split()))
            if v is not None:
                variables.append(v)
        if not m:
            break
        kind, name = m.group(2), m.group(3)
        if m.group(7) == ";":  # a declaration (prototype) only
            i = m.end()
            continue
        start = m.end()
        depth, j = 1, start
        while depth and j < n:
            if text[j] == "{":
                depth += 1
            elif text[j] == "}":
                depth -= 1
            j += 1
        if depth:
            raise PtxError(f"the body of {name} does not close")
        body_line = text.count("\n", 0, start) + 1
        if kind == "entry":
            pending.append((name, m.group(5) or "", m.group(6), text[start:j - 1], body_line))
        else:
            functions.append(name)
        i = j
    syms = {v.name for v in variables} | set(functions)
    for name, params, directives, body, line in pending:
        kernels[name] = _kernel(name, params, directives, body, line, syms)
    if not kernels:
        raise PtxError("no .entry function in the PTX")
    return Module(version, target.split(",")[0].strip(), addr, variables, kernels, functions)
