"""The explorer's data-movement endpoints (the "move data" mode draws them).

``POST /api/smem {writer, reader, shape?, dtype?, family?}``: the shared-memory layout
:func:`~tilelayout.planning.choose.choose_smem_layout` picks, both sides' costs, the
candidates table, the chosen layout's line x bank grid and each side's worst request
(lanes, banks, the cells it touches). A layout is text or ``{"preset": name,
"params": {...}}``; ``shape`` and ``dtype`` default to a preset's.

>>> r = smem_view({"writer": {"preset": "mma.m16n8k16.C"}, "reader": "S[(16,8):(1,1@laneid)]"})
>>> r["layout"], r["wavefronts"], r["ideal"], r["grid"]["lines"]
('ComposeLayout(Swizzle(2,2,3), S[(16,8):(1,16)])', 12, 8, 4)
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..core.axes import SMEM_BANK_BYTES, SMEM_BANKS
from ..core.compose import Layout
from ..core.dtypes import dtype_bytes
from ..core.errors import LayoutError, LayoutParseError
from ..planning.access import AccessReport, smem_addresses
from ..planning.choose import FAMILIES, choose_smem_layout
from ..syntax.parser import parse
from .api import MAX_ELEMENTS, MAX_TEXT, ApiError, _int_list, _text, preset_view

#: register-file cells (warps x 32 lanes x slots) the explorer evaluates per side
MAX_CELLS = 1 << 20
#: candidates the explorer costs (the swizzle family has a few dozen)
MAX_CANDIDATES = 512


def operand(req: Mapping[str, Any], key: str) -> tuple[Layout, tuple[int, ...] | None,
                                                       str | None]:
    """``req[key]`` as ``(layout, preset shape or None, preset dtype or None)``: layout text
    or ``{"preset": name, "params": {...}}``."""
    value = req.get(key)
    if isinstance(value, Mapping):
        name = value.get("preset")
        if not isinstance(name, str) or not name:
            raise ApiError(f"'{key}' must be layout text or {{\"preset\": name, "
                           f"\"params\": {{...}}}}", field=key)
        try:
            entry = preset_view({"name": name, "params": value.get("params") or {}})
        except ApiError as exc:
            raise ApiError(exc.message, exc.status, field=key) from None
        return parse(entry["layout"]), tuple(entry["shape"]), entry.get("dtype") or \
            _preset_dtype(entry)
    text = _text(req, key, required=True)
    assert text is not None
    try:
        return parse(text), None, None
    except LayoutParseError as exc:
        raise ApiError(exc.reason if exc.column else str(exc), field=key,
                       column=exc.column or None) from None
    except LayoutError as exc:
        raise ApiError(str(exc), field=key) from None


def _preset_dtype(entry: Mapping[str, Any]) -> str | None:
    for p in entry.get("params") or []:
        if p.get("name") == "dtype" and isinstance(p.get("value"), str):
            return str(p["value"])
    return None


def _grid(layout: Layout, shape: tuple[int, ...], dtype: str) -> dict[str, Any]:
    """Line x bank grid of the chosen layout: per flat element its line, bank and byte."""
    addr = smem_addresses(layout, shape)
    byte = addr * dtype_bytes(dtype)
    word = byte // SMEM_BANK_BYTES
    return {"lines": int(word.max()) // SMEM_BANKS + 1 if word.size else 0,
            "banks": SMEM_BANKS, "line": (word // SMEM_BANKS).tolist(),
            "bank": (word % SMEM_BANKS).tolist(), "byte": byte.tolist()}


def _worst_cells(r: AccessReport, addr: np.ndarray, shape: tuple[int, ...]
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


def smem_view(req: Mapping[str, Any]) -> dict[str, Any]:
    """``POST /api/smem``: see the module doc. Bad input is a 4xx :class:`ApiError`."""
    if not isinstance(req, Mapping):
        raise ApiError("the request body must be a JSON object")
    writer, wshape, wdtype = operand(req, "writer")
    reader, rshape, rdtype = operand(req, "reader")
    shape = _int_list(req.get("shape"), "shape") or wshape or rshape
    if shape is None:
        try:
            shape = writer.check_shape(None)
        except LayoutError as exc:
            raise ApiError(str(exc), field="shape") from None
    dtype = _text(req, "dtype") or wdtype or rdtype
    if dtype is None:
        raise ApiError("'dtype' is required (no preset gives one)", field="dtype")
    family = _text(req, "family") or "swizzle"
    if family not in FAMILIES:
        raise ApiError(f"'family' must be one of {', '.join(FAMILIES)}", field="family")
    n = math.prod(shape)
    if n > MAX_ELEMENTS:
        raise ApiError(f"the tile has {n} elements; the explorer plans at most "
                       f"{MAX_ELEMENTS}", 413, field="shape")
    try:
        dtype_bytes(dtype)
        c = choose_smem_layout(writer, reader, shape, dtype, family, max_cells=MAX_CELLS,
                               max_candidates=MAX_CANDIDATES)
        addr = smem_addresses(c.layout, c.shape)
    except LayoutError as exc:
        raise ApiError(str(exc)[:MAX_TEXT]) from None
    out = c.to_dict()
    out["writer"], out["reader"] = str(writer), str(reader)
    out["grid"] = _grid(c.layout, c.shape, dtype)
    out["worst_cells"] = {"write": _worst_cells(c.write, addr, c.shape),
                          "read": _worst_cells(c.read, addr, c.shape)}
    return out
