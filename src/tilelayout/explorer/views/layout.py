"""``POST /api/layout``: everything the page draws for one layout.

>>> r = layout_view({"layout": "S[(8,4):(4@laneid,1@laneid)]", "shape": "8,4"})
>>> r["layout"], r["size"], r["coords"]["laneid"][:5]
('S[(8,4):(4@laneid,1@laneid)]', 32, [0, 1, 2, 3, 4])
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from ...core.axes import axis_of as lookup_axis
from ...core.capacity import SMEM_BANK_BYTES, SMEM_BANKS
from ...core.compose import ComposeLayout, value_range
from ...core.dtypes import dtype_bytes
from ...core.errors import LayoutError
from ...core.tile import TileLayout
from ...render.physical import physical_view
from ...render.svg import MAX_ELEMENTS
from .. import request
from ..drawing import drawing
from ..request import MAX_PAIRS, ApiError
from .panels import panel_answers, wanted


def _axis_info(name: str, values: np.ndarray) -> dict[str, Any]:
    ax = lookup_axis(name)
    return {"name": name, "kind": ax.kind, "extent": ax.extent,
            "scope": list(ax.scope) if ax.scope else None, "doc": ax.doc,
            "min": int(values.min()) if values.size else 0,
            "max": int(values.max()) if values.size else 0}


def _box(layout: TileLayout | ComposeLayout) -> dict[str, tuple[int, int] | None]:
    """Each axis's value range without evaluating the layout (for layouts above the caps).

    The library's ``value_range`` per axis (exact: every digit combination occurs); a
    swizzle permutes ``m``, so its range is unknown: None.

    >>> import tilelayout as tl
    >>> _box(tl.parse("S[(1024,1024)]"))
    {'m': (0, 1048575)}
    """
    out: dict[str, tuple[int, int] | None] = {a: value_range(layout, a) for a in layout.axes}
    if isinstance(layout, ComposeLayout) and "m" in out:
        out["m"] = None
    return out


def layout_view(req: Mapping[str, Any]) -> dict[str, Any]:
    """``POST /api/layout``: everything the page draws for one layout, and (``panels``,
    ``codegen``) the side panels' answers for it, so one edit is one request.

    Response: ``layout`` (canonical text, swizzle included), ``shape``, ``size``,
    ``replicas`` (R), ``axes`` (name, kind, extent, min, max), ``coords`` (axis ->
    flat list of length size*R; entry ``e*R + r`` is replica ``r`` of element ``e``,
    row-major, straight from ``map_all``), ``banks`` (when a dtype is set and the layout
    has ``m``), and ``physical`` (the grid the physical view draws; see
    :func:`physical_view`; its tile axes follow ``order`` when the request names one,
    e.g. a preset's mesh axes, else the layout's axis order). Above the size caps the arrays are left out and
    ``too_large`` says why.

    ``panels`` (a list of ``analysis``, ``convert``, ``table``) and ``codegen``
    (``{"lang", "inverse"}``) add ``panels``: each one's answer for the drawn layout, as its
    own route gives it, or ``{"error": why}`` (:mod:`.panels`). Above the caps only
    ``convert`` is answered: the others describe the drawing.
    """
    names, code = wanted(request.json_object(req))
    out = _drawn(req)
    if names or code is not None:
        drawn = {"layout": out["text"], "shape": out["shape"], "dtype": out["dtype"],
                 "swizzle": out["swizzle_mode"]}
        if "too_large" in out:
            names, code = [n for n in names if n == "convert"], None
        out["panels"] = panel_answers(drawn, names, code)
    return out


def _drawn(req: Mapping[str, Any]) -> dict[str, Any]:
    """The drawing part of :func:`layout_view` (the fields it documents, ``panels`` aside)."""
    layout, shape, dtype, mode = request.resolve(req)
    n = math.prod(shape)
    r = layout.replica_count
    out: dict[str, Any] = {
        "layout": str(layout),
        "text": str(layout.tile_layout if mode != "none" and isinstance(layout, ComposeLayout)
                    else layout),
        "swizzle": str(layout.swizzle) if isinstance(layout, ComposeLayout) else None,
        "swizzle_mode": mode, "dtype": dtype, "shape": list(shape), "size": n, "replicas": r,
        "axis_names": list(layout.axes),
    }
    if not request.drawable(layout, shape):
        out["too_large"] = (
            f"this layout has {n:,} elements x {r} replica(s); the explorer draws at most "
            f"{MAX_ELEMENTS:,} elements ({MAX_PAIRS:,} element-replica pairs) so the page stays "
            f"responsive. Pick a smaller shape, or use `tilelayout map` / `tilelayout explain`."
        )
        out["axes"] = []
        for a, rng in _box(layout).items():
            info = _axis_info(a, np.zeros(0, dtype=np.int64))
            info["min"], info["max"] = rng if rng else (None, None)
            out["axes"].append(info)
        return out
    order = request.order(req)
    try:
        view = physical_view(layout, shape, dtype, order or list(layout.axes))
    except LayoutError as exc:
        raise ApiError(str(exc), field="layout") from None
    flat = view.coords
    out["axes"] = [_axis_info(a, flat[a]) for a in flat]
    out["coords"] = {a: v.tolist() for a, v in flat.items()}
    if view.banks is not None:
        assert dtype is not None
        nbytes = dtype_bytes(dtype)
        out["banks"] = {
            "dtype": dtype, "bytes": nbytes, "per_word": max(1, SMEM_BANK_BYTES // nbytes),
            "words_per_element": max(1, nbytes // SMEM_BANK_BYTES), "banks": SMEM_BANKS,
            "bank": view.banks["bank"].tolist(), "line": view.banks["line"].tolist(),
            "bankword": view.banks["bankword"].tolist(),
        }
    out["order"] = order
    out["physical"] = view.to_dict()
    out.update(drawing(layout, dtype, shape, banks=view.banks is not None))
    return out
