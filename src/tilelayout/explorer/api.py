"""The explorer's JSON API: plain functions from request dicts to response dicts.

The HTTP server (:mod:`tilelayout.explorer.server`) only routes requests here; these
functions validate their input, call the library and return JSON-ready data. Bad
input raises :class:`ApiError` (status 4xx, a message, and for layout text the
column), never anything else.

>>> r = layout_view({"layout": "S[(8,4):(4@laneid,1@laneid)]", "shape": "8,4"})
>>> r["layout"], r["size"], r["coords"]["laneid"][:5]
('S[(8,4):(4@laneid,1@laneid)]', 32, [0, 1, 2, 3, 4])
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Mapping
from typing import Any

import numpy as np

from .. import presets as registry
from ..analysis.banks import bank_access, is_shared_memory
from ..analysis.explain import explain
from ..analysis.legality import legality
from ..analysis.reads import tile_reads
from ..codegen.languages import LANGUAGES
from ..core import budget
from ..core.axes import SMEM_BANK_BYTES, SMEM_BANKS, AxisTable, current
from ..core.axes import axis_of as lookup_axis
from ..core.compose import ComposeLayout, Layout, value_range
from ..core.dtypes import DTYPES, dtype_bytes
from ..core.errors import LayoutError, LayoutParseError
from ..core.jsonable import jsonable
from ..core.shape import int_tuple
from ..core.swizzle import SWIZZLE_MODES, Swizzle
from ..core.swizzle_modes import SWIZZLE_MODE_TABLE
from ..core.targets import TARGETS as TARGETS_TABLE
from ..core.tile import TileLayout
from ..eval.inverse import count_at, elements_at
from ..interop.convert import PANEL_TARGETS, TARGETS, convert, parse_mesh
from ..interop.jax import mesh_axes
from ..render.palette import MAX_COLOURS, PALETTE, colour_scale
from ..render.physical import physical_view
from ..render.svg import MAX_ELEMENTS
from ..syntax.parser import parse
from . import examples
from .drawing import drawing

#: the largest request body the server reads (bytes)
MAX_BODY = 64 * 1024
#: the longest layout text accepted
MAX_TEXT = 4000
#: the most (element, replica) pairs sent to the page
MAX_PAIRS = 1 << 18
#: the most coordinates one elements_at request may ask about
MAX_QUERY = 4096



@functools.cache
def explorer_device_axes() -> tuple[str, ...]:
    """The device axes every request may use besides the registry's: the teaching
    examples' mesh axes and the mesh axes of the registry presets' defaults.

    >>> explorer_device_axes()
    ('x', 'y', 'dp', 'tp')
    """
    names = list(examples.MESH_AXES)
    for name in registry.names():
        info = registry.info(name)
        for prm in info.params:
            if prm.kind == "mesh" and isinstance(info.defaults.get(prm.name), Mapping):
                names += [str(a) for a in info.defaults[prm.name]]
    return tuple(dict.fromkeys(names))


def request_axes(req: Mapping[str, Any]) -> AxisTable:
    """The axes a request's layout text may name: the table in force, the explorer's
    device axes (:func:`explorer_device_axes`), the names of the request's ``order`` (a
    preset's mesh) and of its ``mesh``. A value built from the request alone, so two
    requests never see each other's axes.

    >>> [a.name for a in request_axes({"mesh": "data=2"}).declared]
    ['x', 'y', 'dp', 'tp', 'data']
    """
    order = _order(req) or []
    mesh = list(_mesh(req) or ())
    return _device_table(current(), tuple(dict.fromkeys([*explorer_device_axes(), *order,
                                                         *mesh])))


@functools.lru_cache(maxsize=64)
def _device_table(base: AxisTable, names: tuple[str, ...]) -> AxisTable:
    """``base`` plus the device axes ``names`` (names of other kinds are left out)."""
    return base.with_axes(*(a for a in names
                            if a.isidentifier() and lookup_axis(a, base).kind == "device"))


@functools.lru_cache(maxsize=256)
def _parsed(text: str, axes: AxisTable) -> Layout:
    """``parse(text, axes=axes)``: a pure function of two values, so clicks on one layout
    parse it once (the compiled plans are shared by value anyway, ``eval.compiled``)."""
    return parse(text, axes=axes)


class ApiError(Exception):
    """A request the API refuses: ``status`` (4xx), a message, optionally the field and column."""

    def __init__(self, message: str, status: int = 400, *, field: str | None = None,
                 column: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.field = field
        self.column = column

    def to_dict(self) -> dict[str, Any]:
        """The JSON body sent to the client."""
        out: dict[str, Any] = {"error": self.message}
        if self.field is not None:
            out["field"] = self.field
        if self.column is not None:
            out["column"] = self.column
        return out


# -- request parsing ---------------------------------------------------------------------
def _text(req: Mapping[str, Any], key: str, *, required: bool = False) -> str | None:
    value = req.get(key)
    if value is None or value == "":
        if required:
            raise ApiError(f"'{key}' is required", field=key)
        return None
    if not isinstance(value, str):
        raise ApiError(f"'{key}' must be a string, got {type(value).__name__}", field=key)
    if len(value) > MAX_TEXT:
        raise ApiError(f"'{key}' is longer than {MAX_TEXT} characters", 413, field=key)
    return value


def _int_list(value: Any, key: str, *, max_len: int = 8) -> tuple[int, ...] | None:
    """A list of ints from JSON (``[8, 16]``) or text (``"8,16"``, ``"8x16"``, ``"(8, 16)"``)."""
    if value is None or value == "" or value == []:
        return None
    if isinstance(value, str):
        try:
            items = list(int_tuple(value, f"'{key}'"))
        except LayoutError as exc:
            raise ApiError(str(exc), field=key) from None
    elif isinstance(value, int) and not isinstance(value, bool):
        items = [value]
    elif isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool)
                                         for v in value):
        items = list(value)
    else:
        raise ApiError(f"'{key}' must be a list of integers, got {value!r}"[:200], field=key)
    if len(items) > max_len:
        raise ApiError(f"'{key}' has {len(items)} entries; at most {max_len}", field=key)
    if any(abs(v) >= 1 << 40 for v in items):
        raise ApiError(f"'{key}' has an entry too large to be useful here", field=key)
    return tuple(items)


def _order(req: Mapping[str, Any]) -> list[str] | None:
    """The optional ``order``: axis names the physical view's tiles follow (a preset's mesh
    axis order); names the layout does not use are ignored."""
    value = req.get("order")
    if value is None or value == []:
        return None
    if (not isinstance(value, list) or len(value) > 16
            or not all(isinstance(v, str) and len(v) <= 64 for v in value)):
        raise ApiError("'order' must be a list of at most 16 axis names", field="order")
    return list(value)


def resolve(req: Mapping[str, Any]) -> tuple[Layout, tuple[int, ...], str | None, str]:
    """The layout (swizzle composed in), the admitted shape, the dtype and the swizzle mode.

    >>> L, shape, dtype, mode = resolve({"layout": "S[(8,64):(64,1)]", "dtype": "float16",
    ...                                   "swizzle": "128B"})
    >>> str(L), shape
    ('ComposeLayout(Swizzle(3,3,3), S[(8,64):(64,1)])', (8, 64))
    """
    if not isinstance(req, Mapping):
        raise ApiError("the request body must be a JSON object")
    text = _text(req, "layout", required=True)
    assert text is not None
    try:
        budget.check("the layout text has", len(text), "text")  # the limit in force, always
        layout = _parsed(text, request_axes(req))
    except LayoutParseError as exc:
        raise ApiError(exc.reason if exc.column else str(exc), field="layout",
                       column=exc.column or None) from None
    except LayoutError as exc:
        raise ApiError(str(exc), field="layout") from None
    dtype = _text(req, "dtype")
    if dtype is not None:
        try:
            dtype_bytes(dtype)
        except LayoutError as exc:
            raise ApiError(str(exc), field="dtype") from None
    mode = _text(req, "swizzle") or "none"
    if mode not in SWIZZLE_MODES:
        raise ApiError(f"unknown swizzle mode {mode!r}; expected one of "
                       f"{', '.join(SWIZZLE_MODES)}", field="swizzle")
    if mode != "none":
        if dtype is None:
            raise ApiError("a swizzle mode needs a dtype (the swizzle depends on the element "
                           "size); pick one", field="swizzle")
        if isinstance(layout, ComposeLayout):
            raise ApiError("the layout text already has a swizzle (ComposeLayout); "
                           "set the swizzle control to none", field="swizzle")
        if "m" not in layout.axes:
            raise ApiError(f"a swizzle permutes the memory address m, but {layout} has no "
                           f"m axis; set the swizzle control to none", field="swizzle")
        layout = ComposeLayout(Swizzle.for_dtype(dtype, mode), layout)
    try:
        shape = layout.check_shape(_int_list(req.get("shape"), "shape"))
    except LayoutError as exc:
        raise ApiError(str(exc), field="shape") from None
    if len(shape) > 8:
        raise ApiError(f"shape has {len(shape)} dimensions; the explorer draws at most 8",
                       field="shape")
    return layout, shape, dtype, mode


def _index(req: Mapping[str, Any], shape: tuple[int, ...]) -> tuple[int, ...]:
    index = _int_list(req.get("index"), "index")
    if index is None:
        raise ApiError("'index' is required, e.g. [7, 15]", field="index")
    if len(index) != len(shape):
        raise ApiError(f"index {list(index)} has {len(index)} entries but the shape "
                       f"{list(shape)} has {len(shape)}", field="index")
    for d, (x, s) in enumerate(zip(index, shape, strict=True)):
        if not 0 <= x < s:
            raise ApiError(f"index {list(index)} is outside the shape {list(shape)} "
                           f"(entry {d} must be in [0, {s}))", field="index")
    return index


# -- endpoints ---------------------------------------------------------------------------
def options() -> dict[str, Any]:
    """``GET /api/options``: dtypes, swizzle modes (names, and each with its one-line
    description from the swizzle-mode table), GPU targets (the "move data" panel's
    target select), the index-code languages, the colours (the palette, and the page's
    scale of MAX_COLOURS distinct colours that starts with it) and size caps for the
    page's controls."""
    return {"dtypes": list(DTYPES), "swizzles": list(SWIZZLE_MODES),
            "targets": list(TARGETS_TABLE),
            "swizzle_modes": [{"name": m.name, "doc": m.describe()}
                              for m in SWIZZLE_MODE_TABLE.values()],
            "palette": list(PALETTE), "colour_scale": list(colour_scale(MAX_COLOURS)),
            "code_languages": list(LANGUAGES),
            "max_elements": MAX_ELEMENTS, "max_pairs": MAX_PAIRS}


