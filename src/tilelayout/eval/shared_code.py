"""Compiled code shared by generated sources that differ only in their integers.

The scalar fast path (:mod:`tilelayout.eval.compiled`) generates one small Python
function per layout and shape. Layouts of the same structure -- the same iters and axes
with other extents, strides or offsets, or one layout over shapes of the same rank --
generate the same text except for the integers in it, and Python's ``compile`` costs about
a hundred microseconds per function, twice what generating the text costs. So the
generator writes each integer as a hole (:class:`Literals`) and keeps its value: the
text with holes, the *template*, is compiled once with a distinct placeholder integer in
each hole (:func:`template_code`), and a source of that template gets the compiled code
with its own integers in the placeholders' places among the code's constants
(``CodeType.replace``): the bytecode ``compile`` makes of the source, each integer a
constant, without compiling it.

A template whose compiled constants are not exactly its placeholders (the compiler folded
an expression of them, such as ``-3``, or the text has an integer not written as a hole)
is not shared: its sources are compiled as they are.

>>> spell = Literals()
>>> template = f"def f(x):\\n    return (x >> {spell(2)}) + {spell(7)}\\n"
>>> namespace = {}
>>> exec(code_of(template, tuple(spell.values)), namespace)
>>> namespace["f"](12), source_of(template, (2, 7)).splitlines()[1]
(10, '    return (x >> 2) + 7')
"""

from __future__ import annotations

import functools
from types import CodeType

#: where a template has an integer (a character generated code never holds)
HOLE = "\0"
#: the template's hole ``k`` is compiled as the constant ``_MARK + k``. A constant the
#: compiler folds from marks (``-m``, ``m1 + m2``, ``m1 & m2``) consumes them, so a template
#: whose constants are not exactly one of each mark is detected (:func:`template_code`)
_MARK = 1 << 20
#: templates kept (least recently used dropped first)
TEMPLATE_CACHE_SIZE = 256
#: the compiled code's file name (for tracebacks)
FILENAME = "<tilelayout plan>"


class Literals:
    """A ``spell`` for the expression renderer (:func:`~tilelayout.eval.expressions.render`):
    each integer written as :data:`HOLE`, its value kept in ``values`` in text order.

    >>> spell = Literals([4])
    >>> spell(128), spell(-3), spell.values
    ('\\x00', '\\x00', [4, 128, -3])
    """

    __slots__ = ("values",)

    def __init__(self, values: list[int] | tuple[int, ...] = ()) -> None:
        self.values = list(values)

    def __call__(self, value: int) -> str:
        self.values.append(value)
        return HOLE


def source_of(template: str, values: tuple[int, ...]) -> str:
    """The source text: ``template`` with ``values`` in its holes.

    >>> source_of("x = \\0 + y * \\0", (3, -2))
    'x = 3 + y * -2'
    """
    pieces = template.split(HOLE)
    return "".join(p + v for p, v in zip(pieces, [*map(str, values), ""], strict=True))


# A cache, not state: a pure function of its (immutable) argument, bounded.
@functools.lru_cache(maxsize=TEMPLATE_CACHE_SIZE)
def template_code(template: str) -> CodeType | None:
    """The module code of ``template`` with placeholder constants in its holes, or None
    when the compiler did not keep each hole as one constant of its own.

    >>> template_code("x = \\0 + y").co_consts[0] - _MARK
    0
    >>> template_code("x = -\\0") is None, template_code("x = \\0 + 1") is None
    (True, True)
    """
    holes = template.count(HOLE)
    code = compile(source_of(template, tuple(range(_MARK, _MARK + holes))), FILENAME, "exec")
    return code if sorted(_int_constants(code)) == list(range(_MARK, _MARK + holes)) else None


def code_of(template: str, values: tuple[int, ...]) -> CodeType:
    """The module code of ``template`` with ``values`` in its holes: the template's
    compiled code with those constants (:func:`template_code`), or, when the template is
    not shared, the source compiled.

    >>> a, b = code_of("y = x + \\0", (1,)), code_of("y = x + \\0", (2,))
    >>> [eval(c, {"x": 10}, ns := {}) or ns["y"] for c in (a, b)]
    [11, 12]
    """
    code = template_code(template)
    if code is None:
        return compile(source_of(template, values), FILENAME, "exec")
    return _fill(code, values)


def _int_constants(code: CodeType) -> list[int]:
    out = []
    for c in code.co_consts:
        if type(c) is CodeType:
            out += _int_constants(c)
        elif type(c) is int:
            out.append(c)
    return out


def _fill(code: CodeType, values: tuple[int, ...]) -> CodeType:
    """``code`` (and the code objects it holds) with each mark ``_MARK + k`` replaced by
    ``values[k]`` (its int constants are exactly the marks: :func:`template_code`)."""
    consts = tuple(_fill(c, values) if type(c) is CodeType
                   else values[c - _MARK] if type(c) is int else c
                   for c in code.co_consts)
    return code.replace(co_consts=consts)
