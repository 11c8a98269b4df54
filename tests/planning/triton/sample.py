"""The differential harness's fixed sample (``test_sample_vs_triton.py``): 28 pairs of
seed 26 (:func:`.pairs.draw_pair`), chosen from the benchmark's 1,000 for a short compile
and planning time so that every family, target, warp count and dtype appears, and every
loss mechanism of :data:`.report.GROUPS` that the benchmark found, as well as pairs where
ours is better or equal, an MMA and the dot operand of that same MMA (v2 and v3), and one
where ours moves nothing between threads while Triton does.

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
    "27 mma2 -> mma2 sm_80": {
        "smem_bytes": {"ours": 2048, "triton": 1024},
        "why": ("bigger buffer: Triton reuses a smaller one in passes: Triton 3 bar.sync, 4 "
                "ld.shared.v2.b64, 2 st.shared.v2.b64; ours 2 st.shared.v4.b32, 4 ld.shared.v4.b32, 1 "
                "barrier(s)"),
    },
    "154 linear -> slice sm_100a": {
        "instructions": {"ours": 6, "triton": 4},
        "why": ("more shared-memory instructions (narrower vectors): Triton 1 bar.sync, 2 ld.shared.v2.b32,"
                " 1 st.shared.b32; ours 1 st.shared.b32, 4 ld.shared.b32, 1 barrier(s)"),
    },
    "180 slice -> slice sm_90a": {
        "smem_bytes": {"ours": 128, "triton": 0},
        "wavefronts": {"ours": 9, "triton": 0},
        "instructions": {"ours": 3, "triton": 2},
        "why": ("stages through shared memory where Triton shuffles: Triton 2 shfl.sync.idx; ours 1 "
                "st.shared.b32, 1 ld.shared.v2.b32, 1 barrier(s)"),
    },
    "382 mma2 -> linear sm_90a": {
        "wavefronts": {"ours": 48, "triton": 32},
        "why": ("more wavefronts (bank conflicts): Triton 1 bar.sync, 8 ld.shared.b32, 40 prmt.b32, 8 "
                "st.shared.b32; ours 2 st.shared.v4.b32+packed, 8 ld.shared.b32+packed, 1 barrier(s)"),
    },
    "394 blocked -> linear sm_80": {
        "wavefronts": {"ours": 96, "triton": 64},
        "instructions": {"ours": 47, "triton": 11},
        "why": ("smaller buffer than Triton's in more passes: more instructions: Triton 3 bar.sync, 4 "
                "ld.shared.v4.b32, 4 st.shared.v4.b32; ours 16 st.shared.b32, 16 ld.shared.v2.b32, 15 "
                "barrier(s), 8 passes"),
    },
    "441 slice -> slice sm_90a": {
        "smem_bytes": {"ours": 256, "triton": 0},
        "wavefronts": {"ours": 20, "triton": 0},
        "why": ("stages through shared memory where Triton shuffles: Triton 8 selp.b32, 16 shfl.sync.idx; "
                "ours 4 st.shared.v4.b32+packed, 2 ld.shared.v4.b32, 1 barrier(s)"),
    },
    "447 linear -> mma2 sm_80": {
        "smem_bytes": {"ours": 8192, "triton": 4096},
        "why": ("bigger buffer: Triton reuses a smaller one in passes: Triton 3 bar.sync, 2 ldmatrix.x4, 2 "
                "st.shared.v4.b32; ours 2 st.shared.v4.b32+packed, 2 ldmatrix.x4, 1 barrier(s)"),
    },
    "539 linear -> mma2 sm_80": {
        "wavefronts": {"ours": 32, "triton": 24},
        "why": ("more wavefronts (bank conflicts): Triton 1 bar.sync, 4 ld.shared.v2.b16, 2 "
                "st.shared.v2.b16; ours 4 st.shared.b16, 1 ld.shared.v4.b32, 1 barrier(s)"),
    },
    "583 mma3 -> blocked sm_100a": {
        "instructions": {"ours": 11, "triton": 9},
        "why": ("smaller buffer than Triton's in more passes: more instructions: Triton 1 bar.sync, 4 "
                "ld.shared.v4.b32, 4 stmatrix.x4.trans; ours 4 stmatrix.x4.trans, 4 ld.shared.v4.b32, 3 "
                "barrier(s), 2 passes"),
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
    "849 mma3 -> dot sm_90a": {
        "smem_bytes": {"ours": 16384, "triton": 4096},
        "why": ("bigger buffer: Triton reuses a smaller one in passes: Triton 7 bar.sync, 8 "
                "ld.shared.v4.b32, 144 prmt.b32, 4 st.shared.v4.b32; ours 4 st.shared.v4.b32, 8 "
                "ld.shared.v4.b32+packed, 1 barrier(s)"),
    },
    "927 mma2 -> linear sm_80": {
        "instructions": {"ours": 10, "triton": 9},
        "why": ("more shared-memory instructions (narrower vectors): Triton 1 bar.sync, 4 ld.shared.b16, 4 "
                "st.shared.v2.b16; ours 8 st.shared.b16, 1 ld.shared.v2.b32, 1 barrier(s)"),
    },
    "930 slice -> slice sm_90a": {
        "instructions": {"ours": 18, "triton": 6},
        "why": ("fewer ldmatrix / stmatrix than Triton: Triton 1 bar.sync, 4 ld.shared.v4.b32, 1 "
                "stmatrix.x2.trans; ours 1 st.shared.v2.b32+packed, 16 ld.shared.b32+packed, 1 barrier(s)"),
    },
    "951 blocked -> linear sm_100a": {
        "instructions": {"ours": 6, "triton": 3},
        "why": ("fewer ldmatrix / stmatrix than Triton: Triton 1 bar.sync, 1 ldmatrix.x1, 1 "
                "st.shared.v4.b32; ours 1 st.shared.v4.b32, 4 ld.shared.b16, 1 barrier(s)"),
    },
    "996 linear -> slice sm_90a": {
        "instructions": {"ours": 2, "triton": 1},
        "why": ("shuffles costed above Triton's shuffles: Triton 1 shfl.sync.idx; ours 1 shfl, 1 selects"),
    },
}