def _example_entry(e: examples.Example) -> dict[str, Any]:
    return {"name": e.name, "group": "teaching examples", "layout": e.layout,
            "shape": list(e.shape), "dtype": e.dtype, "swizzle": e.swizzle, "doc": e.doc,
            "color": e.color}


def _has_banks(layout: Layout, dtype: str | None) -> bool:
    """Banks apply to shared memory with a dtype (see ``analysis.banks.is_shared_memory``)."""
    return dtype is not None and is_shared_memory(layout)


def param_text(kind: str, value: Any) -> str:
    """The text a parameter widget shows for ``value`` (``presets.parse_params`` reads it back).

    >>> param_text("shape", (8, 64)), param_text("mesh", {"dp": 2, "tp": 4})
    ('8,64', 'dp=2,tp=4')
    >>> param_text("spec", (("dp", "tp"), None)), param_text("bool", True)
    ('(dp,tp),None', 'true')
    """
    if value is None and kind in ("int", "shape", "spec", "order"):
        return ""  # an optional parameter left unset: the preset picks it
    if kind == "bool":
        return "true" if value else "false"
    if kind in ("shape", "order"):
        return ",".join(str(v) for v in value)
    if kind == "mesh":
        return ",".join(f"{k}={v}" for k, v in value.items())
    if kind == "spec":
        def one(e: Any) -> str:
            if e is None:
                return "None"
            if isinstance(e, tuple | list):
                return "(" + ",".join(e) + ")"
            return str(e)
        return ",".join(one(e) for e in value)
    return str(value)


