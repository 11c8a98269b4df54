"""POST /api/explain: the four steps for one element, as the library explains them."""

import pytest

import tilelayout as tl
from tilelayout.explorer.request import ApiError
from tilelayout.explorer.views.explain import explain_view

from ...helpers import TC


def test_the_answer_is_the_librarys_explanation():
    d = explain_view({"layout": TC, "shape": [8, 16], "index": [7, 15]})
    assert d == tl.explain(tl.parse(TC), (7, 15), (8, 16)).to_dict()
    assert d["flat"] == 127


def test_a_shared_memory_layout_with_a_dtype_names_the_bank():
    d = explain_view({"layout": "S[(8,64):(64,1)]", "dtype": "float16", "index": "1,2"})
    want = tl.explain(tl.parse("S[(8,64):(64,1)]"), (1, 2), (8, 64), dtype="float16")
    assert d == want.to_dict()


@pytest.mark.parametrize("req,field", [
    ({"layout": TC, "shape": [8, 16], "index": [8, 0]}, "index"),
    ({"layout": TC, "shape": [8, 16]}, "index"),
    ({"layout": "S[4:", "index": [0]}, "layout"),
])
def test_bad_requests_name_the_field(req, field):
    with pytest.raises(ApiError) as e:
        explain_view(req)
    assert e.value.field == field
