"""The preset catalog the page loads from: an entry (layout text, shape, dtype, the
parameters with their values and widget texts) per teaching example and registry preset,
and a registry preset built from a request's parameters. ``/api/presets``, ``/api/preset``
and the endpoints that take ``{"preset": name, "params": {...}}`` layouts read it.

>>> [e["group"] for e in entries()][:1]
['teaching examples']
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .. import presets as registry
from ..core.errors import LayoutError
from ..core.jsonable import jsonable
from ..presets.params import param_text
from . import examples, request
from .request import MAX_TEXT, ApiError


def _example_entry(e: examples.Example) -> dict[str, Any]:
    return {"name": e.name, "group": "teaching examples", "layout": e.layout,
            "shape": list(e.shape), "dtype": e.dtype, "swizzle": e.swizzle, "doc": e.doc,
            "color": e.color}


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
            "shape": list(shape), "dtype": dtype if request.has_banks(layout, dtype) else None,
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


def preset_entry(req: Mapping[str, Any]) -> dict[str, Any]:
    """Registry preset ``req["name"]`` built with ``req["params"]``
    (:func:`built_preset`), as its catalog entry.

    >>> preset_entry({"name": "mma.m16n8k16.C"})["shape"]
    [16, 8]
    """
    return _preset_entry(*built_preset(req))


def built_preset(req: Mapping[str, Any]) -> tuple[str, Any]:
    """``(name, preset)``: registry preset ``req["name"]`` built with ``req["params"]``
    (key -> text, as typed into the page's widgets or a URL's ``p.<key>``; JSON values are
    accepted too; missing parameters take their defaults). A refusal names its field
    (``name``: 404, ``param.<key>`` or ``params``: 400).

    >>> name, p = built_preset({"name": "mma.m16n8k16.C", "params": {"dtype": "float16"}})
    >>> name, p.dtype
    ('mma.m16n8k16.C', 'float16')
    """
    name = request.text(request.json_object(req), "name", required=True)
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
    return name, built


def entries() -> list[dict[str, Any]]:
    """The teaching examples' entries, then every registry preset's (a preset that fails to
    build is an entry with its ``error``).

    >>> len(entries()) > len(examples.EXAMPLES)
    True
    """
    return [_example_entry(e) for e in examples.EXAMPLES] + _registry_entries()
