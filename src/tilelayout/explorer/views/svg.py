"""``POST /api/svg``: the picture of the drawn layout as SVG, from :mod:`tilelayout.render.svg`.

The same request as ``/api/layout`` (``layout``, ``shape``, ``dtype``, ``swizzle``) plus
the page's view state: ``color`` (the colour key), ``highlight`` (flat element indices),
``selected`` (one flat index), ``dim``, ``tiles_per_row``, ``width`` (pixels), ``order``
(the axes the physical tiles follow, as for ``/api/layout``) and, from
the page's export, ``view`` (:class:`~tilelayout.render.page_view.PageView`: both views'
geometry at the current zoom, text sizes, labels thinned, tile names, the selection's
rings, the colour key's name, the captions, the theme), which draws the picture as the
page shows it (:func:`~tilelayout.render.page_svg.page_svg`; ``highlight``, ``selected``,
``tiles_per_row`` and ``width`` are then the view's). The answer is ``{"svg": text}``;
bad view state is a 400 with its ``field``.

>>> r = svg_view({"layout": "S[(4,8):(8@laneid,1@laneid)]", "selected": 5})
>>> r["svg"].startswith("<svg") and r["svg"].count('class="connector"')
1
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.errors import LayoutError
from ...render.page_svg import page_svg
from ...render.page_view import PageView, PageViewError
from ...render.svg import MAX_WIDTH, RenderError, layout_svg
from .. import request
from ..request import MAX_QUERY, ApiError


def _optional_int(req: Mapping[str, Any], key: str) -> int | None:
    value = req.get(key)
    if value is None or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    raise ApiError(f"'{key}' must be a whole number, got {type(value).__name__}", field=key)


def svg_view(req: Mapping[str, Any]) -> dict[str, Any]:
    """``POST /api/svg`` (see the module docstring)."""
    layout, shape, dtype, _ = request.resolve(req)
    marked = req.get("highlight") or []
    if not isinstance(marked, list) or len(marked) > MAX_QUERY:
        raise ApiError(f"'highlight' must be a list of at most {MAX_QUERY} flat indices",
                       field="highlight")
    dim = req.get("dim", False)
    if not isinstance(dim, bool):
        raise ApiError("'dim' must be true or false", field="dim")
    width = _optional_int(req, "width")
    try:
        page = None if req.get("view") is None else PageView.parse(req["view"])
    except PageViewError as exc:
        raise ApiError(str(exc), field="view") from None
    try:
        if page is not None:
            svg = page_svg(layout, shape, dtype, request.text(req, "color"), page=page, dim=dim,
                           order=request.order(req))
        else:
            svg = layout_svg(layout, shape, dtype, color=request.text(req, "color"),
                             width=1100 if width is None else min(width, MAX_WIDTH),
                             highlight=marked, selected=_optional_int(req, "selected"), dim=dim,
                             tiles_per_row=_optional_int(req, "tiles_per_row"),
                             order=request.order(req))
    except RenderError as exc:
        raise ApiError(str(exc)) from None
    except LayoutError as exc:
        raise ApiError(str(exc), field="layout") from None
    return {"svg": svg}
