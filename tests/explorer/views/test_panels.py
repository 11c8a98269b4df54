"""The side panels' answers carried by POST /api/layout: the same as their own routes',
a refused panel as {error}, and only what the page shows above the size caps."""

from __future__ import annotations

import pytest

from tilelayout.explorer.answers import answer
from tilelayout.explorer.views.layout import layout_view


def test_each_panel_answers_as_its_own_route():
    req = {"layout": "S[(8,64):(64,1)]", "shape": "8,64", "dtype": "float16", "swizzle": "none"}
    r = layout_view({**req, "panels": ["analysis", "convert", "table"],
                     "codegen": {"lang": "c", "inverse": True}})
    for name in ("analysis", "convert", "table"):
        assert r["panels"][name] == answer("POST", f"/api/{name}", req)[1]
    assert r["panels"]["codegen"] == answer("POST", "/api/codegen",
                                            {**req, "lang": "c", "inverse": True})[1]


def test_no_panels_unless_asked():
    assert "panels" not in layout_view({"layout": "S[4:1]"})


def test_a_refused_panel_is_an_error_entry_and_the_drawing_stays():
    r = layout_view({"layout": "S[4:1]", "panels": ["table"], "codegen": {"lang": "cobol"}})
    assert r["size"] == 4 and r["panels"]["table"]["text"]
    assert "'lang' must be one of" in r["panels"]["codegen"]["error"]


def test_above_the_caps_only_other_tools_is_answered():
    r = layout_view({"layout": "S[(1024,1024)]", "panels": ["analysis", "convert", "table"],
                     "codegen": {"lang": "python"}})
    assert "too_large" in r and sorted(r["panels"]) == ["convert"]


@pytest.mark.parametrize("bad", [["tables"], "table", [1]])
def test_bad_panel_names_are_refused(bad):
    status, body = answer("POST", "/api/layout", {"layout": "S[4:1]", "panels": bad})
    assert status == 400 and body["field"] == "panels"
