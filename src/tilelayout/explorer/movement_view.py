"""The explorer's data-movement endpoints (the "move data" mode draws them).

``POST /api/plan {src, dst, shape?, dtype?, target?}``: the conversion plan (see
:func:`plan_view`).

``POST /api/smem {writer, reader, shape?, dtype?, family?, target?}``: the shared-memory layout
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

from .. import presets
from ..core.capacity import SMEM_BANK_BYTES, SMEM_BANKS
from ..core.compose import Layout
from ..core.dtypes import dtype_bytes
from ..core.errors import DtypeError, LayoutError, LayoutParseError, UnknownTargetError
from ..planning.access import AccessReport, smem_addresses
from ..planning.choose import FAMILIES, choose_smem_layout
from ..planning.conversion import plan_conversion
from ..planning.operands import element_type
from ..syntax.parser import parse
from .api import MAX_ELEMENTS, MAX_TEXT, ApiError, _int_list, _text, preset_view, request_axes


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
            entry = preset_view({"name": name, "params": value.get("params") or {}})
        except ApiError as exc:
            raise ApiError(exc.message, exc.status, field=key) from None
        built = _preset(name, entry)
        return built, tuple(entry["shape"]), getattr(built, "dtype", None) or None
    text = _text(req, key, required=True)
    assert text is not None
    try:
        return parse(text, axes=request_axes(req)), None, None
    except LayoutParseError as exc:
        raise ApiError(exc.reason if exc.column else str(exc), field=key,
                       column=exc.column or None) from None
    except LayoutError as exc:
        raise ApiError(str(exc), field=key) from None


def _preset(name: str, entry: Mapping[str, Any]) -> presets.Preset:
    """The preset of a validated preset entry (its ``dtype`` is set even for register
    fragments, where the bank view has none)."""
    texts = {p["name"]: p["text"] for p in entry.get("params") or []}
    return presets.get(name, **presets.parse_params(name, texts))


def _layout(x: Any) -> Layout:
    return getattr(x, "layout", x)


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


def _pair(req: Mapping[str, Any], first: str, second: str
          ) -> tuple[Any, Any, tuple[int, ...], str]:
    """Two layout operands of one tile with its shape and dtype (defaults from presets)."""
    a, ashape, adtype = operand(req, first)
    b, bshape, bdtype = operand(req, second)
    shape = _int_list(req.get("shape"), "shape") or ashape or bshape
    if shape is None:
        try:
            shape = _layout(a).check_shape(None)
        except LayoutError as exc:
            raise ApiError(str(exc), field="shape") from None
    try:
        dtype, _ = element_type(_text(req, "dtype"), [(first, adtype, first),
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


def _target(req: Mapping[str, Any]) -> str | None:
    """The request's ``target`` (None: the planner's default, stated in the answer)."""
    return _text(req, "target") or None


def _permute_k(req: Mapping[str, Any]) -> int | None:
    """The request's ``permute_k`` (a tile dimension, or None: K is not permuted)."""
    value = req.get("permute_k")
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ApiError(f"permute_k must be a tile dimension (an integer), got {value!r}"[:MAX_TEXT],
                       field="permute_k")
    return value


def _refusal(exc: LayoutError) -> ApiError:
    """A planning refusal; one about the target names the ``target`` field."""
    text = str(exc)[:MAX_TEXT]
    about_target = isinstance(exc, UnknownTargetError) or "the target given" in text
    return ApiError(text, field="target" if about_target else None)


def smem_view(req: Mapping[str, Any]) -> dict[str, Any]:
    """``POST /api/smem``: see the module doc. Bad input is a 4xx :class:`ApiError`."""
    if not isinstance(req, Mapping):
        raise ApiError("the request body must be a JSON object")
    writer, reader, shape, dtype = _pair(req, "writer", "reader")
    family = _text(req, "family") or "swizzle"
    if family not in FAMILIES:
        raise ApiError(f"'family' must be one of {', '.join(FAMILIES)}", field="family")
    try:
        dtype_bytes(dtype)
        c = choose_smem_layout(writer, reader, shape, dtype, family, target=_target(req))
        addr = smem_addresses(c.layout, c.shape)
    except LayoutError as exc:
        raise _refusal(exc) from None
    out = c.to_dict()
    out["writer"], out["reader"] = str(_layout(writer)), str(_layout(reader))
    out["grid"] = _grid(c.layout, c.shape, dtype)
    out["worst_cells"] = {"write": _worst_cells(c.write, addr, c.shape),
                          "read": _worst_cells(c.read, addr, c.shape)}
    return out


def plan_view(req: Mapping[str, Any]) -> dict[str, Any]:
    """``POST /api/plan {src, dst, shape?, dtype?, target?, permute_k?}``: the conversion plan
    (:func:`~tilelayout.planning.conversion.plan_conversion`) with its stages to step
    through; when it stages through shared memory, also the chosen layout's line x bank
    grid and each side's worst request cells (as ``/api/smem``).

    >>> r = plan_view({"src": "S[(32,32):(1@laneid,1)]", "dst": "S[(32,32):(1,1@laneid)]",
    ...                "dtype": "float32"})
    >>> r["kind"], r["mechanism"], [s["what"] for s in r["stages"]], r["grid"]["lines"]
    ('warp-shuffle', 'shared-memory', ['store', 'barrier', 'load'], 32)
    """
    if not isinstance(req, Mapping):
        raise ApiError("the request body must be a JSON object")
    src, dst, shape, dtype = _pair(req, "src", "dst")
    try:
        dtype_bytes(dtype)
        p = plan_conversion(src, dst, shape, dtype, target=_target(req),
                            permute_k=_permute_k(req))
    except LayoutError as exc:
        raise _refusal(exc) from None
    out = p.to_dict()
    if p.smem is not None:
        tile = p.smem.shape  # in passes: one pass's tile
        addr = smem_addresses(p.smem.layout, tile)
        out["grid"] = _grid(p.smem.layout, tile, dtype)
        out["worst_cells"] = {"write": _worst_cells(p.smem.write, addr, tile),
                              "read": _worst_cells(p.smem.read, addr, tile)}
    return out
