"""POST /api/codegen: code for the layout (or its inverse) in the page's languages."""

import pytest

from tilelayout.codegen.languages import LANGUAGES
from tilelayout.explorer.request import ApiError
from tilelayout.explorer.views.codegen import codegen_view

WARP = "S[(8,4):(4@laneid,1@laneid)]"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_answers(lang):
    r = codegen_view({"layout": WARP, "lang": lang})
    assert r["ok"] and r["lang"] == lang and r["shape"] == [8, 4] and "layout_fn" in r["code"]


def test_the_python_code_computes_the_layout():
    r = codegen_view({"layout": WARP, "lang": "python", "name": "f"})
    scope: dict = {}
    exec(r["code"], scope)  # the generated function, run as the page shows it
    laneids = [scope["f"](i, j) for i in range(8) for j in range(4)]
    assert laneids == [(k,) for k in range(32)]


def test_a_preset_object_resolves_with_its_shape():
    r = codegen_view({"layout": {"preset": "mma.m16n8k16.C"}, "lang": "c"})
    assert r["ok"] and r["shape"] == [16, 8]


def test_an_inverse_that_does_not_exist_is_a_reason_not_an_error():
    r = codegen_view({"layout": "S[(2,2):(0,1)]", "inverse": True})
    assert r["ok"] is False and r["reason"]


@pytest.mark.parametrize(("req", "field"), [
    ({"layout": WARP, "lang": "fortran"}, "lang"),
    ({"layout": WARP, "inverse": "yes"}, "inverse"),
    ({"layout": WARP, "name": "not a name"}, "name"),
    ({"layout": {"preset": 3}}, "layout"),
])
def test_bad_requests_name_the_field(req, field):
    with pytest.raises(ApiError) as err:
        codegen_view(req)
    assert err.value.field == field