def _preset_entry(name: str, p: Any) -> dict[str, Any]:
    """What the page needs to load a built registry preset (``presets.get(...)``)."""
    layout = p.layout
    shape = layout.check_shape(getattr(p, "shape", None))
    dtype = getattr(p, "dtype", None)
    params = []
    order: list[str] = []
    for prm in registry.info(name).params:
        d = prm.to_dict()
        value = p.params[prm.name]
        d["value"] = jsonable(value)
        d["text"] = param_text(prm.kind, value)
        d["choice_texts"] = (None if prm.choices is None
                             else [param_text(prm.kind, c) for c in prm.choices])
        params.append(d)
        if prm.kind == "mesh" and isinstance(value, Mapping):
            order += [str(k) for k in value]
    return {"name": name, "group": "preset registry", "layout": str(layout),
            "shape": list(shape), "dtype": dtype if _has_banks(layout, dtype) else None,
            "swizzle": "none", "doc": getattr(p, "doc", "") or "",
            "summary": getattr(p, "summary", "") or "", "color": None,
            "source": getattr(p, "source", "") or "", "params": params,
            "order": order or None}


def _registry_entries() -> list[dict[str, Any]]:
    out = []
    for name in registry.names():
        try:
            entry = _preset_entry(name, registry.default(name))
        except Exception as exc:  # a broken preset must not take the page down
            entry = {"name": name, "group": "preset registry", "error": str(exc)}
        out.append(entry)
    return out


