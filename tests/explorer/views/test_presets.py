"""GET /api/presets and POST /api/preset: the picker's entries, and a preset built with
the page's parameters."""

import pytest

from tilelayout import presets
from tilelayout.explorer import examples
from tilelayout.explorer.request import ApiError
from tilelayout.explorer.views.presets import preset_view
from tilelayout.explorer.views.presets import presets as presets_view


def test_teaching_examples_then_every_registry_preset():
    entries = presets_view()["presets"]
    groups = [e["group"] for e in entries]
    assert groups[:len(examples.EXAMPLES)] == ["teaching examples"] * len(examples.EXAMPLES)
    assert len(entries) == len(examples.EXAMPLES) + len(presets.names())


def test_text_parameters_build_the_preset():
    e = preset_view({"name": "wgmma.m64nNk16.D", "params": {"n": "32"}})
    p = presets.get("wgmma.m64nNk16.D", n=32)
    assert e["layout"] == str(p.layout) and e["shape"] == list(p.shape)
    assert [x["value"] for x in e["params"]] == [32]


def test_missing_parameters_take_their_defaults():
    e = preset_view({"name": "wgmma.m64nNk16.D"})
    assert e["layout"] == str(presets.get("wgmma.m64nNk16.D").layout)


@pytest.mark.parametrize("req", [{"name": "no.such.preset"}, {},  # 404, 400
                                 {"name": "wgmma.m64nNk16.D", "params": {"n": "seven"}}])
def test_unknown_names_and_bad_parameters_are_refused(req):
    with pytest.raises(ApiError) as e:
        preset_view(req)
    assert e.value.status in (400, 404) and e.value.message
