"""``POST /api/elements_at``: the inverse query, the logical elements held at coordinates."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from ...core.compose import Layout
from ...core.errors import LayoutError
from ...eval.inverse import count_at, elements_at
from ...render.svg import MAX_ELEMENTS
from .. import request
from ..request import MAX_QUERY, ApiError


def _query_coords(req: Mapping[str, Any], layout: Layout) -> list[dict[str, int]]:
    raw = req.get("coords")
    if isinstance(raw, Mapping):
        raw = [raw]
    if not isinstance(raw, list) or not raw:
        raise ApiError("'coords' must be a coordinate like {\"laneid\": 5} or a list of them",
                       field="coords")
    if len(raw) > MAX_QUERY:
        raise ApiError(f"at most {MAX_QUERY} coordinates per request", 413, field="coords")
    out = []
    for c in raw:
        if not isinstance(c, Mapping) or not c:
            raise ApiError("each coordinate must be a non-empty object axis -> integer",
                           field="coords")
        coord = {}
        for a, v in c.items():
            if a not in layout.axes:
                raise ApiError(f"axis {a!r} does not occur in {layout}", field="coords")
            if not isinstance(v, int) or isinstance(v, bool):
                raise ApiError(f"coordinate value for {a!r} must be an integer, got {v!r}",
                               field="coords")
            coord[a] = v
        out.append(coord)
    return out


def _elements_at(layout: Layout, coord: dict[str, int], shape: tuple[int, ...]
                 ) -> list[tuple[int, ...]]:
    """The library's inverse query (``tilelayout.eval.inverse.elements_at``)."""
    if count_at(layout, coord, shape) > MAX_ELEMENTS:
        raise ApiError(f"more than {MAX_ELEMENTS:,} elements sit at {coord}; narrow the query",
                       413, field="coords")
    return list(elements_at(layout, coord, shape, limit=None))  # tuples of Python ints


def elements_at_view(req: Mapping[str, Any]) -> dict[str, Any]:
    """``POST /api/elements_at``: the logical elements held at (partial) coordinates.

    ``coords`` is one coordinate ``{"laneid": 5}`` or a list of them (the answer is the
    union). Returns ``elements`` (sorted index lists) and ``flat`` (their row-major indices).

    >>> elements_at_view({"layout": "S[(8,4):(4@laneid,1@laneid)]", "coords": {"laneid": 5}})
    {'elements': [[1, 1]], 'flat': [5]}
    """
    layout, shape, _, _ = request.resolve(req)
    if math.prod(shape) > MAX_ELEMENTS * 8:
        raise ApiError("the layout is too large to search from the explorer", 413)
    found: set[tuple[int, ...]] = set()
    try:
        for coord in _query_coords(req, layout):
            found.update(_elements_at(layout, coord, shape))
    except LayoutError as exc:
        raise ApiError(str(exc), field="coords") from None
    elements = sorted(found)
    if elements and shape:
        flat = np.ravel_multi_index(tuple(np.asarray(elements, dtype=np.int64).T),
                                    shape).tolist()
    else:  # nothing found, or a 0-d layout whose one element is flat index 0
        flat = [0] * len(elements)
    return {"elements": [list(e) for e in elements], "flat": flat}
