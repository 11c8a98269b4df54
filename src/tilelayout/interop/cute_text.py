"""CuTe's printed layouts: ``shape:stride`` text with nested modes, CuTe's static
integers ``_4``, default column-major strides and a leading ``Swizzle<B,M,S> o``
(with a composed layout's offset: ``Swizzle<B,M,S> o 64 o ...``).

The parser is our own (no CUTLASS needed).

>>> parse_cute("((4,8),2):((32,1),16)")
(None, ((4, 8), 2), ((32, 1), 16))
"""

from __future__ import annotations

import re
from typing import Any

from ..algebra.cute.modes import MAX_DEPTH, CuteLayout, IntTuple, leaves, rebuild
from ..core import budget
from ..core.errors import LayoutParseError
from ..core.swizzle import Swizzle, signed_swizzle
from ..core.xor_swizzle import XorSwizzle
from . import InteropError

_COMPOSE = ("o", "∘", "*")
_TOKEN = re.compile(r"\s*(?:((?:Swizzle|Sw|S)\s*<)|(-?_?\d+)|(\S))")


# -- text ------------------------------------------------------------------------------
#: digits of one integer in CuTe text (more is refused by length, before any conversion)
MAX_DIGITS = 80


class _Reader:
    def __init__(self, text: str) -> None:
        if not isinstance(text, str):
            raise InteropError(f"CuTe layout text must be a string, got {type(text).__name__}")
        budget.check("CuTe layout text has", len(text), "text")
        self.text = text
        self.toks: list[tuple[str, str, int]] = []
        for m in _TOKEN.finditer(text):
            if m.group(1):
                self.toks.append(("swz", m.group(1), m.start(1)))
            elif m.group(2):
                digits = m.group(2).replace("_", "")
                if len(digits) > MAX_DIGITS:
                    raise LayoutParseError(f"CuTe layout: an integer of {len(digits)} digits; at "
                                           f"most {MAX_DIGITS}", text, m.start(2) + 1)
                self.toks.append(("int", digits, m.start(2)))
            elif m.group(3):
                self.toks.append(("sym", m.group(3), m.start(3)))
        self.k = 0

    def peek(self) -> str:
        return self.toks[self.k][1] if self.k < len(self.toks) else ""

    def fail(self, expected: str) -> LayoutParseError:
        col = self.toks[self.k][2] + 1 if self.k < len(self.toks) else len(self.text) + 1
        got = repr(self.peek()) if self.peek() else "the end"
        return LayoutParseError(f"CuTe layout: expected {expected}, got {got}", self.text, col)

    def take(self, sym: str) -> None:
        if self.peek() != sym:
            raise self.fail(repr(sym))
        self.k += 1

    def composed_by(self) -> None:
        """Take the composition sign after a swizzle or an offset."""
        if self.peek() not in _COMPOSE:
            raise self.fail("'o' (composition) after the swizzle")
        self.k += 1

    def integer(self) -> int:
        if self.k < len(self.toks) and self.toks[self.k][0] == "int":
            self.k += 1
            return int(self.toks[self.k - 1][1])
        raise self.fail("an integer")

    def tree(self) -> IntTuple:
        """One integer or nested tuple, read without recursion (at most MAX_DEPTH deep)."""
        stack: list[list[IntTuple]] = []
        while True:
            if self.peek() == "(":
                if len(stack) >= MAX_DEPTH:
                    raise self.fail(f"at most {MAX_DEPTH} nested parentheses")
                self.take("(")
                stack.append([])
                continue
            value: IntTuple = self.integer()
            while True:  # close every tuple this value ends
                if not stack:
                    return value
                stack[-1].append(value)
                if self.peek() == ",":
                    self.take(",")
                    break
                self.take(")")
                value = tuple(stack.pop())


