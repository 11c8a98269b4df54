"""The differential harness's own parts, without Triton: the pair generator's legality
and coverage, Triton's bases read as data, the verdict rules, the child process's
refusal handling (a child that aborts or hangs), and the report's markers."""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import math
import sys
from collections import Counter

import pytest

import tilelayout as tl

from ..conftest import expected
from .harness import Worker, hardware_map, tritons_layout, verdict
from .pairs import DTYPES, FAMILIES, MAX_ELEMENTS, TARGETS, WARPS, Pair, draw_pair, spec_family
from .report import BEGIN, END, group, replace_between, table

DRAWS = [draw_pair(26, i) for i in range(400)]


def _warps(spec) -> int:
    k = spec["kind"]
    if k == "blocked":
        return math.prod(spec["wpc"])
    if k == "mma":
        return math.prod(spec["warps"])
    if k == "linear":
        return 1 << len(spec["warp"])
    return _warps(spec["parent"])


def test_pairs_are_seeded_and_legal():
    """A pair is a function of (seed, index); both layouts have the pair's warps; a blocked
    layout's lanes multiply to 32; MMA v3 tiles M by warpgroups on sm_90a / sm_100a; a dot
    operand of an MMA has a k_width (none for a blocked parent, operand 0 for v3)."""
    assert draw_pair(26, 5) == DRAWS[5] and draw_pair(27, 5) != DRAWS[5]
    for p in DRAWS:
        assert p.warps in WARPS and p.dtype in DTYPES and p.target in TARGETS
        assert math.prod(p.shape) <= MAX_ELEMENTS and all(n & (n - 1) == 0 for n in p.shape)
        assert not (p.dtype == "e4m3" and p.target == "sm_80")
        assert Pair.from_json(p.as_json()) == p
        for spec in (p.src, p.dst):
            assert _warps(spec) == p.warps, (p.text(), spec)
            stack = [spec]
            while stack:
                s = stack.pop()
                if s["kind"] == "blocked":
                    assert math.prod(s["tpw"]) == 32 and sorted(s["order"]) == [0, 1][:len(s["spt"])]
                if s["kind"] == "mma" and s["version"] == 3:
                    assert p.target != "sm_80" and s["warps"][0] % 4 == 0
                if s["kind"] == "dot":
                    assert (s["k_width"] == 0) == (s["parent"]["kind"] == "blocked")
                    assert s["parent"]["kind"] != "mma" or s["parent"]["version"] == 2 or s["op"] == 0
                stack += [s["parent"]] if "parent" in s else []
        assert len(p.shape) == (1 if "slice" in p.family else len(p.shape))


def test_every_family_target_dtype_and_warp_count_is_drawn():
    fams = Counter(spec_family(s) for p in DRAWS for s in (p.src, p.dst))
    assert set(fams) == set(FAMILIES) and min(fams.values()) >= 20, fams
    assert {p.target for p in DRAWS} == set(TARGETS) and {p.dtype for p in DRAWS} == set(DTYPES)
    assert {p.warps for p in DRAWS} == set(WARPS)
    linear = [s for p in DRAWS for s in (p.src, p.dst) if s["kind"] == "linear"]
    assert any(any(not any(v) for v in s["lane"] + s["warp"]) for s in linear)  # broadcasts
    widths = {s["k_width"] for p in DRAWS for s in (p.src, p.dst) if s["kind"] == "dot"}
    assert widths == {0, 1, 2, 4, 8, 16}
    same = sum(1 for p in DRAWS if p.dst.get("parent") == p.src or p.src.get("parent") == p.dst)
    assert same >= 5  # an MMA and the dot operand of that very MMA


def test_tritons_bases_read_as_data():
    """mma v2, one warp, 16x8: register 0 -> column 1, register 1 -> row 8, lanes 0-1 ->
    columns 2, 4, lanes 2-4 -> rows 1, 2, 4 (interop/triton's doctest); a zero lane basis
    is a broadcast: both lanes hold the element."""
    bases = {"register": [[0, 1], [8, 0]], "lane": [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]]}
    hw = hardware_map(bases, (16, 8))
    assert hw["axes"] == ["m", "laneid"]
    assert hw["points"][(1, 0)] == 1 and hw["points"][(2, 0)] == 64 and hw["points"][(0, 4)] == 8
    ours = tl.parse("S[(2,8,4,2):(2,4@laneid,1@laneid,1)]")
    assert tritons_layout(bases, ours, (16, 8)) == expected(ours, (16, 8))
    broadcast = {"register": [[1]], "lane": [[0], [2], [4], [8], [16]]}
    pairs = tl.parse("S[(16,2):(2@laneid,1)] + R[2:1@laneid]")
    got = tritons_layout(broadcast, pairs, (32,))
    key = lambda lane, reg: tuple(lane if a == "laneid" else reg for a in pairs.axes)  # noqa: E731
    assert set(pairs.axes) == {"laneid", "m"} and len(got) == 64
    assert got[key(0, 0)] == got[key(1, 0)] == 0 and got[key(3, 1)] == 1 + 2
    assert got == expected(pairs, (32,))
    assert tritons_layout(bases, tl.parse("S[(16,8):(8@warpid,1)]"), (16, 8)) == {}


