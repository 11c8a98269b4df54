"""The interop entry points' arguments (issue 29, issue 26): a layout, its text or a
``preset:`` string alike; a shape as a sequence or as text; anything else one line."""

from __future__ import annotations

import pytest

import tilelayout as tl
from tilelayout.interop import InteropError
from tilelayout.interop.inputs import int_sequence, layout_and_shape, layout_arg, names_arg, tile_arg
from tilelayout.interop.triton import to_triton_bases


def test_layouts_text_and_presets_alike():
    L = tl.parse("S[(2,8,4,2):(2,4@laneid,1@laneid,1)]")
    assert layout_arg(L) is L and layout_arg(str(L)) == L
    preset = tl.presets.get("mma.m16n8k16.C")
    assert layout_arg("preset:mma.m16n8k16.C") == preset.layout
    assert layout_and_shape("preset:mma.m16n8k16.C", None) == (preset.layout, preset.shape)
    # issue 26: to_triton_bases("S[...]") raised AttributeError
    assert to_triton_bases(str(L), "16,8") == to_triton_bases(L, (16, 8))


@pytest.mark.parametrize("bad", [None, 3, 1.5, b"S[4]", ["S[4]"], "S[4", "preset:nope"])
def test_anything_else_is_one_line(bad):
    with pytest.raises(tl.LayoutError) as info:
        layout_arg(bad)
    assert "\n" not in str(info.value)


def test_shapes_as_text_are_read_or_refused_in_one_line():
    L = tl.parse("S[(8,16):(16,1)]")
    assert layout_and_shape(L, "8,16")[1] == (8, 16) == layout_and_shape(L, "(8, 16)")[1]
    for bad in ["8,x", (True, 16), (8.0, 16), "9" * 5000, ((8,), (16,))]:
        with pytest.raises(tl.LayoutError) as info:
            layout_and_shape(L, bad)
        assert "\n" not in str(info.value)


def test_tiles_names_and_integer_sequences():
    with pytest.raises(InteropError, match="no swizzle"):
        tile_arg("ComposeLayout(Swizzle(3,3,3), S[(8,64):(64,1)])")
    assert names_arg({"lane": "laneid"}) == {"lane": "laneid"} and names_arg(None) is None
    with pytest.raises(InteropError, match="must map names"):
        names_arg({"lane": 1})
    assert int_sequence([1, 2], "order") == (1, 2)
    for bad in [(1, True), "12", (1.5,)]:
        with pytest.raises(InteropError):
            int_sequence(bad, "order")
