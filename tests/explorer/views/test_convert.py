"""POST /api/convert: each target's text or its refusal reason; only bad input is an error."""

import pytest

import tilelayout as tl
from tilelayout.explorer.request import ApiError
from tilelayout.explorer.views.convert import CONVERT_LABELS, convert_view
from tilelayout.interop.convert import PANEL_TARGETS, convert

MMA_C = "S[(2,8,4,2):(2,4@laneid,1@laneid,1)]"


def test_each_target_is_the_converters_answer_or_refusal():
    r = convert_view({"layout": MMA_C, "shape": "16,8", "targets": ["cute-tv", "cute"]})
    tv, cute = r["targets"]
    assert tv == {"target": "cute-tv", "label": "CuTe TV", "ok": True,
                  **{k: convert(tl.parse(r["layout"]), (16, 8), "cute-tv")[k] for k in ("text", "notes")}}
    assert cute["ok"] is False and cute["reason"] and cute["label"] == "CuTe"


def test_the_default_targets_are_the_panels():
    r = convert_view({"layout": "S[(8,8):(8,1)]"})
    assert [t["target"] for t in r["targets"]] == list(PANEL_TARGETS)
    assert all(t["label"] == CONVERT_LABELS[t["target"]] for t in r["targets"])


def test_a_mesh_names_the_jax_axes():
    r = convert_view({"layout": "S[(2,4):(1@alpha,1)]", "mesh": "alpha=2", "targets": ["jax"]})
    assert r["mesh"] == {"alpha": 2} and r["targets"][0]["ok"], r


@pytest.mark.parametrize("targets", [[], "cute", ["cute", "fortran"], [3]])
def test_bad_target_lists_are_refused(targets):
    with pytest.raises(ApiError) as e:
        convert_view({"layout": MMA_C, "targets": targets})
    assert e.value.field == "targets"