def test_verdict_is_worse_if_worse_in_any_metric():
    t = {"smem_bytes": 4096, "wavefronts": 128, "instructions": 9}
    assert verdict(dict(t), t)["overall"] == "equal"
    assert verdict({**t, "instructions": 8}, t) == {
        "smem_bytes": "equal", "wavefronts": "equal", "instructions": "better", "overall": "better"}
    v = verdict({"smem_bytes": 8192, "wavefronts": 64, "instructions": 5}, t)
    assert v["overall"] == "worse" and v["wavefronts"] == v["instructions"] == "better"


def test_a_child_that_aborts_or_hangs_is_recorded_and_replaced():
    p = DRAWS[0]
    dead = Worker([sys.executable, "-c", "import os, sys; sys.stdin.readline(); "
                   "sys.stderr.write('LLVM ERROR: refused\\n'); sys.stderr.flush(); os.abort()"])
    try:
        for _ in range(2):  # a new child each time
            out = dead.ask(p, timeout=60)
            assert out["status"] == "aborted" and out["returncode"] < 0, out
            assert "LLVM ERROR: refused" in out["error"]
    finally:
        dead.close()
    slow = Worker([sys.executable, "-c", "import time; time.sleep(600)"])
    try:
        assert slow.ask(p, timeout=1)["status"] == "timeout" and slow.proc is None
    finally:
        slow.close()


RECORD = {"pair": DRAWS[0].as_json(), "text": DRAWS[0].text(), "status": "ok",
          "triton_version": "3.9.0", "compile_s": 0.5, "plan_s": 0.01, "agree": True,
          "execute_ok": True, "layouts": {"src": "S[32:1@laneid]", "dst": "S[32:1@laneid]"},
          "triton": {"smem_bytes": 2048, "wavefronts": 64, "instructions": 11,
                     "detail": "3 bar.sync, 4 ld.shared.v4.b32, 4 st.shared.v4.b32"},
          "ours": {"smem_bytes": 8192, "wavefronts": 64, "instructions": 9,
                   "detail": "4 st.shared.v4.b32, 4 ld.shared.v4.b32, 1 barrier(s)",
                   "mechanism": "shared-memory", "kind": "shared-memory"}}


def test_report_groups_losses_and_writes_between_markers():
    rec = {**RECORD, "verdict": verdict(RECORD["ours"], RECORD["triton"])}
    assert group(rec) == "bigger buffer: Triton reuses a smaller one in passes"
    shuffled = {**rec, "ours": {**rec["ours"], "smem_bytes": 0, "wavefronts": 0,
                                "instructions": 16, "detail": "4 shfl, 8 selects, 4 packs"}}
    shuffled["verdict"] = verdict(shuffled["ours"], rec["triton"])
    assert group(shuffled) == "shuffles where Triton stages: more instructions"
    text = table([rec, {"pair": DRAWS[1].as_json(), "status": "aborted"}], 26)
    assert "1 pairs compared (seed 26, Triton 3.9.0); 1 drawn pairs not compared: 1 aborted" in text
    assert "| shared-memory bytes | 0 | 0 | 1 |" in text and "tl.plan_conversion(" in text
    assert "| bigger buffer: Triton reuses a smaller one in passes | 1 | shared-memory bytes 1 |" \
        in text
    page = f"intro\n{BEGIN}\n{END}\nrest"
    assert replace_between(page, "new") == f"intro\n{BEGIN}\nnew\n{END}\nrest"
    assert replace_between(replace_between(page, "new"), "newer") == replace_between(page, "newer")
    with pytest.raises(ValueError, match="needs one"):
        replace_between("no markers", "new")


SCENARIOS = __package__.rsplit(".", 1)[0] + ".scenarios"
MODULES = [f"{__package__}.{m}" for m in ("pairs", "measure", "gluon_specs", "report")] + \
    [f"{SCENARIOS}.{m}" for m in ("ptx_opcodes", "ptx_text", "ptx_replay")]


@pytest.mark.parametrize("module", MODULES, ids=[m.rsplit(".", 1)[-1] for m in MODULES])
def test_docstring_examples(module):
    if module.endswith("gluon_specs") and importlib.util.find_spec("triton") is None:
        pytest.skip("gluon_specs' example needs Triton (scripts/test.sh installs it)")
    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0 and result.failed == 0, (module, result)