def preset_view(req: Mapping[str, Any]) -> dict[str, Any]:
    """``POST /api/preset``: build registry preset ``name`` with ``params`` (key -> text, as
    typed into the page's widgets or a URL's ``p.<key>``; JSON values are accepted too).
    Missing parameters take their defaults. The answer is the preset's entry (layout
    text, shape, dtype, the parameters with their values).

    >>> e = preset_view({"name": "wgmma.m64nNk16.D", "params": {"n": "16"}})
    >>> e["layout"], e["shape"], [p["value"] for p in e["params"]]
    ('S[(4,2,8,2,4,2):(1@wid_in_wg,2,4@laneid,4,1@laneid,1)]', [64, 16], [16])
    """
    name = _text(req, "name", required=True)
    assert name is not None
    try:
        entry = registry.info(name)
    except LayoutError as exc:
        raise ApiError(str(exc), 404, field="name") from None
    raw = req.get("params") or {}
    if not isinstance(raw, Mapping):
        raise ApiError("'params' must be an object {name: value}", field="params")
    values = dict(entry.defaults)
    for key, value in raw.items():
        field = f"param.{key}"
        try:
            prm = entry.param(str(key))
            if isinstance(value, str):
                if len(value) > MAX_TEXT:
                    raise ApiError(f"parameter {key} is too long", 413, field=field)
                value = registry.parse_params(name, {key: value})[key]
            values[key] = prm.check(name, value)
        except LayoutError as exc:
            raise ApiError(str(exc), field=field) from None
    try:
        built = registry.get(name, **values)
    except LayoutError as exc:
        named = [k for k in values if re.search(rf"\b{re.escape(k)}\b", str(exc))]
        raise ApiError(str(exc), field=f"param.{named[0]}" if len(named) == 1 else "params"
                       ) from None
    return _preset_entry(name, built)


