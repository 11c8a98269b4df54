"""Symbolic index expressions: what ``layout.apply`` returns for variable coordinates.

TIRx lowers a layout to index arithmetic by applying it to variables:
``T.TileLayout(T.S[(8, 8):(64, 1)]).apply(x, y)`` is ``{"m": x * 64 + y}``. Here the
coordinates may be our :class:`Var` (``T.Var("x")``), apache-tvm-tirx's own ``Var`` (when
it is installed; any of its index expressions, ``Cast`` included), or expressions of
them. The result is a tree of the node kinds TIRx builds -- :class:`Add`, :class:`Sub`,
:class:`Mul`, :class:`FloorDiv`, :class:`FloorMod`, :class:`Call` (``tirx.bitwise_xor``,
``tirx.bitwise_and``, ``tirx.shift_left`` ...), :class:`Cast`, :class:`Let` -- with TIRx's
attribute names (``.a``, ``.b``, ``.op.name``, ``.args``, ``.var``, ``.value``,
``.body``), so code that walks TIRx's expressions walks these.

The builders simplify as the code generator does (:mod:`tilelayout.eval.expressions`):
constants fold, a sum collects like terms, and consecutive digits of one value fuse
(``x // 8 * 8 + x % 8`` is ``x``: the fused iters of ``tl.codegen``), exactly for every
integer (Python's floor semantics, TIRx's ``floordiv`` / ``floormod``). An expression

* prints as TIRx writes it (``str``: Python operators, ``//`` and ``%``) and as C
  (:meth:`PrimExpr.to_c`: the generator's shifts and masks);
* evaluates when its variables are bound (:meth:`PrimExpr.evaluate`);
* converts to TVM's ``PrimExpr`` (:meth:`PrimExpr.to_tvm`, and TVM's own functions take
  it directly) when apache-tvm-tirx is installed;
* compares with ``==`` structurally, up to the order of terms in sums and of XOR / AND
  operands, and shifts / low masks spelled as multiplications, floor divisions and
  modulos by powers of two (TVM's ``assert_structural_equal`` without the spelling).
  Variables compare by identity.

>>> x, y = Var("x"), Var("y")
>>> e = (x // 8) * 64 + x % 8 + y * 512
>>> e, e.evaluate({x: 11, y: 1}), e.to_c()
(x // 8 * 64 + x % 8 + y * 512, 579, '((x >> 3) << 6) + (x & 7) + (y << 9)')
>>> (x // 8) * 8 + x % 8 == x
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from ..core.budget import MAX_INT_BITS
from ..core.errors import LayoutError, LayoutTypeError, shown
from .expr import (
    _BINARY,
    _FOREIGN_BITWISE,
    _OPS,
    AND,
    MAX_DEPTH,
    OR,
    SHL,
    SHR,
    XOR,
    Add,
    Call,
    Cast,
    FloorDiv,
    FloorMod,
    IntImm,
    Let,
    Mul,
    Op,
    PrimExpr,
    Sub,
    Var,
    _foreign_var,
    _int_bits,
    is_foreign,
    is_symbolic,
    register,
)
from .linear import _const, _digit, _from_digit, _Lin, _lin, _wrap, key


def _bounded(v: int) -> int:
    if v.bit_length() >= MAX_INT_BITS:
        raise LayoutError(f"an integer of {v.bit_length()} bits in an index expression; "
                          f"indices stay below 2**{MAX_INT_BITS}")
    return v


def node(value: object, depth: int = 0) -> Any:
    """``value`` as an expression node: an int (or IntImm) as an ``int``, our nodes as
    they are, a TVM ``Var`` as itself (a leaf, compared by identity), and a TVM
    expression as our tree. Anything else is refused.

    >>> node(7), node(Var("x")).name
    (7, 'x')
    """
    if isinstance(value, bool):
        raise LayoutTypeError(f"an index is an integer or a symbolic index expression, got "
                              f"{shown(value)}")
    if isinstance(value, int):
        return _bounded(value)
    if isinstance(value, IntImm):
        return value.value
    if isinstance(value, PrimExpr):
        return value
    if type(value).__name__ in ("int64", "int32", "int16", "int8", "uint8", "uint16",
                                "uint32", "uint64"):  # numpy integers
        return _bounded(int(value))  # type: ignore[call-overload]
    if not is_foreign(value):
        raise LayoutTypeError(f"an index is an integer or a symbolic index expression "
                              f"(tilelayout.tirx.Var, or TVM's), got {shown(value)}")
    if depth > MAX_DEPTH:
        raise LayoutError(f"a TVM expression nested deeper than {MAX_DEPTH} levels")
    return _from_foreign(value, depth)


def _from_foreign(value: Any, depth: int) -> Any:
    kind = type(value).__name__
    if _foreign_var(value):
        return value
    if kind == "IntImm":
        return _bounded(int(value.value))
    if kind in _BINARY:
        return _BUILD[kind](node(value.a, depth + 1), node(value.b, depth + 1))
    if kind in _FOREIGN_BITWISE:
        op = _FOREIGN_BITWISE[kind]
        return _build_op(op, node(value.a, depth + 1), node(value.b, depth + 1))
    if kind == "Call" and str(value.op.name) in _OPS and len(value.args) == 2:
        return _build_op(_OPS[str(value.op.name)], node(value.args[0], depth + 1),
                         node(value.args[1], depth + 1))
    if kind == "Cast":
        dtype = str(getattr(value, "dtype", None) or value.ty.dtype)
        return cast(dtype, node(value.value, depth + 1))
    if kind == "Let":
        return Let(node(value.var, depth + 1), node(value.value, depth + 1),
                   node(value.body, depth + 1))
    raise LayoutTypeError(f"TIRx expression node {kind} ({shown(value)}) is not an index "
                          f"expression tilelayout.tirx takes (+, -, *, //, %, bitwise, shifts, "
                          f"Cast, Let)")


def _build_op(op: Op, a: Any, b: Any) -> Any:
    return shift(op, a, b) if op in (SHL, SHR) else bitwise(op, a, b)


def add(a: object, b: object) -> Any:
    """``a + b``, simplified (like terms collected, digits fused).

    >>> x = Var("x")
    >>> add(x // 4 * 4, x % 4), add(2, 3)
    (x, 5)
    """
    a, b = node(a), node(b)
    if isinstance(a, int) and isinstance(b, int):
        return _bounded(a + b)
    if b == 0:
        return a
    if a == 0:
        return b
    return _lin((a, 1), (b, 1)).build()


def sub(a: object, b: object) -> Any:
    """``a - b``, simplified.

    >>> x = Var("x")
    >>> sub(x + 5, 2), sub(x, x)
    (x + 3, 0)
    """
    a, b = node(a), node(b)
    if isinstance(a, int) and isinstance(b, int):
        return _bounded(a - b)
    return _lin((a, 1), (b, -1)).build()


def mul(a: object, b: object) -> Any:
    """``a * b``: a constant factor distributes over a sum.

    >>> x = Var("x")
    >>> mul(x + 1, 64), mul(x, 1), mul(x, 0)
    (x * 64 + 64, x, 0)
    """
    a, b = node(a), node(b)
    if isinstance(a, int) and isinstance(b, int):
        return _bounded(a * b)
    if isinstance(a, int):
        a, b = b, a
    if isinstance(b, int):
        if b == 0:
            return 0
        if b == 1:
            return a
        return _lin((a, b)).build()
    return Mul(a, b)


def _divisor(b: Any, what: str) -> int | None:
    if isinstance(b, int):
        if b == 0:
            raise LayoutError(f"{what} by zero in an index expression")
        return b
    return None


def floordiv(a: object, b: object) -> Any:
    """``a // b`` (floor): multiples of ``b`` leave the division, digits of one value
    fuse (``x // 8 // 4`` is ``x // 32``).

    >>> x, y = Var("x"), Var("y")
    >>> floordiv(x * 64 + y, 8), floordiv(x % 64, 8), floordiv(17, 8)
    (x * 8 + y // 8, x // 8 % 8, 2)
    """
    a, b = node(a), node(b)
    c = _divisor(b, "floordiv")
    if isinstance(a, int) and c is not None:
        return a // c
    if c is None or c < 0:
        return FloorDiv(a, _wrap(b))
    if c == 1:
        return a
    lin = _lin((a, 1))
    out, rest = _Lin(), _Lin()
    for atom, coef in lin.terms.values():
        if coef % c == 0:
            out.add(atom, coef // c)
        else:
            rest.add(atom, coef)
    out.const, rest.const = lin.const // c, lin.const % c
    if rest.terms:
        out.add(_digit_div(rest, c), 1)
    return out.build()


def _digit_div(rest: _Lin, c: int) -> Any:
    """``rest // c`` for a remainder sum: one digit of a value divides into a higher
    digit (or vanishes when it stays below ``c``), anything else is a FloorDiv node."""
    if rest.const == 0 and len(rest.terms) == 1:
        (atom, coef), = rest.terms.values()
        d = _digit(atom)
        if coef == 1 and d is not None:
            _, x, lo, hi = d
            if hi is None or (hi // lo) % c == 0:
                return _from_digit(x, lo * c, hi)
            if hi // lo <= c:
                return 0  # the digit stays in [0, hi / lo), below c
    return FloorDiv(rest.build(), IntImm(c))


def floormod(a: object, b: object) -> Any:
    """``a % b`` (floor): multiples of ``b`` drop out; ``(x % 64) % 8`` is ``x % 8``.

    >>> x, y = Var("x"), Var("y")
    >>> floormod(x * 64 + y, 8), floormod(x * 64 + 72, 8), floormod(x // 8 % 64, 4)
    (y % 8, 0, x // 8 % 4)
    """
    a, b = node(a), node(b)
    c = _divisor(b, "floormod")
    if isinstance(a, int) and c is not None:
        return a % c
    if c is None or c < 0:
        return FloorMod(a, _wrap(b))
    if c == 1:
        return 0
    lin = _lin((a, 1))
    rest = _Lin()
    for atom, coef in lin.terms.values():
        if coef % c:
            rest.add(atom, coef % c)
    rest.const = lin.const % c
    if not rest.terms:
        return rest.const
    inner = rest.build()
    if rest.const == 0 and len(rest.terms) == 1:
        (atom, coef), = rest.terms.values()
        d = _digit(atom)
        if coef == 1 and d is not None:
            _, x, lo, hi = d
            if hi is None or (hi // lo) % c == 0:
                return _from_digit(x, lo, lo * c)
    return FloorMod(inner, IntImm(c))


def bitwise(op: Op, a: object, b: object) -> Any:
    """``a ^ b``, ``a & b`` or ``a | b`` (constants folded; XOR / OR with 0 and AND with 0
    vanish).

    >>> x = Var("x")
    >>> bitwise(XOR, x, 0), bitwise(AND, x, 7), bitwise(XOR, 5, 3)
    (x, x & 7, 6)
    """
    a, b = node(a), node(b)
    if isinstance(a, int) and isinstance(b, int):
        return {"^": a ^ b, "&": a & b, "|": a | b}[op.symbol]
    if op is AND and 0 in (_const(a), _const(b)):
        return 0
    if op is not AND:
        if _const(b) == 0:
            return a
        if _const(a) == 0:
            return b
    return Call(op, (_wrap(a), _wrap(b)))


def shift(op: Op, a: object, b: object) -> Any:
    """``a << b`` / ``a >> b`` (a negative constant count refused).

    >>> x = Var("x")
    >>> shift(SHL, x, 3), shift(SHR, 256, 4), shift(SHL, x, 0)
    (x << 3, 16, x)
    """
    a, b = node(a), node(b)
    n = _const(b)
    if n is not None and n < 0:
        raise LayoutError(f"a shift by a negative count ({n}) in an index expression")
    if n is not None and n > MAX_INT_BITS:
        raise LayoutError(f"a shift by {n} bits in an index expression; indices stay below "
                          f"2**{MAX_INT_BITS}")
    if isinstance(a, int) and n is not None:
        return _bounded(a << n) if op is SHL else a >> n
    if n == 0:
        return a
    return Call(op, (_wrap(a), _wrap(b)))


def cast(dtype: str, value: object) -> Any:
    """``value`` as the integer type ``dtype`` (a constant is wrapped now).

    >>> cast("uint8", 300), cast("int32", Var("x"))
    (44, T.Cast("int32", x))
    """
    bits = _int_bits(dtype)
    if bits is None:
        raise LayoutTypeError(f"a Cast to {shown(dtype)}: index expressions are integers")
    v = node(value)
    if isinstance(v, int):
        return _wrap_int(v, dtype)
    return Cast(dtype, v)


_BUILD: Mapping[str, Callable[[Any, Any], Any]] = MappingProxyType({
    "Add": add, "Sub": sub, "Mul": mul, "FloorDiv": floordiv, "FloorMod": floormod})


def _wrap_int(v: int, dtype: str) -> int:
    signed, bits = _int_bits(dtype)  # type: ignore[misc]
    v &= (1 << bits) - 1
    return v - (1 << bits) if signed and v >> (bits - 1) else v


register(add=add, sub=sub, mul=mul, floordiv=floordiv, floormod=floormod, bitwise=bitwise,
         shift=shift, node=node)

__all__ = ["AND", "OR", "SHL", "SHR", "XOR", "Add", "Call", "Cast", "FloorDiv", "FloorMod",
           "IntImm", "Let", "Mul", "Op", "PrimExpr", "Sub", "Var", "add", "bitwise", "cast",
           "floordiv", "floormod", "is_foreign", "is_symbolic", "key", "mul", "node", "shift",
           "sub"]
