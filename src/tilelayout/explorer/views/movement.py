"""What the data-movement endpoints share (the "move data" mode draws them): reading their
two layout operands (text or a preset) with the tile's shape and dtype, and drawing the
chosen shared-memory layout as a line x bank grid with each side's worst request.

``POST /api/smem`` is :mod:`.smem`, ``POST /api/plan`` is :mod:`.plan`.

>>> a, b, shape, dtype = pair({"src": {"preset": "mma.m16n8k16.C"},
...                            "dst": "S[(16,8):(1,1@laneid)]"}, "src", "dst")
>>> shape, dtype
((16, 8), 'float32')
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from ...core.capacity import SMEM_BANK_BYTES, SMEM_BANKS
from ...core.compose import Layout
from ...core.dtypes import dtype_bytes
from ...core.errors import DtypeError, LayoutError, UnknownTargetError
from ...planning.mechanisms.staging.access import AccessReport, smem_addresses
from ...planning.problem.operands import element_type
from ...render.svg import MAX_ELEMENTS
from .. import catalog, request
from ..request import MAX_TEXT, ApiError


def operand(req: Mapping[str, Any], key: str) -> tuple[Any, tuple[int, ...] | None,
                                                       str | None]:
    """``req[key]`` as ``(layout or preset, preset shape or None, preset dtype or None)``:
    layout text or ``{"preset": name, "params": {...}}`` (a preset stays a preset: the
    planning entry points read the GPU target it needs)."""
    value = req.get(key)
    if isinstance(value, Mapping):
        name = value.get("preset")
        if not isinstance(name, str) or not name:
            raise ApiError(f"'{key}' must be layout text or {{\"preset\": name, "
                           f"\"params\": {{...}}}}", field=key)
        try:
            _, built = catalog.built_preset({"name": name, "params": value.get("params") or {}})
        except ApiError as exc:
            raise ApiError(exc.message, exc.status, field=key) from None
        # the preset's own dtype, set even for register fragments (where the page's
        # catalog entry, which shows banks only, has none)
        shape = built.layout.check_shape(getattr(built, "shape", None))
        return built, shape, getattr(built, "dtype", None) or None
    return request.layout_field(req, key), None, None


def layout_of(x: Any) -> Layout:
    """The layout of an operand (a preset's ``layout``, or the layout itself).

    >>> import tilelayout as tl
    >>> str(layout_of(tl.presets.get("mma.m16n8k16.C")))[:2]
    'S['
    """
    return getattr(x, "layout", x)


def grid(layout: Layout, shape: tuple[int, ...], dtype: str) -> dict[str, Any]:
    """Line x bank grid of the chosen layout: per flat element its line, bank and byte."""
    addr = smem_addresses(layout, shape)
    byte = addr * dtype_bytes(dtype)
    word = byte // SMEM_BANK_BYTES
    return {"lines": int(word.max()) // SMEM_BANKS + 1 if word.size else 0,
            "banks": SMEM_BANKS, "line": (word // SMEM_BANKS).tolist(),
            "bank": (word % SMEM_BANKS).tolist(), "byte": byte.tolist()}


def worst_cells(r: AccessReport, addr: np.ndarray, shape: tuple[int, ...]
                ) -> list[dict[str, Any]]:
    """The cells the worst request touches: lane, flat element, and whether the lane is in
    a conflict."""
    w = r.worst
    if w is None:
        return []
    nbytes = dtype_bytes(r.dtype)
    k = r.vector_bytes // nbytes
    where = np.full(int(addr.max()) + 1, -1, dtype=np.int64)
    where[addr] = np.arange(addr.size)
    conflict = set(w.conflict_lanes)
    out = []
    for lane, first in enumerate(w.elements):
        if first is None:
            continue
        a0 = int(addr[int(np.ravel_multi_index(first, shape))])
        for j in range(k):
            out.append({"lane": lane, "element": int(where[a0 + j]),
                        "conflict": lane in conflict})
    return out


def pair(req: Mapping[str, Any], first: str, second: str
         ) -> tuple[Any, Any, tuple[int, ...], str]:
    """Two layout operands of one tile with its shape and dtype (defaults from presets)."""
    a, ashape, adtype = operand(req, first)
    b, bshape, bdtype = operand(req, second)
    shape = request.int_list(req.get("shape"), "shape") or ashape or bshape
    if shape is None:
        try:
            shape = layout_of(a).check_shape(None)
        except LayoutError as exc:
            raise ApiError(str(exc), field="shape") from None
    try:
        dtype, _ = element_type(request.text(req, "dtype"), [(first, adtype, first),
                                                             (second, bdtype, second)], None)
    except DtypeError as exc:
        raise ApiError(str(exc)) from None
    except LayoutError as exc:
        raise ApiError(str(exc).replace("dtype=", "'dtype'"), field="dtype") from None
    n = math.prod(shape)
    if n > MAX_ELEMENTS:
        raise ApiError(f"the tile has {n} elements; the explorer plans at most "
                       f"{MAX_ELEMENTS}", 413, field="shape")
    return a, b, tuple(shape), dtype


def target(req: Mapping[str, Any]) -> str | None:
    """The request's ``target`` (None: the planner's default, stated in the answer)."""
    return request.text(req, "target") or None


def refusal(exc: LayoutError) -> ApiError:
    """A planning refusal; one about the target names the ``target`` field."""
    text = str(exc)[:MAX_TEXT]
    about_target = isinstance(exc, UnknownTargetError) or "the target given" in text
    return ApiError(text, field="target" if about_target else None)
