"""``POST /api/convert``: the layout in other tools' notations (the "In other tools" panel)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from ...core.errors import LayoutError
from ...interop.convert import PANEL_TARGETS, TARGETS, convert
from .. import request
from ..request import ApiError

#: what the page's "In other tools" panel lists, with its labels
CONVERT_LABELS = MappingProxyType({"cute": "CuTe", "cute-tv": "CuTe TV", "jax": "JAX", "triton": "Triton",
                                   "gluon": "Gluon", "tvm": "TVM TIRx"})


def convert_view(req: Mapping[str, Any]) -> dict[str, Any]:
    """``POST /api/convert``: the layout in each other tool's notation, or why not.

    Same fields as ``/api/layout`` plus an optional ``mesh`` (JAX; default: the layout's
    device axes) and ``targets`` (any of :data:`tilelayout.interop.convert.TARGETS`;
    default: the panel's, :data:`~tilelayout.interop.convert.PANEL_TARGETS`, so the page
    never lists them itself). Each entry of ``targets`` in the answer
    is ``{"target", "label", "ok": true, "text", "notes"}`` (what
    :func:`tilelayout.interop.convert.convert` returns) or ``{"target", "label",
    "ok": false, "reason"}`` (the converter's refusal). A refusal is not an error: only
    bad input is a 4xx. Native converters (Gluon: Triton's lowering; TVM) run in a child
    process (:mod:`tilelayout.interop.isolation`): one that dies is that target's refusal,
    and the server (or the notebook kernel answering the widget) keeps running.

    >>> r = convert_view({"layout": "S[(2,8,4,2):(2,4@laneid,1@laneid,1)]", "shape": "16,8",
    ...                   "targets": ["cute-tv", "cute"]})
    >>> [(t["target"], t["ok"], t.get("text")) for t in r["targets"]]
    [('cute-tv', True, '((4,8),(2,2)):((32,1),(16,8))'), ('cute', False, None)]
    """
    mesh = request.mesh(request.json_object(req))
    wanted = req.get("targets")
    if wanted is None:
        wanted = list(PANEL_TARGETS)
    if (not isinstance(wanted, list) or not wanted
            or not all(isinstance(t, str) and t in TARGETS for t in wanted)):
        raise ApiError(f"'targets' must be a non-empty list of {', '.join(TARGETS)}",
                       field="targets")
    layout, shape, _, _ = request.resolve(req)
    out = []
    for target in dict.fromkeys(wanted):
        entry: dict[str, Any] = {"target": target, "label": CONVERT_LABELS[target]}
        try:
            if target == "jax" and not request.drawable(layout, shape):
                raise LayoutError("the layout is too large for the explorer to check against "
                                  "JAX's blocks; use tilelayout.interop.jax directly")
            r = convert(layout, shape, target, mesh=mesh, isolate=True)  # native: in a child
            entry.update(ok=True, text=r["text"], notes=r["notes"])
        except LayoutError as exc:
            entry.update(ok=False, reason=str(exc))
        except Exception as exc:  # noqa: BLE001 (a converter bug must not hide the others)
            entry.update(ok=False, reason=f"the converter failed: {type(exc).__name__}: {exc}")
        out.append(entry)
    return {"layout": str(layout), "shape": list(shape), "mesh": mesh, "targets": out}
