"""GET /api/options: the page's controls come from the library's tables, as JSON."""

import json

from tilelayout.codegen.languages import LANGUAGES
from tilelayout.core.dtypes import DTYPES
from tilelayout.core.swizzle_modes import SWIZZLE_MODE_TABLE
from tilelayout.core.targets import TARGETS
from tilelayout.explorer.request import MAX_PAIRS
from tilelayout.explorer.views.options import COLOUR_SCALE, options
from tilelayout.render.palette import MAX_COLOURS, PALETTE, colour_scale


def test_every_list_is_a_library_table():
    o = options()
    assert o["dtypes"] == list(DTYPES) and o["targets"] == list(TARGETS)
    assert [m["name"] for m in o["swizzle_modes"]] == list(SWIZZLE_MODE_TABLE)
    assert all(m["doc"] == SWIZZLE_MODE_TABLE[m["name"]].describe() for m in o["swizzle_modes"])
    assert o["code_languages"] == list(LANGUAGES) and o["max_pairs"] == MAX_PAIRS


def test_the_colour_scale_starts_with_the_palette():
    o = options()
    assert o["palette"] == list(PALETTE) and len(o["colour_scale"]) == MAX_COLOURS
    assert o["colour_scale"][:len(PALETTE)] == list(PALETTE)
    assert len(set(o["colour_scale"])) == MAX_COLOURS


def test_the_colour_scale_is_built_once_and_each_answer_is_its_own_list():
    assert COLOUR_SCALE == colour_scale(MAX_COLOURS) and type(COLOUR_SCALE) is tuple
    first = options()["colour_scale"]
    first.clear()  # a caller's edit of one answer changes no other
    assert options()["colour_scale"] == list(COLOUR_SCALE)


def test_the_answer_is_json():
    o = options()
    assert json.loads(json.dumps(o)) == o
