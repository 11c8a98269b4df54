"""``POST /api/plan {src, dst, shape?, dtype?, target?, permute_k?}``: the conversion plan
and its stages, with the shared-memory grid when it stages through shared memory, and
the plan as CUDA (``code.cuda``; ``code.note`` says why a plan has none)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.dtypes import dtype_bytes
from ...core.errors import LayoutError
from ...planning.mechanisms.staging.access import smem_addresses
from ...planning.plan import plan_conversion
from .. import request
from ..request import MAX_TEXT, ApiError
from . import movement


def _permute_k(req: Mapping[str, Any]) -> int | None:
    """The request's ``permute_k`` (a tile dimension, or None: K is not permuted)."""
    value = req.get("permute_k")
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ApiError(f"permute_k must be a tile dimension (an integer), got {value!r}"[:MAX_TEXT],
                       field="permute_k")
    return value


def plan_view(req: Mapping[str, Any]) -> dict[str, Any]:
    """``POST /api/plan {src, dst, shape?, dtype?, target?, permute_k?}``: the conversion plan
    (:func:`~tilelayout.planning.plan.plan_conversion`) with its stages to step
    through; when it stages through shared memory, also the chosen layout's line x bank
    grid and each side's worst request cells (as ``/api/smem``).

    >>> r = plan_view({"src": "S[(32,32):(1@laneid,1)]", "dst": "S[(32,32):(1,1@laneid)]",
    ...                "dtype": "float32"})
    >>> r["kind"], r["mechanism"], [s["what"] for s in r["stages"]], r["grid"]["lines"]
    ('warp-shuffle', 'shared-memory', ['store', 'barrier', 'load'], 32)
    >>> "__device__ __forceinline__ void convert(" in r["code"]["cuda"]
    True
    """
    request.json_object(req)
    src, dst, shape, dtype = movement.pair(req, "src", "dst")
    try:
        dtype_bytes(dtype)
        p = plan_conversion(src, dst, shape, dtype, target=movement.target(req),
                            permute_k=_permute_k(req))
    except LayoutError as exc:
        raise movement.refusal(exc) from None
    out = p.to_dict()
    try:  # the plan as CUDA (ConversionPlan.code), for the panel's code tab
        out["code"] = {"cuda": p.code(lang="cuda"), "note": None}
    except LayoutError as exc:
        out["code"] = {"cuda": None, "note": str(exc)}
    if p.smem is not None:
        tile = p.smem.shape  # in passes: one pass's tile
        addr = smem_addresses(p.smem.layout, tile)
        out["grid"] = movement.grid(p.smem.layout, tile, dtype)
        out["worst_cells"] = {"write": movement.worst_cells(p.smem.write, addr, tile),
                              "read": movement.worst_cells(p.smem.read, addr, tile)}
    return out
