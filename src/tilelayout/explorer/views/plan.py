"""``POST /api/plan {src, dst, shape?, dtype?, target?, permute_k?, smem_budget?,
dst_packing?}``: the conversion plan and its stages, with the shared-memory grid when it
stages through shared memory, and the plan as CUDA (``code.cuda``; ``code.note`` says why a plan has none)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from ...core.dtypes import dtype_bytes
from ...core.errors import LayoutError, shown
from ...planning.delivery import DST_PACKINGS
from ...planning.mechanisms.staging.access import AccessReport, smem_addresses
from ...planning.mechanisms.staging.instructions import best_access
from ...planning.mechanisms.staging.smem_choice import SmemChoice
from ...planning.model.threads import register_file
from ...planning.plan import ConversionPlan, plan_conversion
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


def _budget(req: Mapping[str, Any]) -> int | None:
    """The request's ``smem_budget`` (bytes of shared memory, or None: no budget)."""
    value = req.get("smem_budget")
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ApiError(f"smem_budget must be a positive number of bytes, got {value!r}"[:MAX_TEXT],
                       field="smem_budget")
    return value


def _packing(req: Mapping[str, Any]) -> str:
    """The request's ``dst_packing`` (``"packed"``, the default, or ``"unpacked"``)."""
    value = req.get("dst_packing", "packed")
    if value not in DST_PACKINGS:
        raise ApiError(f"dst_packing is 'packed' or 'unpacked', got {shown(value)}",
                       field="dst_packing")
    return value


def plan_view(req: Mapping[str, Any]) -> dict[str, Any]:
    """``POST /api/plan {src, dst, shape?, dtype?, target?, permute_k?, smem_budget?,
    dst_packing?}``: the conversion plan (:func:`~tilelayout.planning.plan.plan_conversion`,
    ``smem_budget`` its bytes of shared memory at most, ``dst_packing`` how the destination
    holds sub-word values) with its stages to step
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
                            permute_k=_permute_k(req), smem_budget=_budget(req),
                            dst_packing=_packing(req))
    except LayoutError as exc:
        raise movement.refusal(exc) from None
    out = p.to_dict()
    try:  # the plan as CUDA (ConversionPlan.code), for the panel's code tab
        out["code"] = {"cuda": p.code(lang="cuda"), "note": None}
    except LayoutError as exc:
        out["code"] = {"cuda": None, "note": str(exc)}
    if p.smem is not None:
        smem = _with_requests(p)
        out["smem"] = smem.to_dict()
        tile = smem.shape  # in passes: one pass's tile
        addr = smem_addresses(smem.layout, tile)
        out["grid"] = movement.grid(smem.layout, tile, dtype)
        out["worst_cells"] = {"write": movement.worst_cells(smem.write, addr, tile),
                              "read": movement.worst_cells(smem.read, addr, tile)}
    return out


def _with_requests(p: ConversionPlan) -> SmemChoice:
    """The plan's shared-memory choice with each side's worst request for the picture. A
    plan found on bits costs its sides in closed form, without per-request addresses:
    they are taken here, element by element, for the very instruction the plan names
    (kept only where that costs what the plan says; in one pass, the tile the page
    draws)."""
    c = p.smem
    assert c is not None
    if c.family != "bits" or p.costs.get("passes", 1) != 1 or tuple(c.shape) != tuple(p.shape):
        return c
    addr = smem_addresses(c.layout, c.shape)
    sides = []
    for layout, rep, store in ((p.src, c.write, True), (p.dst, c.read, False)):
        if rep.worst is not None or rep.requests == 0:
            sides.append(rep)
            continue
        kinds = (("matrix.b8",) if rep.mechanism.endswith(".b8") else ("matrix",)) \
            if "matrix" in rep.mechanism else ("vector", "packed")
        try:
            found = best_access(register_file(layout, c.shape), addr, c.dtype, store,
                                kinds=kinds)
        except (LayoutError, ValueError):  # no access of that kind fits (ValueError)
            found = None
        sides.append(found if _same(found, rep) else rep)
    return replace(c, write=sides[0], read=sides[1])


def _same(found: AccessReport | None, rep: AccessReport) -> bool:
    """Whether the element-by-element report describes the plan's own access."""
    if found is None or found.worst is None or found.wavefronts != rep.wavefronts:
        return False
    if "matrix" in rep.mechanism:  # one 16-byte row a lane per request
        return found.mechanism == rep.mechanism
    return found.vector_bytes == rep.vector_bytes
