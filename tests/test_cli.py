"""The command line as a user runs it: one-line errors, exit codes, shape spellings."""


import json
import sys

import pytest

from tests.helpers import run
from tilelayout.cli import main


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


def test_axes_option_declares_user_axes_for_one_command(capsys):
    text = "S[(4,2):(1@data,1)]"
    assert main(["map", text, "--json"]) == 2
    assert "unknown axis 'data' (declare your own axes: --axes data)" in capsys.readouterr().err
    assert main(["map", text, "--axes", "data", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["axes"] == ["data", "m"] and len(out["elements"]) == 8
    assert main(["check", text, "--axes", "data=2"]) == 1  # the extent is a fact check reads
    assert "data 3 does not exist" in capsys.readouterr().out
    assert main(["check", text, "--axes", "data=4"]) == 0
    capsys.readouterr()
    with pytest.raises(SystemExit):
        main(["map", text, "--axes", "laneid"])  # a built-in thread axis is not a device axis
    assert "already declared as thread" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["serve", "--axes", "data"])  # the explorer's requests bring their own axes


def test_version_and_python_dash_m():
    import subprocess

    import tilelayout
    from tilelayout.core import version

    assert tilelayout.__version__ == version.__version__
    assert run("--version").stdout == f"tilelayout {version.__version__}\n"
    p = subprocess.run([sys.executable, "-m", "tilelayout", "presets"], capture_output=True,
                       text=True, timeout=60)
    assert p.returncode == 0 and "mma.m16n8k16.C" in p.stdout
