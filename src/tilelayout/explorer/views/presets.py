"""The preset picker's endpoints: ``GET /api/presets`` (the teaching examples, then the
preset registry) and ``POST /api/preset`` (a registry preset built with the page's
parameters); the entries come from :mod:`tilelayout.explorer.catalog`.

>>> [e["group"] for e in presets()["presets"]][:1]
['teaching examples']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .. import catalog


def presets() -> dict[str, Any]:
    """``GET /api/presets``: the teaching examples, then every entry of the preset registry."""
    return {"presets": catalog.entries()}


def preset_view(req: Mapping[str, Any]) -> dict[str, Any]:
    """``POST /api/preset``: build registry preset ``name`` with ``params`` (key -> text, as
    typed into the page's widgets or a URL's ``p.<key>``; JSON values are accepted too).
    Missing parameters take their defaults. The answer is the preset's entry (layout
    text, shape, dtype, the parameters with their values).

    >>> e = preset_view({"name": "wgmma.m64nNk16.D", "params": {"n": "16"}})
    >>> e["layout"], e["shape"], [p["value"] for p in e["params"]]
    ('S[(4,2,8,2,4,2):(1@wid_in_wg,2,4@laneid,4,1@laneid,1)]', [64, 16], [16])
    """
    return catalog.preset_entry(req)
