"""Sums of terms and digits of a value: the simplification and the structural key.

A sum ``const + sum(coef * atom)`` collects like terms; two terms that are consecutive
digits of one value, ``C*k * (x // (l*k) % h) + C * (x // l % k)``, fuse into one digit
``C * (x // l % (k*h))`` (``x // 8 * 8 + x % 8`` is ``x``) -- the fused iters of
``tl.codegen``, exact for every integer under floor semantics. :func:`key` is the
structural key ``==`` and ``hash`` use: sums without term order, bitwise chains without
operand order, shifts and low masks as multiplications, floor divisions and modulos.

>>> from tilelayout.tirx.expr import Var
>>> x = Var("x")
>>> key(x // 8 * 8 + x % 8) == key(x), key(x << 3) == key(x * 8)
(True, True)
"""

from __future__ import annotations

from typing import Any

from ..core.errors import LayoutError, LayoutTypeError, shown
from .expr import (
    _IMPL,
    AND,
    MAX_DEPTH,
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
    register,
)


def _wrap(e: Any) -> Any:
    return IntImm(e) if isinstance(e, int) else e


class _Lin:
    """A sum ``const + sum(coef * atom)`` with like terms collected and consecutive
    digits of one value fused (``terms``: key -> [atom, coef], in first-use order)."""

    __slots__ = ("terms", "const")

    def __init__(self) -> None:
        self.terms: dict[object, list[Any]] = {}
        self.const = 0

    def add(self, e: Any, coef: int, depth: int = 0) -> None:
        if depth > MAX_DEPTH:
            raise LayoutError(f"an index expression nested deeper than {MAX_DEPTH} levels")
        if coef == 0:
            return
        if isinstance(e, int):
            self.const += coef * e
        elif isinstance(e, IntImm):
            self.const += coef * e.value
        elif isinstance(e, Add):
            self.add(e.a, coef, depth + 1)
            self.add(e.b, coef, depth + 1)
        elif isinstance(e, Sub):
            self.add(e.a, coef, depth + 1)
            self.add(e.b, -coef, depth + 1)
        elif isinstance(e, Mul) and isinstance(_const(e.b), int):
            self.add(e.a, coef * _const(e.b), depth + 1)
        elif isinstance(e, Mul) and isinstance(_const(e.a), int):
            self.add(e.b, coef * _const(e.a), depth + 1)
        else:
            self._atom(e, coef)

    def _atom(self, e: Any, coef: int) -> None:
        k = key(e)
        if k in self.terms:
            self.terms[k][1] += coef
            if self.terms[k][1] == 0:
                del self.terms[k]
            return
        self.terms[k] = [e, coef]
        self._fuse()

    def _fuse(self) -> None:
        """Fuse two digits of one value whose coefficients continue each other:
        ``C*l1/l2 * (x // l1 % h1/l1) + C * (x // l2 % l1/l2)`` is ``C * (x // l2 % h1/l2)``."""
        changed = True
        while changed:
            changed = False
            found = [(k, t, _digit(t[0])) for k, t in self.terms.items()]
            for k1, t1, d1 in found:
                for k2, t2, d2 in found:
                    if k1 == k2 or d1 is None or d2 is None or d1[0] != d2[0]:
                        continue
                    (_, base, lo1, hi1), (_, _, lo2, hi2) = d1, d2
                    if hi2 == lo1 and t1[1] * lo2 == t2[1] * lo1:
                        coef = t2[1]
                        del self.terms[k1], self.terms[k2]
                        merged = _from_digit(base, lo2, hi1)
                        if isinstance(merged, int):
                            self.const += coef * merged
                        else:
                            self.add(merged, coef)
                        changed = True
                        break
                if changed:
                    break

    def build(self) -> Any:
        out: Any = None
        for atom, coef in self.terms.values():
            if out is None:
                out = atom if coef == 1 else Mul(atom, IntImm(coef))
            elif coef > 0:
                out = Add(out, atom if coef == 1 else Mul(atom, IntImm(coef)))
            else:
                out = Sub(out, atom if coef == -1 else Mul(atom, IntImm(-coef)))
        if out is None:
            return self.const
        if self.const > 0:
            return Add(out, IntImm(self.const))
        if self.const < 0:
            return Sub(out, IntImm(-self.const))
        return out


def _const(e: Any) -> int | None:
    if isinstance(e, int):
        return e
    if isinstance(e, IntImm):
        return e.value
    return None


def _lin(*parts: tuple[Any, int]) -> _Lin:
    out = _Lin()
    for e, coef in parts:
        out.add(e, coef)
    return out


