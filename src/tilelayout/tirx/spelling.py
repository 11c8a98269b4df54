"""Using a symbolic index expression: substitution, evaluation, printing, TVM.

``str(e)`` is TIRx's spelling (Python operators, ``//`` and ``%``), :meth:`to_c` the
code generator's C (:mod:`tilelayout.eval.expressions` builders: powers of two as shifts
and masks), ``evaluate`` binds variables (ours or TVM's, by object or by name) and
``to_tvm`` rebuilds the expression with apache-tvm-tirx (``tvm_tirx.tirx``), one TVM
variable per variable of ours.

>>> from tilelayout.tirx.symbolic import Var
>>> x = Var("x")
>>> e = x // 4 * 64 + x % 4
>>> str(e), e.to_c(), e.evaluate({"x": 9})
('x // 4 * 64 + x % 4', '((x >> 2) << 6) + (x & 3)', 129)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import Any

from ..codegen.languages import C
from ..core.errors import LayoutError, LayoutTypeError, shown
from ..eval import expressions as ex
from ..interop import require
from .expr import (
    MAX_DEPTH,
    Call,
    Cast,
    IntImm,
    Let,
    PrimExpr,
    Var,
    _Binary,
    _foreign_var,
    _int_bits,
    register,
)
from .linear import _const, key
from .symbolic import _BUILD, _build_op, cast, node


def substitute(e: Any, table: Mapping[object, Any]) -> Any:
    """``e`` with each variable in ``table`` (by identity) replaced, rebuilt (simplified).

    >>> x, y = Var("x"), Var("y")
    >>> substitute(x * 4 + y, {x: y + 1})
    y * 5 + 4
    """
    ids = {_var_id(v): node(r) for v, r in table.items()}
    return _subst(e, ids, 0)


def _var_id(v: object) -> object:
    if isinstance(v, Var):
        return ("v", id(v))
    if _foreign_var(v):
        return key(v)
    raise LayoutTypeError(f"only variables can be substituted, got {shown(v)}")


def _subst(e: Any, ids: Mapping[object, Any], depth: int) -> Any:
    if depth > MAX_DEPTH:
        raise LayoutError(f"an index expression nested deeper than {MAX_DEPTH} levels")
    if isinstance(e, int | IntImm):
        return node(e)
    if isinstance(e, Var) or _foreign_var(e):
        return ids.get(_var_id(e), e)
    if isinstance(e, _Binary):
        return _BUILD[type(e).__name__](_subst(e.a, ids, depth + 1), _subst(e.b, ids, depth + 1))
    if isinstance(e, Call):
        return _build_op(e.op, _subst(e.args[0], ids, depth + 1), _subst(e.args[1], ids, depth + 1))
    if isinstance(e, Cast):
        return cast(e.dtype, _subst(e.value, ids, depth + 1))
    if isinstance(e, Let):
        value = _subst(e.value, ids, depth + 1)
        inner = dict(ids)
        inner[_var_id(e.var)] = value
        return _subst(e.body, inner, depth + 1)
    raise LayoutTypeError(f"not an index expression: {shown(e)}")


class _Bindings:
    """Variable values by variable object or by name."""

    def __init__(self, bindings: Mapping[object, int], by_name: Mapping[str, int]) -> None:
        if not isinstance(bindings, Mapping):
            raise LayoutTypeError(f"bindings are a mapping variable -> int, got "
                                  f"{shown(bindings)}")
        self.names: dict[str, int] = {}
        self.ids: dict[object, int] = {}
        for k, v in list(bindings.items()) + list(by_name.items()):
            value = node(v)
            if not isinstance(value, int):
                raise LayoutTypeError(f"a variable is bound to an integer, got {shown(v)}")
            if isinstance(k, str):
                self.names[k] = value
            else:
                self.ids[_var_id(k)] = value

    def get(self, var: Any) -> int | None:
        found = self.ids.get(_var_id(var))
        if found is not None:
            return found
        return self.names.get(_var_name(var))

    def bound(self, var: Any, value: Any) -> _Bindings:
        out = _Bindings.__new__(_Bindings)
        out.names, out.ids = self.names, dict(self.ids)
        if isinstance(value, int):
            out.ids[_var_id(var)] = value
        return out


def _var_name(v: Any) -> str:
    if isinstance(v, Var):
        return v.name
    return str(getattr(v, "name_hint", None) or getattr(v, "name", "v"))


def _evaluate(e: Any, env: _Bindings, depth: int) -> Any:
    if depth > MAX_DEPTH:
        raise LayoutError(f"an index expression nested deeper than {MAX_DEPTH} levels")
    if isinstance(e, int):
        return e
    if isinstance(e, IntImm):
        return e.value
    if isinstance(e, Var) or _foreign_var(e):
        found = env.get(e)
        return e if found is None else found
    if isinstance(e, _Binary):
        return _BUILD[type(e).__name__](_evaluate(e.a, env, depth + 1),
                                        _evaluate(e.b, env, depth + 1))
    if isinstance(e, Call):
        return _build_op(e.op, _evaluate(e.args[0], env, depth + 1),
                         _evaluate(e.args[1], env, depth + 1))
    if isinstance(e, Cast):
        return cast(e.dtype, _evaluate(e.value, env, depth + 1))
    if isinstance(e, Let):
        value = _evaluate(e.value, env, depth + 1)
        if isinstance(value, int):
            return _evaluate(e.body, env.bound(e.var, value), depth + 1)
        return _evaluate(substitute(e.body, {e.var: value}), env, depth + 1)
    raise LayoutTypeError(f"not an index expression: {shown(e)}")


def _collect(e: Any, found: dict[object, object], bound: frozenset, depth: int) -> None:
    if depth > MAX_DEPTH:
        raise LayoutError(f"an index expression nested deeper than {MAX_DEPTH} levels")
    if isinstance(e, Var) or _foreign_var(e):
        k = _var_id(e)
        if k not in bound:
            found.setdefault(k, e)
    elif isinstance(e, _Binary):
        _collect(e.a, found, bound, depth + 1)
        _collect(e.b, found, bound, depth + 1)
    elif isinstance(e, Call):
        for a in e.args:
            _collect(a, found, bound, depth + 1)
    elif isinstance(e, Cast):
        _collect(e.value, found, bound, depth + 1)
    elif isinstance(e, Let):
        _collect(e.value, found, bound, depth + 1)
        _collect(e.body, found, bound | {_var_id(e.var)}, depth + 1)


def walk(e: Any) -> Iterator[Any]:
    """Every node of ``e`` (pre-order).

    >>> [type(n).__name__ for n in walk(Var("x") + 1)]
    ['Add', 'Var', 'IntImm']
    """
    stack = [e]
    while stack:
        n = stack.pop()
        yield n
        if isinstance(n, _Binary):
            stack.extend((n.b, n.a))
        elif isinstance(n, Call):
            stack.extend(reversed(n.args))
        elif isinstance(n, Cast):
            stack.append(n.value)
        elif isinstance(n, Let):
            stack.extend((n.body, n.value, n.var))


_PY_OPS = MappingProxyType({"Add": "+", "Sub": "-", "Mul": "*", "FloorDiv": "//",
                            "FloorMod": "%"})


def _to_codegen(e: Any, lang: str, names: dict, depth: int) -> ex.Expr:
    """``e`` as the code generator's expression: verbatim for Python (TIRx's spelling),
    through the generator's shift / mask builders for C."""
    if depth > MAX_DEPTH:
        raise LayoutError(f"an index expression nested deeper than {MAX_DEPTH} levels")
    if isinstance(e, int | IntImm):
        return ex.const(_const(e))  # type: ignore[arg-type]
    if isinstance(e, Var) or _foreign_var(e):
        return ex.var(_var_name(e))
    if isinstance(e, Let):
        if lang == "c":
            return _to_codegen(substitute(e.body, {e.var: e.value}), lang, names, depth + 1)
        body = ex.render(_to_codegen(e.body, lang, names, depth + 1))
        value = ex.render(_to_codegen(e.value, lang, names, depth + 1))
        return ex.var(f"T.Let({body}, where={{{_var_name(e.var)}: {value}}})")
    if isinstance(e, Cast):
        inner = _to_codegen(e.value, lang, names, depth + 1)
        if lang == "c":
            signed, bits = _int_bits(e.dtype)  # type: ignore[misc]
            ctype = f"{'' if signed else 'u'}int{bits}_t"
            return ex.var(f"({ctype})({C.expr(inner)})")
        return ex.var(f'T.Cast("{e.dtype}", {ex.render(inner)})')
    if isinstance(e, _Binary):
        a = _to_codegen(e.a, lang, names, depth + 1)
        b = _to_codegen(e.b, lang, names, depth + 1)
        op = _PY_OPS[type(e).__name__]
        c = _const(e.b)
        if lang == "c" and isinstance(c, int) and c > 0:
            if op == "//":
                return ex.floordiv(a, c)
            if op == "%":
                return ex.modulo(a, c)
            if op == "*":
                return ex.scale(a, c)
        return ex.Expr(op, (a, b))
    if isinstance(e, Call):
        a = _to_codegen(e.args[0], lang, names, depth + 1)
        b = _to_codegen(e.args[1], lang, names, depth + 1)
        return ex.Expr(e.op.symbol, (a, b))
    raise LayoutTypeError(f"not an index expression: {shown(e)}")