def read_cute(text: str) -> tuple[Swizzle | XorSwizzle | None, int, IntTuple, IntTuple]:
    """``(swizzle or None, offset, shape, stride)`` from CuTe's printed form, a composed
    layout's offset included.

    As :func:`parse_cute`, and the swizzle may be followed by an offset, as CuTe prints a
    ``ComposedLayout``: ``Swizzle<B,M,S> o 64 o layout`` (CuTe C++ spells the swizzle
    ``Sw<B,M,S>``, the CUTLASS DSL ``S<B,M,S>``; both accepted, ``_0`` too).

    >>> read_cute("Sw<3,4,3> o _0 o (8,64):(64,1)")
    (Swizzle(4, 3, 3), 0, (8, 64), (64, 1))
    >>> read_cute("S<3,3,3> o 512 o (8,64):(64,1)")[:2]
    (Swizzle(3, 3, 3), 512)
    """
    r = _Reader(text)
    swizzle = None
    offset = 0
    if r.k < len(r.toks) and r.toks[r.k][0] == "swz":
        r.k += 1
        b = r.integer()
        r.take(",")
        m = r.integer()
        r.take(",")
        s = r.integer()
        r.take(">")
        r.composed_by()
        swizzle = signed_swizzle(m, b, s)  # CuTe Swizzle<B,M,S> is our Swizzle(M,B,S)
        if r.k + 1 < len(r.toks) and r.toks[r.k][0] == "int" and r.toks[r.k + 1][1] in _COMPOSE:
            offset = r.integer()
            if offset < 0:
                raise LayoutParseError(f"CuTe layout: a composed layout's offset is >= 0, got "
                                       f"{offset}", text, r.toks[r.k - 1][2] + 1)
            r.composed_by()
    shape = r.tree()
    if r.peek() == ":":
        r.take(":")
        stride = r.tree()
    else:
        stride = _compact_left(shape)
    if r.k != len(r.toks):
        raise r.fail("the end of the layout")
    check_congruent(shape, stride, text)
    return swizzle, offset, shape, stride


def parse_cute(text: str) -> tuple[Swizzle | XorSwizzle | None, IntTuple, IntTuple]:
    """``(swizzle or None, shape, stride)`` from CuTe's printed form.

    Accepts ``shape:stride`` with nested tuples, CuTe's static-integer spelling ``_4``,
    a shape alone (CuTe's default column-major compact strides) and a leading
    ``Swizzle<B,M,S> o`` (a negative ``S`` XORs the lower bit group into the higher one:
    an :class:`~tilelayout.XorSwizzle`). A nonzero composed-layout offset is refused here
    (there is no place for it): :func:`read_cute` returns it.

    >>> parse_cute("Swizzle<3,3,3> o (8,64):(64,1)")
    (Swizzle(3, 3, 3), (8, 64), (64, 1))
    >>> parse_cute("(4,(2,2))")
    (None, (4, (2, 2)), (1, (4, 8)))
    """
    swizzle, offset, shape, stride = read_cute(text)
    if offset:
        raise InteropError(f"CuTe layout {text!r} has offset {offset} between its swizzle and "
                           f"its layout; read it with read_cute or from_cute")
    return swizzle, shape, stride


def _compact_left(shape: IntTuple, start: int = 1) -> IntTuple:
    """CuTe's default (LayoutLeft) strides: column-major compact."""
    out = []
    for leaf in leaves(shape):
        out.append(start)
        start *= leaf
    return rebuild(shape, iter(out))


def check_congruent(shape: IntTuple, stride: IntTuple, text: str) -> None:
    """Refuse (InteropError) a shape and stride that are not congruent nested tuples with
    extents >= 1; ``text`` names the input in the message.

    >>> check_congruent((4, (2, 2)), (1, (4, 8)), "ok")
    """
    if isinstance(shape, tuple) != isinstance(stride, tuple) or (
        isinstance(shape, tuple) and len(shape) != len(stride)  # type: ignore[arg-type]
    ):
        raise InteropError(f"CuTe layout {text!r}: shape {shape} and stride {stride} are not congruent")
    if isinstance(shape, tuple):
        for a, b in zip(shape, stride, strict=True):  # type: ignore[arg-type]
            check_congruent(a, b, text)
    elif shape < 1:
        raise InteropError(f"CuTe layout {text!r}: extents must be >= 1, got {shape}")



def as_shape_stride(src: Any) -> tuple[Swizzle | XorSwizzle | None, IntTuple, IntTuple]:
    """``(swizzle or None, shape, stride)`` of CuTe text, a ``(shape, stride)`` pair of
    nested tuples, a :class:`~tilelayout.algebra.cute.CuteLayout` or a ``pycute.Layout``.

    >>> as_shape_stride(((4, 8), (8, 1)))
    (None, (4, 8), (8, 1))
    """
    if isinstance(src, str):
        return parse_cute(src)
    if isinstance(src, CuteLayout):
        return None, src.shape, src.stride
    if isinstance(src, tuple) and len(src) == 2:
        checked = CuteLayout(*src)  # congruent nested ints, bounded in depth and size
        return None, checked.shape, checked.stride
    if hasattr(src, "shape") and hasattr(src, "stride"):  # a pycute.Layout
        return as_shape_stride((src.shape, src.stride))
    raise InteropError(f"expected CuTe text, a (shape, stride) pair, a CuteLayout or a pycute "
                       f"Layout, got {type(src).__name__}")



__all__ = ["IntTuple", "as_shape_stride", "check_congruent", "parse_cute", "read_cute"]
