"""The steps of a conversion plan (:class:`Stage`) and the texts and costs that describe a
staging, a shuffle round and a collective.

>>> Stage("none", "nothing to move").to_dict()
{'what': 'none', 'text': 'nothing to move'}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np

from ..core.frozen import frozen
from ..core.jsonable import jsonable
from .mechanisms.collective import Collective
from .mechanisms.shuffle.byte_permute import BytePermute
from .mechanisms.staging.access import BYTE_PAIRS, AccessReport
from .mechanisms.staging.staging import Staging


@dataclass(frozen=True)
class Stage:
    """One step of a plan, for display and stepping (``what`` is a short verb, ``data``
    read-only details)."""

    what: str
    text: str
    data: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    def __post_init__(self) -> None:
        object.__setattr__(self, "data", frozen(self.data))  # nested details frozen too

    def to_dict(self) -> dict:
        """Plain JSON-ready data."""
        return {"what": self.what, "text": self.text, **jsonable(self.data)}


def collective_reason(c: Collective) -> str:
    """Why a collective: what the devices exchange."""
    if c.name == "local slice":
        return "every device already holds what it keeps: a local slice, no bytes move"
    return (f"devices exchange data: {c.name} "
            f"(at most {int(c.received.max(initial=0))} elements received per device)")


def lanes_text(src: np.ndarray) -> str:
    """A shuffle round's source lanes, ``-`` for none."""
    return " ".join("-" if x < 0 else str(int(x)) for x in src)


def staging_costs(s: Staging, shared_side: bool, warp_local: bool) -> dict[str, Any]:
    """The costs of a staging, for ``plan.costs``."""
    w, r, n = s.choice.write, s.choice.read, s.passes
    return {"smem_bytes": s.bytes, "passes": n, "store_wavefronts": n * w.wavefronts,
            "load_wavefronts": n * r.wavefronts, "wavefronts": s.wavefronts,
            "ideal_wavefronts": s.ideal, "store_vector_bytes": w.vector_bytes,
            "load_vector_bytes": r.vector_bytes, "store_requests": n * w.requests,
            "load_requests": n * r.requests, "barriers": 0 if shared_side else 2 * n - 1,
            "barrier_instruction": "none" if shared_side else
            ("bar.warp.sync" if warp_local else "bar.sync"),
            "store_instruction": instruction(w, store=True),
            "load_instruction": instruction(r, store=False)}


def instruction(r: AccessReport, *, store: bool) -> str:
    """The instruction a side issues, PTX-named: ``st/ld.shared.<width>`` (``+packed``: of
    registers reordered by address), ``ldmatrix`` / ``stmatrix``, or ``none``."""
    if r.matrix is not None:
        return r.mechanism
    if not r.requests:
        return "none"
    op = "st.shared" if store else "ld.shared"
    if r.mechanism == BYTE_PAIRS:  # two bytes, each from its own operand
        return f"{op}.v2.b8"
    width = {16: "v4.b32", 8: "v2.b32", 4: "b32", 2: "b16", 1: "b8"}[r.vector_bytes]
    return f"{op}.{width}" + ("+packed" if r.mechanism == "packed" else "")


def staging_stages(s: Staging, src_role: str, dst_role: str, warp_local: bool
                   ) -> list[Stage]:
    """Store / barrier / load stages, pass by pass."""
    bar = "__syncwarp" if warp_local else "barrier"
    out = []
    n = s.passes
    for k in range(n):
        tag = f"pass {k + 1} of {n}: " if n > 1 else ""
        if k:
            out.append(Stage("barrier", f"{tag}{bar}: every load of the previous pass is "
                             f"done before the buffer is reused"))
        for side, role, what in ((s.choice.write, src_role, "store"),
                                 (s.choice.read, dst_role, "load")):
            if role != "registers":
                continue
            if what == "load" and src_role == "registers":
                out.append(Stage("barrier", f"{tag}{bar}: every store lands before any load"))
            out.append(Stage(what, f"{tag}{what} {'to' if what == 'store' else 'from'} shared "
                             f"memory {s.layout}: {side.requests} request(s) of "
                             f"{instruction(side, store=what == 'store')}, {side.wavefronts} "
                             f"wavefront(s) (ideal {side.ideal})",
                             {"side": "write" if what == "store" else "read", "pass": k,
                              **side.to_dict(per_request=False)}))
    return out


def byte_permute_stages(bp: BytePermute) -> list[Stage]:
    """The steps of a register-only byte exchange: each shuffle of whole registers, then
    the byte permutes that assemble the destination registers."""
    out = [Stage("shuffle", f"shuffle {k + 1}: shfl.sync.idx of whole registers; warp 0's "
                 f"lanes read lanes [{lanes_text(bp.src_lane[k][0])}], offering registers "
                 f"[{lanes_text(bp.offered[k][0])}]",
                 {"round": k, "src_lane": bp.src_lane[k].tolist(),
                  "send_word": bp.offered[k].tolist()}) for k in range(bp.shuffles)]
    out.append(Stage("permute", f"assemble {len(bp.names)} registers per lane with "
                     f"{bp.permutes} prmt.b32 (and {bp.selects} selp in all) per warp",
                     {"permutes": bp.permutes, "selects": bp.selects}))
    return out
