"""Long `tilelayout map` enumerations: streamed output, progress on stderr when asked
(or when stderr is a terminal and the map is big)."""


import json

from tests.helpers import TC, run
from tilelayout.cli import main


def test_map_reports_progress_on_stderr_only_when_asked(capsys):
    assert main(["map", "S[(256,512):(512,1)]", "--json", "--progress"]) == 0
    captured = capsys.readouterr()
    assert captured.err.endswith("[map] 131,072 / 131,072 elements (100%)\n")
    assert "65,536 / 131,072" in captured.err  # one report per streamed chunk
    assert captured.out.rstrip().endswith('{"m": 131071}]}]}')
    assert main(["map", "S[(256,512):(512,1)]"]) == 0
    assert "[map]" not in capsys.readouterr().err  # not a terminal, not asked


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
