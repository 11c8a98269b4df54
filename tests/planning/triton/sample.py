"""The differential harness's fixed sample (``test_sample_vs_triton.py``): 30 pairs of
seed 26 (:func:`.pairs.draw_pair`), chosen from the benchmark's 1,000 for a short compile
and planning time so that every family, target, warp count and dtype appears, with pairs
where ours is better, equal and worse -- every loss mechanism of :data:`.report.GROUPS`
the benchmark found, on the planner of the time -- an MMA and the dot operand of that
same MMA (v2 and v3), and one where ours moves nothing between threads while Triton does.

The pairs are written out as data in ``sample.json`` (not redrawn), so a change to the
generator leaves the sample as it is.

:data:`KNOWN_WORSE`: the sample's pairs where today's planner is worse than Triton, with
both sides' numbers (shared-memory bytes, wavefronts, instructions per warp) and the
mechanism; the suite checks the list exactly, so an entry is removed when the planner
stops losing there, and a new loss fails.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .pairs import Pair

SAMPLE: tuple[Pair, ...] = tuple(
    Pair.from_json(d) for d in json.loads((Path(__file__).parent / "sample.json").read_text()))


def name(p: Pair) -> str:
    """A sample pair's test id: its index in seed 26, its families and target."""
    return f"{p.index} {p.family} {p.target}"


KNOWN_WORSE: dict[str, dict[str, Any]] = {
    "180 slice -> slice sm_90a": {
        "smem_bytes": {"ours": 128, "triton": 0},
        "wavefronts": {"ours": 9, "triton": 0},
        "instructions": {"ours": 3, "triton": 2},
        "why": ("stages through shared memory where Triton shuffles: Triton 2 shfl.sync.idx; ours 1 "
                "st.shared.b32, 1 ld.shared.v2.b32, 1 barrier(s)"),
    },
    "406 mma2 -> linear sm_80": {
        "instructions": {"ours": 67, "triton": 33},
        "why": ("smaller buffer than Triton's in more passes: more instructions: Triton 1 bar.sync, 16 "
                "ld.shared.v2.b32, 16 st.shared.v2.b32; ours 32 st.shared.b32, 32 ld.shared.b32, 3 "
                "barrier(s), 2 passes"),
    },
    "441 slice -> slice sm_90a": {
        "smem_bytes": {"ours": 256, "triton": 0},
        "wavefronts": {"ours": 20, "triton": 0},
        "why": ("stages through shared memory where Triton shuffles: Triton 8 selp.b32, 16 shfl.sync.idx; "
                "ours 4 st.shared.v4.b32+packed, 2 ld.shared.v4.b32, 1 barrier(s)"),
    },
    "474 slice -> slice sm_90a": {
        "instructions": {"ours": 9, "triton": 7},
        "why": ("fewer ldmatrix / stmatrix than Triton: Triton 1 bar.sync, 2 ldmatrix.x4.trans, 4 "
                "st.shared.v4.b32; ours 4 st.shared.v4.b32+packed, 4 ld.shared.v2.b32+packed, 1 barrier(s)"),
    },
    "552 linear -> dot sm_100a": {
        "wavefronts": {"ours": 96, "triton": 80},
        "why": ("more wavefronts (bank conflicts): Triton 1 bar.sync, 8 ld.shared.b32, 32 prmt.b32, 2 "
                "st.shared.v2.b8; ours 4 st.shared.b8, 2 ld.shared.v4.b32, 1 barrier(s)"),
    },
    "603 mma2 -> linear sm_80": {
        "instructions": {"ours": 8, "triton": 7},
        "why": ("shuffles where Triton stages: more instructions: Triton 1 bar.sync, 2 ld.shared.v2.b16, 4 "
                "st.shared.v2.b16; ours 2 shfl, 4 selects, 2 prmt"),
    },
    "623 blocked -> linear sm_80": {
        "instructions": {"ours": 20, "triton": 11},
        "why": ("shuffles where Triton stages: more instructions: Triton 1 bar.sync, 2 ld.shared.b64, 8 "
                "st.shared.b64; ours 4 shfl, 16 selects"),
    },
    "683 slice -> linear sm_100a": {
        "instructions": {"ours": 2, "triton": 1},
        "why": ("shuffles costed above Triton's shuffles: Triton 1 shfl.sync.idx; ours 1 shfl, 1 selects"),
    },
    "927 mma2 -> linear sm_80": {
        "instructions": {"ours": 10, "triton": 9},
        "why": ("more shared-memory instructions (narrower vectors): Triton 1 bar.sync, 4 ld.shared.b16, 4 "
                "st.shared.v2.b16; ours 8 st.shared.b16, 1 ld.shared.v2.b32, 1 barrier(s)"),
    },
    "980 blocked -> blocked sm_90a": {
        "smem_bytes": {"ours": 512, "triton": 256},
        "why": ("bigger buffer: Triton reuses a smaller one in passes: Triton 3 bar.warp.sync, 2 "
                "ldmatrix.x4, 64 prmt.b32, 8 st.shared.v4.b32; ours 8 st.shared.v4.b32+packed, 2 "
                "ld.shared.v4.b32+packed, 1 barrier(s)"),
    },
    "991 blocked -> blocked sm_100a": {
        "smem_bytes": {"ours": 256, "triton": 128},
        "why": ("bigger buffer: Triton reuses a smaller one in passes: Triton 3 bar.warp.sync, 2 "
                "ldmatrix.x2, 48 prmt.b32, 8 st.shared.v4.b32; ours 8 st.shared.v4.b32+packed, 2 "
                "ld.shared.v2.b32, 1 barrier(s)"),
    },
    "996 linear -> slice sm_90a": {
        "instructions": {"ours": 2, "triton": 1},
        "why": ("shuffles costed above Triton's shuffles: Triton 1 shfl.sync.idx; ours 1 shfl, 1 selects"),
    },
}