def presets() -> dict[str, Any]:
    """``GET /api/presets``: the teaching examples, then every entry of the preset registry."""
    return {"presets": [_example_entry(e) for e in examples.EXAMPLES] + _registry_entries()}


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

    >>> _box(parse("S[(1024,1024)]"))
    {'m': (0, 1048575)}
    """
    out: dict[str, tuple[int, int] | None] = {a: value_range(layout, a) for a in layout.axes}
    if isinstance(layout, ComposeLayout) and "m" in out:
        out["m"] = None
    return out


def layout_view(req: Mapping[str, Any]) -> dict[str, Any]:
    """``POST /api/layout``: everything the page draws for one layout.

    Response: ``layout`` (canonical text, swizzle included), ``shape``, ``size``,
    ``replicas`` (R), ``axes`` (name, kind, extent, min, max), ``coords`` (axis ->
    flat list of length size*R; entry ``e*R + r`` is replica ``r`` of element ``e``,
    row-major, straight from ``map_all``), ``banks`` (when a dtype is set and the layout
    has ``m``), and ``physical`` (the grid the physical view draws; see
    :func:`physical_view`; its tile axes follow ``order`` when the request names one,
    e.g. a preset's mesh axes, else the layout's axis order). Above the size caps the arrays are left out and
    ``too_large`` says why.
    """
    layout, shape, dtype, mode = resolve(req)
    n = math.prod(shape)
    r = layout.replica_count
    out: dict[str, Any] = {
        "layout": str(layout),
        "text": str(layout.tile if mode != "none" and isinstance(layout, ComposeLayout)
                    else layout),
        "swizzle": str(layout.swizzle) if isinstance(layout, ComposeLayout) else None,
        "swizzle_mode": mode, "dtype": dtype, "shape": list(shape), "size": n, "replicas": r,
        "axis_names": list(layout.axes),
    }
    if n > MAX_ELEMENTS or n * r > MAX_PAIRS:
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
    order = _order(req)
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


def explain_view(req: Mapping[str, Any]) -> dict[str, Any]:
    """``POST /api/explain``: the four steps for one element (``explain(...).to_dict()``).

    >>> d = explain_view({"layout": "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)]",
    ...                   "shape": [8, 16], "index": [7, 15]})
    >>> d["flat"], d["components"]
    (127, [7, 1, 3, 1])
    """
    layout, shape, dtype, _ = resolve(req)
    index = _index(req, shape)
    try:
        return explain(layout, index, shape,
                       dtype=dtype if _has_banks(layout, dtype) else None).to_dict()
    except LayoutError as exc:
        raise ApiError(str(exc)) from None


def _query_coords(req: Mapping[str, Any], layout: Layout) -> list[dict[str, int]]:
    raw = req.get("coords")
    if isinstance(raw, Mapping):
        raw = [raw]
    if not isinstance(raw, list) or not raw:
        raise ApiError("'coords' must be a coordinate like {\"laneid\": 5} or a list of them",
                       field="coords")
    if len(raw) > MAX_QUERY:
        raise ApiError(f"at most {MAX_QUERY} coordinates per request", 413, field="coords")
    out = []
    for c in raw:
        if not isinstance(c, Mapping) or not c:
            raise ApiError("each coordinate must be a non-empty object axis -> integer",
                           field="coords")
        coord = {}
        for a, v in c.items():
            if a not in layout.axes:
                raise ApiError(f"axis {a!r} does not occur in {layout}", field="coords")
            if not isinstance(v, int) or isinstance(v, bool):
                raise ApiError(f"coordinate value for {a!r} must be an integer, got {v!r}",
                               field="coords")
            coord[a] = v
        out.append(coord)
    return out


def _elements_at(layout: Layout, coord: dict[str, int], shape: tuple[int, ...]
                 ) -> list[tuple[int, ...]]:
    """The library's inverse query (``tilelayout.eval.inverse.elements_at``)."""
    if count_at(layout, coord, shape) > MAX_ELEMENTS:
        raise ApiError(f"more than {MAX_ELEMENTS:,} elements sit at {coord}; narrow the query",
                       413, field="coords")
    return list(elements_at(layout, coord, shape, limit=None))  # tuples of Python ints


