"""Compiled code shared by generated sources that differ only in their integers.

The scalar fast path (:mod:`tilelayout.eval.compiled`) generates one small Python
function per layout and shape. Layouts of the same structure -- the same iters and axes
with other extents, strides or offsets, or one layout over shapes of the same rank --
generate the same text except for the integers in it, and Python's ``compile`` costs about
a hundred microseconds per function, more than generating the text costs. So the
generator writes each integer as a placeholder (:class:`Literals`: the ``k``-th integer
written is the constant ``MARK + k``) and keeps its value. The text with placeholders,
the *template*, is itself a source: it is compiled once (:func:`template_code`), and a
source of that template gets the compiled code with its own integers in the placeholders'
places among the code's constants (``CodeType.replace``): the bytecode ``compile`` makes
of the source, each integer a constant, without compiling it.

A template whose compiled constants are not exactly its placeholders (the compiler folded
an expression of them, such as ``-k``, or the text has an integer not written as a
placeholder) is not shared: its sources are compiled as they are.

>>> spell = Literals()
>>> template = f"def f(x):\\n    return (x >> {spell(2)}) + {spell(7)}\\n"
>>> template.splitlines()[1], spell.values
('    return (x >> 1048576) + 1048577', [2, 7])
>>> namespace = {}
>>> exec(code_of(template, tuple(spell.values)), namespace)
>>> namespace["f"](12), source_of(template, (2, 7)).splitlines()[1]
(10, '    return (x >> 2) + 7')
"""

from __future__ import annotations

import functools
import re
from types import CodeType

#: the template's ``k``-th integer is written as the constant ``MARK + k`` (a placeholder).
#: A constant the compiler folds from placeholders (``-m``, ``m1 + m2``, ``m1 & m2``)
#: consumes them, so a template whose constants are not exactly one of each placeholder
#: is detected (:func:`template_code`)
MARK = 1 << 20
#: an integer literal of a source (not the digits of a name such as ``i0``)
_INTEGER = re.compile(r"(?<![\w.])\d+")
#: templates kept (least recently used dropped first)
TEMPLATE_CACHE_SIZE = 256
#: the compiled code's file name (for tracebacks)
FILENAME = "<tilelayout plan>"


class Literals:
    """A ``spell`` for the expression renderer (:func:`~tilelayout.eval.expressions.render`):
    each integer written as its placeholder (``MARK`` plus its position in ``values``),
    its value kept in ``values`` in text order.

    >>> spell = Literals([4])
    >>> spell(128), spell(-3), spell.values
    ('1048577', '1048578', [4, 128, -3])
    """

    __slots__ = ("values",)

    def __init__(self, values: list[int] | tuple[int, ...] = ()) -> None:
        self.values = list(values)

    def __call__(self, value: int) -> str:
        values = self.values
        values.append(value)
        return str(MARK - 1 + len(values))


def source_of(template: str, values: tuple[int, ...]) -> str:
    """The source text: ``template`` with ``values`` in its placeholders' places.

    >>> source_of("x = 1048576 + y * 1048577", (3, -2))
    'x = 3 + y * -2'
    """

    def value(match: re.Match[str]) -> str:
        k = int(match.group()) - MARK
        return str(values[k]) if 0 <= k < len(values) else match.group()

    return _INTEGER.sub(value, template)


# A cache, not state: a pure function of its (immutable) arguments, bounded.
@functools.lru_cache(maxsize=TEMPLATE_CACHE_SIZE)
def template_code(template: str, holes: int) -> CodeType | None:
    """The module code of ``template`` (a source with ``holes`` placeholders), or None
    when the compiler did not keep each placeholder as one constant of its own.

    >>> template_code("x = 1048576 + y", 1).co_consts[0] - MARK
    0
    >>> template_code("x = -1048576", 1) is None, template_code("x = 1048576 + 1", 1) is None
    (True, True)
    """
    code = compile(template, FILENAME, "exec")
    return code if sorted(_int_constants(code)) == list(range(MARK, MARK + holes)) else None


def code_of(template: str, values: tuple[int, ...]) -> CodeType:
    """The module code of ``template`` with ``values`` in its placeholders' places: the
    template's compiled code with those constants (:func:`template_code`), or, when the
    template is not shared, the source compiled.

    >>> a, b = code_of("y = x + 1048576", (1,)), code_of("y = x + 1048576", (2,))
    >>> [eval(c, {"x": 10}, ns := {}) or ns["y"] for c in (a, b)]
    [11, 12]
    """
    code = template_code(template, len(values))
    if code is None:
        return compile(source_of(template, values), FILENAME, "exec")
    return _fill(code, values)


def _int_constants(code: CodeType) -> list[int]:
    out: list[int] = []
    for c in code.co_consts:
        _ints(c, out)
    return out


def _ints(c: object, out: list[int]) -> None:
    """The int constants in ``c``: a code object's, a constant tuple's (``('pid', 3)`` is
    folded into one constant), or ``c`` itself."""
    if type(c) is int:
        out.append(c)
    elif type(c) is CodeType:
        out += _int_constants(c)
    elif type(c) is tuple:
        for x in c:
            _ints(x, out)


def _fill(code: CodeType, values: tuple[int, ...]) -> CodeType:
    """``code`` (and the code objects and constant tuples it holds) with each placeholder
    ``MARK + k`` replaced by ``values[k]`` (its int constants are exactly the placeholders:
    :func:`template_code`)."""
    consts = list(code.co_consts)
    for i, c in enumerate(consts):
        if type(c) is int:
            consts[i] = values[c - MARK]
        elif type(c) is CodeType:
            consts[i] = _fill(c, values)
        elif type(c) is tuple:
            consts[i] = _filled(c, values)
    return code.replace(co_consts=tuple(consts))


def _filled(c: tuple, values: tuple[int, ...]) -> tuple:
    return tuple(values[x - MARK] if type(x) is int
                 else _filled(x, values) if type(x) is tuple else x for x in c)