def _digit(e: Any) -> tuple[object, Any, int, int | None] | None:
    """``e`` as a digit ``(x // lo) % (hi // lo)`` of a value ``x``: ``(key(x), x, lo, hi)``
    (``hi`` None: no modulo)."""
    if isinstance(e, FloorDiv) and isinstance(_const(e.b), int) and _const(e.b) > 0:
        c = _const(e.b)
        inner = _digit(e.a) or (key(e.a), e.a, 1, None)
        k, x, lo, hi = inner
        if hi is None or (hi // lo) % c == 0:
            return k, x, lo * c, hi
        return key(e.a), e.a, c, None
    if isinstance(e, FloorMod) and isinstance(_const(e.b), int) and _const(e.b) > 0:
        c = _const(e.b)
        inner = _digit(e.a) or (key(e.a), e.a, 1, None)
        k, x, lo, hi = inner
        if hi is None or (hi // lo) % c == 0:
            return k, x, lo, lo * c
        return key(e.a), e.a, 1, c
    if isinstance(e, int | IntImm):
        return None
    return key(e), e, 1, None


def _from_digit(x: Any, lo: int, hi: int | None) -> Any:
    if hi is not None and hi == lo:
        return 0
    if hi is None:
        return x if lo == 1 else FloorDiv(x, IntImm(lo))
    if lo == 1:
        return FloorMod(x, IntImm(hi))
    return FloorMod(FloorDiv(x, IntImm(lo)), IntImm(hi // lo))


def key(e: Any) -> object:
    """A hashable structural key: equal keys mean structurally equal expressions (up to
    term order, shift / mask spelling and fused digits; variables by identity).

    >>> x = Var("x")
    >>> key(x << 3) == key(x * 8), key((x & 7) + 0) == key(x % 8)
    (True, True)
    """
    if isinstance(e, PrimExpr):
        memo = getattr(e, "_memo", None)
        if memo is not None:
            return memo
    k = _key(e, 0)
    if isinstance(e, PrimExpr):
        e._memo = k
    return k


def _key(e: Any, depth: int) -> object:
    if depth > MAX_DEPTH:
        raise LayoutError(f"an index expression nested deeper than {MAX_DEPTH} levels")
    if isinstance(e, int):
        return ("c", e)
    if isinstance(e, IntImm):
        return ("c", e.value)
    if isinstance(e, Var):
        return ("v", id(e))
    if _foreign_var(e):
        handle = getattr(e, "__chandle__", None)
        return ("tv", handle() if callable(handle) else id(e))
    if isinstance(e, Add | Sub) or (isinstance(e, Mul) and (
            isinstance(_const(e.a), int) or isinstance(_const(e.b), int))):
        lin = _lin((e, 1))
        if not lin.terms:
            return ("c", lin.const)
        if lin.const == 0 and len(lin.terms) == 1:
            (atom, coef), = lin.terms.values()
            if coef == 1:
                return key(atom)
        return ("sum", lin.const, frozenset((k, t[1]) for k, t in lin.terms.items()))
    if isinstance(e, FloorDiv | FloorMod):
        c = _const(e.b)
        if isinstance(c, int) and c > 0:
            d = _digit(e)
            assert d is not None
            return ("digit", d[0], d[2], d[3])
        return (type(e).__name__, key(e.a), key(e.b))
    if isinstance(e, Mul):
        return ("mul", frozenset((key(e.a), key(e.b))))
    if isinstance(e, Call):
        a, b = e.args
        if e.op is SHL and isinstance(_const(b), int):
            return key(_IMPL["mul"](a, 1 << _const(b)))
        if e.op is SHR and isinstance(_const(b), int):
            return key(_IMPL["floordiv"](a, 1 << _const(b)))
        if e.op is AND:
            mask = _const(b) if _const(b) is not None else _const(a)
            other = a if _const(b) is not None else b
            if mask is not None and mask > 0 and mask & (mask + 1) == 0:
                return key(_IMPL["floormod"](other, mask + 1))
        return (e.op.name, _operands(e, e.op))
    if isinstance(e, Cast):
        return ("cast", e.dtype, key(e.value))
    if isinstance(e, Let):
        return key(_IMPL["substitute"](e.body, {e.var: e.value}))
    raise LayoutTypeError(f"not an index expression: {shown(e)}")


def _operands(e: Any, op: Op) -> object:
    """The flattened operands of an associative bitwise chain (XOR by parity)."""
    flat: list[object] = []
    const = 0 if op is not AND else -1

    def walk(x: Any) -> None:
        nonlocal const
        c = _const(x)
        if c is not None:
            const = {"^": const ^ c, "&": const & c, "|": const | c}[op.symbol]
        elif isinstance(x, Call) and x.op is op:
            walk(x.args[0])
            walk(x.args[1])
        else:
            flat.append(key(x))

    walk(e)
    if op is XOR:
        odd = frozenset(k for k in set(flat) if flat.count(k) % 2)
        return const, odd
    return const, frozenset(flat)


register(key=key)

__all__ = ["key"]
