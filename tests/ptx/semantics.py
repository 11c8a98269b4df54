"""What each PTX instruction does, over all threads at once.

:func:`decode` turns an :class:`~tests.ptx.parser.Instruction` into an executor
``run(machine, mask, act)``: ``mask`` is the threads at the instruction, ``act`` those
whose guard predicate is true. An executor returns None (every thread of ``mask`` moves
to the next instruction), a mask of the threads that move on (the others wait), or
``HANDLED`` (it moved the program counters itself). An opcode, qualifier or operand form
not implemented here is an :class:`UnknownInstruction` when the kernel is loaded --
never a guess. The PTX ISA sections each family follows are listed in
docs/ptx-interpreter.md.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from . import formats as fm
from .errors import DeadlockError, PtxError, UnknownInstruction, at
from .formats import U64, signed
from .formats import mask as ones
from .memory import LOCAL_WINDOW, PARAM_WINDOW, SHARED_WINDOW, WINDOW_SIZE, pack, unpack
from .parser import (
    Addr,
    FImm,
    Imm,
    Instruction,
    Kernel,
    Not,
    Pair,
    Reg,
    Sym,
    Vec,
    type_bits,
)

WARP = 32
HANDLED = False
_TYPES = {"b8", "u8", "s8", "b16", "u16", "s16", "f16", "bf16", "b32", "u32", "s32", "f32",
          "f16x2", "bf16x2", "b64", "u64", "s64", "f64", "pred", "b128"}


def _unknown(ins: Instruction, why: str = "") -> UnknownInstruction:
    return UnknownInstruction(f"{at(ins.line, ins.text)}: {ins.op} is not implemented by the "
                              f"interpreter" + (f" ({why})" if why else ""))


def _type(ins: Instruction) -> str:
    for p in reversed(ins.parts):
        if p in _TYPES:
            return p
    raise _unknown(ins, "no operand type")


def _n_operands(ins: Instruction, *counts: int) -> None:
    if len(ins.operands) not in counts:
        raise _unknown(ins, f"expected {' or '.join(map(str, counts))} operands, got "
                            f"{len(ins.operands)}")


def read_other(m, op, bits: int, ins) -> np.ndarray:
    if isinstance(op, FImm):
        if bits == 32:
            return fm.from_f32(np.full(m.n, op.value, np.float32))
        if bits == 64:
            return fm.from_f64(np.full(m.n, op.value, np.float64))
        raise PtxError(f"{at(ins.line, ins.text)}: a float immediate as a {bits}-bit operand")
    raise PtxError(f"{at(ins.line, ins.text)}: operand {op} cannot be read as a value")


def read_pred(m, op, ins) -> np.ndarray:
    if isinstance(op, Not):
        return ~read_pred(m, op.inner, ins)
    if isinstance(op, Reg) and op.kind == "pred":
        v = m.regs.get(op.name)
        if v is None:
            raise PtxError(f"{at(ins.line, ins.text)}: predicate {op.name} is read before any "
                           f"thread wrote it")
        return v
    if isinstance(op, Imm):
        return np.full(m.n, bool(op.value))
    if isinstance(op, Reg):
        return m.read(op, op.bits, ins) != 0
    raise PtxError(f"{at(ins.line, ins.text)}: operand {op} is not a predicate")


# -- moves, selects, comparisons ---------------------------------------------------------

def _mov(ins: Instruction):
    _n_operands(ins, 2)
    ty = _type(ins)
    d, a = ins.operands
    if ty == "pred":
        return lambda m, mask, act: m.write(d, m.pred(a, ins), act, ins)
    bits = type_bits(ty)
    if isinstance(d, Vec):  # unpack: element 0 is the lowest bits
        k = bits // len(d.items)

        def unpack_run(m, mask, act):
            v = m.read(a, bits, ins)
            for i, item in enumerate(d.items):
                m.write(item, (v >> U64(k * i)) & U64(mask_of(k)), act, ins)
        return unpack_run
    if isinstance(a, Vec):  # pack
        k = bits // len(a.items)

        def pack_run(m, mask, act):
            v = np.zeros(m.n, U64)
            for i, item in enumerate(a.items):
                v |= m.read(item, k, ins) << U64(k * i)
            m.write(d, v, act, ins)
        return pack_run
    return lambda m, mask, act: m.write(d, m.read(a, bits, ins), act, ins)


def mask_of(bits: int) -> int:
    return ones(bits)


def _selp(ins: Instruction):
    _n_operands(ins, 4)
    bits = type_bits(_type(ins))
    d, a, b, c = ins.operands

    def run(m, mask, act):
        m.write(d, np.where(m.pred(c, ins), m.read(a, bits, ins), m.read(b, bits, ins)), act, ins)
    return run


def _slct(ins: Instruction):
    _n_operands(ins, 4)
    ty = ins.parts[-1]
    bits = type_bits(ins.parts[-2])
    d, a, b, c = ins.operands

    def run(m, mask, act):
        cv = m.read(c, 32, ins)
        ge = fm.f32(cv) >= 0 if ty == "f32" else signed(cv, 32) >= 0
        m.write(d, np.where(ge, m.read(a, bits, ins), m.read(b, bits, ins)), act, ins)
    return run


_ICMP = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
         "gt": np.greater, "ge": np.greater_equal, "lo": np.less, "ls": np.less_equal,
         "hi": np.greater, "hs": np.greater_equal}
_FCMP = {"equ": np.equal, "neu": np.not_equal, "ltu": np.less, "leu": np.less_equal,
         "gtu": np.greater, "geu": np.greater_equal}
_BOOL = {"and": np.logical_and, "or": np.logical_or, "xor": np.logical_xor}


def _compare(ins: Instruction, cmp: str, ty: str):
    bits = type_bits(ty)
    if ty[0] == "f":
        if ty not in ("f32", "f64"):
            raise _unknown(ins, f"comparison of {ty}")
        conv = fm.f32 if ty == "f32" else fm.f64

        def f(m, a, b):
            x, y = conv(m.read(a, bits, ins)), conv(m.read(b, bits, ins))
            nan = np.isnan(x) | np.isnan(y)
            if cmp == "num":
                return ~nan
            if cmp == "nan":
                return nan
            if cmp in _ICMP and cmp not in ("lo", "ls", "hi", "hs"):
                with np.errstate(invalid="ignore"):
                    return _ICMP[cmp](x, y) & ~nan if cmp != "ne" else (x != y) & ~nan
            if cmp in _FCMP:
                with np.errstate(invalid="ignore"):
                    return _FCMP[cmp](x, y) | nan
            raise _unknown(ins, f"float comparison .{cmp}")
        return f
    if cmp not in _ICMP:
        raise _unknown(ins, f"integer comparison .{cmp}")
    sgn = ty[0] == "s" and cmp not in ("lo", "ls", "hi", "hs")

    def g(m, a, b):
        x, y = m.read(a, bits, ins), m.read(b, bits, ins)
        if sgn:
            x, y = signed(x, bits), signed(y, bits)
        return _ICMP[cmp](x, y)
    return g


def _setp(ins: Instruction):
    ty = _type(ins)
    quals = [p for p in ins.parts[1:] if p not in (ty, "ftz")]
    cmp = quals[0]
    boolop = quals[1] if len(quals) > 1 else None
    if boolop is not None and boolop not in _BOOL:
        raise _unknown(ins, f"boolean operator .{boolop}")
    if len(quals) > 2:
        raise _unknown(ins)
    _n_operands(ins, 4 if boolop else 3)
    f = _compare(ins, cmp, ty)
    dst = ins.operands[0]
    p, q = (dst.first, dst.second) if isinstance(dst, Pair) else (dst, None)

    def run(m, mask, act):
        r = f(m, ins.operands[1], ins.operands[2])
        nr = ~r
        if boolop:
            c = m.pred(ins.operands[3], ins)
            r, nr = _BOOL[boolop](r, c), _BOOL[boolop](nr, c)
        m.write(p, r, act, ins)
        if q is not None:
            m.write(q, nr, act, ins)
    return run


# -- integer and logic ---------------------------------------------------------------------

def _int_op(ins: Instruction):
    base = ins.parts[0]
    ty = _type(ins)
    quals = set(ins.parts[1:]) - {ty}
    if ty in ("f32", "f64"):
        return _float_op(ins, base, ty, quals)
    if ty in ("f16", "f16x2", "bf16", "bf16x2"):
        raise _unknown(ins, f"{ty} arithmetic")
    bits = type_bits(ty)
    if ty == "pred":
        return _pred_logic(ins, base)
    sgn = ty[0] == "s"
    ops = ins.operands
    d = ops[0]
    wide = "wide" in quals
    hi = "hi" in quals
    sat = "sat" in quals
    allowed = {"lo", "hi", "wide", "sat", "cc", "clamp", "wrap", "l", "r", "shiftamt"}
    if base == "prmt":
        allowed |= set(PRMT_MODES)
    if quals - allowed or "cc" in quals:
        raise _unknown(ins, "carry or unknown qualifier")
    dbits = 2 * bits if wide else bits

    def src(m, i, b=bits):
        return m.read(ops[i], b, ins)

    def ext(v, b=bits):
        return signed(v, b) if sgn else v.astype(np.int64) if b < 64 else v

    if base in ("add", "sub"):
        _n_operands(ins, 3)

        def run(m, mask, act):
            x, y = ext(src(m, 1)), ext(src(m, 2))
            if bits == 64 and not sgn:
                r = x + y if base == "add" else x - y
            else:
                r = x + y if base == "add" else x - y
                if sat:
                    r = np.clip(r, -(1 << (bits - 1)), (1 << (bits - 1)) - 1)
            m.write(d, fm.raw(r, bits), act, ins)
        return run
    if base in ("mul", "mad", "mul24", "mad24"):
        _n_operands(ins, 3 if base.startswith("mul") else 4)
        if base.endswith("24"):
            raise _unknown(ins, "24-bit multiply")
        if not (wide or hi or "lo" in quals) and bits > 0 and base == "mad" and ty != "u64" \
                and ty != "s64":
            raise _unknown(ins, "mad needs .lo, .hi or .wide")
        exact = not (bits == 64 or hi)

        def run(m, mask, act):
            if exact:  # the full product of two <= 32-bit values fits in int64
                r = ext(src(m, 1)) * ext(src(m, 2))
                if base == "mad":
                    r = r + ext(src(m, 3, dbits), dbits).astype(np.int64)
                m.write(d, fm.raw(r, dbits), act, ins)
                return
            xs = [int(v) for v in (ext(src(m, 1)) if sgn else src(m, 1))]
            ys = [int(v) for v in (ext(src(m, 2)) if sgn else src(m, 2))]
            prods = [x * y for x, y in zip(xs, ys)]
            if hi:
                prods = [p >> bits for p in prods]
            if base == "mad":
                cs = ext(src(m, 3, dbits), dbits) if sgn else src(m, 3, dbits)
                prods = [p + int(c) for p, c in zip(prods, cs)]
            m.write(d, np.array([p & ones(dbits) for p in prods], dtype=np.uint64), act, ins)
        return run
    if base in ("div", "rem"):
        _n_operands(ins, 3)

        def run(m, mask, act):
            x, y = ext(src(m, 1)), ext(src(m, 2))
            if (y[act] == 0).any():
                raise PtxError(f"{at(ins.line, ins.text)}: integer division by zero")
            y = np.where(y == 0, 1, y)
            if sgn:
                q = np.trunc(x / y).astype(np.int64) if bits < 64 else np.sign(x) * np.sign(y) * (
                    np.abs(x) // np.abs(y))
                r = q if base == "div" else x - q * y
            else:
                r = x // y if base == "div" else x % y
            m.write(d, fm.raw(r, bits), act, ins)
        return run
    if base in ("abs", "neg", "not", "cnot", "popc", "clz", "brev", "bfind"):
        _n_operands(ins, 2)

        def run(m, mask, act):
            v = src(m, 1)
            if base == "abs":
                r = fm.raw(np.abs(signed(v, bits)), bits)
            elif base == "neg":
                r = fm.raw(-signed(v, bits), bits)
            elif base == "not":
                r = ~v & U64(ones(bits))
            elif base == "cnot":
                r = (v == 0).astype(U64)
            elif base == "popc":
                r = np.array([bin(int(x)).count("1") for x in v], U64)
            elif base == "clz":
                r = np.array([bits - int(x).bit_length() for x in v], U64)
            elif base == "brev":
                r = np.array([int(f"{int(x):0{bits}b}"[::-1], 2) for x in v], U64)
            else:  # bfind: the most significant non-sign bit, 0xFFFFFFFF when none
                xs = signed(v, bits) if sgn else v.astype(object)
                r = np.array([(int(~x) if sgn and x < 0 else int(x)).bit_length() - 1
                              if (int(~x) if sgn and x < 0 else int(x)) else 0xFFFFFFFF
                              for x in xs], U64)
            m.write(d, r, act, ins)
        return run
    if base in ("min", "max"):
        _n_operands(ins, 3)
        f = np.minimum if base == "min" else np.maximum

        def run(m, mask, act):
            m.write(d, fm.raw(f(ext(src(m, 1)), ext(src(m, 2))), bits), act, ins)
        return run
    if base in ("and", "or", "xor"):
        _n_operands(ins, 3)
        f = {"and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor}[base]
        return lambda m, mask, act: m.write(d, f(src(m, 1), src(m, 2)), act, ins)
    if base in ("shl", "shr"):
        _n_operands(ins, 3)

        def run(m, mask, act):
            v, s = src(m, 1), np.minimum(src(m, 2, 32), U64(bits))
            if base == "shl":
                r = np.where(s >= U64(bits), U64(0), v << np.minimum(s, U64(63)))
            elif sgn:
                r = fm.raw(signed(v, bits) >> np.minimum(s, U64(bits - 1)).astype(np.int64), bits)
            else:
                r = np.where(s >= U64(bits), U64(0), v >> np.minimum(s, U64(63)))
            m.write(d, r & U64(ones(bits)), act, ins)
        return run
    if base == "shf":
        _n_operands(ins, 4)
        left = "l" in quals
        clamp = "clamp" in quals

        def run(m, mask, act):
            a, b, c = src(m, 1), src(m, 2), src(m, 3, 32)
            n = np.minimum(c, U64(32)) if clamp else c & U64(31)
            both = (b << U64(32)) | a
            r = (both << n) >> U64(32) if left else both >> n
            m.write(d, r & U64(0xFFFFFFFF), act, ins)
        return run
    if base == "bfe":
        _n_operands(ins, 4)

        def run(m, mask, act):  # PTX ISA "Integer Arithmetic Instructions: bfe"
            v = src(m, 1)
            pos = (src(m, 2, 32) & U64(0xFF)).astype(np.int64)
            ln = (src(m, 3, 32) & U64(0xFF)).astype(np.int64)
            valid = np.clip(np.minimum(ln, bits - pos), 0, bits)  # bits taken from `a`
            keep = np.where(valid >= 64, U64(ones(64)), (U64(1) << valid.astype(U64)) - U64(1))
            field = np.where(pos >= bits, U64(0), v >> np.minimum(pos, bits - 1).astype(U64)) & keep
            if sgn:  # the bits past the field are its sign: a's bit min(pos+len-1, msb)
                top = np.clip(pos + ln - 1, 0, bits - 1).astype(U64)
                sbit = (ln > 0) & (((v >> top) & U64(1)) == U64(1))
                field = np.where(sbit, field | ~keep, field)
            m.write(d, field & U64(ones(bits)), act, ins)
        return run
    if base == "bfi":
        _n_operands(ins, 5)

        def run(m, mask, act):
            a, b = src(m, 1), src(m, 2)
            pos = (src(m, 3, 32) & U64(0xFF)).astype(np.int64)
            ln = (src(m, 4, 32) & U64(0xFF)).astype(np.int64)
            ln = np.minimum(ln, np.maximum(bits - pos, 0))
            field = np.where(ln >= 64, U64(ones(64)), (U64(1) << ln.astype(U64)) - U64(1))
            field = np.where(pos >= bits, U64(0), field << np.minimum(pos, 63).astype(U64))
            r = (b & ~field) | ((a << np.minimum(pos, 63).astype(U64)) & field)
            m.write(d, r & U64(ones(bits)), act, ins)
        return run
    if base == "lop3":
        _n_operands(ins, 5)
        if not isinstance(ops[4], Imm):
            raise _unknown(ins, "a lookup table that is not an immediate")
        lut = ops[4].value & 0xFF

        def run(m, mask, act):
            a, b, c = src(m, 1), src(m, 2), src(m, 3)
            r = np.zeros(m.n, U64)
            full = U64(ones(bits))
            for k in range(8):
                if lut >> k & 1:
                    r |= ((a if k & 4 else ~a) & (b if k & 2 else ~b) & (c if k & 1 else ~c))
            m.write(d, r & full, act, ins)
        return run
    if base == "prmt":
        _n_operands(ins, 4)
        mode = next((p for p in ins.parts[1:] if p not in ("b32",)), None)
        if mode not in (None, *PRMT_MODES):
            raise _unknown(ins, f"prmt mode .{mode}")
        return lambda m, mask, act: m.write(d, prmt(src(m, 1, 32), src(m, 2, 32), src(m, 3, 32),
                                                    mode), act, ins)
    if base == "sad":
        _n_operands(ins, 4)
        return lambda m, mask, act: m.write(
            d, fm.raw(np.abs(ext(src(m, 1)) - ext(src(m, 2))) + ext(src(m, 3)), bits), act, ins)
    raise _unknown(ins)


#: prmt's specialised modes (PTX ISA "prmt", its table of modes): for selector
#: ``c[1:0]``, the source byte (of ``{b, a}`` = bytes 7..0) that lands in destination bytes 0, 1, 2, 3
PRMT_MODES = {
    "f4e": ((0, 1, 2, 3), (1, 2, 3, 4), (2, 3, 4, 5), (3, 4, 5, 6)),
    "b4e": ((0, 7, 6, 5), (1, 0, 7, 6), (2, 1, 0, 7), (3, 2, 1, 0)),
    "rc8": ((0, 0, 0, 0), (1, 1, 1, 1), (2, 2, 2, 2), (3, 3, 3, 3)),
    "ecl": ((0, 1, 2, 3), (1, 1, 2, 3), (2, 2, 2, 3), (3, 3, 3, 3)),
    "ecr": ((0, 0, 0, 0), (0, 1, 1, 1), (0, 1, 2, 2), (0, 1, 2, 3)),
    "rc16": ((0, 1, 0, 1), (2, 3, 2, 3), (0, 1, 0, 1), (2, 3, 2, 3)),
}


def prmt(a: np.ndarray, b: np.ndarray, c: np.ndarray, mode: str | None = None) -> np.ndarray:
    """``prmt.b32{.mode} d, a, b, c``: bytes of ``{b, a}`` chosen by ``c`` (PTX ISA
    "prmt"). The generic form takes four 4-bit selectors; a selector's msb replicates
    the chosen byte's sign bit instead of copying it.

    >>> import numpy as np
    >>> a, b = np.array([0x33221100], np.uint64), np.array([0x77665544], np.uint64)
    >>> hex(int(prmt(a, b, np.array([0x5410], np.uint64))[0]))
    '0x55441100'
    >>> hex(int(prmt(a, b, np.array([1], np.uint64), "f4e")[0]))
    '0x44332211'
    """
    both = (b << U64(32)) | (a & U64(0xFFFFFFFF))
    out = np.zeros(a.shape, U64)
    for i in range(4):
        if mode is None:
            s = (c >> U64(4 * i)) & U64(0xF)
            byte = (both >> ((s & U64(7)) * U64(8))) & U64(0xFF)
            byte = np.where(s & U64(8), np.where(byte & U64(0x80), U64(0xFF), U64(0)), byte)
        else:
            table = np.array([PRMT_MODES[mode][k][i] for k in range(4)], U64)
            src_byte = table[(c & U64(3)).astype(np.int64)]
            byte = (both >> (src_byte * U64(8))) & U64(0xFF)
        out |= byte << U64(8 * i)
    return out


def _pred_logic(ins: Instruction, base: str):
    d = ins.operands[0]
    if base == "not":
        _n_operands(ins, 2)
        return lambda m, mask, act: m.write(d, ~m.pred(ins.operands[1], ins), act, ins)
    if base not in _BOOL:
        raise _unknown(ins, "predicate operation")
    _n_operands(ins, 3)
    f = _BOOL[base]
    return lambda m, mask, act: m.write(d, f(m.pred(ins.operands[1], ins),
                                             m.pred(ins.operands[2], ins)), act, ins)


def _float_op(ins: Instruction, base: str, ty: str, quals: set[str]):
    bits = type_bits(ty)
    conv, back = (fm.f32, fm.from_f32) if ty == "f32" else (fm.f64, fm.from_f64)
    dt = np.float32 if ty == "f32" else np.float64
    rounding = quals & {"rn", "rz", "rm", "rp", "approx", "full"}
    if rounding - {"rn"} and base not in ("abs", "neg", "min", "max"):
        raise _unknown(ins, f"rounding .{sorted(rounding - {'rn'})[0]}")
    if quals - {"rn", "ftz", "sat", "approx", "full", "NaN"}:
        raise _unknown(ins)
    ftz = "ftz" in quals
    d = ins.operands[0]
    arity = {"add": 2, "sub": 2, "mul": 2, "fma": 3, "mad": 3, "neg": 1, "abs": 1, "min": 2,
             "max": 2}.get(base)
    if arity is None:
        raise _unknown(ins, f"{ty} {base}")
    _n_operands(ins, arity + 1)

    def flush(x):
        if not ftz:
            return x
        tiny = np.finfo(dt).tiny
        return np.where(np.abs(x) < tiny, np.copysign(dt(0), x), x).astype(dt)

    def run(m, mask, act):
        xs = [flush(conv(m.read(o, bits, ins))) for o in ins.operands[1:]]
        with np.errstate(all="ignore"):
            if base == "add":
                r = xs[0] + xs[1]
            elif base == "sub":
                r = xs[0] - xs[1]
            elif base == "mul":
                r = xs[0] * xs[1]
            elif base in ("fma", "mad"):  # one rounding: exact in float64 for f32 inputs
                r = (xs[0].astype(np.float64) * xs[1] + xs[2]).astype(dt) if ty == "f32" else \
                    np.array([float(np.float64(a) * b + c) for a, b, c in zip(*xs)], dt)
            elif base == "neg":
                r = -xs[0]
            elif base == "abs":
                r = np.abs(xs[0])
            elif base == "min":
                r = np.fmin(xs[0], xs[1])
            else:
                r = np.fmax(xs[0], xs[1])
        r = flush(np.asarray(r, dt))
        if "sat" in quals:
            r = np.where(np.isnan(r), dt(0), np.clip(r, 0, 1)).astype(dt)
        m.write(d, back(r), act, ins)
    return run


# -- conversions ---------------------------------------------------------------------------

_F8 = {"e4m3x2": "e4m3", "e5m2x2": "e5m2"}


def _cvt(ins: Instruction):
    parts = ins.parts
    dty, aty = parts[-2], parts[-1]
    quals = set(parts[1:-2])
    known = {"rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi", "ftz", "sat", "relu", "satfinite"}
    if quals - known or dty not in _TYPES | set(_F8) or aty not in _TYPES | set(_F8):
        raise _unknown(ins, f"conversion {dty} <- {aty}")
    relu, satf = "relu" in quals, "satfinite" in quals
    ops = ins.operands
    d = ops[0]
    # packed pairs (PTX ISA "cvt": the value from `a` goes to the upper half)
    if dty in ("f16x2", "bf16x2") and aty == "f32":
        _n_operands(ins, 3)
        if quals - {"rn", "relu", "satfinite"}:
            raise _unknown(ins, "rounding other than .rn")
        to = fm.to_f16 if dty == "f16x2" else fm.to_bf16

        def run(m, mask, act):
            hi = to(m.read(ops[1], 32, ins), satf, relu)
            lo = to(m.read(ops[2], 32, ins), satf, relu)
            m.write(d, (hi << U64(16)) | lo, act, ins)
        return run
    if dty in _F8 and aty in ("f32", "f16x2"):
        if "rn" not in quals or not satf:
            raise _unknown(ins, "8-bit float conversions need .rn.satfinite")
        fmt = _F8[dty]
        if aty == "f32":
            _n_operands(ins, 3)

            def run(m, mask, act):
                hi = fm.to_f8(fm.f32(m.read(ops[1], 32, ins)), fmt, True, relu)
                lo = fm.to_f8(fm.f32(m.read(ops[2], 32, ins)), fmt, True, relu)
                m.write(d, (hi << U64(8)) | lo, act, ins)
            return run
        _n_operands(ins, 2)

        def run_h(m, mask, act):
            v = m.read(ops[1], 32, ins)
            hi = fm.to_f8(fm.f16(v >> U64(16)), fmt, True, relu)
            lo = fm.to_f8(fm.f16(v), fmt, True, relu)
            m.write(d, (hi << U64(8)) | lo, act, ins)
        return run_h
    if dty == "f16x2" and aty in _F8:
        _n_operands(ins, 2)
        fmt = _F8[aty]

        def run_up(m, mask, act):
            v = m.read(ops[1], 16, ins)
            vals = [fm.from_f8(v >> U64(8), fmt), fm.from_f8(v, fmt)]
            if relu:
                vals = [np.where(np.isnan(x), x, np.maximum(x, 0)) for x in vals]
            hi, lo = (fm.from_f16(x.astype(np.float16)) for x in vals)
            m.write(d, (hi << U64(16)) | lo, act, ins)
        return run_up
    if dty in _F8 or aty in _F8 or dty in ("f16x2", "bf16x2") or aty in ("f16x2", "bf16x2"):
        raise _unknown(ins, f"conversion {dty} <- {aty}")
    _n_operands(ins, 2)
    a = ops[1]
    abits, dbits = type_bits(aty), type_bits(dty)
    dfloat, afloat = dty[0] == "f" or dty == "bf16", aty[0] == "f" or aty == "bf16"
    irnd = quals & {"rni", "rzi", "rmi", "rpi"}
    frnd = quals & {"rn", "rz", "rm", "rp"}
    if not dfloat and not afloat:  # integer <- integer
        sat = "sat" in quals
        lo, hi = ((-(1 << (dbits - 1)), (1 << (dbits - 1)) - 1) if dty[0] == "s"
                  else (0, ones(dbits)))
        big_unsigned = abits == 64 and aty[0] != "s"

        def run_i(m, mask_, act):
            v = m.read(a, abits, ins)
            if big_unsigned:  # u64 / b64 source: stay unsigned
                r = np.minimum(v, U64(hi)) if sat else v
            else:
                x = signed(v, abits) if aty[0] == "s" else v.astype(np.int64)
                if sat:
                    x = np.clip(x, lo, min(hi, (1 << 63) - 1))
                r = fm.raw(x, 64)
            r = r & U64(ones(dbits))
            if dty[0] == "s" and dbits < 64:  # a signed result fills the register's sign
                r = fm.raw(signed(r, dbits), 64)
            m.write(d, r, act, ins)
        return run_i
    if afloat and dfloat:
        return _cvt_float(ins, d, a, aty, dty, quals, frnd, irnd)
    if afloat:  # integer <- float: round as asked, saturate to the integer range, NaN -> 0
        if len(irnd) != 1:
            raise _unknown(ins, "a float-to-integer conversion needs .rni / .rzi / .rmi / .rpi")
        rnd = {"rni": np.rint, "rzi": np.trunc, "rmi": np.floor, "rpi": np.ceil}[irnd.pop()]
        lo, hi = ((-(1 << (dbits - 1)), (1 << (dbits - 1)) - 1) if dty[0] == "s"
                  else (0, ones(dbits)))

        def run_fi(m, mask_, act):
            x = _float_value(m.read(a, abits, ins), aty)
            with np.errstate(invalid="ignore"):
                r = np.clip(rnd(np.where(np.isnan(x), 0, x)), lo, hi)
            r = np.array([int(t) for t in r], dtype=object)
            m.write(d, np.array([t & ones(dbits) for t in r], dtype=object).astype(U64), act, ins)
        return run_fi
    # float <- integer
    if frnd != {"rn"}:
        raise _unknown(ins, "an integer-to-float conversion other than .rn")
    if dty not in ("f32", "f64", "f16"):
        raise _unknown(ins, f"conversion to {dty}")

    def run_if(m, mask_, act):
        v = m.read(a, abits, ins)
        x = signed(v, abits) if aty[0] == "s" else v
        if abits == 64:  # one rounding from the exact integer
            exact = [int(t) for t in x]
            f64 = np.array([float(t) for t in exact])
            f32 = np.array([np.float32(float(t)) if abs(t) < 1 << 53 else
                            _round_int_to_f32(t) for t in exact], np.float32)
        else:  # <= 32-bit integers are exact in float64: the cast to f32 rounds once
            f64 = x.astype(np.float64)
            f32 = f64.astype(np.float32)
        if dty == "f64":
            r = fm.from_f64(f64)
        elif dty == "f32":
            r = fm.from_f32(f32)
        else:
            r = fm.from_f16(f64.astype(np.float16))
        m.write(d, r, act, ins)
    return run_if


def _round_int_to_f32(t: int) -> np.float32:
    """An integer of 54+ bits to f32, rounding once (to nearest even)."""
    f = np.float32(float(t))
    lo, hi = np.nextafter(f, np.float32(-np.inf)), np.nextafter(f, np.float32(np.inf))
    best = min((lo, f, hi), key=lambda c: (abs(Fraction(int(c)) - t),
                                           int(np.array(c).view(np.uint32)) & 1))
    return np.float32(best)


def _float_value(v: np.ndarray, ty: str) -> np.ndarray:
    if ty == "f32":
        return fm.f32(v).astype(np.float64)
    if ty == "f64":
        return fm.f64(v)
    if ty == "f16":
        return fm.f16(v).astype(np.float64)
    if ty == "bf16":
        return fm.bf16(v).astype(np.float64)
    raise PtxError(f"no float type {ty}")


def _cvt_float(ins, d, a, aty, dty, quals, frnd, irnd):
    abits = type_bits(aty)
    relu, satf, ftz = "relu" in quals, "satfinite" in quals, "ftz" in quals
    narrowing = type_bits(dty) < abits or (aty, dty) in (("f16", "bf16"), ("bf16", "f16"))
    if irnd:  # round to an integral value in the same format
        if aty != dty or aty not in ("f32", "f64"):
            raise _unknown(ins)
        rnd = {"rni": np.rint, "rzi": np.trunc, "rmi": np.floor, "rpi": np.ceil}[irnd.pop()]
        conv, back = (fm.f32, fm.from_f32) if aty == "f32" else (fm.f64, fm.from_f64)
        return lambda m, mask_, act: m.write(d, back(rnd(conv(m.read(a, abits, ins)))), act, ins)
    if narrowing and frnd != {"rn"}:
        raise _unknown(ins, "a narrowing float conversion other than .rn")
    if quals - {"rn", "ftz", "relu", "satfinite", "sat"}:
        raise _unknown(ins)

    def run(m, mask_, act):
        v = m.read(a, abits, ins)
        if aty == "f32" and dty == "f16":
            r = fm.to_f16(v, satf, relu)
        elif aty == "f32" and dty == "bf16":
            r = fm.to_bf16(v, satf, relu)
        else:
            x = _float_value(v, aty)
            if ftz:
                x = np.where(np.abs(x) < np.finfo(np.float32).tiny, 0.0 * x, x)
            if dty == "f32":
                r = fm.from_f32(x.astype(np.float32))
            elif dty == "f64":
                r = fm.from_f64(x)
            elif dty == "f16":
                r = fm.from_f16(x.astype(np.float16))
            else:  # bf16 from f64 / f16: through f32 is exact for f16, rounds once for f64
                r = fm.to_bf16(fm.from_f32(x.astype(np.float32)))
        m.write(d, r, act, ins)
    return run


def _cvta(ins: Instruction):
    _n_operands(ins, 2)
    parts = ins.parts
    to = "to" in parts
    space = next(p for p in parts[1:] if p not in ("to",)).split("::")[0]
    if space not in ("global", "shared", "local", "param", "const"):
        raise _unknown(ins, f"state space .{space}")
    bits = type_bits(parts[-1])
    d, a = ins.operands
    window = {"global": 0, "const": 0, "shared": SHARED_WINDOW, "local": LOCAL_WINDOW,
              "param": PARAM_WINDOW}[space]

    def run(m, mask, act):
        v = m.read(a, 64, ins).astype(np.int64)
        if to:
            if window and ((v[act] < window) | (v[act] >= window + WINDOW_SIZE)).any():
                raise PtxError(f"{at(ins.line, ins.text)}: a generic address outside the "
                               f"{space} window")
            r = v - window
        else:
            r = v + window
        m.write(d, r.astype(U64) & U64(ones(bits)), act, ins)
    return run


# -- memory --------------------------------------------------------------------------------

_LDST_QUALS = {"weak", "volatile", "relaxed", "acquire", "release", "mmio", "cta", "cluster",
               "gpu", "sys", "nc", "ca", "cg", "cs", "lu", "cv", "wb", "wt", "L1::evict_normal",
               "L1::evict_unchanged", "L1::evict_first", "L1::evict_last", "L1::no_allocate",
               "L2::64B", "L2::128B", "L2::256B", "L2::evict_normal", "L2::evict_first",
               "L2::evict_last", "L2::cache_hint", "unified"}
_SPACES = {"global": "global", "shared": "shared", "shared::cta": "shared", "local": "local",
           "param": "param", "param::entry": "param", "param::func": "param", "const": "const"}


def _address(m, op: Addr, ins, space: str | None) -> tuple[np.ndarray, str | None]:
    """Per thread the address an ``[...]`` operand names, and its state space when the
    operand says it (a symbol's)."""
    base = op.base
    if base is None:
        return np.full(m.n, op.offset, np.int64), None
    if isinstance(base, Sym):
        sp, a = m.symbol_address(base.name, at(ins.line, ins.text))
        if space is None:  # a generic access to a variable: its generic address
            return np.full(m.n, m.generic(sp, a) + op.offset, np.int64), None
        return np.full(m.n, a + op.offset, np.int64), sp
    return m.read(base, 64, ins).astype(np.int64) + op.offset, None


def _split_generic(m, addr: np.ndarray, act: np.ndarray, ins) -> dict[str, np.ndarray]:
    """Threads of ``act`` by the state space their generic address falls in."""
    kind = m.space_of(addr)
    out = {}
    for k, name in enumerate(("global", "shared", "local", "param")):
        sel = act & (kind == k)
        if sel.any():
            out[name] = sel
    return out


def _window(name: str) -> int:
    return {"global": 0, "shared": SHARED_WINDOW, "local": LOCAL_WINDOW, "param": PARAM_WINDOW}[name]


def mem_read(m, space: str, addr: np.ndarray, sel: np.ndarray, nbytes: int, ins) -> np.ndarray:
    """``(n, nbytes)`` bytes read by the threads of ``sel`` (zeros for the others)."""
    where = at(ins.line, ins.text)
    out = np.zeros((m.n, nbytes), np.uint8)
    idx = np.flatnonzero(sel)
    if not len(idx):
        return out
    a = addr[idx]
    if (a % min(nbytes, 16)).any():
        raise PtxError(f"{where}: a {nbytes}-byte access at the misaligned address {int(a[0])}")
    if space == "shared":
        out[idx] = m.shared.read(idx, a, nbytes, where, ins.line)
    elif space == "global" or space == "const":
        out[idx] = m.memory.read(a, nbytes, where)
    elif space == "local":
        out[idx] = m.local.read(idx, a, nbytes, where)
    elif space == "param":
        if (a < 0).any() or (a + nbytes > len(m.params)).any():
            raise PtxError(f"{where}: a parameter read past the parameters")
        out[idx] = m.params[a[:, None] + np.arange(nbytes)]
    else:
        raise PtxError(f"{where}: state space {space} is not modelled")
    return out


def mem_write(m, space: str, addr: np.ndarray, sel: np.ndarray, data: np.ndarray, ins) -> None:
    where = at(ins.line, ins.text)
    idx = np.flatnonzero(sel)
    if not len(idx):
        return
    a = addr[idx]
    nbytes = data.shape[1]
    if (a % min(nbytes, 16)).any():
        raise PtxError(f"{where}: a {nbytes}-byte access at the misaligned address {int(a[0])}")
    if space == "shared":
        m.shared.write(idx, a, data[idx], where, ins.line)
    elif space == "global":
        m.memory.write(a, data[idx], where)
    elif space == "local":
        m.local.write(idx, a, data[idx], where)
    else:
        raise PtxError(f"{where}: stores to the {space} space are not modelled")


def _ldst(ins: Instruction):
    parts = ins.parts
    base = parts[0]
    ty = _type(ins)
    space = None
    vec = 1
    for p in parts[1:]:
        if p in _SPACES:
            space = _SPACES[p]
        elif p in ("v2", "v4", "v8"):
            vec = int(p[1])
        elif p in _TYPES:
            continue
        elif p not in _LDST_QUALS:
            raise _unknown(ins, f"qualifier .{p}")
    ops = ins.operands
    hint = "L2::cache_hint" in parts
    _n_operands(ins, 3 if hint else 2)
    load = base in ("ld", "ldu")
    val, addr_op = (ops[0], ops[1]) if load else (ops[1], ops[0])
    if not isinstance(addr_op, Addr):
        raise _unknown(ins, "the address operand is not [...]")
    bits = 8 if ty == "pred" else type_bits(ty)
    items = val.items if isinstance(val, Vec) else (val,)
    if len(items) != vec:
        raise _unknown(ins, f"{vec} values expected, {len(items)} given")
    esz = bits // 8
    nbytes = esz * vec
    sgn = ty[0] == "s"
    kind = "ld" if load else "st"
    name = f"{kind}.shared" + (f".v{vec}" if vec > 1 else "") + f".{ty}"

    def spaces(m, act):
        addr, sym_space = _address(m, addr_op, ins, space)
        sp = sym_space or space
        if sp is None:  # generic: each thread's window
            groups = _split_generic(m, addr, act, ins)
            return {k: (addr - _window(k), sel) for k, sel in groups.items()}
        return {sp: (addr, act)}

    if load:
        def run_ld(m, mask, act):
            data = np.zeros((m.n, nbytes), np.uint8)
            for sp, (addr, sel) in spaces(m, act).items():
                if sp == "shared":
                    m.access(ins, name, addr, sel, nbytes)
                got = mem_read(m, sp, addr, sel, nbytes, ins)
                data[sel] = got[sel]
            for i, item in enumerate(items):
                v = pack(data[:, i * esz:(i + 1) * esz])
                if sgn and bits < 64:
                    v = fm.raw(signed(v, bits), 64)
                m.write(item, v, act, ins)
        if space == "shared":
            run_ld.name = name  # type: ignore[attr-defined]
        return run_ld

    def run_st(m, mask, act):
        data = np.zeros((m.n, nbytes), np.uint8)
        for i, item in enumerate(items):
            data[:, i * esz:(i + 1) * esz] = unpack(m.read(item, bits, ins), esz)
        for sp, (addr, sel) in spaces(m, act).items():
            if sp == "shared":
                m.access(ins, name, addr, sel, nbytes)
            mem_write(m, sp, addr, sel, data, ins)
    if space == "shared":
        run_st.name = name  # type: ignore[attr-defined]
    return run_st


# -- warp-level ------------------------------------------------------------------------------

def _shfl(ins: Instruction):
    parts = ins.parts
    if parts[1] != "sync" or len(parts) != 4 or parts[3] != "b32":
        raise _unknown(ins, "only shfl.sync.{up,down,bfly,idx}.b32")
    mode = parts[2]
    if mode not in ("up", "down", "bfly", "idx"):
        raise _unknown(ins, f"mode .{mode}")
    _n_operands(ins, 5)
    dst, a, b, c, member = ins.operands
    d, p = (dst.first, dst.second) if isinstance(dst, Pair) else (dst, None)

    def run(m, mask, act):
        go = m.converged(mask, act, ins, m.read(member, 32, ins))
        act = act & go
        lane = m.lane.astype(np.int64)
        bval = (m.read(b, 32, ins) & U64(31)).astype(np.int64)
        cv = m.read(c, 32, ins).astype(np.int64)
        cval, seg = cv & 31, (cv >> 8) & 31
        max_lane = (lane & seg) | (cval & ~seg)
        min_lane = lane & seg
        if mode == "up":
            j = lane - bval
            pval = j >= max_lane
        elif mode == "down":
            j = lane + bval
            pval = j <= max_lane
        elif mode == "bfly":
            j = lane ^ bval
            pval = j <= max_lane
        else:
            j = min_lane | (bval & ~seg)
            pval = j <= max_lane
        j = np.where(pval, j, lane)
        src = m.tid - lane + j
        sent = m.read(a, 32, ins)
        bad = act & pval & ~act[np.clip(src, 0, m.n - 1)]
        if bad.any():
            t = int(np.flatnonzero(bad)[0])
            raise PtxError(f"{at(ins.line, ins.text)}: thread {t} reads lane {int(j[t])}, which "
                           f"does not execute the shuffle (undefined)")
        m.write(d, sent[src], act, ins)
        if p is not None:
            m.write(p, pval, act, ins)
        return go
    return run


def _vote(ins: Instruction):
    parts = ins.parts
    if "sync" not in parts:
        raise _unknown(ins, "vote without .sync")
    mode = parts[2] if parts[1] == "sync" else parts[1]
    _n_operands(ins, 3)
    d, a, member = ins.operands

    def run(m, mask, act):
        go = m.converged(mask, act, ins, m.read(member, 32, ins))
        act = act & go
        pv = (m.pred(a, ins) & act).reshape(m.warps, WARP)
        am = act.reshape(m.warps, WARP)
        if mode == "ballot":
            bits = (pv * (U64(1) << np.arange(WARP, dtype=U64))).sum(axis=1).astype(U64)
            r = np.repeat(bits, WARP)
        elif mode == "all":
            r = np.repeat((pv | ~am).all(axis=1), WARP)
        elif mode == "any":
            r = np.repeat(pv.any(axis=1), WARP)
        elif mode == "uni":
            r = np.repeat((pv | ~am).all(axis=1) | ~pv.any(axis=1), WARP)
        else:
            raise _unknown(ins)
        m.write(d, r, act, ins)
        return go
    return run


def _activemask(ins: Instruction):
    _n_operands(ins, 1)
    d = ins.operands[0]

    def run(m, mask, act):
        am = act.reshape(m.warps, WARP)
        bits = (am * (U64(1) << np.arange(WARP, dtype=U64))).sum(axis=1).astype(U64)
        m.write(d, np.repeat(bits, WARP), act, ins)
    return run


def _elect(ins: Instruction):
    _n_operands(ins, 2)
    dst, member = ins.operands
    d, p = (dst.first, dst.second) if isinstance(dst, Pair) else (dst, None)

    def run(m, mask, act):
        mem = m.read(member, 32, ins)
        go = m.converged(mask, act, ins, mem)
        act = act & go
        need = ((mem.reshape(m.warps, WARP) >> np.arange(WARP, dtype=U64)) & U64(1)) == 1
        part = need & act.reshape(m.warps, WARP)
        first = np.where(part.any(axis=1), part.argmax(axis=1), 0)
        leader = np.repeat(first, WARP)
        m.write(d, leader.astype(U64), act, ins)
        if p is not None:
            m.write(p, m.lane == leader, act, ins)
        return go
    return run


def _match(ins: Instruction):
    parts = ins.parts
    mode = parts[1]
    bits = type_bits(parts[-1])
    _n_operands(ins, 3)
    dst, a, member = ins.operands
    d, p = (dst.first, dst.second) if isinstance(dst, Pair) else (dst, None)

    def run(m, mask, act):
        go = m.converged(mask, act, ins, m.read(member, 32, ins))
        act = act & go
        v = m.read(a, bits, ins).reshape(m.warps, WARP)
        am = act.reshape(m.warps, WARP)
        eq = (v[:, :, None] == v[:, None, :]) & am[:, None, :]
        bitsv = (eq * (U64(1) << np.arange(WARP, dtype=U64))).sum(axis=2).astype(U64)
        if mode == "any":
            r = bitsv.reshape(-1)
        elif mode == "all":
            allsame = np.all(eq | ~am[:, None, :], axis=2).all(axis=1)
            members = (am * (U64(1) << np.arange(WARP, dtype=U64))).sum(axis=1).astype(U64)
            r = np.repeat(np.where(allsame, members, U64(0)), WARP)
            if p is not None:
                m.write(p, np.repeat(allsame, WARP), act, ins)
        else:
            raise _unknown(ins)
        m.write(d, r, act, ins)
        return go
    return run


def _bar_warp(ins: Instruction):
    _n_operands(ins, 1)
    member = ins.operands[0]

    def run(m, mask, act):
        go = m.converged(mask, act, ins, m.read(member, 32, ins))
        done = act & go
        for w in np.flatnonzero(m.warps_of(done)):
            m.sync(done & (m.warp == w))
        return go
    return run


# -- CTA barriers ----------------------------------------------------------------------------

def _bar(ins: Instruction):
    parts = [p for p in ins.parts if p != "cta"]
    if len(parts) < 2 or parts[1] not in ("sync", "arrive"):
        raise _unknown(ins, "only bar / barrier .sync and .arrive")
    aligned = parts[0] == "bar" or "aligned" in parts
    if set(parts[2:]) - {"aligned"}:
        raise _unknown(ins)
    arrive = parts[1] == "arrive"
    _n_operands(ins, 2 if arrive else 1, 2)
    ops = ins.operands

    def run(m, mask, act):
        if aligned:
            go = m.converged(mask, act, ins, None)
            act = act & go
        else:
            go = mask
        m.pcs[go & ~act] += 1  # guard false: not at the barrier
        if not act.any():
            return HANDLED
        ids = m.read(ops[0], 32, ins)
        for b in np.unique(ids[act]).tolist():  # warps may name different barriers
            arrive_at(m, act & (ids == b), int(b))
        return HANDLED

    def arrive_at(m, act, b):
        where = at(ins.line, ins.text)
        if aligned:
            for w in np.flatnonzero(m.warps_of(act)):
                if (act & (m.warp == w)).sum() != (m.alive & (m.warp == w)).sum():
                    raise PtxError(f"{where}: the lanes of warp {w} name different barriers")
        if b > 15:
            raise PtxError(f"{where}: barrier id {b} is not 0 .. 15")
        count = None
        if len(ops) == 2:
            cv = m.read(ops[1], 32, ins)[act]
            if (cv != cv[0]).any() or int(cv[0]) % WARP or int(cv[0]) <= 0:
                raise PtxError(f"{where}: the thread count must be one positive multiple of 32 "
                               f"for all threads, got {sorted(set(cv.tolist()))}")
            count = int(cv[0])
        st = m.barriers.setdefault(b, {"count": count, "arrived": 0, "line": ins.line,
                                       "clock": np.zeros(m.clocks.shape[1], np.int64)})
        if st["count"] != count and st["arrived"]:
            raise PtxError(f"{where}: barrier {b} is used with thread counts {st['count']} and "
                           f"{count} at once")
        st["count"] = count
        # release: what the arriving threads know is handed to the waiters at completion;
        # their own later accesses are newer than it
        idx = np.flatnonzero(act)
        st["clock"] = np.maximum(st["clock"], m.clocks[idx].max(axis=0))
        m.clocks[idx, idx] += 1
        st["arrived"] += int(m.warps_of(act).sum()) * WARP if aligned else int(act.sum())
        if arrive:
            m.pcs[act] += 1
        else:
            m.barrier_wait[act] = b
        if st["count"] is not None:
            need = st["count"]
        elif aligned:
            need = int(m.warps_of(m.alive).sum()) * WARP
        else:
            need = int(m.alive.sum())
        if st["arrived"] > need:
            raise PtxError(f"{where}: more threads arrive at barrier {b} than its count {need}")
        if st["arrived"] == need:
            waiting = m.barrier_wait == b
            w = np.flatnonzero(waiting)
            m.clocks[w] = np.maximum(m.clocks[w], st["clock"])  # acquire
            m.shared.prune()
            m.barrier_wait[waiting] = -1
            m.pcs[waiting] += 1
            del m.barriers[b]
    return run


# -- ldmatrix / stmatrix ---------------------------------------------------------------------

def _matrix_form(ins: Instruction) -> tuple[str, int, bool, str]:
    parts = ins.parts
    if "sync" not in parts or "aligned" not in parts:
        raise _unknown(ins, "needs .sync.aligned")
    if {"b8x16", "b6x16_p32", "b4x16_p64"} & set(parts):
        raise _unknown(ins, "the 6- and 4-bit decompressing sources (their bit packing is not "
                            "modelled)")
    shape = next((p for p in parts if p in ("m8n8", "m16n16", "m8n16", "m16n8")), None)
    num = next((int(p[1]) for p in parts if p in ("x1", "x2", "x4")), None)
    trans = "trans" in parts
    ty = parts[-1]
    rest = set(parts[1:]) - {"sync", "aligned", shape, f"x{num}", "trans", "shared",
                             "shared::cta", ty}
    if shape is None or num is None or rest:
        raise _unknown(ins, "matrix form")
    kind = parts[0]
    ok = {("ldmatrix", "m8n8", "b16"), ("stmatrix", "m8n8", "b16"),
          ("ldmatrix", "m16n16", "b8"), ("stmatrix", "m16n8", "b8")}
    if (kind, shape, ty) not in ok:
        raise _unknown(ins, f"{kind} .{shape}.{ty}")
    if shape in ("m16n16", "m16n8") and not trans:
        raise _unknown(ins, f".{shape} requires .trans")
    if shape == "m16n16" and num == 4:
        raise _unknown(ins, ".m16n16 allows .x1 and .x2 only")
    return shape, num, trans, ty


def matrix_map(shape: str, num: int, trans: bool) -> tuple[np.ndarray, np.ndarray, int]:
    """The fragment rule of an ldmatrix / stmatrix form as arrays over ``(lane, register,
    byte)`` of the 32 lanes x registers x 4 bytes: the matrix row (0 .. rows-1, numbered
    over all matrices: row ``r`` has its address from lane ``r``) and the byte in that
    16-byte row. Returns ``(row, byte, rows)``.

    * ``m8n8.b16`` (PTX ISA 9.7.14.5.15 / .16): register ``j`` is matrix ``j``; lane ``t``
      holds row ``t/4``, halves at columns ``2(t%4)``, ``+1`` -- with ``.trans`` rows
      ``2(t%4)``, ``+1`` of column ``t/4``;
    * ``m16n16.trans.b8`` (ldmatrix, docs/hardware.md "8-bit matrix forms"): register
      ``R`` is matrix ``R/2``, byte ``B`` is row ``4(t%4) + B``, byte ``t/4 + 8(R%2)``;
    * ``m16n8.trans.b8`` (stmatrix): register ``R`` is matrix ``R``, byte ``B`` is row
      ``2(t%4) + B%2``, byte ``t/4 + 8(B/2)``.

    >>> row, byte, rows = matrix_map("m8n8", 1, False)
    >>> rows, row[5, 0].tolist(), byte[5, 0].tolist()   # lane 5: row 1, columns 2, 3
    (8, [1, 1, 1, 1], [4, 5, 6, 7])
    """
    t = np.arange(WARP)[:, None, None]
    B = np.arange(4)[None, None, :]
    if shape == "m8n8":
        R = np.arange(num)[None, :, None]
        h = B // 2
        if trans:
            row, col = 2 * (t % 4) + h, t // 4
        else:
            row, col = t // 4, 2 * (t % 4) + h
        return np.broadcast_to(8 * R + row, (WARP, num, 4)).copy(), \
            np.broadcast_to(2 * col + B % 2, (WARP, num, 4)).copy(), 8 * num
    if shape == "m16n16":
        R = np.arange(2 * num)[None, :, None]
        row = 16 * (R // 2) + 4 * (t % 4) + B
        byte = t // 4 + 8 * (R % 2)
        return np.broadcast_to(row, (WARP, 2 * num, 4)).copy(), \
            np.broadcast_to(byte, (WARP, 2 * num, 4)).copy(), 16 * num
    R = np.arange(num)[None, :, None]
    row = 8 * R + 2 * (t % 4) + B % 2
    byte = t // 4 + 8 * (B // 2)
    return np.broadcast_to(row, (WARP, num, 4)).copy(), \
        np.broadcast_to(byte, (WARP, num, 4)).copy(), 8 * num


def _matrix(ins: Instruction):
    shape, num, trans, ty = _matrix_form(ins)
    load = ins.parts[0] == "ldmatrix"
    _n_operands(ins, 2)
    regs_op, addr_op = (ins.operands[0], ins.operands[1]) if load else \
        (ins.operands[1], ins.operands[0])
    if not isinstance(regs_op, Vec) or not isinstance(addr_op, Addr):
        raise _unknown(ins, "operands")
    row, byte, rows = matrix_map(shape, num, trans)
    nregs = row.shape[1]
    if len(regs_op.items) != nregs:
        raise _unknown(ins, f"{nregs} registers expected, {len(regs_op.items)} given")
    name = f"{ins.parts[0]}.x{num}" + (".trans" if trans else "") + \
        ("" if shape == "m8n8" else f".{shape}.{ty}")
    generic = not ({"shared", "shared::cta"} & set(ins.parts))

    def run(m, mask, act):
        go = m.converged(mask, act, ins, None)
        act = act & go
        if not act.any():
            return go
        addr, sp = _address(m, addr_op, ins, None if generic else "shared")
        if generic:
            addr = addr - SHARED_WINDOW
        W = m.warps
        live = m.warps_of(act)
        rowaddr = addr.reshape(W, WARP)[:, :rows]  # lane r gives row r's address
        m.access(ins, name, addr, act, 16, lanes=rows)
        supplier = (np.arange(W)[:, None] * WARP + np.arange(rows)[None, :])[live].reshape(-1)
        ra = rowaddr[live].reshape(-1)
        if (ra % 16).any():
            raise PtxError(f"{at(ins.line, ins.text)}: a matrix row at an address that is not "
                           f"16-byte aligned")
        wl = np.flatnonzero(live)
        if load:
            data = m.shared.read(supplier, ra, 16, at(ins.line, ins.text), ins.line)
            data = data.reshape(len(wl), rows, 16)
            got = data[:, row, byte]  # (warps, lane, reg, byte)
            vals = pack(got.reshape(-1, 4)).reshape(len(wl), WARP, nregs)
            full = np.zeros((W, WARP, nregs), U64)
            full[wl] = vals
            full = full.reshape(m.n, nregs)
            for k, item in enumerate(regs_op.items):
                m.write(item, full[:, k], act, ins)
        else:
            vals = np.stack([m.read(item, 32, ins) for item in regs_op.items], axis=1)
            vals = vals.reshape(W, WARP, nregs)[wl]
            by = unpack(vals.reshape(-1), 4).reshape(len(wl), WARP, nregs, 4)
            data = np.zeros((len(wl), rows, 16), np.uint8)
            data[:, row, byte] = by
            m.shared.write(supplier, ra, data.reshape(-1, 16), at(ins.line, ins.text), ins.line)
        return go
    run.name = name  # type: ignore[attr-defined]
    return run


# -- control flow --------------------------------------------------------------------------

def _bra(ins: Instruction):
    target = ins.target

    def run(m, mask, act):
        m.pcs[act] = target
        m.pcs[mask & ~act] += 1
        return HANDLED
    return run


def _exit(ins: Instruction):
    def run(m, mask, act):
        m.alive[act] = False
        m.pcs[mask & ~act] += 1
        return HANDLED
    return run


def _trap(ins: Instruction):
    def run(m, mask, act):
        if act.any():
            raise PtxError(f"{at(ins.line, ins.text)}: trap executed by thread "
                           f"{int(np.flatnonzero(act)[0])}")
    return run


def _dot(ins: Instruction):
    """``dp4a.atype.btype d, a, b, c`` and ``dp2a.{lo,hi}.atype.btype d, a, b, c`` (PTX ISA
    "dp4a", "dp2a"): ``c`` plus the dot product of ``a``'s four bytes (dp2a: two 16-bit
    halves) with ``b``'s four bytes (dp2a: bytes 0-1 for ``.lo``, 2-3 for ``.hi``), each
    signed when its type is ``.s32``; the 32-bit result wraps."""
    base, parts = ins.parts[0], ins.parts[1:]
    mode = parts[0] if base == "dp2a" else None
    types = parts[1:] if base == "dp2a" else parts
    if (base == "dp2a" and mode not in ("lo", "hi")) or len(types) != 2 or \
            any(t not in ("u32", "s32") for t in types):
        raise _unknown(ins)
    _n_operands(ins, 4)
    ops = ins.operands
    a_signed, b_signed = types[0] == "s32", types[1] == "s32"

    def lanes(v: np.ndarray, width: int, sgn: bool) -> list[np.ndarray]:
        out = []
        for k in range(32 // width):
            x = ((v >> U64(k * width)) & U64((1 << width) - 1)).astype(np.int64)
            out.append(np.where(sgn & (x >= 1 << (width - 1)), x - (1 << width), x))
        return out

    def run(m, mask, act):
        a, b = m.read(ops[1], 32, ins), m.read(ops[2], 32, ins)
        c = m.read(ops[3], 32, ins).astype(np.int64)
        if base == "dp4a":
            pairs = zip(lanes(a, 8, a_signed), lanes(b, 8, b_signed), strict=True)
        else:
            bytes_b = lanes(b, 8, b_signed)[2 * (mode == "hi"):][:2]
            pairs = zip(lanes(a, 16, a_signed), bytes_b, strict=True)
        r = c + sum(x * y for x, y in pairs)
        m.write(ops[0], (r & 0xFFFFFFFF).astype(U64), act, ins)
    return run


def _nop(ins: Instruction):
    return lambda m, mask, act: None


_DECODERS = {
    "mov": _mov, "selp": _selp, "slct": _slct, "setp": _setp, "cvt": _cvt, "cvta": _cvta,
    "ld": _ldst, "ldu": _ldst, "st": _ldst, "shfl": _shfl, "vote": _vote,
    "activemask": _activemask, "elect": _elect, "match": _match, "bar": None,
    "barrier": None, "ldmatrix": _matrix, "stmatrix": _matrix,
    "membar": _nop, "bra": _bra, "ret": _exit, "exit": _exit,
    "trap": _trap, "nanosleep": _nop, "griddepcontrol": _nop, "prefetch": _nop,
    "prefetchu": _nop, "setmaxnreg": _nop, "pmevent": _nop, "dp4a": _dot, "dp2a": _dot,
}
for _op in ("add", "sub", "mul", "mad", "mul24", "mad24", "div", "rem", "abs", "neg", "not",
            "cnot", "popc", "clz", "brev", "bfind", "min", "max", "and", "or", "xor", "shl",
            "shr", "shf", "bfe", "bfi", "lop3", "prmt", "sad", "fma"):
    _DECODERS[_op] = _int_op


def decode(ins: Instruction, kernel: Kernel):
    """The executor of ``ins`` (see the module doc); raises UnknownInstruction."""
    base = ins.parts[0]
    if base in ("bar", "barrier"):
        if len(ins.parts) > 1 and ins.parts[1] == "warp":
            if ins.parts[2:] != ("sync",):
                raise _unknown(ins)
            run = _bar_warp(ins)
        else:
            run = _bar(ins)
    elif base == "fma":
        ty = _type(ins)
        run = _float_op(ins, "fma", ty, set(ins.parts[1:]) - {ty})
    else:
        f = _DECODERS.get(base)
        if f is None:
            raise _unknown(ins)
        run = f(ins)
    return run


__all__ = ["HANDLED", "DeadlockError", "decode", "matrix_map", "prmt"]
