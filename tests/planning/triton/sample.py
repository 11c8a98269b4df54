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


#: none today: the last, pair 542 (one instruction more for 16 fewer wavefronts), went
#: when Triton 3.9's plain ld / st synthesis was reproduced exactly
KNOWN_WORSE: dict[str, dict[str, Any]] = {}
