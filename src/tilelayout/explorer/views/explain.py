"""``POST /api/explain``: the four steps from a logical index to its coordinates."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...analysis.explain import explain
from ...core.errors import LayoutError
from .. import request
from ..request import ApiError


def explain_view(req: Mapping[str, Any]) -> dict[str, Any]:
    """``POST /api/explain``: the four steps for one element (``explain(...).to_dict()``).

    >>> d = explain_view({"layout": "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)]",
    ...                   "shape": [8, 16], "index": [7, 15]})
    >>> d["flat"], d["components"]
    (127, [7, 1, 3, 1])
    """
    layout, shape, dtype, _ = request.resolve(req)
    index = request.index(req, shape)
    try:
        return explain(layout, index, shape,
                       dtype=dtype if request.has_banks(layout, dtype) else None).to_dict()
    except LayoutError as exc:
        raise ApiError(str(exc)) from None
