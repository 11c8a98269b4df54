"""How two plans of one conversion compare (:func:`plan_key`): wavefronts, shared-memory
bytes, then data-movement instructions per warp -- the order ``plan_conversion`` keeps the
cheaper of its plan on bits and its element search by (docs/data-movement.md, *The
choice*).

>>> import tilelayout as tl
>>> p = tl.plan_conversion("S[(32,32):(1@laneid,1)]", "S[(32,32):(1,1@laneid)]", (32, 32), "float32")
>>> plan_key(p)
(64, 4096, 17.0)
"""

from __future__ import annotations

from typing import Any


def plan_key(p: Any) -> tuple[float, float, float]:
    """How two plans of one conversion compare (a ``ConversionPlan``): wavefronts,
    shared-memory bytes, then data-movement instructions per warp (shared-memory
    instructions, shuffles, selects and byte permutes, barriers)."""
    c = p.costs
    if p.mechanism == "warp-shuffle":
        instructions = (c.get("shuffle_instructions", c.get("shuffle_rounds", 0))
                        + c.get("shuffle_selects", 0) + c.get("byte_permutes", 0)
                        + c.get("shuffle_packs", 0))
    elif p.mechanism == "registers":  # selects and permutes inside threads
        instructions = c.get("shuffle_selects", 0) + c.get("byte_permutes", 0)
    else:
        instructions = (c.get("store_requests", 0) / _warps(p, "write")
                        + c.get("load_requests", 0) / _warps(p, "read")
                        + c.get("barriers", 0) + c.get("byte_permutes", 0))
    return (c.get("wavefronts", 0), c.get("smem_bytes", 0), instructions)


def _warps(p: Any, side: str) -> int:
    """The warps whose instructions a side's request count adds up (the storing warps
    may be fewer than the loading ones: copies store once)."""
    smem = p.smem
    for report in (() if smem is None else (getattr(smem, side), smem.write, smem.read)):
        if report.warps:
            return len(report.warps)
    return 1


__all__ = ["plan_key"]
