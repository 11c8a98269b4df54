"""POST /api/layout: everything the page draws, straight from map_all; above the caps the
arrays are left out and the answer says why."""

import numpy as np
import pytest

import tilelayout as tl
from tilelayout.explorer.request import ApiError
from tilelayout.explorer.views.layout import layout_view
from tilelayout.render.svg import MAX_ELEMENTS

from ...helpers import TC


def test_coords_are_map_all_flattened_element_major():
    L = tl.parse(TC)
    r = layout_view({"layout": TC, "shape": "8,16"})
    assert (r["layout"], r["shape"], r["size"], r["replicas"]) == (str(L), [8, 16], 128, 2)
    m = L.map_all((8, 16))
    for a in L.axes:
        assert r["coords"][a] == np.asarray(m[a]).reshape(-1).tolist()
    axes = {a["name"]: a for a in r["axes"]}
    assert (axes["laneid"]["min"], axes["laneid"]["max"]) == (0, 31)


def test_banks_for_a_shared_memory_layout_with_a_dtype():
    r = layout_view({"layout": "S[(8,64):(64,1)]", "dtype": "float16"})
    b = r["banks"]
    assert (b["bytes"], b["per_word"], b["banks"]) == (2, 2, 32)
    assert b["bank"][:4] == [0, 0, 1, 1] and b["bank"][64] == 0  # row 1 starts at byte 128
    assert "banks" not in layout_view({"layout": "S[(8,64):(64,1)]"})


def test_too_large_says_why_and_keeps_the_axes():
    n = MAX_ELEMENTS * 4
    r = layout_view({"layout": f"S[{n}:1]"})
    assert "coords" not in r and f"{n:,} elements" in r["too_large"]
    assert [(a["name"], a["min"], a["max"]) for a in r["axes"]] == [("m", 0, n - 1)]


def test_a_swizzle_mode_is_applied_and_reported():
    r = layout_view({"layout": "S[(8,64):(64,1)]", "dtype": "float16", "swizzle": "128B"})
    assert r["swizzle_mode"] == "128B" and r["swizzle"] and r["text"] == "S[(8,64):(64,1)]"
    assert r["layout"].startswith("ComposeLayout(")


@pytest.mark.parametrize("req", [{"layout": "S[4:1@lane]"}, {"layout": 7}, {}])
def test_bad_layouts_are_refused(req):
    with pytest.raises(ApiError) as e:
        layout_view(req)
    assert e.value.status == 400
