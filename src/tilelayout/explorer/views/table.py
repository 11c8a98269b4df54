"""``POST /api/table``: the text alternative of the explorer's views.

The table form of the layout, exactly as ``layout.table(shape)`` prints it (one cell per
logical element listing its owners), for screen readers and for copying. Offered up to
:data:`MAX_TABLE_ELEMENTS` elements; above that the answer says so instead.

>>> r = table_view({"layout": "S[(2,4):(4,1)]", "shape": "2,4"})
>>> print(r["text"].splitlines()[0])
S[(2,4):(4,1)] over (2, 4); cell = m
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from ...render.table import layout_table
from .. import request

#: the most logical elements the text table is written for (a larger one is not readable)
MAX_TABLE_ELEMENTS = 8192


def table_view(req: Mapping[str, Any]) -> dict[str, Any]:
    """``{layout, shape, dtype, swizzle}`` -> ``{"text": layout.table(shape)}``, or
    ``{"text": None, "too_large": why}`` above :data:`MAX_TABLE_ELEMENTS` elements."""
    layout, shape, _, _ = request.resolve(req)
    n = math.prod(shape)
    if n > MAX_TABLE_ELEMENTS:
        return {"text": None, "too_large": (
            f"{n:,} elements: the text table is written for at most "
            f"{MAX_TABLE_ELEMENTS:,}; pick a smaller shape to read it as text")}
    return {"text": layout_table(layout, shape)}