def elements_at_view(req: Mapping[str, Any]) -> dict[str, Any]:
    """``POST /api/elements_at``: the logical elements held at (partial) coordinates.

    ``coords`` is one coordinate ``{"laneid": 5}`` or a list of them (the answer is the
    union). Returns ``elements`` (sorted index lists) and ``flat`` (their row-major indices).

    >>> elements_at_view({"layout": "S[(8,4):(4@laneid,1@laneid)]", "coords": {"laneid": 5}})
    {'elements': [[1, 1]], 'flat': [5]}
    """
    layout, shape, _, _ = resolve(req)
    if math.prod(shape) > MAX_ELEMENTS * 8:
        raise ApiError("the layout is too large to search from the explorer", 413)
    found: set[tuple[int, ...]] = set()
    try:
        for coord in _query_coords(req, layout):
            found.update(_elements_at(layout, coord, shape))
    except LayoutError as exc:
        raise ApiError(str(exc), field="coords") from None
    elements = sorted(found)
    if elements and shape:
        flat = np.ravel_multi_index(tuple(np.asarray(elements, dtype=np.int64).T),
                                    shape).tolist()
    else:  # nothing found, or a 0-d layout whose one element is flat index 0
        flat = [0] * len(elements)
    return {"elements": [list(e) for e in elements], "flat": flat}


def access_view(req: Mapping[str, Any]) -> dict[str, Any]:
    """``POST /api/access``: the shared-memory banks touched when ``elements`` (flat
    indices) are read by one request: words, banks, and the worst number of distinct
    words asked of one bank (1 = conflict-free, k = a k-way conflict).

    >>> a = access_view({"layout": "S[(8,64):(64,1)]", "dtype": "float16",
    ...                  "elements": [0, 64, 128, 192]})
    >>> a["banks"], a["ways"]
    ([0], 4)
    """
    layout, shape, dtype, _ = resolve(req)
    if not _has_banks(layout, dtype):
        raise ApiError("bank analysis needs a dtype and a shared-memory layout (axis m, "
                       "no thread axis)", field="dtype")
    raw = req.get("elements")
    n = math.prod(shape)
    if not isinstance(raw, list) or not raw or len(raw) > MAX_QUERY:
        raise ApiError(f"'elements' must be a list of 1..{MAX_QUERY} flat indices",
                       field="elements")
    if not all(isinstance(e, int) and not isinstance(e, bool) and 0 <= e < n for e in raw):
        raise ApiError(f"'elements' must be flat indices in [0, {n})", field="elements")
    if n > MAX_ELEMENTS:
        raise ApiError("the layout is too large for the explorer", 413)
    assert dtype is not None
    try:
        return bank_access(layout, dtype, shape, raw).to_dict()
    except LayoutError as exc:
        raise ApiError(str(exc)) from None


# -- analysis: legality and bank conflicts -----------------------------------------------
def _legality(layout: Layout, shape: tuple[int, ...], dtype: str | None) -> dict[str, Any]:
    """The legality report; the page highlights element-level findings, so layout-level
    ones carry ``elements: null``."""
    report = legality(layout, shape, dtype)
    findings = [{**f.to_dict(), "elements": list(f.elements) if f.element_level else None}
                for f in report.findings]
    return {"ok": report.ok, "findings": findings}


def analysis_view(req: Mapping[str, Any]) -> dict[str, Any]:
    """``POST /api/analysis``: the legality report (``analysis.legality.legality``; each
    finding also lists the flat indices of all its elements) and, for a shared-memory
    layout with a dtype, the bank conflicts of reading it by 16-byte columns and rows.

    >>> a = analysis_view({"layout": "S[64:1@laneid]"})
    >>> [(f["kind"], len(f["elements"])) for f in a["legality"]["findings"]]
    [('out_of_range', 32)]
    >>> c = analysis_view({"layout": "S[(8,64):(64,1)]", "dtype": "float16"})["conflicts"]
    >>> [(r["order"], r["wavefronts"], r["ideal"], r["worst"]["ways"]) for r in c["reads"]]
    [('column', 64, 8, 8), ('row', 8, 8, 1)]
    """
    layout, shape, dtype, _ = resolve(req)
    n = math.prod(shape)
    if n > MAX_ELEMENTS or n * layout.replica_count > MAX_PAIRS:
        raise ApiError("the layout is too large for the explorer's analysis; use the "
                       "library (tilelayout.analysis) directly", 413)
    try:
        out: dict[str, Any] = {"legality": _legality(layout, shape, dtype), "conflicts": None}
        if _has_banks(layout, dtype):
            assert dtype is not None
            out["conflicts"] = tile_reads(layout, shape, dtype).to_dict()
    except LayoutError as exc:
        raise ApiError(str(exc)) from None
    return out


