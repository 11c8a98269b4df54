"""``tilelayout smem WRITER READER`` as a user runs it: the chosen layout and the candidates
table equal the library's, ``--json`` for machines, bad input on one line (exit 2)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import tilelayout as tl
from tilelayout import presets
from tilelayout.commands.common import layout_operand

WGMMA_ROWS = "S[(4,16,8,8):(1@wid_in_wg,1@laneid,8,1)]"   # each lane: 16 B of one row


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tilelayout.cli", "smem", *args],
                          capture_output=True, text=True, timeout=60)


def test_presets_and_text_operands_print_the_library_choice():
    p = run("preset:wgmma.m64nNk16.D:n=64", WGMMA_ROWS, "--dtype", "float16")
    assert p.returncode == 0 and p.stderr == "", p.stderr
    lines = p.stdout.splitlines()
    d = presets.get("wgmma.m64nNk16.D", n=64)
    c = tl.choose_smem_layout(d.layout, tl.parse(WGMMA_ROWS), d.shape, "float16")
    assert lines[0] == f"layout   {c.layout}"
    assert f"total    {c.wavefronts} wavefronts; ideal {c.ideal}" in p.stdout
    header = next(i for i, line in enumerate(lines) if line.startswith("candidate"))
    first = lines[header + 1].split()
    assert first[0] + " " + first[1] == c.candidates[0].name
    assert any(line.startswith("accepts  TMA") for line in lines)


def test_json_is_the_choice():
    p = run("preset:mma.m16n8k16.C", "S[(8,2,4,2):(4@laneid,1,1@laneid,2)]",
            "--shape", "16,8", "--json")
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    C = presets.get("mma.m16n8k16.C")
    c = tl.choose_smem_layout(C.layout, tl.parse("S[(8,2,4,2):(4@laneid,1,1@laneid,2)]"),
                              (16, 8), "float32")
    assert doc == json.loads(json.dumps(c.to_dict()))


def test_family_any_reports_the_synthesis():
    p = run("S[(32,32):(1@laneid,1)]", "S[(32,32):(1,1@laneid)]", "--dtype", "float32",
            "--family", "any")
    assert p.returncode == 0, p.stderr
    assert "any family" in p.stdout and "note     " in p.stdout and "xor(vectors" in p.stdout


def test_limit_zero_prints_every_candidate():
    p = run("S[(32,8):(1@laneid,1)]", "S[(32,8):(1@laneid,1)]", "--dtype", "float16",
            "--limit", "0")
    assert p.returncode == 0 and "more (--limit 0" not in p.stdout


@pytest.mark.parametrize("args, words", [
    (("S[(32,8):(1@laneid,1)]", "S[(32,8):(1@laneid,1)]"), "--dtype"),
    (("preset:nope", "S[(32,8):(1@laneid,1)]"), "nope"),
    (("S[(32,8):(1@laneid,1)]", "S[(16,8):(1@laneid,1)]", "--dtype", "float16"),
     "different shapes"),
    (("S[(32,8):(1@laneid,1)] + R[2:0]", "S[(32,8):(1@laneid,1)]", "--dtype", "float16"),
     "replicas"),
    (("preset:mma.m16n8k16.C:dtype", "S[(16,8):(1,8@laneid)]"), "KEY=VALUE"),
])
def test_bad_input_is_one_line(args, words):
    p = run(*args)
    assert p.returncode == 2 and p.stdout == "", (p.stdout, p.stderr)
    lines = p.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("tilelayout: error: "), p.stderr
    assert words in lines[0]


def test_parse_error_names_the_operand_and_column():
    # piped: one line (issue 13); on a terminal the caret follows (tests/test_cli.py)
    p = run("S[(32,8):(1@laneid,1)]", "S[(32,8):(1@laneid,1)", "--dtype", "float16")
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.startswith("tilelayout: error: READER: column 22") and \
        p.stderr.count("\n") == 1


def test_layout_operand_text_and_preset():
    L, p = layout_operand("S[(4,8):(8,1)]", "SRC")
    assert p is None and str(L) == "S[(4,8):(8,1)]"
    L, p = layout_operand("preset:smem.tile:mode=64B:shape=8x32", "DST")
    assert p.shape == (8, 32) and str(L).startswith("ComposeLayout(Swizzle(3,2,3)")
