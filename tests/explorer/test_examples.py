"""The explorer's teaching examples: each one loads and draws what the library computes."""

from __future__ import annotations

import math
import subprocess
import sys

import pytest

import tilelayout as tl
from tilelayout.explorer import examples
from tilelayout.explorer.views.layout import layout_view


@pytest.mark.parametrize("e", examples.EXAMPLES, ids=lambda e: e.name)
def test_every_example_loads(e):
    r = layout_view({"layout": e.layout, "shape": list(e.shape), "dtype": e.dtype,
                         "swizzle": e.swizzle})
    n, reps = math.prod(e.shape), r["replicas"]
    assert r["size"] == n and "too_large" not in r and e.doc
    # the drawn coordinates are the library's, for the layout as typed
    with examples.example_axes():
        layout = tl.parse(e.layout)
        if e.swizzle != "none":
            layout = tl.ComposeLayout(tl.Swizzle.for_dtype(e.dtype, e.swizzle), layout)
        want = {a: v.reshape(-1).tolist() for a, v in layout.map_all(e.shape).items()}
    assert r["layout"] == str(layout)
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


def test_importing_and_using_the_explorer_never_grows_the_axis_registry():
    # a fresh interpreter: importing examples and the views, and answering requests that use the
    # examples' mesh axes and a mesh preset's, leave the global registry as it was
    code = """
import tilelayout as tl
before = [a.name for a in tl.axes()]
from tilelayout.explorer import examples, views
assert [a.name for a in tl.axes()] == before, "import"
views.presets.presets()
views.layout.layout_view({"layout": "S[(2,4,2,4):(1@x,4,1@y,1)]", "shape": "8,8"})
views.presets.preset_view({"name": "mesh.shard", "params": {"mesh": "dp=2,tp=4"}})
assert [a.name for a in tl.axes()] == before, [a.name for a in tl.axes()]
assert not tl.core.axes.is_axis("x")
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
