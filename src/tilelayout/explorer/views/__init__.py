"""The explorer's endpoints, one module per route: plain functions from a request dict to
a JSON-ready answer dict. Each reads its request through :mod:`tilelayout.explorer.request`
(bad input is an ``ApiError``) and calls the library; none knows about HTTP.

Routes (:data:`GET`, :data:`POST`; the server and ``answers.answer`` both route here)::

    GET  /api/presets       teaching examples + the preset registry          (.presets)
    GET  /api/options       dtypes, swizzle modes, size caps                 (.options)
    POST /api/layout        layout text, shape, dtype, swizzle -> everything the page draws
                            (+ panels, codegen -> the side panels' answers: .panels)
    POST /api/explain       ... + index -> the four steps for one element
    POST /api/elements_at   ... + coords -> the logical elements held there
    POST /api/access        ... + elements -> shared-memory banks and conflict ways (.analysis)
    POST /api/preset        name + params -> a registry preset built with those parameters
    POST /api/analysis      layout ... -> legality findings (with their elements), bank conflicts
    POST /api/convert       layout ... (+ mesh, targets) -> CuTe / CuTe TV / JAX / Triton / TVM
                            text for each target, or the converter's refusal reason
    POST /api/codegen       layout, shape, lang, inverse -> the index map as code
    POST /api/smem          writer, reader, shape, dtype, family -> the shared-memory layout
    POST /api/plan          src, dst, shape, dtype -> the conversion plan and its stages
    POST /api/table         layout ... -> the table form (layout.table()), the views' text
    POST /api/svg           layout ... + colour, selection, tiles per row -> the picture (render.svg)

>>> sorted(GET), len(POST)
(['/api/options', '/api/presets'], 12)
"""

from __future__ import annotations

from collections.abc import Callable
from types import MappingProxyType
from typing import Any

from . import analysis, codegen, convert, elements_at, explain, layout, options, plan, presets, smem, table
from . import svg as svg_picture

#: GET routes: path -> the view (no request body)
GET: MappingProxyType[str, Callable[[], dict[str, Any]]] = MappingProxyType({
    "/api/presets": presets.presets,
    "/api/options": options.options,
})
#: POST routes: path -> the view of the decoded JSON body
POST: MappingProxyType[str, Callable[[dict[str, Any]], dict[str, Any]]] = MappingProxyType({
    "/api/layout": layout.layout_view,
    "/api/explain": explain.explain_view,
    "/api/elements_at": elements_at.elements_at_view,
    "/api/access": analysis.access_view,
    "/api/preset": presets.preset_view,
    "/api/analysis": analysis.analysis_view,
    "/api/convert": convert.convert_view,
    "/api/smem": smem.smem_view,
    "/api/plan": plan.plan_view,
    "/api/codegen": codegen.codegen_view,
    "/api/table": table.table_view,
    "/api/svg": svg_picture.svg_view,
})
