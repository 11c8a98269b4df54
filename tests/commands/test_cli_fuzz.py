"""The CLI on 100+ bad invocations: exit 2, one line on stderr, nothing on stdout (issue 13).

Run in-process through ``tilelayout.cli.main`` (fast); a sample also runs as a real
subprocess, as a user would.
"""

from __future__ import annotations

import contextlib
import io
import random
import subprocess
import sys

import pytest

import tilelayout as tl
from tests.fuzzgen import mutated_text
from tilelayout.cli import main

GOOD = "S[(8,16):(16,1)]"
SMEM = ["S[(8,64):(64,1)]", "--dtype", "float16"]
FIXED = [
    ["render", GOOD, "--color", "dim:x"], ["render", GOOD, "--color", "dim:9"],
    ["render", GOOD, "--color", "nope"], ["render", GOOD, "--color", "bank"],
    ["render", GOOD, "--color", ""], ["render", GOOD, "--width", "-1"],
    ["render", GOOD, "--width", "0"], ["render", GOOD, "--width", "1e9"],
    ["render", GOOD, "--width", "abc"], ["render", GOOD, "--width", "1000000000"],
    ["render", GOOD, "--scale", "0"], ["render", GOOD, "--scale", "nan"],
    ["render", GOOD, "--scale", "inf"], ["render", GOOD, "--scale", "-2"],
    ["render", GOOD, "-o", "x.svg/"], ["render", GOOD, "-o", "/"], ["render", GOOD, "-o", "x.txt"],
    ["render", GOOD, "-o", "/nonexistent-dir/x.svg"], ["render", GOOD, "--views", "all"],
    ["render", *SMEM, "--swizzle", "256B"], ["render", GOOD, "--swizzle", "128B"],
    ["map", GOOD, "--shape", "8 16 x"], ["map", GOOD, "--shape", "2,,2"],
    ["map", GOOD, "--shape", "-1"], ["map", GOOD, "--shape", "0"], ["map", GOOD, "--shape", "1e9"],
    ["map", GOOD, "--shape", "8;16"], ["map", GOOD, "--shape", "9" * 5000],
    ["map", GOOD, "--shape", "16,16"], ["map", GOOD, "--shape", "x"], ["map", GOOD, "--shape", ""],
    ["map", "S[2147483648:1]"], ["map", "S[1099511627776:1]", "--json"],
    ["map", "S[(" + "128," * 2100 + "1)]"], ["map", "S[4:" + "9" * 5000 + "]"],
    ["map", GOOD, "--max-elements", "0"], ["map", GOOD, "--max-elements", "-5"],
    ["map", GOOD, "--max-elements", "abc"], ["map", GOOD, "--max-elements", "10"],
    ["map", GOOD, "--max-seconds", "0"], ["map", GOOD, "--max-text", "3"],
    ["map", "S[4] + R[100:1@pid]", "--max-output-bytes", "100"],
    ["explain", "S[4] + R[1048576:1@pid]", "--at", "0"],
    ["explain", "S[4] + R[16777216:1@pid]", "--at", "0", "--max-replicas", "1000"],
    ["explain", GOOD, "--at", "x"], ["explain", GOOD, "--at", "8,16"], ["explain", GOOD, "--at", "-1"],
    ["explain", GOOD, "--at", "1,2,3"], ["explain", GOOD, "--at", "9" * 5000], ["explain", GOOD],
    ["elements-at", GOOD, "laneid=5"], ["elements-at", GOOD, "m=x"], ["elements-at", GOOD, "m"],
    ["elements-at", GOOD, "=5"], ["elements-at", GOOD, "m=" + "9" * 5000],
    ["elements-at", "S[(2,134217728)] + 1@laneid", "laneid=x"],
    ["elements-at", "S[8:1] + R[(1024,1024):(1,1)]", "m=1500", "--max-search", "10"],
    ["check", "S[4:1@nope]"], ["check", GOOD, "--dtype", "float12"],
    ["presets", "no.such.preset"], ["presets", "mma.m16n8k16.A", "--param", "x"],
    ["presets", "mma.m16n8k16.A", "--param", "nope=1"],
    ["map", "--preset", "mma.m16n8k16.A", "--param", "dtype=float99"],
    ["map", "--preset", "nope"], ["map", GOOD, "--preset", "mma.m16n8k16.A"],
    ["map", "--param", "a=1"], ["map"], ["convert", GOOD], ["convert", GOOD, "--to", "nope"],
    ["convert", GOOD, "--to", "jax", "--mesh", "dp=x"], ["convert", GOOD, "--to", "jax", "--mesh", "="],
    ["serve", "--port", "70000"], ["serve", "--port", "x"], ["serve", "--workers", "0"],
    ["serve", "--max-seconds", "-1"], ["frobnicate"], [], ["map", GOOD, "--nope"],
    ["map", GOOD, "--dtype", "float12"], ["map", GOOD, "--swizzle", "128B"],
    ["map", "ComposeLayout(Swizzle(3,3,3), S[4:1]) + 1"], ["map", "S[4:1]", "--swizzle", "x",
                                                           "--dtype", "float16"],
    ["map", "ComposeLayout(Swizzle(300,0,0), S[4:1])"], ["map", "S[4:1@" + "a" * 5000 + "]"],
]


def _generated(rng: random.Random, n: int) -> list[list[str]]:
    """Layout texts the parser refuses, under a random subcommand."""
    out: list[list[str]] = []
    while len(out) < n:
        text = mutated_text(rng)
        try:
            tl.parse(text)
            continue
        except tl.LayoutError:
            pass
        cmd = rng.choice((["map"], ["explain", "--at", "0"], ["render"], ["check"],
                          ["elements-at", "m=0"], ["convert", "--to", "cute"]))
        out.append([cmd[0], text, *cmd[1:]] if text.strip() else [cmd[0], "S[", *cmd[1:]])
    return out


CASES = FIXED + _generated(random.Random(7), 60)


def run_in_process(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse usage errors
            code = exc.code if isinstance(exc.code, int) else 2
    return code, out.getvalue(), err.getvalue()


def _check(argv, code, out, err):
    where = f"{argv!r:.200}: exit {code}, stdout {out[:100]!r}, stderr {err[:300]!r}"
    assert code == 2, where
    assert out == "", where
    assert err.count("\n") == 1 and err.endswith("\n"), where
    assert err.startswith("tilelayout: error: ") and "Traceback" not in err, where


def test_a_hundred_bad_invocations_exit_2_with_one_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert len(CASES) >= 100
    for argv in CASES:
        _check(argv, *run_in_process(list(argv)))
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # nothing half-written anywhere


@pytest.mark.parametrize("argv", [CASES[0], CASES[7], CASES[21], CASES[42], CASES[-1]],
                         ids=["color-dim-x", "width-1e9", "shape-8-16-x", "explain-R", "fuzzed"])
def test_a_sample_as_a_real_subprocess(argv, tmp_path):
    p = subprocess.run([sys.executable, "-m", "tilelayout.cli", *argv], capture_output=True,
                       text=True, timeout=60, cwd=tmp_path)
    _check(argv, p.returncode, p.stdout, p.stderr)
