"""What the explorer sends the page to draw with: the logical fold, the colour choices,
the text alternative (POST /api/table) and soft errors (?soft=1)."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

import tilelayout as tl
from tests.helpers import call
from tilelayout.explorer import examples
from tilelayout.explorer.drawing import colours, dim_name, logical_fold
from tilelayout.explorer.request import resolve
from tilelayout.explorer.views.layout import layout_view
from tilelayout.explorer.views.table import MAX_TABLE_ELEMENTS, table_view
from tilelayout.render.svg import default_color_key
from tilelayout.render.table import fold_shape

from .test_api import REF


def post(url, path, body):
    status, _, raw = call(url, path, body)
    return status, json.loads(raw)


@pytest.mark.parametrize("shape", [(8, 16), (2, 3, 4), (256,), (40,), (2, 2, 2, 8), (96,)])
def test_fold_is_the_libraries_fold_and_a_bijection(shape):
    f, ref = logical_fold(shape), fold_shape(shape)
    n = math.prod(shape)
    assert f["cell"] == (ref.row * ref.ncols + ref.col).tolist()
    assert sorted(f["cell"]) == list(range(n)) and f["nrows"] * f["ncols"] == n  # a bijection
    rows = [c // f["ncols"] for c in f["cell"]]
    assert math.prod(f["row_radix"]) == f["nrows"] and math.prod(f["col_radix"]) == f["ncols"]
    assert len(f["row_labels"]) == f["nrows"] and len(f["col_labels"]) == f["ncols"]
    # the row label of an element's row is its index along the innermost row dim
    idx = np.unravel_index(np.arange(n), shape)
    if len(shape) >= 2:
        inner = f["row_dims"][-1]
        assert all(f["row_labels"][rows[e]] == str(idx[inner][e]) for e in range(n))
    if len(shape) > 2:
        assert "down" in f["title"] and dim_name(f["row_dims"][0]) in f["title"]


@pytest.mark.parametrize("e", examples.EXAMPLES, ids=lambda e: e.name)
def test_colours_offer_every_axis_and_default_to_the_svg_key(e):
    view = layout_view({"layout": e.layout, "shape": list(e.shape), "dtype": e.dtype,
                            "swizzle": e.swizzle or "none"})
    if view.get("too_large"):
        return
    keys = [c["key"] for c in view["colours"]["choices"]]
    assert [a["name"] for a in view["axes"]] == keys[:len(view["axes"])]
    assert ("bank" in keys) == ("banks" in view)
    with examples.example_axes():  # the mesh axes exist inside requests only
        layout = resolve({"layout": e.layout, "shape": list(e.shape), "dtype": e.dtype,
                              "swizzle": e.swizzle or "none"})[0]
        assert view["colours"]["default"] == default_color_key(layout, e.dtype, e.shape)
    assert view["dim_names"] == [dim_name(d) for d in range(len(e.shape))]
    ref = fold_shape(e.shape)
    assert view["fold"]["cell"] == (ref.row * ref.ncols + ref.col).tolist()


def test_colours_for_a_memory_tile():
    c = colours(tl.parse("S[(8,64):(64,1)]"), None, (8, 64), banks=False)
    assert c["default"] == "dim:0" and [x["what"] for x in c["choices"]] == ["m", "logical i", "logical j"]


def test_table_view_is_layout_table():
    r = table_view({"layout": REF, "shape": "8,16"})
    assert r["text"] == tl.parse(REF).table((8, 16))
    big = table_view({"layout": "S[(128,128)]"})
    assert big["text"] is None and f"{MAX_TABLE_ELEMENTS:,}" in big["too_large"]


def test_soft_errors_are_200_with_the_error_and_real_routes_unchanged(server):
    bad = {"layout": "S[(8,4):(4@lane,1)]"}
    status, data = post(server, "/api/layout", bad)
    assert status == 400 and "error" in data and "status" not in data
    status, soft = post(server, "/api/layout?soft=1", bad)
    assert status == 200 and soft == {**data, "status": 400}
    status, ok = post(server, "/api/layout?soft=1", {"layout": REF, "shape": "8,16"})
    assert status == 200 and "status" not in ok and ok["replicas"] == 2
    status, t = post(server, "/api/table?soft=1", {"layout": REF, "shape": "8,16"})
    assert status == 200 and t["text"].startswith(REF)
