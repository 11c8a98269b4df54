"""The harness's child process: Triton runs here, never in the process that must
survive it (its verifier and lowering can abort on layouts it refuses).

``python -m tests.planning.triton.worker`` reads one pair per line on stdin (JSON,
:meth:`.pairs.Pair.as_json`) and answers each with one JSON line on stdout (fd 1 is moved
to stderr first, so nothing Triton prints can interleave with the answers):

* ``{"status": "ok", "layouts": {side: {"bases", "ours"}}, "triton": cost,
  "compile_s": seconds}``: each layout as Triton lowers it (its linear-layout bases) and
  as :func:`tilelayout.interop.triton.from_triton` reads it (our text, or
  ``"ours_error"``); Triton's ``convert`` kernel (:func:`..scenarios.triton_kernels.
  convert_ptx`) measured by :func:`.measure.triton_cost`;
* ``{"status": "refused", "stage": "lower" | "compile", "error": ...}``: Triton raised
  (at ``"compile"`` with the ``"layouts"`` it lowered);
* ``{"status": "replay-error", "error": ...}``: the PTX holds what the replay does not
  evaluate (a harness defect to fix, never a guess).
"""

from __future__ import annotations

import json
import os
import sys
import time
import traceback
from typing import Any

from triton.experimental.gluon.language._layouts import DistributedLayout

import tilelayout as tl
from tilelayout.interop.gluon import lower
from tilelayout.interop.triton import from_triton

from ..scenarios.ptx_text import ReplayError
from ..scenarios.triton_kernels import convert_ptx
from .gluon_specs import gluon
from .measure import triton_cost
from .pairs import Pair


def _error(exc: BaseException) -> str:
    text = f"{type(exc).__name__}: {exc}".strip()
    lines = [ln for ln in text.splitlines() if ln.strip()]
    return "\n".join(lines[:6])[:1500]


def _layout(obj: DistributedLayout, shape: tuple[int, ...]) -> dict[str, Any]:
    ll = lower(obj, shape)
    bases = {"register": ll.reg_bases, "lane": ll.lane_bases, "warp": ll.warp_bases,
             "block": ll.block_bases}
    out: dict[str, Any] = {"bases": {k: [list(v) for v in b] for k, b in bases.items()}}
    try:
        out["ours"] = str(from_triton(obj, shape))
    except tl.LayoutError as exc:
        out["ours_error"] = _error(exc)
    return out


def measure(d: dict[str, Any]) -> dict[str, Any]:
    """Triton's side of one pair (see the module doc)."""
    pair = Pair.from_json(d)
    objs = {"src": gluon(pair.src), "dst": gluon(pair.dst)}
    layouts = {}
    for side, obj in objs.items():
        try:
            layouts[side] = _layout(obj, pair.shape)
        except tl.LayoutError as exc:
            return {"status": "refused", "stage": "lower", "error": f"{side}: {_error(exc)}"}
    t0 = time.perf_counter()
    try:
        ptx, smem = convert_ptx(objs["src"], objs["dst"], pair.shape, pair.dtype, pair.target,
                                pair.warps)
    except Exception as exc:  # noqa: BLE001  (whatever Triton raises is its refusal)
        return {"status": "refused", "stage": "compile", "error": _error(exc),
                "layouts": layouts}
    compile_s = time.perf_counter() - t0
    try:
        cost = triton_cost(ptx, smem)
    except ReplayError as exc:
        return {"status": "replay-error", "error": _error(exc), "compile_s": compile_s,
                "layouts": layouts}
    return {"status": "ok", "layouts": layouts, "compile_s": compile_s,
            "triton": {"smem_bytes": cost.smem_bytes, "wavefronts": cost.wavefronts,
                       "instructions": cost.instructions, "detail": cost.detail}}


def main() -> None:
    answers = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            out = measure(json.loads(line))
        except Exception:  # noqa: BLE001  (a harness defect: reported, the worker lives on)
            out = {"status": "harness-error", "error": traceback.format_exc()[-1500:]}
        answers.write(json.dumps(out) + "\n")
        answers.flush()


if __name__ == "__main__":
    main()
