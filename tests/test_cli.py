"""The command line as a user runs it: tables, JSON, one-line errors, exit codes."""

import json
import subprocess
import sys

import pytest

from tilelayout.cli import main

TC = "S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tilelayout.cli", *args],
                          capture_output=True, text=True, timeout=60)


def test_map_json_contract():
    p = run("map", TC, "--shape", "8,16", "--json")
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert doc["layout"] == TC and doc["shape"] == [8, 16]
    assert doc["axes"] == ["laneid", "warpid", "m"]
    assert len(doc["elements"]) == 128
    e = doc["elements"][8]
    assert e["index"] == [0, 8]
    assert e["coords"] == [{"laneid": 0, "warpid": 6, "m": 0}, {"laneid": 0, "warpid": 10, "m": 0}]
    last = doc["elements"][-1]
    assert last["index"] == [7, 15] and [c["warpid"] for c in last["coords"]] == [6, 10]


def test_map_table(capsys):
    assert main(["map", "S[(2,2):(1@laneid,1)] + R[2:1@pid]"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "layout S[(2,2):(1@laneid,1)] + R[2:1@pid]"
    assert out[2].split() == ["index", "laneid", "m", "pid"]
    assert out[3].split() == ["(0,", "0)", "0", "0", "0"]
    assert out[4].split() == ["0", "0", "1"]  # the replica continues without an index
    assert out[-1].split() == ["1", "1", "1"]
    assert len(out) == 3 + 4 * 2


def test_map_with_swizzle_and_dtype(capsys):
    assert main(["map", "S[(8,64):(64,1)]", "--dtype", "float16", "--swizzle", "128B", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["layout"] == "ComposeLayout(Swizzle(3,3,3), S[(8,64):(64,1)])"
    assert [e["coords"][0]["m"] for e in doc["elements"] if e["index"][1] == 0] == [72 * i for i in range(8)]


def test_explain_command():
    p = run("explain", TC, "--shape", "8,16", "--at", "7,15")
    assert p.returncode == 0, p.stderr
    assert "2. split     by (8, 2, 4, 2): c = (7, 1, 3, 1)" in p.stdout
    p = run("explain", TC, "--shape", "8,16", "--at", "127", "--json")
    assert json.loads(p.stdout)["index"] == [7, 15]


@pytest.mark.parametrize("args,words", [
    (["map", "S[8:1@lane]"], "column 7: unknown axis 'lane'; did you mean 'laneid'?"),
    (["map", "S[8:1]", "--shape", "3"], "shape (3,) has 3 elements but the layout has 8"),
    (["map", "S[8:1]", "--shape", "a,b"], "--shape must be comma-separated integers"),
    (["explain", "S[8:1]", "--at", "9"], "index (9,) is outside shape (8,)"),
    (["explain", "S[(2,4)]", "--at", "8"], "flat index 8 is outside [0, 8)"),
    (["explain", "S[(2,4)]", "--at", "2,0"], "index (2, 0) is outside shape (2, 4)"),
    (["map", "S[8:1]", "--swizzle", "128B"], "--swizzle needs --dtype"),
    (["map", "S[8:1]", "--dtype", "float12", "--swizzle", "128B"], "unknown dtype 'float12'"),
    (["map", "S[(8,2):(1)]"], "2 extents but 1 stride"),
    (["frobnicate"], "invalid choice"),
])
def test_bad_input_is_one_line_error(args, words):
    p = run(*args)
    assert p.returncode == 2
    assert p.stdout == ""
    assert "Traceback" not in p.stderr
    assert p.stderr.startswith("tilelayout: error: ")
    assert words in p.stderr


def test_parse_error_shows_caret_on_a_terminal(capsys, monkeypatch):
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    assert main(["map", "S[(8,2):(4@lane,1)]"]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert lines[1].strip() == "S[(8,2):(4@lane,1)]"
    assert lines[2].index("^") - lines[1].index("S") == 11


def test_parse_error_is_one_line_when_piped():
    p = run("map", "S[(8,2):(4@lane,1)]")
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.count("\n") == 1 and "column 12: unknown axis 'lane'" in p.stderr


@pytest.mark.parametrize("args,words", [
    (["map", "S[4:1]", "--shape", "2,,2"], "--shape must be comma-separated integers"),
    (["map", "S[4:1]", "--dtype", "float12"], "unknown dtype 'float12'"),  # even without --swizzle
    (["map", f"S[{1 << 70}:0]", "--json"], "too many for one array"),
    (["map", "ComposeLayout(Swizzle(3,3,3), S[4:1]) + 1"], "nothing may follow ComposeLayout"),
])
def test_more_bad_input_is_one_line_error_with_nothing_on_stdout(args, words, capsys):
    assert main(args) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("tilelayout: error: ") and words in err


@pytest.mark.parametrize("text", ["2 2", "2x2", "(2, 2)", "[2,2]", "2,2,"])
def test_shape_spellings(text, capsys):
    assert main(["map", "S[4:1]", "--shape", text, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["shape"] == [2, 2]


def test_out_of_memory_is_one_line_error(monkeypatch, capsys):
    import tilelayout.commands.map as map_command

    def too_big(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(map_command, "map_all", too_big)
    assert main(["map", "S[4:1]", "--json"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("tilelayout: error: out of memory")


def test_elements_at_command():
    p = run("elements-at", TC, "laneid=5", "warpid=9", "--shape", "8,16")
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines() == ["2 element(s) at laneid=5, warpid=9:", "(1, 2) (1, 3)"]
    p = run("elements-at", "--preset", "mma.m16n8k16.C", "laneid=5", "--json")
    assert json.loads(p.stdout)["elements"] == [[1, 2], [1, 3], [9, 2], [9, 3]]
    p = run("elements-at", TC, "laneid5")
    assert p.returncode == 2 and "expected AXIS=VALUE such as laneid=5, got 'laneid5'" in p.stderr


@pytest.mark.parametrize("args,status,words", [
    (["S[64:1@laneid]"], 1, "laneid 63 does not exist"),
    (["S[(2,32):(1@wgid,1@laneid)]"], 1, "nothing names the step between"),
    (["S[(4,2):(1,0)]"], 1, "not injective"),
    ([TC], 0, "[unused] 128 of the 384 coordinates"),  # reported, but not an error
    (["S[(8,64):(64,1)]", "--dtype", "float16"], 1, "column reads (16 B per lane, 2 warp requests): "
     "64 wavefronts, ideal 8: 8.0x the ideal"),
    (["S[(8,64):(64,1)]", "--dtype", "float16", "--swizzle", "128B"], 0,
     "column reads (16 B per lane, 2 warp requests): 8 wavefronts, ideal 8: conflict-free"),
    (["--preset", "mma.m16n8k16.C"], 0, "legal"),
])
def test_check_command(args, status, words):
    p = run("check", *args)
    assert p.returncode == status, p.stdout + p.stderr
    assert words in p.stdout


def test_check_json():
    p = run("check", "S[(8,64):(64,1)]", "--dtype", "float16", "--swizzle", "64B", "--json")
    doc = json.loads(p.stdout)
    assert doc["ok"] is True and doc["findings"] == []
    assert doc["conflicts"]["column"]["wavefronts"] > doc["conflicts"]["column"]["ideal"]
    assert p.returncode == 1


def test_check_counts_tensor_memory_columns_in_elements_of_the_dtype():
    wide = "S[(128,1024):(1@TLane,1@TCol)]"  # 1024 columns: too many 32-bit cells ...
    assert run("check", wide).returncode == 1
    p = run("check", wide, "--dtype", "e4m3")  # ... but 1024 8-bit values fit in 256 cells
    assert p.returncode == 0 and "legal" in p.stdout
