"""The differential harness's fixed sample in the suite (issue 26): each pair compiled
live by Triton (in a child process, no cache), its PTX replayed, and our plan held to it.

Asserted for every pair: Triton compiles it; our reading of both layouts maps every
register, lane and warp as Triton's bases do; ``execute()`` delivers Triton's own layout
of ``dst``, replicas included; and ours is no worse than Triton in shared-memory bytes,
wavefronts and instructions per warp -- except where :data:`.sample.KNOWN_WORSE` lists
the loss with both sides' numbers. The list is checked exactly: a new loss fails, and so
does a listed one that is no longer a loss (or whose numbers changed), so the list
shrinks as the planner improves. The population run is ``benchmarks/bench_vs_triton.py``.
"""

from __future__ import annotations

import importlib.util

import pytest

from .harness import METRICS, TritonSide, our_side
from .pairs import FAMILIES, TARGETS, Pair, spec_family
from .sample import KNOWN_WORSE, SAMPLE, name

if importlib.util.find_spec("triton") is None:
    pytest.skip("Triton is not installed (scripts/test.sh installs it)", allow_module_level=True)

NAMES = [name(p) for p in SAMPLE]


@pytest.fixture(scope="module")
def side():
    with TritonSide(jobs=1, cache=None) as s:
        yield s


@pytest.mark.parametrize("pair", SAMPLE, ids=NAMES)
def test_no_worse_than_triton_except_as_listed(pair, side):
    rec = our_side(pair, side.measure(pair))
    assert rec["status"] == "ok", rec
    assert rec["agree"], f"from_triton reads {rec['layouts']} unlike Triton's bases"
    assert rec["execute_ok"], f"execute() does not deliver Triton's layout: {rec['text']}"
    o, t = rec["ours"], rec["triton"]
    found = {m: {"ours": o[m], "triton": t[m]} for m in METRICS if o[m] > t[m]}
    listed = {m: v for m, v in KNOWN_WORSE.get(name(pair), {}).items() if m != "why"}
    assert found == listed, (f"{name(pair)}: ours {o}, Triton {t}; worse {found}, "
                             f"listed {listed}")


def test_the_sample_covers_every_family_and_target_and_the_list_says_why():
    fams = {spec_family(s) for p in SAMPLE for s in (p.src, p.dst)}
    assert fams == set(FAMILIES) and {p.target for p in SAMPLE} == set(TARGETS)
    assert len(set(NAMES)) == len(NAMES) and 20 <= len(SAMPLE) <= 30
    for n, entry in KNOWN_WORSE.items():
        assert n in NAMES, n
        assert entry.get("why") and set(entry) - {"why"} <= set(METRICS), (n, entry)


def test_a_pair_triton_refuses_is_recorded_not_fatal(side):
    """Triton 3.9 has no fp8e4nv before sm_89: the compile is refused, the layouts it
    lowered are kept, and the worker lives on for the next pair."""
    blocked = {"kind": "blocked", "spt": [1, 4], "tpw": [8, 4], "wpc": [1, 1], "order": [1, 0]}
    mma = {"kind": "mma", "version": 2, "warps": [1, 1], "instr": [16, 8]}
    pair = Pair(0, 0, "blocked -> mma2", blocked, mma, (16, 16), "e4m3", "sm_80", 1)
    rec = our_side(pair, side.measure(pair))
    assert rec["status"] == "refused" and rec["stage"] == "compile", rec
    assert "fp8e4nv not supported" in rec["error"] and "verdict" not in rec
    ok = our_side(SAMPLE[0], side.measure(SAMPLE[0]))
    assert ok["status"] == "ok"