def _tvm() -> Any:
    return require("tvm_tirx.tirx", "tvm", "converting an index expression to TVM")


def _to_tvm(e: Any, tir: Any, vars_: dict, depth: int) -> Any:
    if depth > MAX_DEPTH:
        raise LayoutError(f"an index expression nested deeper than {MAX_DEPTH} levels")
    if isinstance(e, int | IntImm):
        return tir.const(_const(e), "int32")
    if isinstance(e, Var):
        if e._tvm is None:
            e._tvm = tir.Var(e.name, e.dtype)
        return e._tvm
    if _foreign_var(e):
        return e
    if isinstance(e, _Binary):
        a, b = _to_tvm(e.a, tir, vars_, depth + 1), _to_tvm(e.b, tir, vars_, depth + 1)
        return {"Add": lambda: a + b, "Sub": lambda: a - b, "Mul": lambda: a * b,
                "FloorDiv": lambda: tir.floordiv(a, b),
                "FloorMod": lambda: tir.floormod(a, b)}[type(e).__name__]()
    if isinstance(e, Call):
        a, b = (_to_tvm(x, tir, vars_, depth + 1) for x in e.args)
        return {"^": tir.bitwise_xor, "&": tir.bitwise_and, "|": tir.bitwise_or,
                "<<": tir.shift_left, ">>": tir.shift_right}[e.op.symbol](a, b)
    if isinstance(e, Cast):
        return tir.Cast(e.dtype, _to_tvm(e.value, tir, vars_, depth + 1))
    if isinstance(e, Let):
        return tir.Let(_to_tvm(e.var, tir, vars_, depth + 1),
                       _to_tvm(e.value, tir, vars_, depth + 1),
                       _to_tvm(e.body, tir, vars_, depth + 1))
    raise LayoutTypeError(f"not an index expression: {shown(e)}")


def fresh_var(name: str, like: object) -> Any:
    """A new variable named ``name`` of the same kind as the variables of ``like`` (a
    TVM ``Var`` when ``like`` reads one, so TVM's passes see it; ours otherwise).

    >>> fresh_var("q", Var("x") + 1).name
    'q'
    """
    for n in walk(node(like)):
        if _foreign_var(n):
            return _tvm().Var(name, "int32")
    return Var(name)


def _evaluated(e: PrimExpr, bindings: Mapping[object, int], by_name: Mapping[str, int]) -> Any:
    return _evaluate(e, _Bindings(bindings, by_name), 0)


def _free_vars(e: PrimExpr) -> tuple[object, ...]:
    found: dict[object, object] = {}
    _collect(e, found, frozenset(), 0)
    return tuple(found.values())


register(evaluate=_evaluated, free_vars=_free_vars, substitute=substitute,
         to_c=lambda e: C.expr(_to_codegen(e, "c", {}, 0)),
         to_tvm=lambda e: _to_tvm(e, _tvm(), {}, 0),
         str=lambda e: ex.render(_to_codegen(e, "python", {}, 0)))

__all__ = ["fresh_var", "substitute", "walk"]
