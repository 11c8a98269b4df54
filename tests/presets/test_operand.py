"""``preset:NAME[:KEY=VALUE...]`` operands."""

import pytest

from tilelayout import presets
from tilelayout.presets.operand import build, from_text, is_preset_text
from tilelayout.presets.registry import PresetError


def test_a_named_preset_with_parameters_is_get_with_them():
    p = from_text("preset:wgmma.m64nNk16.D:n=128")
    assert p == presets.get("wgmma.m64nNk16.D", n=128)
    mesh = from_text("preset:mesh.shard:mesh=x=2,y=4:spec=x,None:shape=16,8")
    assert mesh.params["mesh"] == {"x": 2, "y": 4} and mesh.params["spec"] == ("x", None)
    assert from_text(" preset:mma.m16n8k16.C ") == presets.default("mma.m16n8k16.C")


def test_is_preset_text():
    assert is_preset_text("preset:x") and not is_preset_text("S[4:1]") and not is_preset_text(3)


@pytest.mark.parametrize(("text", "says"), [
    ("S[4:1]", "expected 'preset:NAME"), ("preset:", "give a preset name"),
    ("preset:wgmma.m64nNk16.D:n", "KEY=VALUE"), ("preset:nope", "nope"),
    ("preset:wgmma.m64nNk16.D:size=3", "no parameter 'size'"),
])
def test_refusals_say_what_to_write(text, says):
    with pytest.raises(PresetError, match=says):
        from_text(text)


def test_build_takes_defaults_for_what_is_not_given():
    assert build("mma.m16n8k16.A", ["dtype=bfloat16"], "--param").params["dtype"] == "bfloat16"
