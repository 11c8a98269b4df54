"""Issue 11's presets and swizzle modes through the explorer's HTTP API: offered with their
parameter widgets (from the registry), built equal to presets.get, refusals as JSON errors."""

from __future__ import annotations

import json

import pytest

import tilelayout as tl
from tests.helpers import call
from tilelayout import presets

NEW = ("ldmatrix.m16n16", "ldmatrix.m8n16", "wgmma.m64nNkK.A", "tcgen05.ld.16x32bx2")


def test_new_presets_are_offered_with_parameter_widgets(server):
    code, _, raw = call(server, "/api/presets")
    assert code == 200
    entries = {e["name"]: e for e in json.loads(raw)["presets"] if e.get("params") is not None}
    for name in NEW:
        widgets = {p["name"]: p for p in entries[name]["params"]}
        assert set(widgets) == {p.name for p in presets.info(name).params}
    assert entries["ldmatrix.m16n16"]["params"][0]["choice_texts"] == ["1", "2"]
    assert entries["tcgen05.ld.16x32bx2"]["params"][1]["text"] == ""  # imm: unset = num
    caps = {p["name"]: p for p in entries["tcgen05.ld.16x256b"]["params"]}["num"]
    assert caps["choice_texts"][-1] == "32"  # PTX Table 49
    kinds = {p["name"]: p for p in entries["tmem.accumulator"]["params"]}["kind"]
    assert "i8" in kinds["choice_texts"] and kinds["text"] == "None"
    gens = {p["name"]: p for p in entries["trainium.sbuf"]["params"]}["generation"]
    assert gens["choice_texts"] == ["trn1", "trn2", "trn3"]


@pytest.mark.parametrize(("name", "texts", "kwargs"), [
    ("ldmatrix.m16n16", {"num": "2", "dtype": "b4x16_p64"}, {"num": 2, "dtype": "b4x16_p64"}),
    ("ldmatrix.m8n16", {"num": "4"}, {"num": 4}),
    ("wgmma.m64nNkK.A", {"dtype": "e4m3"}, {"dtype": "e4m3"}),
    ("tcgen05.ld.16x32bx2", {"num": "8", "imm": "32"}, {"num": 8, "imm": 32}),
    ("tcgen05.ld.16x32bx2", {"num": "8", "imm": ""}, {"num": 8}),
    ("tmem.accumulator", {"datapath": "E", "n": "128", "kind": "i8"},
     {"datapath": "E", "n": 128, "kind": "i8"}),
    ("tmem.accumulator", {"datapath": "D", "n": "48", "kind": "None"}, {"datapath": "D", "n": 48}),
    ("smem.swizzle_atom", {"mode": "128B_atom32B"}, {"mode": "128B_atom32B"}),
    ("trainium.sbuf", {"shape": "128,1024", "generation": "trn1", "dtype": "float32"},
     {"shape": (128, 1024), "generation": "trn1", "dtype": "float32"}),
])
def test_new_presets_build_through_http(server, name, texts, kwargs):
    code, _, raw = call(server, "/api/preset", {"name": name, "params": texts})
    assert code == 200, raw
    entry = json.loads(raw)
    want = presets.get(name, **kwargs)
    assert entry["layout"] == str(want.layout) and entry["shape"] == list(want.shape)
    code, _, raw = call(server, "/api/layout", entry)
    assert code == 200 and json.loads(raw)["layout"] == str(want.layout)


@pytest.mark.parametrize(("body", "words"), [
    ({"name": "tmem.accumulator", "params": {"datapath": "E", "n": "8"}}, "Table 39"),
    ({"name": "tcgen05.ld.16x256b", "params": {"num": "128"}}, "Table 49"),
    ({"name": "trainium.sbuf", "params": {"shape": "128,200000"}}, "224 KiB"),
])
def test_refusals_are_one_line_json_errors(server, body, words):
    code, ctype, raw = call(server, "/api/preset", body)
    data = json.loads(raw)
    assert code == 400 and ctype == "application/json"
    assert words in data["error"] and "\n" not in data["error"]


def test_swizzle_menu_offers_the_new_modes(server):
    code, _, raw = call(server, "/api/options")
    assert code == 200
    assert list(tl.SWIZZLE_MODES) == json.loads(raw)["swizzles"]
    assert {"128B_atom32B", "128B_atom64B", "96B"} <= set(json.loads(raw)["swizzles"])
    body = {"layout": "S[(8,64):(64,1)]", "dtype": "float16", "swizzle": "128B_atom32B"}
    code, _, raw = call(server, "/api/layout", body)
    assert code == 200 and json.loads(raw)["swizzle"] == "Swizzle(4,2,2)"


def test_options_describe_each_swizzle_mode_from_the_table(server):
    from tilelayout.core.swizzle_modes import SWIZZLE_MODE_TABLE

    code, _, raw = call(server, "/api/options")
    modes = json.loads(raw)["swizzle_modes"]
    assert [m["name"] for m in modes] == list(SWIZZLE_MODE_TABLE)
    doc = {m["name"]: m["doc"] for m in modes}
    assert doc["128B_atom32B"].startswith("8 x 128-byte rows of 32-byte units; TMA from sm_100")
    assert doc["96B"].endswith("TMA on sm_103a only")
