"""Mesh text: one grammar, read the same by presets, the CLI and the explorer."""

from types import MappingProxyType

import pytest

from tilelayout import presets
from tilelayout.core.errors import LayoutError
from tilelayout.core.mesh import MeshError, format_mesh, mesh_of, parse_mesh
from tilelayout.explorer.request import ApiError
from tilelayout.explorer.views.convert import convert_view

SPELLINGS = ["dp=2,tp=4", " dp = 2 , tp = 4 ", "dp:2,tp:4", '{"dp": 2, "tp": 4}',
             "{'dp': 2, 'tp': 4}", "dp=2,tp=4,"]


@pytest.mark.parametrize("text", SPELLINGS)
def test_every_spelling_reads_the_same_mesh(text):
    mesh = parse_mesh(text)
    assert mesh == {"dp": 2, "tp": 4} and list(mesh) == ["dp", "tp"]
    assert isinstance(mesh, MappingProxyType)


@pytest.mark.parametrize("text", SPELLINGS)
def test_presets_read_mesh_parameters_with_the_same_grammar(text):
    assert presets.parse_params("mesh.shard", {"mesh": text})["mesh"] == parse_mesh(text)


def test_text_round_trips_through_format():
    for mesh in ({"x": 1}, {"data": 8, "model": 2, "pipe": 4}):
        assert parse_mesh(format_mesh(mesh)) == mesh


@pytest.mark.parametrize(("bad", "says"), [
    ("dp", "NAME=SIZE"), ("=2", "NAME=SIZE"), ("", "at least one axis"),
    ("dp=two", "positive integer"), ("dp=0", "positive integer"), ("dp=-2", "positive integer"),
    ("dp=2,dp=4", "given twice"), ("2dp=2", "identifiers"), ("d-p=2", "identifiers"),
])
def test_bad_text_says_what_a_mesh_is(bad, says):
    with pytest.raises(MeshError, match=says) as err:
        parse_mesh(bad)
    assert isinstance(err.value, LayoutError) and "\n" not in str(err.value)


@pytest.mark.parametrize("bad", [{"dp": True}, {"dp": 1.5}, {1: 2}, {}, ["dp", 2], 7, None])
def test_mappings_are_checked_by_the_same_rules(bad):
    with pytest.raises(MeshError):
        mesh_of(bad)


def test_the_three_readers_refuse_alike():
    message = str(pytest.raises(MeshError, parse_mesh, "dp").value)
    with pytest.raises(presets.PresetError, match="NAME=SIZE"):
        presets.get("mesh.shard", mesh="dp")
    with pytest.raises(ApiError) as err:
        convert_view({"layout": "S[4:1]", "mesh": "dp"})
    assert message in str(err.value)


def test_cli_and_explorer_accept_what_presets_accept(capsys):
    from tilelayout.cli import main

    for text in ("dp=2", "dp:2", '{"dp": 2}'):
        out = convert_view({"layout": "S[(2,4):(1@dp,1)]", "mesh": text, "targets": ["jax"]})
        assert out["mesh"] == {"dp": 2} and out["targets"][0]["text"] == "P('dp', None)"
        assert main(["convert", "S[(2,4):(1@dp,1)]", "--to", "jax", "--mesh", text]) == 0
        assert "P('dp', None)" in capsys.readouterr().out


def test_pairs_and_jax_mesh_shapes_follow_the_same_rules():
    from tilelayout.interop.jax import mesh_axes

    assert dict(mesh_of([("dp", 2), ("tp", "4")])) == {"dp": 2, "tp": 4}
    assert mesh_axes([("dp", 2), ("tp", 4)]) == {"dp": 2, "tp": 4}
    for bad, says in (([("dp", 2), ("dp", 4)], "given twice"), ([("dp", 0)], "positive"),
                      ([("2x", 2)], "identifiers"), ([("dp",)], "pairs")):
        with pytest.raises(MeshError, match=says):
            mesh_axes(bad)
