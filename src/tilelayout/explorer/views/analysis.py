"""The analysis panel's endpoints: ``POST /api/access`` (the banks one request touches)
and ``POST /api/analysis`` (legality findings and the bank conflicts of tile reads)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from ...analysis.banks import bank_access
from ...analysis.legality import legality
from ...analysis.reads import tile_reads
from ...core.compose import Layout
from ...core.errors import LayoutError
from ...render.svg import MAX_ELEMENTS
from .. import request
from ..request import MAX_QUERY, ApiError


def access_view(req: Mapping[str, Any]) -> dict[str, Any]:
    """``POST /api/access``: the shared-memory banks touched when ``elements`` (flat
    indices) are read by one request: words, banks, and the worst number of distinct
    words asked of one bank (1 = conflict-free, k = a k-way conflict).

    >>> a = access_view({"layout": "S[(8,64):(64,1)]", "dtype": "float16",
    ...                  "elements": [0, 64, 128, 192]})
    >>> a["banks"], a["ways"]
    ([0], 4)
    """
    layout, shape, dtype, _ = request.resolve(req)
    if not request.has_banks(layout, dtype):
        raise ApiError("bank analysis needs a dtype and a shared-memory layout (axis m, "
                       "no thread axis)", field="dtype")
    raw = req.get("elements")
    n = math.prod(shape)
    if not isinstance(raw, list) or not raw or len(raw) > MAX_QUERY:
        raise ApiError(f"'elements' must be a list of 1..{MAX_QUERY} flat indices",
                       field="elements")
    if not all(isinstance(e, int) and not isinstance(e, bool) and 0 <= e < n for e in raw):
        raise ApiError(f"'elements' must be flat indices in [0, {n})", field="elements")
    if n > MAX_ELEMENTS:
        raise ApiError("the layout is too large for the explorer", 413)
    assert dtype is not None
    try:
        return bank_access(layout, dtype, shape, raw).to_dict()
    except LayoutError as exc:
        raise ApiError(str(exc)) from None


def _legality(layout: Layout, shape: tuple[int, ...], dtype: str | None) -> dict[str, Any]:
    """The legality report; the page highlights element-level findings, so layout-level
    ones carry ``elements: null``."""
    report = legality(layout, shape, dtype)
    findings = [{**f.to_dict(), "elements": list(f.elements) if f.element_level else None}
                for f in report.findings]
    return {"ok": report.ok, "findings": findings}


def analysis_view(req: Mapping[str, Any]) -> dict[str, Any]:
    """``POST /api/analysis``: the legality report (``analysis.legality.legality``; each
    finding also lists the flat indices of all its elements) and, for a shared-memory
    layout with a dtype, the bank conflicts of reading it by 16-byte columns and rows.

    >>> a = analysis_view({"layout": "S[64:1@laneid]"})
    >>> [(f["kind"], len(f["elements"])) for f in a["legality"]["findings"]]
    [('out_of_range', 32)]
    >>> c = analysis_view({"layout": "S[(8,64):(64,1)]", "dtype": "float16"})["conflicts"]
    >>> [(r["order"], r["wavefronts"], r["ideal"], r["worst"]["ways"]) for r in c["reads"]]
    [('column', 64, 8, 8), ('row', 8, 8, 1)]
    """
    layout, shape, dtype, _ = request.resolve(req)
    if not request.drawable(layout, shape):
        raise ApiError("the layout is too large for the explorer's analysis; use the "
                       "library (tilelayout.analysis) directly", 413)
    try:
        out: dict[str, Any] = {"legality": _legality(layout, shape, dtype), "conflicts": None}
        if request.has_banks(layout, dtype):
            assert dtype is not None
            out["conflicts"] = tile_reads(layout, shape, dtype).to_dict()
    except LayoutError as exc:
        raise ApiError(str(exc)) from None
    return out
