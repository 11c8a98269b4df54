"""Gluon layout objects from the harness's specs (:mod:`.pairs`). Imports Triton: only
the harness's child process (:mod:`.worker`) imports this module."""

from __future__ import annotations

from typing import Any

from triton.experimental.gluon import language as ttgl

from .pairs import Spec


def gluon(s: Spec) -> Any:
    """The Gluon layout a spec names.

    >>> gluon({"kind": "mma", "version": 2, "warps": [4, 1], "instr": [16, 8]}).version
    [2, 0]
    """
    k = s["kind"]
    if k == "blocked":
        return ttgl.BlockedLayout(list(s["spt"]), list(s["tpw"]), list(s["wpc"]), list(s["order"]))
    if k == "mma":
        return ttgl.NVMMADistributedLayout(version=[s["version"], 0], warps_per_cta=list(s["warps"]),
                                           instr_shape=list(s["instr"]))
    if k == "dot":
        return ttgl.DotOperandLayout(s["op"], gluon(s["parent"]), s["k_width"])
    if k == "slice":
        return ttgl.SliceLayout(s["dim"], gluon(s["parent"]))
    if k == "linear":
        return ttgl.DistributedLinearLayout(s["reg"], s["lane"], s["warp"], [], list(s["shape"]))
    raise ValueError(f"unknown layout spec kind {k!r}")
