"""The nodes of a symbolic index expression, with TIRx's names and attributes.

``Add``, ``Sub``, ``Mul``, ``FloorDiv``, ``FloorMod`` (``.a``, ``.b``), ``Call`` (``.op.name``
``tirx.bitwise_xor`` / ``_and`` / ``_or``, ``tirx.shift_left`` / ``_right``; ``.args``),
``Cast`` (``.dtype``, ``.value``), ``Let`` (``.var``, ``.value``, ``.body``), ``IntImm``
(``.value``) and the variable :class:`Var` (``.name``). The operators, ``==``, printing,
evaluation and TVM conversion are :mod:`tilelayout.tirx.symbolic`'s and
:mod:`tilelayout.tirx.spelling`'s (bound into :data:`_IMPL` when ``tilelayout.tirx`` is
imported); see :mod:`tilelayout.tirx.symbolic` for the whole story.

>>> x = Var("x")
>>> e = x * 4 + 1
>>> type(e).__name__, type(e.a).__name__, e.b.value
('Add', 'Mul', 1)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from ..core.errors import LayoutError, LayoutTypeError, shown

#: the operations defined by the modules above this one: name -> function
_IMPL: dict[str, Callable[..., Any]] = {}


def register(**functions: Callable[..., Any]) -> None:
    """Bind the operations the nodes delegate to (``add``, ``key``, ``evaluate``, ...)."""
    _IMPL.update(functions)


MAX_DEPTH = 100


class Op:
    """A TIRx intrinsic, as ``tvm.ir.Op``: ``.name`` is ``"tirx.bitwise_xor"`` ..."""

    __slots__ = ("name", "symbol")

    def __init__(self, name: str, symbol: str) -> None:
        self.name = name
        self.symbol = symbol

    def __repr__(self) -> str:
        return f"Op({self.name!r})"


XOR = Op("tirx.bitwise_xor", "^")


AND = Op("tirx.bitwise_and", "&")


OR = Op("tirx.bitwise_or", "|")


SHL = Op("tirx.shift_left", "<<")


SHR = Op("tirx.shift_right", ">>")


_OPS = MappingProxyType({op.name: op for op in (XOR, AND, OR, SHL, SHR)})


class PrimExpr:
    """An integer index expression (the base of every node). Arithmetic and bitwise
    operators build new (simplified) expressions; ``==`` compares structurally (see the
    module docstring); ``bool()`` is refused (an expression has no truth value)."""

    __slots__ = ("_memo", "_depth")
    dtype = "int32"

    # -- operators ------------------------------------------------------------------
    def __add__(self, o: object) -> Any:
        return _IMPL["add"](self, o)

    def __radd__(self, o: object) -> Any:
        return _IMPL["add"](o, self)

    def __sub__(self, o: object) -> Any:
        return _IMPL["sub"](self, o)

    def __rsub__(self, o: object) -> Any:
        return _IMPL["sub"](o, self)

    def __mul__(self, o: object) -> Any:
        return _IMPL["mul"](self, o)

    def __rmul__(self, o: object) -> Any:
        return _IMPL["mul"](o, self)

    def __floordiv__(self, o: object) -> Any:
        return _IMPL["floordiv"](self, o)

    def __rfloordiv__(self, o: object) -> Any:
        return _IMPL["floordiv"](o, self)

    def __mod__(self, o: object) -> Any:
        return _IMPL["floormod"](self, o)

    def __rmod__(self, o: object) -> Any:
        return _IMPL["floormod"](o, self)

    def __xor__(self, o: object) -> Any:
        return _IMPL["bitwise"](XOR, self, o)

    def __rxor__(self, o: object) -> Any:
        return _IMPL["bitwise"](XOR, o, self)

    def __and__(self, o: object) -> Any:
        return _IMPL["bitwise"](AND, self, o)

    def __rand__(self, o: object) -> Any:
        return _IMPL["bitwise"](AND, o, self)

    def __or__(self, o: object) -> Any:
        return _IMPL["bitwise"](OR, self, o)

    def __ror__(self, o: object) -> Any:
        return _IMPL["bitwise"](OR, o, self)

    def __lshift__(self, o: object) -> Any:
        return _IMPL["shift"](SHL, self, o)

    def __rlshift__(self, o: object) -> Any:
        return _IMPL["shift"](SHL, o, self)

    def __rshift__(self, o: object) -> Any:
        return _IMPL["shift"](SHR, self, o)

    def __rrshift__(self, o: object) -> Any:
        return _IMPL["shift"](SHR, o, self)

    def __neg__(self) -> Any:
        return _IMPL["mul"](self, -1)

    def __pos__(self) -> PrimExpr:
        return self

    # -- comparison -----------------------------------------------------------------
    def __eq__(self, other: object) -> bool:  # type: ignore[override]
        try:
            theirs = _IMPL["node"](other)
        except LayoutError:
            return False
        return _IMPL["key"](self) == _IMPL["key"](theirs)

    def __ne__(self, other: object) -> bool:  # type: ignore[override]
        return not self == other

    def __hash__(self) -> int:
        return hash(_IMPL["key"](self))

    def __bool__(self) -> bool:
        raise LayoutTypeError(f"the symbolic expression {self} has no truth value; bind its "
                              f"variables (.evaluate) or compare with ==")

    # -- use ------------------------------------------------------------------------
    def evaluate(self, bindings: Mapping[object, int] | None = None, **by_name: int) -> Any:
        """The value with the variables in ``bindings`` (keys: the variable objects, ours or
        TVM's, or their names; or keyword arguments by name) replaced: an ``int`` when
        every variable is bound, else the partly evaluated expression.

        >>> x = Var("x")
        >>> (x * 4 + 1).evaluate({x: 2}), (x * 4 + 1).evaluate(x=3)
        (9, 13)
        """
        return _IMPL["evaluate"](self, bindings or {}, by_name)

    def free_vars(self) -> tuple[object, ...]:
        """The variables the expression reads, in first-use order (Let-bound ones excluded).

        >>> x, y = Var("x"), Var("y")
        >>> [v.name for v in (y * 2 + x).free_vars()]
        ['y', 'x']
        """
        return _IMPL["free_vars"](self)

    def to_c(self) -> str:
        """The expression in C (and CUDA / C++), as ``tl.codegen`` spells index arithmetic:
        powers of two as shifts and masks; a ``Let`` inlined. C's ``/`` and ``%`` are
        TIRx's ``//`` and ``%`` for non-negative operands only (as in generated code).

        >>> x = Var("x")
        >>> ((x // 16) * 32 + x % 16).to_c()
        '((x >> 4) << 5) + (x & 15)'
        """
        return _IMPL["to_c"](self)

    def to_tvm(self) -> Any:
        """The same expression as apache-tvm-tirx's ``PrimExpr`` (needs the ``tvm`` extra);
        our variables become TVM ``int32`` variables, one per variable object.

        >>> Var("x").to_tvm()  # doctest: +SKIP
        x
        """
        return _IMPL["to_tvm"](self)

    def __tvm_ffi_object__(self) -> Any:  # TVM's functions accept the expression directly
        return self.to_tvm()

    def __str__(self) -> str:
        return _IMPL["str"](self)

    __repr__ = __str__

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:  # IPython
        p.text(str(self))


class IntImm(PrimExpr):
    """An integer constant inside an expression (``.value``); a result that is constant
    is returned as a Python ``int`` instead."""

    __slots__ = ("value",)

    def __init__(self, value: int) -> None:
        self.value = value


class Var(PrimExpr):
    """An index variable: ``Var("x")`` (TIRx's ``T.Var``/``tvm.tirx.Var``; the type, when
    given, is recorded and used for TVM conversion).

    >>> Var("tx", "int32").name
    'tx'
    """

    __slots__ = ("name", "dtype", "_tvm")

    def __init__(self, name: str = "v", dtype: str = "int32", ty: str | None = None) -> None:
        if not isinstance(name, str) or not name.isidentifier() or len(name) > 64:
            raise LayoutError(f"a variable name is an identifier of at most 64 characters, "
                              f"got {shown(name)}")
        dtype = ty if ty is not None else dtype
        if not isinstance(dtype, str) or _int_bits(dtype) is None:
            raise LayoutError(f"a variable's type is an integer type such as 'int32', got "
                              f"{shown(dtype)}")
        self.name = name
        self.dtype = dtype
        self._tvm = None

    def same_as(self, other: object) -> bool:
        """Whether ``other`` is this variable (TIRx's ``same_as``)."""
        return other is self


def depth_of(*children: Any) -> int:
    """One more than the deepest child (leaves are depth 0); a node deeper than
    :data:`MAX_DEPTH` is refused, so every walk over an expression stays shallow."""
    d = 1 + max((getattr(c, "_depth", 0) for c in children), default=0)
    if d > MAX_DEPTH:
        raise LayoutError(f"an index expression nested deeper than {MAX_DEPTH} levels")
    return d


class _Binary(PrimExpr):
    __slots__ = ("a", "b")

    def __init__(self, a: Any, b: Any) -> None:
        self._depth = depth_of(a, b)
        self.a = a
        self.b = b


class Add(_Binary):
    """``a + b``."""

    __slots__ = ()


class Sub(_Binary):
    """``a - b``."""

    __slots__ = ()


class Mul(_Binary):
    """``a * b``."""

    __slots__ = ()


class FloorDiv(_Binary):
    """``a // b`` (floor division, TIRx's ``floordiv``)."""

    __slots__ = ()


class FloorMod(_Binary):
    """``a % b`` (floor modulo, TIRx's ``floormod``)."""

    __slots__ = ()


class Call(PrimExpr):
    """A TIRx intrinsic call: ``op.name`` is ``tirx.bitwise_xor`` / ``_and`` / ``_or`` or
    ``tirx.shift_left`` / ``_right``; ``args`` its two operands."""

    __slots__ = ("op", "args")

    def __init__(self, op: Op, args: tuple[Any, Any]) -> None:
        self._depth = depth_of(*args)
        self.op = op
        self.args = args


class Cast(PrimExpr):
    """``value`` converted to the integer type ``dtype`` (wrapping as C does)."""

    __slots__ = ("dtype", "value")

    def __init__(self, dtype: str, value: Any) -> None:
        self._depth = depth_of(value)
        self.dtype = dtype
        self.value = value


class Let(PrimExpr):
    """``body`` with ``var`` bound to ``value`` (TIRx's ``Let``)."""

    __slots__ = ("var", "value", "body")

    def __init__(self, var: Any, value: Any, body: Any) -> None:
        self._depth = depth_of(value, body)
        self.var = var
        self.value = value
        self.body = body


_BINARY = MappingProxyType({"Add": Add, "Sub": Sub, "Mul": Mul, "FloorDiv": FloorDiv,
                            "FloorMod": FloorMod})


_FOREIGN_BITWISE = MappingProxyType({"BitwiseXor": XOR, "BitwiseAnd": AND, "BitwiseOr": OR,
                                     "LShift": SHL, "RShift": SHR})


# -- foreign (apache-tvm-tirx) values -----------------------------------------------------
def is_foreign(value: object) -> bool:
    """Whether ``value`` is an apache-tvm-tirx object (a ``PrimExpr`` or ``Var``).

    >>> is_foreign(3), is_foreign(Var("x"))
    (False, False)
    """
    return type(value).__module__.split(".", 1)[0] in ("tvm_tirx", "tvm", "tvm_ffi")


def _foreign_var(value: object) -> bool:
    return is_foreign(value) and type(value).__name__ in ("Var", "PrimVar", "SizeVar")


def is_symbolic(value: object) -> bool:
    """Whether ``value`` is a symbolic index (ours or TVM's), not a plain integer.

    >>> is_symbolic(Var("x") + 1), is_symbolic(4)
    (True, False)
    """
    return isinstance(value, PrimExpr) or is_foreign(value)


def _int_bits(dtype: str) -> tuple[bool, int] | None:
    for prefix, signed in (("uint", False), ("int", True)):
        rest = dtype[len(prefix):] if dtype.startswith(prefix) else None
        if rest is not None and rest.isdigit() and 1 <= int(rest) <= 64:
            return signed, int(rest)
    return None


__all__ = ["AND", "MAX_DEPTH", "depth_of", "OR", "SHL", "SHR", "XOR", "Add", "Call", "Cast", "FloorDiv",
           "FloorMod", "IntImm", "Let", "Mul", "Op", "PrimExpr", "Sub", "Var", "is_foreign",
           "is_symbolic", "register"]
