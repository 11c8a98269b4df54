"""The preset picker's catalog: teaching examples then the registry, every entry loadable,
parameter texts that read back, and a preset built from the page's parameters."""

import pytest

from tilelayout import presets
from tilelayout.explorer import catalog, examples, request
from tilelayout.explorer.request import ApiError


def test_entries_are_examples_then_every_registry_preset_without_errors():
    entries = catalog.entries()
    assert [e["name"] for e in entries[:len(examples.EXAMPLES)]] == [
        e.name for e in examples.EXAMPLES]
    registry = entries[len(examples.EXAMPLES):]
    assert [e["name"] for e in registry] == list(presets.names())
    assert [e["name"] for e in registry if "error" in e] == []
    for e in registry:  # the page can load each: its text parses with its mesh axes
        L = request.layout_field({"layout": e["layout"], "order": e["order"]}, "layout")
        assert str(L) == e["layout"] and len(e["shape"]) >= 1


@pytest.mark.parametrize("kind,value,text", [
    ("shape", (8, 64), "8,64"), ("mesh", {"dp": 2, "tp": 4}, "dp=2,tp=4"),
    ("spec", (("dp", "tp"), None), "(dp,tp),None"), ("bool", True, "true"),
    ("bool", False, "false"), ("int", None, ""), ("order", ("tp", "dp"), "tp,dp"),
    ("int", 16, "16"),
])
def test_param_text(kind, value, text):
    assert catalog.param_text(kind, value) == text


def test_every_default_parameter_text_reads_back():
    for e in catalog.entries()[len(examples.EXAMPLES)::5]:
        texts = {p["name"]: p["text"] for p in e["params"] if p["text"] != ""}
        again = catalog.preset_entry({"name": e["name"], "params": texts})
        assert again["layout"] == e["layout"], e["name"]


def test_a_preset_built_with_text_and_json_parameters():
    e = catalog.preset_entry({"name": "mesh.shard", "params": {"mesh": "dp=2,tp=2"}})
    assert e["order"] == ["dp", "tp"] and e["group"] == "preset registry"
    n16 = catalog.preset_entry({"name": "wgmma.m64nNk16.D", "params": {"n": 16}})
    assert n16 == catalog.preset_entry({"name": "wgmma.m64nNk16.D", "params": {"n": "16"}})


@pytest.mark.parametrize("req,status,field", [
    ({"name": "no.such"}, 404, "name"),
    ({"name": "wgmma.m64nNk16.D", "params": [1]}, 400, "params"),
    ({"name": "wgmma.m64nNk16.D", "params": {"n": "x"}}, 400, "param.n"),
    ({"name": "wgmma.m64nNk16.D", "params": {"nope": "1"}}, 400, "param.nope"),
    ({"name": "wgmma.m64nNk16.D", "params": {"n": "1" * 5000}}, 413, "param.n"),
])
def test_refusals_name_the_field(req, status, field):
    with pytest.raises(ApiError) as e:
        catalog.preset_entry(req)
    assert (e.value.status, e.value.field) == (status, field)