# -- conversions: the layout in other tools' notations ------------------------------------
#: what the page's "In other tools" panel lists, with its labels
CONVERT_LABELS = {"cute": "CuTe", "cute-tv": "CuTe TV", "jax": "JAX", "triton": "Triton",
                  "gluon": "Gluon", "tvm": "TVM TIRx"}


def _mesh(req: Mapping[str, Any]) -> dict[str, int] | None:
    """The optional ``mesh`` (``"dp=2,tp=2"`` or ``{"dp": 2, "tp": 2}``); its axes are
    device axes the layout text may name (:func:`request_axes`)."""
    value = req.get("mesh")
    if value is not None and not isinstance(value, str | dict):
        raise ApiError("'mesh' must be text like dp=2,tp=2 or an object like {\"dp\": 2}",
                       field="mesh")
    if isinstance(value, str) and len(value) > 200:
        raise ApiError("'mesh' is longer than 200 characters", 413, field="mesh")
    try:
        mesh = parse_mesh(value)
        if mesh is None:
            return None
        if len(mesh) > 8 or any(not 1 <= n <= 1 << 16 for n in mesh.values()):
            raise ApiError("'mesh' has at most 8 axes, each of size 1..65536", field="mesh")
        return mesh_axes(mesh)
    except LayoutError as exc:
        raise ApiError(str(exc), field="mesh") from None


def convert_view(req: Mapping[str, Any]) -> dict[str, Any]:
    """``POST /api/convert``: the layout in each other tool's notation, or why not.

    Same fields as ``/api/layout`` plus an optional ``mesh`` (JAX; default: the layout's
    device axes) and ``targets`` (any of :data:`tilelayout.interop.convert.TARGETS`;
    default: the panel's, :data:`~tilelayout.interop.convert.PANEL_TARGETS`, so the page
    never lists them itself). Each entry of ``targets`` in the answer
    is ``{"target", "label", "ok": true, "text", "notes"}`` (what
    :func:`tilelayout.interop.convert.convert` returns) or ``{"target", "label",
    "ok": false, "reason"}`` (the converter's refusal). A refusal is not an error: only
    bad input is a 4xx.

    >>> r = convert_view({"layout": "S[(2,8,4,2):(2,4@laneid,1@laneid,1)]", "shape": "16,8",
    ...                   "targets": ["cute-tv", "cute"]})
    >>> [(t["target"], t["ok"], t.get("text")) for t in r["targets"]]
    [('cute-tv', True, '((4,8),(2,2)):((32,1),(16,8))'), ('cute', False, None)]
    """
    if not isinstance(req, Mapping):
        raise ApiError("the request body must be a JSON object")
    mesh = _mesh(req)
    wanted = req.get("targets")
    if wanted is None:
        wanted = list(PANEL_TARGETS)
    if (not isinstance(wanted, list) or not wanted
            or not all(isinstance(t, str) and t in TARGETS for t in wanted)):
        raise ApiError(f"'targets' must be a non-empty list of {', '.join(TARGETS)}",
                       field="targets")
    layout, shape, _, _ = resolve(req)
    n = math.prod(shape)
    out = []
    for target in dict.fromkeys(wanted):
        entry: dict[str, Any] = {"target": target, "label": CONVERT_LABELS[target]}
        try:
            if target == "jax" and (n > MAX_ELEMENTS or n * layout.replica_count > MAX_PAIRS):
                raise LayoutError("the layout is too large for the explorer to check against "
                                  "JAX's blocks; use tilelayout.interop.jax directly")
            r = convert(layout, shape, target, mesh=mesh)
            entry.update(ok=True, text=r["text"], notes=r["notes"])
        except LayoutError as exc:
            entry.update(ok=False, reason=str(exc))
        except Exception as exc:  # noqa: BLE001 (a converter bug must not hide the others)
            entry.update(ok=False, reason=f"the converter failed: {type(exc).__name__}: {exc}")
        out.append(entry)
    return {"layout": str(layout), "shape": list(shape), "mesh": mesh, "targets": out}
