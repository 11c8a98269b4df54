"""Names in generated code: a local variable per layout axis that is a safe identifier
in every target language (Python, C, C++, CUDA, Triton).

>>> local_names(("m", "while"))
('m', 'axis1')
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Sequence

__all__ = ["C_WORDS", "local_names"]

_IDENT = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
#: words no generated identifier may be in any target language (C/C++/CUDA keywords, ...)
C_WORDS = frozenset(
    [
        "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else",
        "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long", "register",
        "restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch",
        "typedef", "union", "unsigned", "void", "volatile", "while", "bool", "true", "false",
        "class", "new", "delete", "this", "template", "typename", "namespace", "operator",
        "private", "public", "protected", "virtual", "friend", "using", "__host__", "__device__",
        "triton", "tl",
    ]
)
_RESERVED = re.compile(r"^(?:[a-z]\d+(?:_\w+)?|r|out|ok|flat|found\w*|take\w*|layout_fn)$")


def local_names(axes: Sequence[str]) -> tuple[str, ...]:
    """A local variable name per axis: the axis name when it is a safe identifier in
    every target language, else ``axis<k>``.

    >>> local_names(("laneid", "m", "for"))
    ('laneid', 'm', 'axis2')
    """
    out = []
    for k, a in enumerate(axes):
        ok = bool(_IDENT.match(a)) and not keyword.iskeyword(a) and a not in C_WORDS
        out.append(a if ok and not _RESERVED.match(a) else f"axis{k}")
    return tuple(out)
