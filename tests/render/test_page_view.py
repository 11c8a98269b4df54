"""The page's view state (render.page_view): parsing what the page sends, the page's colouring."""

from __future__ import annotations

import numpy as np
import pytest

from tilelayout.render.page_view import PLAIN, GridView, PageView, PageViewError
from tilelayout.render.palette import colour_scale, rank_colours

GRID = {"cell": [16, 12], "rows": [0, 12, 24], "cols": [0, 16], "tiles": [[22, 16]],
        "size": [42, 44]}


def test_a_grid_view_keeps_the_pages_geometry_and_selection():
    g = GridView.parse({**GRID, "margin": [30, 16], "header": 16, "gaps": [1, 0], "font": 8,
                        "lines": 2, "steps": [2, 4], "heads": [1], "ring": [1], "primary": 1,
                        "whole": True}, "physical")
    assert (g.cell, g.rows, g.cols, g.tiles) == ((16.0, 12.0), (0.0, 12.0, 24.0), (0.0, 16.0),
                                                 ((22.0, 16.0),))
    assert (g.margin, g.header, g.font, g.lines, g.steps, g.heads) == ((30.0, 16.0), 16.0, 8, 2,
                                                                      (2, 4), (1,))
    assert (g.ring, g.primary, g.whole) == ((1,), 1, True)


def test_a_page_view_takes_both_grids_captions_and_the_theme():
    v = PageView.parse({"logical": GRID, "physical": GRID, "what": "laneid",
                        "captions": ["a", "b"], "theme": {**PLAIN, "ring": "#000"}})
    assert v.what == "laneid" and v.captions == ("a", "b") and v.theme["ring"] == "#000"
    assert PageView.parse({"logical": GRID, "physical": GRID}).theme == PLAIN


@pytest.mark.parametrize("bad", [
    None, [], {"logical": 1, "physical": GRID},
    {"logical": {**GRID, "cell": [0, 5]}, "physical": GRID},
    {"logical": {**GRID, "font": 7.5}, "physical": GRID},
    {"logical": GRID, "physical": {**GRID, "lines": 3}},
    {"logical": GRID, "physical": {**GRID, "rows": [0, "x"]}},
    {"logical": GRID, "physical": {**GRID, "tiles": []}},
    {"logical": GRID, "physical": {**GRID, "ring": [-1]}},
    {"logical": GRID, "physical": {**GRID, "heads": [3]}},
    {"logical": GRID, "physical": {**GRID, "size": [1, float("inf")]}},
    {"logical": GRID, "physical": GRID, "captions": "x"},
    {"logical": GRID, "physical": GRID, "theme": {**PLAIN, "bg": "url(x)"}},
])
def test_bad_view_state_is_one_line_error(bad):
    with pytest.raises(PageViewError) as e:
        PageView.parse(bad)
    assert "\n" not in str(e.value)


def test_colours_are_ranked_from_the_colour_scale_like_the_page():
    idx, scale = rank_colours(np.array([100, 5, 100, 7]))
    assert idx.tolist() == [2, 0, 2, 1] and scale == colour_scale(3)


def test_positions_and_keys_may_come_as_runs():
    g = GridView.parse({**GRID, "rows": {"start": 0, "runs": [[12, 2]]},
                        "ring": {"start": 7, "runs": [[64, 3]]}}, "physical")
    assert g.rows == (0.0, 12.0, 24.0) and g.ring == (7, 71, 135, 199)
    for bad in ({"start": 0, "runs": [[12, 0]]}, {"start": 0, "runs": [[12, 1 << 21]]},
                {"runs": [[1, 1]]}, {"start": 0, "runs": [[1.5, 1]]}):
        with pytest.raises(PageViewError):
            GridView.parse({**GRID, "ring": bad}, "physical")
