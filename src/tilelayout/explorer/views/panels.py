"""The side panels' answers carried by ``POST /api/layout``, so one edit is one request.

The page asks ``/api/layout`` with ``panels`` (any of :data:`PANELS`) and, while its code
panel is open, ``codegen`` (``{"lang", "inverse"}``); the answer's ``panels`` holds each
panel's answer for the drawn layout -- the answer its own route (``/api/analysis``,
``/api/convert``, ``/api/table``, ``/api/codegen``) gives -- or ``{"error": why}`` when that
panel was refused, which leaves the drawing and the other panels standing.

>>> from tilelayout.explorer.views.layout import layout_view
>>> r = layout_view({"layout": "S[(2,4):(4,1)]", "panels": ["table", "analysis"]})
>>> sorted(r["panels"]), r["panels"]["analysis"]["legality"]["ok"]
(['analysis', 'table'], True)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from ...core.errors import BudgetError, LayoutError
from ..messages import for_page
from ..request import ApiError
from .analysis import analysis_view
from .codegen import codegen_view
from .convert import convert_view
from .table import table_view

#: the panels ``/api/layout`` can answer for, and the view each one's own route runs
PANELS: MappingProxyType[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = MappingProxyType({
    "analysis": analysis_view, "convert": convert_view, "table": table_view,
})


def wanted(req: Mapping[str, Any]) -> tuple[list[str], Mapping[str, Any] | None]:
    """The panels a layout request asks for (``panels``), and its ``codegen`` options.

    >>> wanted({"panels": ["table", "table"], "codegen": {"lang": "c"}})
    (['table'], {'lang': 'c'})
    >>> wanted({"panels": ["tables"]})
    Traceback (most recent call last):
    tilelayout.explorer.request.ApiError: 'panels' must be a list of analysis, convert, table
    """
    names = req.get("panels", [])
    if not isinstance(names, list) or not all(isinstance(p, str) and p in PANELS for p in names):
        raise ApiError(f"'panels' must be a list of {', '.join(PANELS)}", field="panels")
    code = req.get("codegen")
    if code is not None and not isinstance(code, Mapping):
        raise ApiError("'codegen' must be {\"lang\": ..., \"inverse\": ...}", field="codegen")
    return list(dict.fromkeys(names)), code


def _one(view: Callable[[Mapping[str, Any]], dict[str, Any]], req: Mapping[str, Any]) -> dict[str, Any]:
    try:
        return view(req)
    except ApiError as exc:
        return {"error": for_page(exc.message)}
    except (BudgetError, LayoutError) as exc:
        return {"error": str(exc)[:2000]}


def panel_answers(drawn: Mapping[str, Any], names: list[str],
                  code: Mapping[str, Any] | None) -> dict[str, dict[str, Any]]:
    """Each named panel's answer for ``drawn`` (the drawn layout as a request), and the
    code panel's when ``code`` is given.

    >>> a = panel_answers({"layout": "S[4:1]", "shape": "4"}, ["table"], {"lang": "c"})
    >>> a["table"]["text"].splitlines()[0], a["codegen"]["ok"]
    ('S[4:1] over (4,); cell = m', True)
    """
    out = {name: _one(PANELS[name], drawn) for name in names}
    if code is not None:
        out["codegen"] = _one(codegen_view, {**drawn, "lang": code.get("lang", "python"),
                                             "inverse": code.get("inverse", False)})
    return out
