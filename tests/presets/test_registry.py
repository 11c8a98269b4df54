"""The registry API: names, info/catalog, defaults, validation, docs, JSON."""

from __future__ import annotations

import doctest
import json

import pytest

import tilelayout as tl
from tilelayout import presets

SPEC_NAMES = [
    *(f"mma.{s}.{o}" for s in ("m16n8k16", "m16n8k8", "m16n8k32") for o in "ABC"),
    "ldmatrix.x1", "ldmatrix.x2", "ldmatrix.x4", "wgmma.m64nNk16.D",
    "tcgen05.ld.32x32b", "tcgen05.ld.16x64b", "tcgen05.ld.16x128b", "tcgen05.ld.16x256b",
    "tmem.accumulator", "tmem.scale_factors", "smem.swizzle_atom", "smem.tile",
    "trainium.sbuf", "trainium.psum", "mesh.shard",
    "ldmatrix.m16n16", "ldmatrix.m8n16", "wgmma.m64nNkK.A", "tcgen05.ld.16x32bx2",
]
SPEC_PARAMS = {
    "mma.m16n8k16.A": {"dtype"}, "ldmatrix.x2": {"trans"}, "wgmma.m64nNk16.D": {"n"},
    "tcgen05.ld.16x64b": {"num"}, "tmem.accumulator": {"datapath", "n", "align", "kind", "ws", "sparse"},
    "tmem.scale_factors": {"rows", "sf_per_row", "sf_dtype", "reuse", "pipe_depth"},
    "smem.swizzle_atom": {"dtype", "mode"}, "smem.tile": {"dtype", "mode", "shape", "atom_order"},
    "trainium.psum": {"shape", "generation"}, "mesh.shard": {"mesh", "spec", "shape"},
    "trainium.sbuf": {"shape", "dtype", "generation"}, "ldmatrix.m16n16": {"num", "dtype"},
    "ldmatrix.m8n16": {"num", "dtype"}, "wgmma.m64nNkK.A": {"dtype"},
    "tcgen05.ld.16x32bx2": {"num", "imm"},
}


def test_every_spec_name_is_registered_with_spec_params():
    assert set(SPEC_NAMES) <= set(presets.names())
    for name, params in SPEC_PARAMS.items():
        assert {p.name for p in presets.info(name).params} == params
    case = [n for n in presets.names() if n.startswith("case.")]
    assert len(case) >= 3


@pytest.mark.parametrize("name", presets.names())
def test_default_builds_and_is_consistent(name):
    entry = presets.info(name)
    p = presets.get(name, **entry.defaults)
    assert isinstance(p.layout, tl.TileLayout | tl.ComposeLayout)
    assert p.name == name and p.layout.admits(p.shape)
    assert eval(repr(p.layout), vars(tl)) == p.layout  # user (mesh) axes travel in the repr
    for param in entry.params:
        assert param.kind in presets.PARAM_KINDS
        if param.choices is not None:
            assert param.default in param.choices
    json.dumps(p.to_dict())
    json.dumps(entry.to_dict())


@pytest.mark.parametrize("name", presets.names())
def test_doc_names_object_source_and_a_running_example(name):
    p = presets.default(name)
    assert "Source" in p.doc and "Example::" in p.doc and p.summary and p.source
    test = doctest.DocTestParser().get_doctest(p.doc, {"presets": presets}, name, None, 0)
    assert len(test.examples) == 2
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


@pytest.mark.parametrize("name", presets.names())
def test_every_choice_builds(name):
    for param in presets.info(name).params:
        for choice in param.choices or ():
            params = presets.info(name).defaults | {param.name: choice}
            if name == "tmem.accumulator" and param.name == "align":
                params["datapath"] = "F"
            if name == "smem.tile" and choice == "96B":
                params["shape"] = (8, 48)  # 96B takes TMA boxes at most 96 bytes wide
            p = presets.get(name, **params)
            assert p.layout.admits(p.shape)


def test_errors_are_layout_errors_with_suggestions():
    with pytest.raises(tl.LayoutError, match="did you mean mma.m16n8k16.A"):
        presets.get("mma.m16n8k16.a")
    with pytest.raises(presets.PresetError, match="did you mean 'dtype'"):
        presets.get("mma.m16n8k16.C", dtyp="float32")
    with pytest.raises(presets.PresetError, match="takes no parameters"):
        presets.get("case.tensor_core_tile", n=3)
    with pytest.raises(presets.PresetError, match="must be an integer"):
        presets.get("tmem.scale_factors", rows="128")
    with pytest.raises(presets.PresetError, match="positive integers"):
        presets.get("smem.tile", shape=(8, 0))


@pytest.mark.parametrize(("name", "texts", "expected"), [
    ("smem.tile", {"shape": "16x64", "mode": "64B"}, {"shape": (16, 64), "mode": "64B"}),
    ("ldmatrix.x4", {"trans": "true"}, {"trans": True}),
    ("wgmma.m64nNk16.D", {"n": "96"}, {"n": 96}),
    ("mesh.shard", {"mesh": "x=2,y=4", "spec": "(x,y),None", "shape": "[16, 3]"},
     {"mesh": {"x": 2, "y": 4}, "spec": (("x", "y"), None), "shape": (16, 3)}),
    ("mesh.shard", {"mesh": '{"a": 2}', "spec": '["a"]'}, {"mesh": {"a": 2}, "spec": ("a",)}),
    ("mesh.shard", {"spec": "None"}, {"spec": (None,)}),
])
def test_parse_params(name, texts, expected):
    assert presets.parse_params(name, texts) == expected


def test_catalog_matches_names():
    assert tuple(i.name for i in presets.catalog()) == presets.names()


def test_docs_table_lists_every_preset():
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "presets.md").read_text()
    for name in presets.names():
        assert f"| `{name}` |" in text


def test_import_builds_nothing_and_declares_no_axis():
    import subprocess
    import sys

    code = ("import tilelayout.presets as p, tilelayout.core.axes as a; "
            "p.catalog(); print(a.is_axis('dp'), a.is_axis('tp'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.split() == ["False", "False"]


def test_presets_and_their_parameters_hold_no_mutable_mappings():
    p = presets.get("mesh.shard")
    with pytest.raises(TypeError):
        p.params["mesh"] = {}  # type: ignore[index]
    for entry in presets.catalog():
        for prm in entry.params:
            with pytest.raises(TypeError):
                prm.refused["x"] = "no"  # type: ignore[index]
