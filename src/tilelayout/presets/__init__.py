"""Named, cited hardware layouts: ``tilelayout.presets``.

Registry API (stable; the CLI and the explorer build on it):

* ``names() -> tuple[str, ...]``: every preset name, in a fixed order.
* ``get(name, **params) -> Preset``: build one. ``Preset`` has ``.layout`` (a
  ``TileLayout`` or ``ComposeLayout``), ``.shape`` (the logical shape), ``.name``,
  ``.doc`` (what hardware object, its source, a two-line example), ``.summary``,
  ``.source``, ``.params`` (the validated keyword arguments, defaults filled in),
  ``.dtype`` and ``.swizzle_mode`` (where meaningful, for the bank view) and
  ``.to_dict()``. Unknown names / parameters and bad values raise
  :class:`PresetError` (a ``tilelayout.LayoutError``) saying what is allowed.
* ``info(name) -> PresetInfo`` and ``catalog() -> tuple[PresetInfo, ...]``: what a
  preset is without building it: ``name``, ``family``, ``summary``, ``source``,
  ``doc``, ``params`` (each a :class:`Param` with ``name``, ``kind`` in
  choice/int/bool/shape/mesh/spec, ``default``, ``choices`` or ``None``,
  ``required``, ``doc``), ``defaults`` (a complete valid parameter set) and
  ``to_dict()``. ``default(name)`` is ``get(name, **info(name).defaults)``.
* ``parse_params(name, {"key": "text"})``: parameter values from strings (CLI,
  query strings); every kind also accepts JSON.
* ``from_text("preset:NAME[:KEY=VALUE...]")``: the preset one operand string names
  (the CLI, the planning entry points and the explorer read presets this way).

>>> from tilelayout import presets
>>> p = presets.get("mma.m16n8k16.A", dtype="float16")
>>> p.shape, str(p.layout)
((16, 16), 'S[(2,8,2,4,2):(2,4@laneid,4,1@laneid,1)]')
>>> all(presets.default(n).layout is not None for n in presets.names())
True
"""

from __future__ import annotations

import importlib

from .operand import from_text, is_preset_text
from .params import PARAM_KINDS, Param, PresetError
from .registry import (
    Preset,
    PresetInfo,
    catalog,
    default,
    get,
    info,
    names,
    parse_params,
)

#: modules that register presets on import; this order is the listing order of names()
MODULES = ("mma", "ldmatrix", "wgmma", "tcgen05", "tmem", "smem", "trainium", "mesh",
           "casestudies", "triton", "triton_memory", "amd", "triton_scales", "amd_dot")
for _module in MODULES:
    importlib.import_module(f"{__name__}.{_module}")

__all__ = [
    "PARAM_KINDS",
    "Param",
    "Preset",
    "PresetError",
    "PresetInfo",
    "catalog",
    "default",
    "from_text",
    "get",
    "info",
    "is_preset_text",
    "names",
    "parse_params",
]
