"""The command line as a first-time user meets it (issue 28): preset parameters shown in
the text form --param takes, a required parameter required, CuTe text read with
--from cute (and recognised without it), and a missing optional tool named by the
feature that needs it."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import tilelayout as tl
from tilelayout import presets
from tilelayout.cli import main
from tilelayout.interop.cute import cute_logical_shape, from_cute

ROOT = Path(__file__).resolve().parents[2]
CUTE = "Swizzle<3,3,3> o (8,64):(64,1)"


def _shown_params(capsys, name):
    assert main(["presets", name]) == 0
    out = capsys.readouterr().out
    block = out.split("parameters:\n", 1)[1].split("\n\n", 1)[0]
    return out, dict(re.match(r"  (\w+) = (.*?)  \[", line).groups() for line in block.splitlines())


def test_parameters_are_shown_as_text_not_python_reprs(capsys):
    out, shown = _shown_params(capsys, "mesh.shard")
    assert "mappingproxy" not in out and "(" not in shown["mesh"]
    assert shown == {"mesh": "dp=2,tp=2", "spec": "dp,None", "shape": "8,4"}


@pytest.mark.parametrize("name", [n for n in presets.names() if presets.info(n).params])
def test_each_shown_value_is_what_param_takes(capsys, name):
    out, shown = _shown_params(capsys, name)
    assert "mappingproxy" not in out and "MappingProxy" not in out
    given = [f"{k}={v}" for k, v in shown.items() if v != "(the preset picks)"]
    # the values shown, given back with --param, build the preset shown
    argv = ["presets", name, "--json"] + [a for g in given for a in ("--param", g)]
    assert main(argv) == 0
    layout = json.loads(capsys.readouterr().out)["layout"]
    assert f"\nlayout  {layout}\n" in out


def test_a_required_parameter_is_required_on_the_command_line(capsys):
    assert main(["map", "--preset", "mma.m16n8k16.A"]) == 2
    err = capsys.readouterr().err
    assert "preset mma.m16n8k16.A needs its dtype: add --param dtype=float16 (one of float16, " \
           "bfloat16" in err
    assert main(["map", "--preset", "mma.m16n8k16.A", "--param", "dtype=bfloat16"]) == 0
    capsys.readouterr()
    # an operand string spells it as operand strings do
    assert main(["plan", "preset:mma.m16n8k16.C", "preset:mma.m16n8k16.B"]) == 2
    assert "add preset:mma.m16n8k16.B:dtype=float16" in capsys.readouterr().err
    # the accumulator's dtype is optional (its default is the accumulator type)
    assert main(["map", "--preset", "mma.m16n8k16.C"]) == 0
    capsys.readouterr()
    # shown, a preset takes its defaults, and says which parameter is required
    assert main(["presets", "mma.m16n8k16.A"]) == 0
    assert "dtype = float16  [choice; required: --param dtype=..." in capsys.readouterr().out


def test_cute_text_is_recognised_and_read_with_from_cute(capsys):
    assert main(["map", CUTE]) == 2
    err = capsys.readouterr().err
    assert "this is CuTe notation: add --from cute" in err and "column 8" in err
    assert main(["map", "--from", "cute", CUTE, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    L = from_cute(CUTE)
    assert doc["layout"] == str(L) == "ComposeLayout(Swizzle(3,3,3), S[(8,64):(64,1)])"
    assert [e["coords"][0]["m"] for e in doc["elements"][:130]] == \
        [c[0]["m"] for c in (L.apply(i, shape=(8, 64)) for i in range(130))]
    # nested modes: evaluated on CuTe's logical shape (its top-level modes)
    nested = "((4,8),(2,2)):((32,1),(16,8))"
    assert main(["convert", "--from", "cute", nested, "--to", "cute"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == nested and f"{cute_logical_shape(nested)}" in out
    # tilelayout text is not taken for CuTe, and bad CuTe text says where
    assert main(["map", "S[(8,64):(64,1)]"]) == 0
    capsys.readouterr()
    assert main(["map", "--from", "cute", "(8,64):(64,1"]) == 2
    assert "tilelayout: error:" in capsys.readouterr().err


# a command run in a fresh interpreter that cannot import `hidden`, as without its extra
HIDE = """
import sys
class Hide:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == {hidden!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
sys.meta_path.insert(0, Hide())
from tilelayout.cli import main
sys.exit(main({argv!r}))
"""


@pytest.mark.parametrize("hidden,target,words", [
    ("triton", "gluon", "the Gluon conversion needs Triton: pip install 'tilelayout[triton]'"),
    ("tvm_tirx", "tvm", "a TVM TIRx layout needs TVM TIRx (apache-tvm-tirx): "
                        "pip install 'tilelayout[tvm]'"),
])
def test_a_missing_extra_is_named_by_feature(hidden, target, words):
    argv = ["convert", "S[(4,32,4):(1@warpid,1@laneid,1)]", "--shape", "4,128", "--to", target]
    p = subprocess.run([sys.executable, "-c", HIDE.format(hidden=hidden, argv=argv)],
                       capture_output=True, text=True, timeout=120,
                       env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"})
    assert p.returncode == 2 and "Traceback" not in p.stderr
    line = p.stderr.strip().splitlines()[-1]
    assert line == f"tilelayout: error: {words}"  # no internal module named
    assert "tilelayout.interop" not in p.stderr


def test_an_installed_tool_missing_a_part_says_so():
    with pytest.raises(tl.LayoutError, match=r"^the Gluon conversion needs Triton: pip install "
                       r"'tilelayout\[triton\]' \(it is installed, but: No module named"):
        tl.interop.require("triton.no_such_part", "triton", "the Gluon conversion")
