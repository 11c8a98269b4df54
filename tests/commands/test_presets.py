"""`tilelayout presets`, and `map` / `explain` with --preset."""


from __future__ import annotations

import json

import pytest

from tilelayout import presets
from tilelayout.cli import main


def test_list(capsys):
    assert main(["presets"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [ln.split()[0] for ln in lines] == list(presets.names())


def test_list_json(capsys):
    assert main(["presets", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [d["name"] for d in doc] == list(presets.names())
    assert all("params" in d and "defaults" in d and "summary" in d for d in doc)


def test_show_with_params(capsys):
    assert main(["presets", "tmem.accumulator", "--param", "datapath=F", "--param", "n=64",
                 "--param", "align=16"]) == 0
    out = capsys.readouterr().out
    assert "layout  S[(4,16,64):(32@TLane,1@TLane,1@TCol)] + 16@TLane" in out
    assert "Source" in out and "parameters:" in out


def test_show_json(capsys):
    assert main(["presets", "smem.tile", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["layout"] == "ComposeLayout(Swizzle(3,3,3), S[(8,64):(64,1)])"
    assert doc["shape"] == [8, 64] and doc["dtype"] == "float16"
    assert doc["swizzle_mode"] == "128B"


def test_map_preset_json_uses_the_preset_shape(capsys):
    assert main(["map", "--preset", "mma.m16n8k16.C", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["shape"] == [16, 8] and len(doc["elements"]) == 128
    # PTX: c_i of lane l at row g + 8 (i >> 1), col 2t + (i & 1)
    element = doc["elements"][9 * 8 + 5]  # (9, 5): g = 1, t = 2, i = 3
    assert element["index"] == [9, 5] and element["coords"] == [{"m": 3, "laneid": 6}]


def test_map_preset_with_params(capsys):
    assert main(["map", "--preset", "ldmatrix.x2", "--param", "trans=true", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["shape"] == [2, 8, 8]


def test_explain_preset_smem_shows_banks(capsys):
    assert main(["explain", "--preset", "case.swizzle_8x64_float16", "--at", "7,0"]) == 0
    out = capsys.readouterr().out
    assert "bank 28" in out


@pytest.mark.parametrize("argv", [
    ["map", "--preset", "nope"],
    ["map", "S[4:1]", "--preset", "smem.tile"],
    ["map", "--param", "n=8"],
    ["map"],
    ["map", "--preset", "wgmma.m64nNk16.D", "--param", "n=7"],
    ["map", "--preset", "wgmma.m64nNk16.D", "--param", "n"],
    ["presets", "mesh.shard", "--param", "spec=(x),None"],
    ["presets", "--param", "n=8"],
])
def test_bad_input_is_one_line_exit_2(argv, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("tilelayout: error: ") and len(err.strip().splitlines()) == 1


def test_list_names_issue_11_presets(capsys):
    assert main(["presets"]) == 0
    names = [ln.split()[0] for ln in capsys.readouterr().out.splitlines()]
    for name in ("ldmatrix.m16n16", "ldmatrix.m8n16", "wgmma.m64nNkK.A", "tcgen05.ld.16x32bx2"):
        assert name in names
    assert main(["presets", "tcgen05.ld.16x32bx2", "--param", "num=2", "--param", "imm=8"]) == 0
    assert "S[(16,2,2):(1@laneid,16@laneid,1)]" in capsys.readouterr().out
