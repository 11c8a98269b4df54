"""``POST /api/codegen``: the current layout's index map as code, for the page's panel.

Request: ``{"layout": text | {"preset": name, "params": {...}}, "shape"?: [..] | "8,16",
"lang": "python" | "c" | "cpp" | "cuda" | "triton", "inverse"?: bool, "name"?: str}``
(plus the usual ``dtype`` / ``swizzle`` of ``/api/layout``). Answer: ``{"layout",
"shape", "lang", "inverse", "ok": true, "code"}``, or ``"ok": false`` with the
``reason`` when the layout has no such code (an inverse where two elements share a
coordinate, values beyond 64 bits). Bad input (text, shape, language) is a 400.

>>> r = codegen_view({"layout": "S[(8,4):(4@laneid,1@laneid)]", "lang": "cuda"})
>>> r["ok"], r["code"].splitlines()[0]
(True, '__host__ __device__ inline void layout_fn(long long i0, long long i1, long long *out) {')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...codegen.generate import CodegenError, codegen
from ...codegen.languages import LANGUAGES
from ...core import budget
from ...core.errors import LayoutError
from .. import catalog, request
from ..request import MAX_PAIRS, ApiError


def codegen_view(req: Mapping[str, Any]) -> dict[str, Any]:
    """``POST /api/codegen`` (see the module docstring)."""
    lang = request.json_object(req).get("lang", "python")
    if lang not in LANGUAGES:
        raise ApiError(f"'lang' must be one of {', '.join(LANGUAGES)}", field="lang")
    inverse = req.get("inverse", False)
    if not isinstance(inverse, bool):
        raise ApiError("'inverse' must be true or false", field="inverse")
    name = req.get("name", "layout_fn")
    spec = dict(req)
    given = req.get("layout")
    if isinstance(given, Mapping):
        if not isinstance(given.get("preset"), str):
            raise ApiError("a layout object must be {\"preset\": name, \"params\": {...}}",
                           field="layout")
        entry = catalog.preset_entry({"name": given["preset"], "params": given.get("params") or {}})
        spec["layout"] = entry["layout"]
        if spec.get("shape") in (None, "", []):
            spec["shape"] = entry["shape"]
    layout, shape, _, _ = request.resolve(spec)
    answer: dict[str, Any] = {"layout": str(layout), "shape": list(shape), "lang": lang,
                              "inverse": inverse}
    try:
        cap = budget.current().replace(elements=min(budget.current().elements, MAX_PAIRS))
        code = codegen(layout, shape, lang=lang, name=name, inverse=inverse, limits=cap)
    except CodegenError as exc:
        raise ApiError(str(exc), field="name") from None
    except LayoutError as exc:
        return {**answer, "ok": False, "reason": str(exc)}
    return {**answer, "ok": True, "code": code}
