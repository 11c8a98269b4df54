"""``tilelayout plan SRC DST`` as a user runs it: the plan the library makes, ``--json``
for machines, presets for either side, bad input on one line (exit 2)."""

from __future__ import annotations

import json

import pytest

import tilelayout as tl
from tests.helpers import run

TRANSPOSE = ("S[(32,32):(1@laneid,1)]", "S[(32,32):(1,1@laneid)]")


def test_text_operands_print_the_library_plan():
    p = run("plan", *TRANSPOSE, "--dtype", "float32")
    assert p.returncode == 0 and p.stderr == "", p.stderr
    plan = tl.plan_conversion(*TRANSPOSE, (32, 32), "float32")
    assert p.stdout.strip() == str(plan)
    assert "kind: warp-shuffle    mechanism: shared-memory" in p.stdout
    assert "barrier" in p.stdout and "smem_bytes=4096" in p.stdout


def test_presets_on_both_sides_and_json():
    p = run("plan", "preset:mma.m16n8k16.C", "preset:mma.m16n8k16.B:dtype=float16",
            "--dtype", "float16", "--json")
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert d["shape"] == [16, 8] and d["dtype"] == "float16"
    assert (d["kind"], d["mechanism"]) == ("warp-shuffle", "warp-shuffle")
    assert d["costs"]["shuffle_rounds"] == 2
    assert [s["what"] for s in d["stages"]] == ["convert", "pack", "select", "shuffle", "shuffle",
                                               "select"]
    assert len(d["stages"][3]["src_lane"][0]) == 32
    assert d["costs"]["conversion_instruction"] == "cvt.rn.f16x2.f32"   # C is float32


def test_mesh_preset_names_the_collective():
    p = run("plan", "preset:mesh.shard:mesh=x=2,y=4:spec=x,None:shape=16,8",
            "preset:mesh.shard:mesh=x=2,y=4:spec=None,None:shape=16,8",
            "--dtype", "float32", "--json")
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert (d["kind"], d["collective"]) == ("collective", "all-gather")
    assert d["costs"]["bytes_received"] == 8 * 8 * 4


@pytest.mark.parametrize("args, message", [
    (("S[(32,4):(1@laneid,1)]", "S[(32,2):(1@laneid,1)]", "--dtype", "float32"),
     "different tiles"),
    ((*TRANSPOSE,), "give --dtype"),
    ((*TRANSPOSE, "--dtype", "float17"), "float17"),
    (("S[(32,4):(1@laneid,1)", TRANSPOSE[1], "--dtype", "float32"), "SRC"),
    (("preset:nope", TRANSPOSE[1], "--dtype", "float32"), "nope"),
])
def test_bad_input_is_one_line(args, message):
    p = run("plan", *args)
    assert p.returncode == 2 and p.stdout == ""
    lines = p.stderr.strip().splitlines()
    assert message in lines[0]
    # one line; a syntax error adds the text and a caret under the column
    assert len(lines) == 1 or (len(lines) == 3 and lines[2].strip() == "^")


def test_emit_prints_the_plans_code():
    args = ("preset:wgmma.m64nNk16.D:n=128", "tma", "--dtype", "bfloat16", "--target", "sm_90a")
    p = run("plan", *args, "--emit", "cuda", "--name", "epilogue", "--harness")
    assert p.returncode == 0, p.stderr
    plan = tl.plan_conversion("preset:wgmma.m64nNk16.D:n=128", "tma", dtype="bfloat16",
                              target="sm_90a")
    assert p.stdout == plan.code(name="epilogue", harness=True)
    assert "epilogue_tma_store" in p.stdout and "// harness: threads=128" in p.stdout
    j = run("plan", *TRANSPOSE, "--dtype", "float16", "--emit", "cuda", "--json")
    assert json.loads(j.stdout)["code"] == tl.plan_conversion(*TRANSPOSE, (32, 32),
                                                              "float16").code()


def test_emit_gluon_and_refusals():
    pytest.importorskip("triton")
    p = run("plan", *TRANSPOSE, "--dtype", "float16", "--emit", "gluon")
    assert p.returncode == 0 and "@gluon.jit" in p.stdout and "def convert(x):" in p.stdout
    # spelled by Triton's bindings in a child process: the library's text, and nothing on
    # stderr (in this process they would print a leak report as it exits)
    want = tl.plan_conversion(*TRANSPOSE, (32, 32), "float16").code(lang="gluon")
    assert p.stdout == want and p.stderr == ""
    for extra, message in ((["--emit", "gluon", "--harness"], "--harness adds the CUDA"),
                           (["--emit", "cuda", "--name", "a b"], "C++ identifier"),
                           (["--emit", "gluon", "--name", "1x"], "Python identifier")):
        bad = run("plan", *TRANSPOSE, "--dtype", "float16", *extra)
        assert bad.returncode == 2 and message in bad.stderr
        assert len(bad.stderr.strip().splitlines()) == 1


def test_dst_packing_unpacked_writes_no_packing_permute():
    pair = ("S[(32,2):(1@laneid,1)]", "S[(2,32):(1,1@laneid)]", "--shape", "64",
            "--dtype", "int8")
    packed = json.loads(run("plan", *pair, "--json").stdout)
    p = run("plan", *pair, "--dst-packing", "unpacked", "--json")
    assert p.returncode == 0, p.stderr
    loose = json.loads(p.stdout)
    assert (packed["dst_packing"], loose["dst_packing"]) == ("packed", "unpacked")
    assert packed["costs"]["byte_permutes"] == 1 and loose["costs"]["byte_permutes"] == 0
    code = run("plan", *pair, "--dst-packing", "unpacked", "--emit", "cuda")
    assert code.returncode == 0 and "__byte_perm" not in code.stdout
    assert "// per warp: 2 shfl\n" in code.stdout
    bad = run("plan", *pair, "--dst-packing", "loose")
    assert bad.returncode == 2 and "invalid choice: 'loose'" in bad.stderr
