"""``POST /api/smem {writer, reader, shape?, dtype?, family?, target?}``: the shared-memory layout
:func:`~tilelayout.planning.mechanisms.staging.smem_choice.choose_smem_layout` picks, both sides' costs, the
candidates table, the chosen layout's line x bank grid and each side's worst request
(lanes, banks, the cells it touches). A layout is text or ``{"preset": name,
"params": {...}}``; ``shape`` and ``dtype`` default to a preset's.

>>> r = smem_view({"writer": {"preset": "mma.m16n8k16.C"}, "reader": "S[(16,8):(1,1@laneid)]"})
>>> r["layout"], r["wavefronts"], r["ideal"], r["grid"]["lines"]
('ComposeLayout(Swizzle(2,2,3), S[(16,8):(1,16)])', 12, 8, 4)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.dtypes import dtype_bytes
from ...core.errors import LayoutError
from ...planning.mechanisms.staging.access import smem_addresses
from ...planning.mechanisms.staging.smem_choice import FAMILIES, choose_smem_layout
from .. import request
from ..request import ApiError
from . import movement


def smem_view(req: Mapping[str, Any]) -> dict[str, Any]:
    """``POST /api/smem``: see the module doc. Bad input is a 4xx
    :class:`~tilelayout.explorer.request.ApiError`."""
    request.json_object(req)
    writer, reader, shape, dtype = movement.pair(req, "writer", "reader")
    family = request.text(req, "family") or "swizzle"
    if family not in FAMILIES:
        raise ApiError(f"'family' must be one of {', '.join(FAMILIES)}", field="family")
    try:
        dtype_bytes(dtype)
        c = choose_smem_layout(writer, reader, shape, dtype, family,
                               target=movement.target(req))
        addr = smem_addresses(c.layout, c.shape)
    except LayoutError as exc:
        raise movement.refusal(exc) from None
    out = c.to_dict()
    out["writer"], out["reader"] = (str(movement.layout_of(writer)),
                                    str(movement.layout_of(reader)))
    out["grid"] = movement.grid(c.layout, c.shape, dtype)
    out["worst_cells"] = {"write": movement.worst_cells(c.write, addr, c.shape),
                          "read": movement.worst_cells(c.read, addr, c.shape)}
    return out
