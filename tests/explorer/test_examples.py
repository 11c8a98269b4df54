"""The explorer's teaching examples: each one loads and draws what the library computes."""

from __future__ import annotations

import math

import pytest

import tilelayout as tl
from tilelayout.explorer import api, examples


@pytest.mark.parametrize("e", examples.EXAMPLES, ids=lambda e: e.name)
def test_every_example_loads(e):
    r = api.layout_view({"layout": e.layout, "shape": list(e.shape), "dtype": e.dtype,
                         "swizzle": e.swizzle})
    n, reps = math.prod(e.shape), r["replicas"]
    assert r["size"] == n and "too_large" not in r and e.doc
    # the drawn coordinates are the library's, for the layout as typed
    layout = tl.parse(e.layout)
    if e.swizzle != "none":
        layout = tl.ComposeLayout(tl.Swizzle.for_dtype(e.dtype, e.swizzle), layout)
    assert r["layout"] == str(layout)
    want = {a: v.reshape(-1).tolist() for a, v in layout.map_all(e.shape).items()}
    assert r["coords"] == want
    # every (element, replica) pair has one physical slot inside the grid it is drawn in
    p = r["physical"]
    slots = n * reps
    assert len(p["tile"]) == len(p["row"]) == len(p["col"]) == slots
    assert all(0 <= t < len(p["tiles"]) for t in p["tile"])
    assert all(0 <= y < p["nrows"] for y in p["row"]) and all(0 <= x < p["ncols"] for x in p["col"])
    assert all(0 <= s < p["sub"] for s in p.get("subpos", [0]))
    # the colouring the example asks for is one the page can offer
    if e.color is not None:
        if e.color.startswith("dim:"):
            assert 0 <= int(e.color[4:]) < len(e.shape)
        elif e.color in ("bank", "bankword", "line"):
            assert "banks" in r
        else:
            assert e.color in r["axis_names"]
